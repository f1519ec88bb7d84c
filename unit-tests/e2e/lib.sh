# unit-tests/e2e/lib.sh — shared set-up for the `ptsuite run` end-to-end scripts: a scratch
# directory, a target (a 512-byte-sector loop device when root and losetup allow it, else a
# file), what --confirm takes for it (`info --json` confirm_with: a loop device is confirmed
# with its backing file, never with its made-up LOOP-… serial), and cleanup. Sourced, not run.
set -euo pipefail
PTSUITE=${1:?usage: $0 PTSUITE}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
base=/var/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
WORK=$(mktemp -d "$base/ptsuite-e2e.XXXXXX")
LOOP=""
cleanup() {
  # stop a background run we started, release the loop device, remove the scratch dir
  if [ -n "${BG_PID:-}" ] && kill -0 "$BG_PID" 2>/dev/null; then kill -9 "$BG_PID" 2>/dev/null || true; fi
  if [ -n "$LOOP" ]; then losetup -d "$LOOP" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# confirm_of TARGET: the value --confirm takes for TARGET.
confirm_of() { "$PTSUITE" info "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["confirm_with"])'; }

# make_target SIZE: sets TARGET, TARGET_ARGS (what `run` needs), CONFIRM_ARGS (what `resume`
# needs: empty while the target is a file the run itself created) and IOPS_CELLS.
make_target() {
  local size=$1
  if [ -z "${PTS_E2E_NO_LOOP:-}" ] && [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && [ -e /dev/loop-control ] &&
     truncate -s "$size" "$WORK/backing.img" && LOOP=$(losetup -f --show "$WORK/backing.img" 2>/dev/null); then
    TARGET=$LOOP
    CONFIRM_ARGS=(--confirm "$(confirm_of "$TARGET")")
    TARGET_ARGS=("$TARGET" "${CONFIRM_ARGS[@]}")
    IOPS_CELLS=56   # 512-byte logical blocks: the whole matrix applies
  else
    [ "${CI:-}" = "" ] || fail "CI must run this test on a loop device (root, losetup)"
    TARGET=$WORK/target.img
    TARGET_ARGS=("$TARGET" --size "$size")
    CONFIRM_ARGS=()
    IOPS_CELLS=49   # file targets use 4 KiB blocks: the seven 0.5 KiB cells are not applicable
  fi
  echo "target: $TARGET (${IOPS_CELLS} IOPS cells)"
}
