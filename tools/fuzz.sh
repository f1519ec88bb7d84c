#!/usr/bin/env bash
# tools/fuzz.sh — builds the libFuzzer targets of unit-tests/fuzz with clang (build-fuzz,
# -DPTS_FUZZ=ON: ASan+UBSan) and fuzzes each loader for SECONDS (default 10): the TOML
# definition loader, the journal and run.json loaders, the analyze CSV reader and the
# spec/run option parser. A crash, hang, sanitizer report or broken invariant fails the run
# and leaves the input in build-fuzz/fuzz-artifacts/. Run by tools/test.sh; a longer run:
#   tools/fuzz.sh 1800            # 30 min per target
#   build-fuzz/unit-tests/fuzz/fuzz_journal -max_total_time=3600 -jobs=2 \
#       build-fuzz/fuzz-corpus/journal unit-tests/fuzz/corpus/journal
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || { echo "fuzz.sh: SECONDS must be a whole number above 0" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ missing (tools/install-deps.sh --test)" >&2; exit 2; }
t0=$(date +%s)
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTS_FUZZ=ON \
  -DPTS_BUILD_TESTS=OFF -DPTS_FUZZ_SECONDS="$seconds" >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzzers
t1=$(date +%s)
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
set +e
ctest --test-dir build-fuzz -L '^fuzz$' --output-on-failure -j"$(nproc)"
status=$?
set -e
# Executions per target, from the fuzzers' own final line ("Done N runs in S second(s)").
awk '/^[0-9]+\/[0-9]+ Test: / {name = $3} /^Done [0-9]+ runs in/ {printf "fuzz.sh: %-18s %s executions in %s s\n", name, $2, $5}' \
  build-fuzz/Testing/Temporary/LastTest.log
echo "fuzz.sh: inputs that failed in this run: $(find build-fuzz/fuzz-artifacts -type f -newermt "@$t1" | wc -l) (build-fuzz/fuzz-artifacts/)"
echo "fuzz.sh: build $((t1 - t0)) s, fuzzing ${seconds} s per target, $(( $(date +%s) - t1 )) s in all"
exit "$status"
