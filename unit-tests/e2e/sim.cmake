# End-to-end tests of the simulated drive (unit-tests/e2e/sim_*.sh): full PTS runs in virtual
# time on the `tiny` profile, kill -9 + resume against an uninterrupted run, bad input; DIRTH and
# ECW (4096-byte sectors, cbw, client class); WSAT's rules (the optional steady-state stop judged
# on Rounds of 31 samples, no steady-state words without it, the test period by edition, the
# client class).
foreach(name sim_run sim_kill_resume sim_bad_input sim_behaviour sim_state_damage sim_trim sim_dirth_ecw
        sim_wsat_rules)
  add_test(NAME e2e_${name}
           COMMAND bash ${PROJECT_SOURCE_DIR}/unit-tests/e2e/${name}.sh $<TARGET_FILE:ptsuite>)
  set_tests_properties(e2e_${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()

# The machine's random-access floor under the simulator's speed (bench/, not a test):
# `random_access_floor TABLE_ENTRIES [ACCESSES_PER_THREAD]`; bench/sim_bench.py speed runs it.
add_executable(random_access_floor ${PROJECT_SOURCE_DIR}/bench/random_access_floor.cpp)
target_link_libraries(random_access_floor PRIVATE Threads::Threads)
set_target_properties(random_access_floor PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
