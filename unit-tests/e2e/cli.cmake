# unit-tests/e2e/cli.cmake — the command line's generated documents and the install (owner: cli).
# Cases of cli_docs.sh:
#  cli_man          `man -l ptsuite.1` renders without warnings; every option of every
#                   command's --help is on the page
#  cli_completion   the bash completion, sourced with bash-completion, offers the commands,
#                   a command's options, the tests of `ptsuite list`, sim:PROFILE targets and a
#                   flag's words
#  cli_install      `cmake --install` to a prefix: the installed ptsuite finds its definitions
#                   and templates there, and the man page and completion are in place
foreach(case man completion install)
  add_test(NAME cli_${case}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_docs.sh ${case} $<TARGET_FILE:ptsuite> ${PROJECT_BINARY_DIR})
  set_tests_properties(cli_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
