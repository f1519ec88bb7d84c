# unit-tests/e2e/sim_lib.sh — set-up for the simulated-drive end-to-end scripts: a scratch
# directory that also holds every default state file (PTSUITE_SIM_DIR), cleanup, and a
# checksum helper for "the state file is untouched". Sourced, not run.
set -euo pipefail
PTSUITE=${1:?usage: $0 PTSUITE}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
base=/var/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
WORK=$(mktemp -d "$base/ptsuite-sim-e2e.XXXXXX")
export PTSUITE_SIM_DIR=$WORK
export PTSUITE_DEMO_TARGET="sim:tiny@$WORK/demo.simdrive"
BG_PID=""
cleanup() {
  if [ -n "$BG_PID" ] && kill -0 "$BG_PID" 2>/dev/null; then kill -9 "$BG_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
sum() { sha256sum "$1" | cut -d' ' -f1; }
serial_of() { "$PTSUITE" info "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["serial"])'; }
