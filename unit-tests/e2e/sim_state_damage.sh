#!/usr/bin/env bash
# unit-tests/e2e/sim_state_damage.sh PTSUITE — the state file never drops a committed record:
# every log record of a simulated drive's state file, damaged in its length field or its
# checksum, is refused by every writing command (spec, purge, run, resume): exit 2, a message
# naming the damaged record's byte offset, and the file's bytes unchanged (md5 before and
# after). Only a torn tail (the last record cut short) is dropped. The records are found by
# the layout sim/state_file.cpp documents, parsed here, not by ptsuite.
source "$(dirname "$0")/sim_lib.sh"
S="$WORK/s.simdrive"
"$PTSUITE" spec "sim:tiny@$S" --rw randwrite --seconds 1 --seed 1 >/dev/null || fail "make the drive"
serial=$(serial_of "sim:tiny@$S")
# A run to resume: killed after its first cells (its run directory names this drive).
"$PTSUITE" run iops "sim:tiny@$S" --confirm "$serial" --cell-seconds 1 --max-rounds 5 --seed 5 --quiet \
  --out "$WORK/run" >"$WORK/run.out" 2>&1 & BG_PID=$!
for _ in $(seq 1 6000); do  # up to 5 min: WIPC on a loaded machine
  [ -f "$WORK/run/journal.jsonl" ] && [ "$(grep -c '"event":"cell"' "$WORK/run/journal.jsonl" || true)" -ge 3 ] && break
  sleep 0.05
done
kill -9 "$BG_PID" 2>/dev/null || true; wait "$BG_PID" 2>/dev/null || true; BG_PID=""
grep -q "\"event\":\"cell\"" "$WORK/run/journal.jsonl" 2>/dev/null || { cat "$WORK/run.out"; fail "the run to resume recorded no cell"; }
# More records after it: cells of other writers, each closing cleanly.
for seed in 2 3; do
  "$PTSUITE" spec "sim:tiny@$S" --confirm "$serial" --rw randrw --read-pct 30 --seconds 0.5 --seed $seed \
    >/dev/null 2>&1 || fail "spec $seed"
done
cp "$S" "$WORK/good"

# Each record: its start, the offset of its length field and of its checksum.
python3 - "$S" >"$WORK/records" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
at = 16 + 4
at += 4 + struct.unpack_from("<I", b, at)[0] + 8
at += 8 + struct.unpack_from("<Q", b, at)[0] + 8
while at < len(b):
    magic, _, n = struct.unpack_from("<IIQ", b, at)
    assert magic == 0x43455253, at
    print(at, at + 8, at + 24 + n)
    at += 24 + n + 8
assert at == len(b)
PY
n=$(wc -l <"$WORK/records")
[ "$n" -ge 8 ] || fail "only $n log records"

poke() {  # poke OFFSET XORMASK: flip bits of one byte of $S
  python3 - "$S" "$1" "$2" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    at = int(sys.argv[2]); f.seek(at); b = f.read(1); f.seek(at); f.write(bytes([b[0] ^ int(sys.argv[3])]))
PY
}
commands=("spec sim:tiny@$S --confirm $serial --rw randwrite --seconds 1"
          "purge sim:tiny@$S --confirm $serial"
          "run iops sim:tiny@$S --confirm $serial --cell-seconds 1 --out $WORK/new"
          "resume $WORK/run --confirm $serial")
checked=0
while read -r start length_at checksum_at; do
  for damage in "length $((length_at + 7)) 64" "checksum $((checksum_at + 3)) 1"; do
    read -r field at mask <<<"$damage"
    cp "$WORK/good" "$S"; poke "$at" "$mask"
    before=$(md5sum "$S" | cut -d' ' -f1)
    for cmd in "${commands[@]}"; do
      rc=0
      # shellcheck disable=SC2086
      "$PTSUITE" $cmd >"$WORK/out" 2>"$WORK/err" || rc=$?
      [ "$rc" = 2 ] || { cat "$WORK/err"; fail "record at $start, $field damaged: '$cmd' exit $rc, expected 2"; }
      grep -q "at byte $start " "$WORK/err" || { cat "$WORK/err"; fail "record at $start, $field: '$cmd' did not name byte $start"; }
      [ "$(md5sum "$S" | cut -d' ' -f1)" = "$before" ] || fail "record at $start, $field: '$cmd' changed the state file"
      [ ! -e "$WORK/new" ] || fail "'$cmd' made a run directory"
      checked=$((checked + 1))
    done
  done
done <"$WORK/records"
echo "damage matrix: $n records x (length, checksum) x ${#commands[@]} writing commands = $checked refusals, exit 2, offset named, md5 unchanged"
grep -m1 "corrupted" "$WORK/err"

# A torn tail, and only that, is dropped: the last record cut short opens, the rest kept.
cp "$WORK/good" "$S"
last=$(tail -1 "$WORK/records" | cut -d' ' -f1)
truncate -s $(( $(stat -c %s "$S") - 5 )) "$S"
"$PTSUITE" spec "sim:tiny@$S" --confirm "$serial" --rw randwrite --seconds 0.5 >/dev/null 2>&1 || fail "torn tail refused"
python3 - "$WORK/good" "$S" "$last" <<'PY' || fail "the records before the torn one were not kept"
import sys
good, now, last = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read(), int(sys.argv[3])
assert now[:last] == good[:last] and len(now) > last
PY
echo "simulated drive state file damage: ok"
