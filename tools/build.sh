#!/usr/bin/env bash
# Configures and builds ptsuite into ./build (Release-with-debug-info). CMake's configure
# output is shown only when it fails (it names the missing package, e.g. "Package 'openssl',
# required by 'libnvme', not found"). The debug information is line tables (-g1): what
# backtraces, perf and ASan reports need (function, file:line), without the types and locals
# of -g, which cost both README commands build time (docs/performance.md, "Fresh-machine check").
set -euo pipefail
cd "$(dirname "$0")/.."
if ! out=$(cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
             -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" 2>&1); then
  printf '%s\n' "$out" >&2
  echo "build.sh: CMake configure failed (missing packages: tools/install-deps.sh)" >&2
  exit 1
fi
cmake --build build -j"$(nproc)"
