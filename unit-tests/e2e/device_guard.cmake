# unit-tests/e2e/device_guard.cmake — the guard and the device commands on real targets (owner:
# device / guard).
#  device_cli_bad_input  files and unsuitable nodes: unknown target, non-NVMe character
#                        device, unsupported/unknown --purge, wrong, made-up or missing
#                        confirmation (each one message, its exit code, the file untouched),
#                        then a verified recreate
#  device_guard_loop     root only (else skipped): the guard refuses a mounted ext4 loop device,
#                        a loop with a partition table (purge, spec, run), active swap and a
#                        wrong or made-up confirmation, each leaving the whole device's md5
#                        unchanged; a clean loop device is purged by discard and verified
#  device_guard_matrix   root only: every guard case x spec, purge, run, resume, each checked
#                        for exit 3, the reason and the whole device's md5 (~1-2 min)
add_test(NAME device_cli_bad_input
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/device_cli_bad_input.sh $<TARGET_FILE:ptsuite>)
add_test(NAME device_guard_loop
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/device_guard_loop.sh $<TARGET_FILE:ptsuite>)
add_test(NAME device_guard_matrix
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/device_guard_matrix.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(device_cli_bad_input device_guard_loop PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
set_tests_properties(device_guard_matrix PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
set_tests_properties(device_guard_loop device_guard_matrix PROPERTIES RUN_SERIAL TRUE)
