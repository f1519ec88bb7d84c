# guest-lib.sh — what every guest script of unit-tests/e2e/vm shares; run-nvme-vm.sh installs it
# in the guest as /usr/lib/ptsvm-guest-lib.sh, and a guest script sources it (busybox ash):
# pass/fail counting in $fails (the guest script exits with it), expect_rc, same, nsum.
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# expect_rc NAME WANT CMD...: runs CMD, output in /tmp/out, checks its exit status.
expect_rc() {
  name=$1 want=$2
  shift 2
  "$@" > /tmp/out 2>&1 < /dev/null
  rc=$?
  if [ "$rc" -eq "$want" ]; then pass "$name (exit $rc)"; else
    fail "$name: exit $rc, expected $want"
    sed 's/^/    | /' /tmp/out
  fi
}
# same NAME GOT WANT
same() { if [ "$2" = "$3" ]; then pass "$1: $2"; else fail "$1: ptsuite '$2', expected '$3'"; fi; }
# nsum DEV: checksum of the whole device (O_DIRECT reads)
nsum() { dd if="$1" bs=1M iflag=direct 2> /dev/null | md5sum | cut -d' ' -f1; }
