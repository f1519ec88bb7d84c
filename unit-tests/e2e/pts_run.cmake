# End-to-end tests of `ptsuite run` / `resume` (unit-tests/e2e/*.sh): real io_uring I/O on a
# small loop device (or file) with tiny cells. Exit 77 = skipped.
foreach(name pts_steady_tests pts_kill_resume pts_bad_input pts_crash_matrix pts_kernel_crosscheck
             pts_phase_tests pts_phase_bad_input)
  add_test(NAME e2e_${name}
           COMMAND bash ${PROJECT_SOURCE_DIR}/unit-tests/e2e/${name}.sh $<TARGET_FILE:ptsuite>)
  set_tests_properties(e2e_${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE)
endforeach()
