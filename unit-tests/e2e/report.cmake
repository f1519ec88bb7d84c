# unit-tests/e2e/report.cmake — report golden and end-to-end tests (owner: report).
#  report_golden_render   writes the fixed RunRecords (unit-tests/report/fixture_record.cpp) as
#                         run dirs, renders them, writes expected.json
#  report_golden_<name>   reads each workbook back with openpyxl and compares every number
#  report_cli             `ptsuite report` on an interrupted run record, and its bad-input paths
#  report_interrupted_run a real `ptsuite run` stopped by SIGINT, then `ptsuite report` on it
#  report_real_run        a real Latency run: workbook tables = the window results pts/ stored
#  report_libreoffice_pdf every golden workbook (each template has one) printed to PDF by
#                         LibreOffice: one printed page per report sheet (+ the Raw pages),
#                         serial and caption on every page; one page of each kind as PNG
#  report_pdf_pages       a sim Latency run's `report --format pdf`: the report pages only, the
#                         raw rows in the xlsx and CSV
set(pts_report_tests ${CMAKE_CURRENT_LIST_DIR}/../report)
# Debian's python3-openpyxl serves /usr/bin/python3; prefer it over a python3 earlier in PATH.
find_program(PTS_REPORT_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT PTS_REPORT_PYTHON)
  find_program(PTS_REPORT_PYTHON NAMES python3)
endif()
add_executable(report_fixture_tool ${pts_report_tests}/golden_tool/report_fixture_tool.cpp
                                   ${pts_report_tests}/phase_fixtures.cpp
                                   ${pts_report_tests}/review_fixtures.cpp
                                   ${pts_report_tests}/qos_fixtures.cpp
                                   ${pts_report_tests}/fixture_record.cpp)
target_include_directories(report_fixture_tool PRIVATE ${PROJECT_SOURCE_DIR}/unit-tests)
target_link_libraries(report_fixture_tool PRIVATE pts::report pts::results)

set(pts_golden_dir ${PROJECT_BINARY_DIR}/report-golden)
add_test(NAME report_golden_render COMMAND report_fixture_tool ${pts_golden_dir})
set_tests_properties(report_golden_render PROPERTIES FIXTURES_SETUP report_golden TIMEOUT 120)
foreach(fixture iops_tv6 iops_not_steady_25 throughput latency iops_interrupted wsat hir xsr dirth ecw curve sweep pressure neighbour)
  add_test(NAME report_golden_${fixture}
           COMMAND ${PTS_REPORT_PYTHON} ${pts_report_tests}/check_workbook.py ${pts_golden_dir}/${fixture})
  set_tests_properties(report_golden_${fixture} PROPERTIES FIXTURES_REQUIRED report_golden
                       SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()

add_test(NAME report_cli COMMAND ${CMAKE_CURRENT_LIST_DIR}/report_cli.sh $<TARGET_FILE:ptsuite>
         $<TARGET_FILE:report_fixture_tool> ${pts_report_tests}/check_workbook.py ${PROJECT_BINARY_DIR}/report-cli)
set_tests_properties(report_cli PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)

add_test(NAME report_interrupted_run COMMAND ${CMAKE_CURRENT_LIST_DIR}/report_interrupted_run.sh
         $<TARGET_FILE:ptsuite> ${PROJECT_BINARY_DIR}/report-interrupted)
set_tests_properties(report_interrupted_run PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)

add_test(NAME report_real_run COMMAND ${CMAKE_CURRENT_LIST_DIR}/report_real_run.sh
         $<TARGET_FILE:ptsuite> ${PROJECT_BINARY_DIR}/report-real-run)
set_tests_properties(report_real_run PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)

add_test(NAME report_libreoffice_pdf COMMAND ${CMAKE_CURRENT_LIST_DIR}/report_libreoffice.sh ${pts_golden_dir}
         ${PROJECT_BINARY_DIR}/report-pdf ${PROJECT_SOURCE_DIR}/templates ${pts_report_tests}/check_pdf.py
         ${PTS_REPORT_PYTHON})
set_tests_properties(report_libreoffice_pdf PROPERTIES FIXTURES_REQUIRED report_golden SKIP_RETURN_CODE 77
                     TIMEOUT 400 RUN_SERIAL TRUE)

# The PDF `report --format pdf` writes: the report pages only; the xlsx and CSV keep every raw row.
add_test(NAME report_pdf_pages COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/report_pdf_pages.sh $<TARGET_FILE:ptsuite>
         ${pts_report_tests}/check_pdf.py)
set_tests_properties(report_pdf_pages PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE)

# Render benchmark (bench/, not a test): `report_render_bench [RUNS] [OUTDIR]`.
add_executable(report_render_bench ${PROJECT_SOURCE_DIR}/bench/report_render_bench.cpp
                                   ${pts_report_tests}/fixture_record.cpp)
target_include_directories(report_render_bench PRIVATE ${PROJECT_SOURCE_DIR}/unit-tests)
target_link_libraries(report_render_bench PRIVATE pts::report pts::results)
set_target_properties(report_render_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
