# End-to-end tests of the simulated drive (tests-pts/e2e/sim_*.sh): full PTS runs in virtual
# time on the `tiny` profile, kill -9 + resume against an uninterrupted run, bad input.
foreach(name sim_run sim_kill_resume sim_bad_input)
  add_test(NAME e2e_${name}
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests-pts/e2e/${name}.sh $<TARGET_FILE:ptsuite>)
  set_tests_properties(e2e_${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
