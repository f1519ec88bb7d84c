# unit-tests/e2e/analyze_cli.cmake — `ptsuite analyze`, `plan` and `list` end to end (owner:
# steady). Cases of analyze_cli.sh; fixtures in analyze_fixtures/.
#  analyze_table / analyze_json   every window, its numbers and the first steady round
#  analyze_bad_input              text in a CSV (file:line), bad --window, too few values: exit 2
#  plan_nominal                   resolved plans, deviations, worst-case duration, --json
#  plan_bad_input                 typo'd key, negative duration, bad flags, unknown test: exit 2,
#                                 the target file untouched
#  plan_4kn_loop                  root only (else skipped): identity of a 4096-byte-sector loop
#                                 device, 0.5 KiB cells not applicable
#  list                           the shipped tests; a broken definition dir exits 2
foreach(case analyze-table analyze-json analyze-bad-input plan-nominal plan-bad-input plan-4kn-loop list)
  string(REPLACE "-" "_" name ${case})
  add_test(NAME e2e_${name} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/analyze_cli.sh $<TARGET_FILE:ptsuite> ${case})
  set_tests_properties(e2e_${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
endforeach()
set_tests_properties(e2e_plan_4kn_loop PROPERTIES RUN_SERIAL TRUE)
