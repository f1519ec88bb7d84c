# pts_module(NAME [PUBLIC deps...] [PRIVATE deps...])
# One static library per src/<NAME> folder, made of every .cpp in it. The folder's
# CMakeLists names the only dependencies the module may use (docs/architecture.md).
function(pts_module name)
  cmake_parse_arguments(M "" "" "PUBLIC;PRIVATE" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  list(FILTER srcs EXCLUDE REGEX "/main\\.cpp$")
  if(srcs)
    add_library(pts_${name} STATIC ${srcs})
    target_include_directories(pts_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(pts_${name} PUBLIC ${M_PUBLIC} PRIVATE ${M_PRIVATE})
  else()  # headers only so far
    add_library(pts_${name} INTERFACE)
    target_include_directories(pts_${name} INTERFACE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(pts_${name} INTERFACE ${M_PUBLIC})
  endif()
  add_library(pts::${name} ALIAS pts_${name})
endfunction()

# pts_unit_test(NAME LIBS...) — one GoogleTest binary per module from unit-tests/NAME/*.cpp.
function(pts_unit_test name)
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*.cpp)
  if(NOT srcs)
    return()
  endif()
  add_executable(test_${name} ${srcs})
  target_include_directories(test_${name} PRIVATE ${PROJECT_SOURCE_DIR}/unit-tests)
  target_link_libraries(test_${name} PRIVATE ${ARGN} GTest::gtest GTest::gtest_main)
  target_compile_definitions(test_${name} PRIVATE
    PTS_SOURCE_DIR="${PROJECT_SOURCE_DIR}" PTS_BINARY_DIR="${PROJECT_BINARY_DIR}")
  # The test code itself is compiled without optimisation (PTS_TEST_CODE_FLAGS, after the build
  # type's flags, so it wins); the code under test, in the pts_* libraries, keeps the build
  # type's. GoogleTest-heavy files compile in about half the time at -O0 (resume_test.cpp:
  # 16.7 -> 9.4 s; 30.0 -> 15.5 s under ASan+UBSan), and that is most of the sanitizer builds.
  target_compile_options(test_${name} PRIVATE ${PTS_TEST_CODE_FLAGS})
  # Label "unit_NAME" on every GoogleTest case (one label: gtest_discover_tests flattens a
  # list); the sanitizer builds run `ctest -L '^unit_'` / `-L '^unit_engine$'`. The target
  # `unit-tests` builds every test binary.
  gtest_discover_tests(test_${name} DISCOVERY_TIMEOUT 60 PROPERTIES SKIP_RETURN_CODE 77
                       LABELS unit_${name})
  if(NOT TARGET unit-tests)
    add_custom_target(unit-tests)
  endif()
  add_dependencies(unit-tests test_${name})
endfunction()
