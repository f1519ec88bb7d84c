#!/usr/bin/env bash
# multijob_loop.sh PTSUITE — multi-job cells and shared holds on real loop devices (root; else
# skipped, 77), two 128 MiB loop devices over files in /dev/shm:
#  - a two-job cell (`spec L1 L2`, RND 4 KiB 70/30, QD 16 each): each job's I/O count against the
#    kernel's own per-device counters (/proc/diskstats, read here before and after), within 1 %;
#  - a job on a target that is not confirmed: exit 2, both devices unchanged;
#  - a reading spec holds its target shared: a writing ptsuite started meanwhile is refused
#    (exit 3) and the device's bytes are unchanged; while a writer holds it, a reader is refused.
set -u
P=$1
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices)"; exit 77; }
source "$(dirname "$0")/device_test_lib.sh"
base=/var/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
T=$(mktemp -d "$base/ptsuite-multijob.XXXXXX")
OUT=$T/out
loops=()
BG=""
cleanup() {
  [ -n "$BG" ] && kill "$BG" 2> /dev/null && wait "$BG" 2> /dev/null
  for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
new_loop() {  # new_loop NAME: a 128 MiB loop device over a file of random bytes; sets L and IMG
  IMG=$T/$1.img
  head -c 128M /dev/urandom > "$IMG"
  L=$(losetup -f --show --direct-io=on "$IMG") || { fail "losetup $IMG"; exit 1; }
  loops+=("$L")
}
new_loop a; L1=$L IMG1=$IMG
new_loop b; L2=$L IMG2=$IMG

# --- two jobs against the kernel's counters ------------------------------------------------
stat_of() { awk -v d="$(basename "$1")" '$3 == d { print $4 + $5, $8 + $9 }' /proc/diskstats; }
read -r r1a w1a < <(stat_of "$L1"); read -r r2a w2a < <(stat_of "$L2")
"$P" spec "$L1" "$L2" --rw randrw --read-pct 70 --bs 4k --oio 16 --seconds 3 --confirm "$IMG1,$IMG2" --json \
  > "$T/two.json" 2> "$OUT" || { cat "$OUT"; fail "two-job spec"; exit 1; }
read -r r1b w1b < <(stat_of "$L1"); read -r r2b w2b < <(stat_of "$L2")
python3 - "$T/two.json" "$((r1b - r1a))" "$((w1b - w1a))" "$((r2b - r2a))" "$((w2b - w2a))" <<'PY' \
  && pass "two-job cell: per-job I/Os match /proc/diskstats within 1 %" || fail "two-job cell against /proc/diskstats"
import json, sys
r = json.load(open(sys.argv[1]))
k = [int(x) for x in sys.argv[2:]]
for i, j in enumerate(r["jobs"]):
    kr, kw = k[2 * i], k[2 * i + 1]
    er, ew = j["read_ios"], j["write_ios"]
    print("  job %d: engine %d reads %d writes; /proc/diskstats %d reads %d writes (completed + merged)" % (i + 1, er, ew, kr, kw))
    assert abs(er - kr) <= 0.01 * max(er, 1) and abs(ew - kw) <= 0.01 * max(ew, 1), (er, kr, ew, kw)
    assert er > 1000 and ew > 100, (er, ew)
c = r["combined"]
assert c["read_ios"] == sum(j["read_ios"] for j in r["jobs"]) and c["write_ios"] == sum(j["write_ios"] for j in r["jobs"])
PY

# --- a job on an unconfirmed target ----------------------------------------------------------
s1=$(sum_of "$L1"); s2=$(sum_of "$L2")
expect_rc "write spec on two targets, one confirmed" 2 "$P" spec "$L1" "$L2" --rw randwrite --seconds 1 --confirm "$IMG1"
expect_text "names the unconfirmed target" "$L2.*not confirmed"
[ "$(sum_of "$L1")" = "$s1" ] && [ "$(sum_of "$L2")" = "$s2" ] && pass "both devices unchanged" || fail "a device changed"

# --- shared hold: a reader refuses a writer, a writer refuses a reader -------------------------
"$P" spec "$L1" --rw randread --oio 4 --seconds 5 > "$T/reader.out" 2>&1 &
BG=$!
sleep 1.5
expect_rc "writing spec while a reading spec holds $L1" 3 "$P" spec "$L1" --rw randwrite --seconds 1 --confirm "$IMG1"
expect_text "names the shared hold" "only reads it|shared lock"
wait "$BG"; rc=$?; BG=""
[ $rc -eq 0 ] && pass "the reading spec finished undisturbed" || { cat "$T/reader.out"; fail "reader: exit $rc"; }
[ "$(sum_of "$L1")" = "$s1" ] && pass "$L1 unchanged after the refused write" || fail "$L1 changed"
"$P" spec "$L2" --rw randwrite --oio 4 --seconds 4 --confirm "$IMG2" > "$T/writer.out" 2>&1 &
BG=$!
sleep 1.5
expect_rc "reading spec while a writing spec holds $L2" 3 "$P" spec "$L2" --rw randread --seconds 1
wait "$BG"; BG=""
[ "$fails" -eq 0 ] || exit 1
echo "PASS all"
