#!/usr/bin/env bash
# unit-tests/e2e/sim_run.sh PTSUITE — the IOPS test on a simulated drive (tiny profile, 5 s
# virtual cells) reaches steady state and passes the run audit; the record says the drive is
# simulated and its times virtual; 100 % read cells hold steady while write cells carry write
# amplification; `info` and a second run see the same drive (serial, wear, power-on time).
source "$(dirname "$0")/sim_lib.sh"
T="sim:tiny@$WORK/a.simdrive"

# (into a file, not a pipe: grep -q leaves at the first match, and under pipefail the writer's
# later output then dies of SIGPIPE once it passes one 4 KiB stdio buffer)
"$PTSUITE" info "$T" > "$WORK/info-new.out"
grep -q "does not exist yet" "$WORK/info-new.out" || fail "info on a new drive should say its state does not exist"
[ ! -e "$WORK/a.simdrive" ] || fail "info created the state file"
start=$(date +%s)
"$PTSUITE" run iops "$T" --out "$WORK/run1" --cell-seconds 5 --seed 11 --quiet >"$WORK/run1.out" 2>&1 ||
  { cat "$WORK/run1.out"; fail "run iops on $T"; }
echo "run 1: $(( $(date +%s) - start )) s wall"
python3 "$HERE/check_run.py" "$PTSUITE" "$WORK/run1" --cells 56 || fail "audit of the simulated run"
[ -s "$WORK/run1/iops.xlsx" ] || fail "no xlsx report"
python3 - "$WORK/run1/run.json" <<'PY' || fail "record of the simulated run"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["subtests"][0]
assert r["virtual_time"] is True
sd = r["simulated_drive"]
assert sd and sd["profile"] == "tiny" and sd["state_file"].endswith("a.simdrive"), sd
assert any(d["code"] == "simulated-drive" for d in r["deviations"])
assert "simulated" in r["device"]["model"] and r["device"]["serial"].startswith("SIM-")
assert s["steady_state_reached"], "no steady state within %d rounds" % len(s["rounds"])
assert s["purge"]["method"] == "sanitize-crypto" and s["purge"]["verification"]["passed"], s["purge"]
assert s["wipc"]["completed"] and s["wipc"]["result"]["simulated"]["write_amplification"] == 1.0
last = {c["cell_id"]: c for c in s["rounds"][-1]["cells"]}
assert all(c["simulated"]["virtual_time"] for c in last.values())
w = last["rw0-bs4096"]["simulated"]
assert w["write_amplification"] > 2, w
assert last["rw100-bs4096"]["simulated"]["nand_pages_written"] == 0
# A 100 % read cell holds steady over the Rounds (within 10 %); a pure-write cell's is
# below the FOB rate.
reads = [rd["cells"][[c["cell_id"] for c in rd["cells"]].index("rw100-bs1048576")]["iops"] for rd in s["rounds"]]
assert max(reads) / min(reads) < 1.10, reads
print("rounds", len(s["rounds"]), "4K write WA", round(w["write_amplification"], 2), "1 MiB read IOPS", [round(x) for x in reads])
PY
serial=$(serial_of "$T")
[ "$serial" = "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"]["serial"])' "$WORK/run1/run.json")" ] ||
  fail "info shows another serial than the run recorded"
"$PTSUITE" info "$T" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)["simulated_drive"]
assert j["write_amplification"] > 1 and j["state_file_exists"], j' || fail "info --json of the used drive"
# A second run sees the same drive: it needs consent now, and its power-on time goes on.
"$PTSUITE" run iops "$T" --out "$WORK/run2" --cell-seconds 1 --max-rounds 5 --quiet </dev/null >"$WORK/run2.out" 2>&1 && fail "second run without --confirm"
grep -q "confirm" "$WORK/run2.out" || { cat "$WORK/run2.out"; fail "refusal should ask for --confirm"; }
"$PTSUITE" run iops "$T" --confirm "$serial" --out "$WORK/run2" --cell-seconds 1 --max-rounds 5 --quiet >"$WORK/run2.out" 2>&1 ||
  { cat "$WORK/run2.out"; fail "second run"; }
python3 - "$WORK/run1/run.json" "$WORK/run2/run.json" <<'PY' || fail "the second run should see the first one's drive"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["device"]["serial"] == b["device"]["serial"]
assert b["device"]["health"]["data_units_written"] > a["device"]["health"]["data_units_written"]
assert b["device"]["health"]["power_on_hours"] >= a["device"]["health"]["power_on_hours"]
PY
# spec on the simulated drive: virtual seconds, flash counters.
"$PTSUITE" spec "$T" --confirm "$serial" --rw randwrite --bs 4k --threads 4 --oio 32 --seconds 30 > "$WORK/spec.out"
grep -q "VIRTUAL" "$WORK/spec.out" || fail "spec should say its time is virtual"
grep -q "write amplification" "$WORK/spec.out" || fail "spec should show the write amplification"
echo "simulated IOPS run: ok"
