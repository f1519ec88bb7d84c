#!/usr/bin/env bash
# unit-tests/e2e/sim_dirth_ecw.sh PTSUITE — DIRTH and ECW as issue #23 asks, on the simulated
# drive in virtual time, judged from run.json and the workbook by this script's own arithmetic
# (python3 + openpyxl, never ptsuite):
#   ecw on a 4096-byte-sector sim:demo: runs (no refusal) with the deviation bs-split-lba; every
#       cell's mix is 4, 8, 16, 32, 64 KiB at 75/11/8/3/3 % (67/10/7/3/3 × 100 / 90, largest
#       remainder); the mean bytes per I/O the drive saw is that mix's (8233 B) within 5 %; the
#       workbook has DIRTH's pages (P1–P15) and the Access Probabilities table (size % × group %).
#   cbw is ECW's PTS 2.0 name: `plan cbw` resolves the ECW definition.
#   --class client: DIRTH runs under PTS 2.0.2 (write cache enabled, ActiveRange 75 %);
#       PTS-E 1.1 defines no client DIRTH: refused, exit 2, naming the settings that exist.
# The grid is scaled (TC {4,2,1} × QD {8,4,1}) and every phase shortened: recorded deviations.
set -euo pipefail
PTSUITE=${1:?usage: $0 PTSUITE}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEFS=$(cd "$HERE/../../tests-pts" && pwd)
base=/var/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
WORK=$(mktemp -d "$base/ptsuite-dirth-ecw.XXXXXX")
export PTSUITE_SIM_DIR=$WORK PTSUITE_TESTS_DIR=$DEFS
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$PTSUITE" info "sim:tiny@$WORK/probe.simdrive" >/dev/null 2>&1 || { echo "SKIP: $PTSUITE has no sim: targets"; exit 77; }

scaled() {  # scaled DEF: tests-pts/DEF.toml with a 3 × 3 grid and 10-sample preconditioning Rounds
  local out=$WORK/$1.toml
  sed -E -e 's/^thread_counts = .*/thread_counts = [4, 2, 1]/' -e 's/^queue_depths = .*/queue_depths = [8, 4, 1]/' \
         -e 's/^precondition_round_cells = .*/precondition_round_cells = 10/' "$DEFS/$1.toml" >"$out"
  echo "$out"
}
short=(--cell-seconds 0.2 --max-rounds 5 --time-scale 0.0002 --threads 4 --oio 8 --seed 7 --quiet)

# cbw is ECW under its PTS 2.0 name.
"$PTSUITE" plan cbw --pts pts-2.0.2 >"$WORK/cbw.plan" 2>&1 || { cat "$WORK/cbw.plan"; fail "plan cbw"; }
grep -q "Enterprise Composite Workload" "$WORK/cbw.plan" || fail "plan cbw does not resolve ECW"

# ECW on 4096-byte sectors.
start=$SECONDS
"$PTSUITE" run "$(scaled ecw)" "sim:demo,lba=4096@$WORK/ecw.simdrive" --out "$WORK/ecw" "${short[@]}" \
  >"$WORK/ecw.out" 2>"$WORK/ecw.err" || { cat "$WORK/ecw.err"; fail "ecw on sim:demo,lba=4096"; }
echo "ecw on sim:demo,lba=4096: $((SECONDS - start)) s of real time"
/usr/bin/python3 - "$WORK/ecw" <<'PY' || fail "ecw: run.json / workbook"
import json, sys, openpyxl
d = sys.argv[1]
rec = json.load(open(d + "/run.json"))
assert rec["device"]["lba_size"] == 4096, rec["device"]["lba_size"]
dev = [x for x in rec["deviations"] if x["code"] == "bs-split-lba"]
assert len(dev) == 2, [x["code"] for x in rec["deviations"]]
print("deviation:", dev[0]["text"])
want = [(4096, 75), (8192, 11), (16384, 8), (32768, 3), (65536, 3)]
exact = [67 * 100 / 90, 10 * 100 / 90, 7 * 100 / 90, 3 * 100 / 90, 3 * 100 / 90]
assert all(abs(p - e) < 1 for (_, p), e in zip(want, exact))  # whole percent within 1 of the exact share
mean_bytes = sum(b * p for b, p in want) / 100
ios = nbytes = 0
for sp, st in zip(rec["plan"]["subtests"], rec["subtests"]):
    assert st["complete"], sp["id"]
    for r in st["rounds"]:
        for c in r["cells"]:
            got = [(s["bytes"], s["percent"]) for s in c["spec"]["bs_split"]]
            assert got == want, (sp["id"], c["cell_id"], got)
            ios += c["read_ios"] + c["write_ios"]
            nbytes += c["read_bytes"] + c["write_bytes"]
assert abs(nbytes / ios / mean_bytes - 1) < 0.05, (nbytes / ios, mean_bytes)
print("ecw: %d I/Os, %.0f bytes per I/O (the mix asks %.0f)" % (ios, nbytes / ios, mean_bytes))
wb = openpyxl.load_workbook(d + "/ecw.xlsx")
pages = ["Summary", "Access Probabilities", "PC IOPS", "SS Window 1", "Round Pre-writes", "Top TC vs Round",
         "SS Window 2", "Demand Variation", "Demand Intensity", "CPU", "Pre-writes 1", "Histogram 1", "Pre-writes 2",
         "Histogram 2", "Pre-writes 3", "Histogram 3", "IOPS ART vs TOIO", "Readings", "Raw"]
names = [n for n in wb.sheetnames if n != "Deviations"]
assert names == pages, names
rows = {r[0]: r for r in wb["Access Probabilities"].iter_rows(values_only=True) if r and isinstance(r[0], str)}
vals = [v for v in rows["4 KiB"][1:] if isinstance(v, (int, float))]
assert [round(v, 6) for v in vals] == [37.5, 22.5, 15.0, 75.0], vals  # 75 % × 50/30/20 %, and the size's share
text = " ".join(str(v) for row in wb["Demand Variation"].iter_rows(values_only=True) for v in row if v)
assert "4 KiB 75 %, 8 KiB 11 %, 16 KiB 8 %, 32 KiB 3 %, 64 KiB 3 %" in text, "header stimulus lacks the mix"
print("ecw workbook: %d pages; 4 KiB by LBA group %s %%" % (len(wb.sheetnames), vals[:3]))
PY

# --class client: runs under PTS 2.0.2, refused under PTS-E 1.1.
"$PTSUITE" run "$(scaled dirth)" "sim:tiny@$WORK/client.simdrive" --pts pts-2.0.2 --class client \
  --out "$WORK/client" "${short[@]}" >"$WORK/client.out" 2>"$WORK/client.err" ||
  { cat "$WORK/client.err"; fail "dirth --class client"; }
/usr/bin/python3 - "$WORK/client/run.json" <<'PY' || fail "dirth client: run.json"
import json, sys
rec = json.load(open(sys.argv[1]))
p = rec["plan"]
assert (p["pts_edition"], p["device_class"], p["active_range_pct"], p["write_cache_enabled"]) == \
    ("pts-2.0.2", "client", 75, True), (p["pts_edition"], p["device_class"], p["active_range_pct"])
assert all(st["complete"] for st in rec["subtests"])
print("dirth --class client: PTS 2.0.2, ActiveRange %g %%, write cache enabled, complete" % p["active_range_pct"])
PY
rc=0
"$PTSUITE" plan dirth --pts pts-e-1.1 --class client >"$WORK/refused.out" 2>"$WORK/refused.err" || rc=$?
[ $rc = 2 ] || fail "dirth --pts pts-e-1.1 --class client: exit $rc, expected 2"
grep -q "PTS-E 1.1 is the enterprise edition" "$WORK/refused.err" || { cat "$WORK/refused.err"; fail "refusal message"; }
echo "refused: $(cat "$WORK/refused.err")"
echo "DIRTH/ECW on the simulated drive: ECW on 4096-byte sectors, cbw, client class as issue #23 asks"
