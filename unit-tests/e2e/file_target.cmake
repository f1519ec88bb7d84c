# unit-tests/e2e/file_target.cmake — file targets measure the device (owner: guard): reads of
# a sparse or fallocated file are refused, a file ptsuite creates is filled first, 0.5 KiB
# cells follow the file system's O_DIRECT alignment (unit-tests/e2e/file_target.sh).
add_test(NAME device_file_target
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/file_target.sh $<TARGET_FILE:ptsuite>)
set_tests_properties(device_file_target PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
