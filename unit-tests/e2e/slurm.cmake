# unit-tests/e2e/slurm.cmake — e2e_slurm_fleet: a fleet run under a real one-node Slurm cluster
# the test starts (munged, slurmctld, slurmd on loopback): a 3-task job array on three simulated
# drives and the dependent compare/check job (slurm_fleet.sh, docs/fleet.md). Skipped (77)
# without slurm-wlm and munge.
add_test(NAME e2e_slurm_fleet COMMAND bash ${PROJECT_SOURCE_DIR}/unit-tests/e2e/slurm_fleet.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(e2e_slurm_fleet PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 RUN_SERIAL TRUE)
