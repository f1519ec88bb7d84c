# unit-tests/e2e/device_guard.cmake — `ptsuite info` / `purge` on real targets (owner: device).
#  device_cli_bad_input  files and unsuitable nodes: unknown target, non-NVMe character
#                        device, unsupported/unknown --purge, wrong or missing serial (each one
#                        message, its exit code, the file untouched), then a verified recreate
#  device_guard_loop     root only (else skipped): the guard refuses a mounted ext4 loop device,
#                        a loop with a partition table, active swap and a wrong serial; a clean
#                        loop device is purged by discard and verified
add_test(NAME device_cli_bad_input
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/device_cli_bad_input.sh $<TARGET_FILE:ptsuite>)
add_test(NAME device_guard_loop
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/device_guard_loop.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(device_cli_bad_input device_guard_loop PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
set_tests_properties(device_guard_loop PROPERTIES RUN_SERIAL TRUE)
