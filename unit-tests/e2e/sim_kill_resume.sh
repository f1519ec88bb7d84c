#!/usr/bin/env bash
# unit-tests/e2e/sim_kill_resume.sh PTSUITE — kill -9 in the middle of a run on a simulated
# drive, then `resume`: the drive comes back as its last checkpoint (the cell in flight was
# never journaled and is run again), and the completed record equals, cell for cell, the
# record of an uninterrupted run with the same seed on a copy of the same drive.
source "$(dirname "$0")/sim_lib.sh"
A="$WORK/a.simdrive"; B="$WORK/b.simdrive"
"$PTSUITE" spec "sim:tiny@$A" --rw randwrite --bs 4k --threads 2 --oio 8 --seconds 10 >/dev/null || fail "make drive A"
cp "$A" "$B"   # the same drive twice (same serial, same state)
serial=$(serial_of "sim:tiny@$A")
args=(--confirm "$serial" --cell-seconds 5 --max-rounds 6 --seed 42 --quiet)

"$PTSUITE" run iops "sim:tiny@$B" "${args[@]}" --out "$WORK/whole" >"$WORK/whole.out" 2>&1 ||
  { cat "$WORK/whole.out"; fail "uninterrupted run"; }

"$PTSUITE" run iops "sim:tiny@$A" "${args[@]}" --out "$WORK/killed" >"$WORK/killed.out" 2>&1 & BG_PID=$!
for _ in $(seq 1 1200); do  # until round 2 is under way
  [ -f "$WORK/killed/journal.jsonl" ] && [ "$(grep -c '"event":"cell"' "$WORK/killed/journal.jsonl" || true)" -ge 70 ] && break
  sleep 0.05
done
kill -9 "$BG_PID"; wait "$BG_PID" 2>/dev/null || true; BG_PID=""
cells=$(grep -c '"event":"cell"' "$WORK/killed/journal.jsonl")
[ "$cells" -ge 70 ] || fail "the run was killed too early ($cells cells)"
"$PTSUITE" resume "$WORK/killed" --confirm "$serial" --quiet >"$WORK/resume.out" 2>&1 || { cat "$WORK/resume.out"; fail "resume"; }
python3 "$HERE/check_run.py" "$PTSUITE" "$WORK/killed" --resumed || fail "audit after kill -9 + resume"
python3 - "$WORK/whole/run.json" "$WORK/killed/run.json" "$cells" <<'PY' || fail "resumed record differs from the uninterrupted one"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
killed_at = int(sys.argv[3])
fields = ["cell_id", "read_ios", "write_ios", "read_bytes", "write_bytes", "iops", "mbps", "ios_per_second",
          "latency", "read_latency", "write_latency", "seconds"]
ra, rb = a["subtests"][0]["rounds"], b["subtests"][0]["rounds"]
assert len(ra) == len(rb), (len(ra), len(rb))
n = 0
for x, y in zip(ra, rb):
    assert len(x["cells"]) == len(y["cells"])
    for c, d in zip(x["cells"], y["cells"]):
        n += 1
        for f in fields:
            assert c[f] == d[f], (x["round"], c["cell_id"], f, c[f], d[f])
        assert c["simulated"]["nand_pages_written"] == d["simulated"]["nand_pages_written"], c["cell_id"]
def virtual(ws):  # the process's and the host's real CPU: not part of the drive's behaviour
    return [{k: v for k, v in w.items() if k not in ("cpu_pct", "system_cpu_pct")} for w in ws]
assert virtual(a["subtests"][0]["window_results"]) == virtual(b["subtests"][0]["window_results"])
print(f"{n} cells equal; killed after cell {killed_at}, resumed from the checkpoint before the cell in flight")
PY
echo "simulated kill -9 + resume: ok"
