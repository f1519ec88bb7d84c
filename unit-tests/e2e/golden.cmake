# unit-tests/e2e/golden.cmake — e2e_golden_procedures: every test's `list` / `plan` text (each
# edition x class, nominal and on a simulated drive), a short seeded run of each on `sim:tiny`
# (run.json field by field, volatile values normalised) and its report workbook, against the
# checked-in unit-tests/golden/procedures/ (golden_procedures.py says how to re-pin).
find_program(PTS_GOLDEN_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT PTS_GOLDEN_PYTHON)
  find_program(PTS_GOLDEN_PYTHON NAMES python3)
endif()
add_test(NAME e2e_golden_procedures
         COMMAND ${PTS_GOLDEN_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/golden_procedures.py check $<TARGET_FILE:ptsuite>)
set_tests_properties(e2e_golden_procedures PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
