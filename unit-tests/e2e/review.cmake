# unit-tests/e2e/review.cmake — the review-lab workloads (not SNIA PTS tests: curves, sweeps,
# the labs' preconditioning; owner: pts / curve, sweep):
#  e2e_review_curves, e2e_review_sweeps (review_sim.sh, about 60 s each)
#                   on sim:demo in virtual time (--time-scale): curve-4k-randread's and
#                   curve-sql's 13 points (achieved follows offered, queueing past the maximum,
#                   10 % near QD 1),
#                   sweep-qd (IOPS rise with depth, Little's law within 5 % per step, where writes
#                   stop climbing), sweep-readmix (0..100 % read); the workbooks say "not a SNIA
#                   PTS test" and print one page per sheet in LibreOffice when it is installed
#  review_loop      root only: a shortened curve (TC 1 x QD 1) on a direct-I/O loop device over /dev/shm holds
#                   its 50 % point's offered rate within 2 % (engine and kernel counts)
add_test(NAME e2e_review_curves
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/review_sim.sh $<TARGET_FILE:ptsuite> curve-4k-randread curve-sql)
add_test(NAME e2e_review_sweeps
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/review_sim.sh $<TARGET_FILE:ptsuite> sweep-qd sweep-readmix)
set_tests_properties(e2e_review_curves e2e_review_sweeps PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME review_loop
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/review_loop.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(review_loop PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE)
