#!/usr/bin/env bash
# The README's main-job command: installs what is missing, builds, and runs the full-length
# PTS 2.0.2 IOPS test (purge → WIPC → up to 25 Rounds × 56 one-minute cells → steady state) on
# the built-in `demo` simulated drive, in its virtual time, and writes run.json,
# journal.jsonl, the SNIA xlsx report and CSV under reports/. The record says the drive is
# simulated and its times virtual (it never poses as a real drive).
#   tools/demo.sh          the simulated drive (sim:demo; PTSUITE_DEMO_TARGET=sim:... for another)
#   tools/demo.sh --file   the quick engine check: a 256 MiB file in /var/tmp with 0.1 s cells
#                          through io_uring, every scaling recorded as a deviation
# Further arguments go to `ptsuite run iops`.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=sim
if [ "${1:-}" = "--file" ]; then
  kind=file
  shift
  export PTSUITE_DEMO_TARGET=${PTSUITE_DEMO_TARGET_FILE:-/var/tmp/ptsuite-demo-target.img}
fi
tools/install-deps.sh
tools/build.sh
out="reports/iops-demo-$kind-$(date -u +%Y%m%d-%H%M%S)"
./build/ptsuite run iops --out "$out" "$@"
echo "report: $out"
ls -l "$out"
