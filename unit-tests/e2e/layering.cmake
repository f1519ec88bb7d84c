# unit-tests/e2e/layering.cmake — e2e_config_include_graph: the include graph inside src/config/
# has no cycle (no two files include or call each other both ways; docs/architecture.md).
find_program(PTS_LAYERING_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT PTS_LAYERING_PYTHON)
  find_program(PTS_LAYERING_PYTHON NAMES python3)
endif()
add_test(NAME e2e_config_include_graph
         COMMAND ${PTS_LAYERING_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/config_include_graph.py ${PROJECT_SOURCE_DIR}/src)
