# unit-tests/e2e/multi_drive.cmake — e2e_multi_drive: `run TEST T1 T2 ...` on simulated drives and
# files (multi_drive.sh: lockstep records and aggregate, compare, one drive failing, bad input,
# kill -9 and resume ROOT).
add_test(NAME e2e_multi_drive COMMAND bash ${PROJECT_SOURCE_DIR}/unit-tests/e2e/multi_drive.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(e2e_multi_drive PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
