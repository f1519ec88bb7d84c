#!/usr/bin/env bash
# The README's main-job command: installs what is missing, builds, and runs the PTS IOPS test
# (56-cell matrix, purge → WIPC → Rounds → steady state) on the built-in demo target — a
# 256 MiB file in /var/tmp with 0.1 s cells, every scaling recorded as a deviation — and
# writes run.json, journal.jsonl, the SNIA xlsx report and CSV under reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh
out="reports/iops-demo-$(date -u +%Y%m%d-%H%M%S)"
./build/ptsuite run iops --out "$out" "$@"
echo "report: $out"
ls -l "$out"
