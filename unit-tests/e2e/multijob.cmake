# unit-tests/e2e/multijob.cmake — multi-job cells, namespaces and the quality-of-service tests
# (issue #26).
#  e2e_qos_sim         sim:tiny in virtual time: namespaces --create/list, a two-job cell against
#                      the controller's count, neighbour-6ns and pressure-8k (with and without read
#                      priority) scaled, bad input (overlap, a rate TC x QD cannot issue)
#  e2e_multijob_loop   root only (else skipped): a two-job cell on two loop devices against
#                      /proc/diskstats, an unconfirmed target (exit 2), shared holds (exit 3)
add_test(NAME e2e_qos_sim COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/qos_sim.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(e2e_qos_sim PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME e2e_multijob_loop COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/multijob_loop.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(e2e_multijob_loop PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180 RUN_SERIAL TRUE)
