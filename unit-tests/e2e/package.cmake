# unit-tests/e2e/package.cmake — e2e_package_deb: the Debian package (cpack -G DEB) declares the
# Debian 12 package of every library the binary links and installs and runs on a fresh Debian 12
# made by debootstrap (package_deb.sh). Skipped (77) without root, debootstrap or a mirror. Slow
# (a whole debootstrap; times in the commit that added it), so labelled "slow" (ctest -LE slow
# leaves it out).
add_test(NAME e2e_package_deb COMMAND bash ${PROJECT_SOURCE_DIR}/unit-tests/e2e/package_deb.sh ${PROJECT_BINARY_DIR})
set_tests_properties(e2e_package_deb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE LABELS slow)
