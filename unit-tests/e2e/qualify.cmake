# unit-tests/e2e/qualify.cmake — e2e_qualify_cli: `compare` and `check` on simulated drives
# (qualify_cli.sh: side by side, refusals naming each difference, pass/fail with exit codes 0/6/2,
# bad input with file:line).
add_test(NAME e2e_qualify_cli COMMAND bash ${PROJECT_SOURCE_DIR}/unit-tests/e2e/qualify_cli.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(e2e_qualify_cli PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
