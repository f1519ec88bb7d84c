#!/usr/bin/env bash
# The README's test command: installs everything, builds, runs every test (ctest), then the
# unit tests under ASan+UBSan and TSan (tools/sanitize.sh) and each loader's fuzzer for 10 s
# (tools/fuzz.sh). Stops at the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh --test
tools/build.sh
ctest --test-dir build --output-on-failure -j2
tools/sanitize.sh
tools/fuzz.sh
