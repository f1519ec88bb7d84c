#!/usr/bin/env bash
# The README's test command: installs everything, builds, and runs every test (ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh --test
tools/build.sh
ctest --test-dir build --output-on-failure -j2
