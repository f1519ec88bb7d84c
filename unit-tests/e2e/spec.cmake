# unit-tests/e2e/spec.cmake — end-to-end tests of `ptsuite spec` (owner: engine).
#  e2e_spec_vs_fio    ptsuite spec and fio (io_uring, same file and parameters) alternate on
#                     a temp file; ptsuite's median IOPS is >= 0.85 x fio's and the file's
#                     block device counted its bytes and held its depth (needs fio, else 77)
#  e2e_write_data_readback  written data read back with dd: every sector unique, zlib/lzma
#                     shrink it by < 1 % (Python, not ptsuite)
#  e2e_spec_bad_input bad options and targets: one message naming the option, exit 2, the
#                     target untouched; a file system without O_DIRECT is refused
foreach(name spec_vs_fio spec_bad_input write_data_readback)
  add_test(NAME e2e_${name} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/${name}.sh $<TARGET_FILE:ptsuite>)
  set_tests_properties(e2e_${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE)
endforeach()
