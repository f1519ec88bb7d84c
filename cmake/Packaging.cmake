# cmake/Packaging.cmake — the Debian package fleet nodes install (`cpack -G DEB` in the build
# directory): what `cmake --install` puts in place (the binary, tests-pts/ with the requirement
# sheets, templates/, ptsuite(1), the bash completion, the Slurm examples) under /usr, with the
# runtime libraries declared as Debian 12 package names, so a node runs ptsuite without a
# compiler. The names were read on Debian 12 with `dpkg -S` on the libraries the binary links
# (readelf -d build/ptsuite | grep NEEDED); unit-tests/e2e/package_deb.sh checks the list
# against the built binary and installs the package into a fresh Debian 12.
# cpack (and `make install`) install what is built: they do not build every target first, so
# packaging a build directory does not compile the unit tests. Build ptsuite, man and completion
# (the default `cmake --build`) before `cpack -G DEB`.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "ptsuite")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "ptsuite")
set(CPACK_PACKAGE_CONTACT "ptsuite maintainers <ptsuite@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "SNIA Solid State Storage Performance Test Specification suite")
set(CPACK_PACKAGE_DESCRIPTION
    "ptsuite certifies SSDs to the SNIA PTS (PTS-E 1.1 and PTS 2.0.2): it identifies the drive, refuses to "
    "touch the wrong one, purges it, preconditions it, runs Rounds until steady state and writes a "
    "SNIA-format report. compare and check hold several drives' runs side by side and against a "
    "requirement sheet.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT")
set(CPACK_DEBIAN_PACKAGE_SECTION "admin")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Runtime libraries (Debian 12 "bookworm" package names; the versions are bookworm's):
#   libnvme.so.1 libnvme1 · liburing.so.2 liburing2 · libxlsxwriter.so.4 libxlsxwriter4 (not
#   libxlsxwriter1: bookworm's soname is 4) · libtomlplusplus.so.3 libtomlplusplus3 (Debian builds
#   toml++ as a shared library) · libblkid.so.1 libblkid1 · libstdc++.so.6 libstdc++6 ·
#   libgcc_s.so.1 libgcc-s1 · libc.so.6, libm.so.6 libc6.
# CLI11, nlohmann-json and Eigen are header-only: nothing at run time.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1 (>= 3.0), libnvme1 (>= 1.3), liburing2 (>= 2.3), libxlsxwriter4 (>= 1.1.4), libtomlplusplus3 (>= 3.3.0), libblkid1 (>= 2.38)")
# PDF reports are printed by LibreOffice (report --format pdf); everything else needs nothing more.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libreoffice-calc-nogui, fonts-crosextra-carlito, slurm-client")
include(CPack)
