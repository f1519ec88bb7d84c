#!/usr/bin/env bash
# unit-tests/e2e/report_real_run.sh — a real, complete `ptsuite run latency` on a small file
# in /dev/shm (0.05 s cells, at most 8 Rounds); the workbook's ART, 5 nines, MRT and IOPS
# tables must equal the window results pts/ stored in run.json (two independent
# computations of the same Measurement Window), and every sheet must carry the run's banner.
#   usage: report_real_run.sh PTSUITE WORKDIR
set -u
PTSUITE=$1 WORK=$2
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
fail() { echo "FAIL: $*"; exit 1; }
[ -d /dev/shm ] && [ -w /dev/shm ] || { echo "SKIP: no writable /dev/shm"; exit 77; }
"$PY" -c "import openpyxl" 2>/dev/null || { echo "SKIP: python3-openpyxl is not installed"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK"
target=/dev/shm/ptsuite-report-real-$$.img
trap 'rm -f "$target"' EXIT
# --meta without '=' is refused before anything is created.
"$PTSUITE" run latency "$target" --size 32m --out "$WORK/bad" --meta tested_by --quiet > "$WORK/bad.log" 2>&1
[ $? -eq 2 ] && grep -q -- "--meta: 'tested_by' is not KEY=VALUE" "$WORK/bad.log" || fail "bad --meta: $(cat "$WORK/bad.log")"
[ ! -e "$target" ] && [ ! -e "$WORK/bad" ] || fail "bad --meta left a target or run dir behind"
"$PTSUITE" run latency "$target" --size 32m --out "$WORK/run" --cell-seconds 0.05 --max-rounds 8 --quiet \
  --meta "tested_by=Real Run Lab" --meta form_factor=M.2 > "$WORK/run.log" 2>&1 || fail "run exit $?: $(tail -5 "$WORK/run.log")"
[ -s "$WORK/run/latency.xlsx" ] || fail "the run wrote no workbook"
"$PY" - "$WORK/run" <<'PYEOF' || fail "workbook differs from the stored window results"
import json, math, sys
import openpyxl
run = sys.argv[1]
rec = json.load(open(run + "/run.json"))
wb = openpyxl.load_workbook(run + "/latency.xlsx")
st = rec["subtests"][0]
specs = {c["id"]: c["spec"] for c in rec["plan"]["subtests"][0]["cells"]}
def table(ws, caption):
    g = [list(r) for r in ws.iter_rows(values_only=True)]
    for i, line in enumerate(g):
        if line and line[0] == caption:
            head = g[i + 1]
            rows = {}
            for line2 in g[i + 2:]:
                if line2[0] is None or isinstance(line2[0], str):
                    break
                rows[line2[0]] = {head[c]: line2[c] for c in range(1, len(head)) if head[c] is not None}
            return rows
    raise SystemExit(f"{ws.title}: no table {caption!r}")
checks = [("ART", "ART (ms), mean over the Measurement Window", "mean_latency_ns", 1e-6),
          ("5 Nines", "99.999 % response time (ms) of all the Measurement Window's I/Os (Rounds' histograms merged)", "p99_999_latency_ns", 1e-6),
          ("MRT", "MRT (ms), maximum over the Measurement Window", "max_latency_ns", 1e-6),
          ("IOPS", "IOPS, mean over the Measurement Window", "iops", 1.0)]
bad = n = 0
for sheet, caption, key, scale in checks:
    t = table(wb[sheet], caption)
    for wr in st["window_results"]:
        spec = specs[wr["cell_id"]]
        kib = spec["block_bytes"] / 1024
        mix = f"{spec['read_pct']}/{100 - spec['read_pct']}"
        got, want = t[kib][mix], wr[key] * scale
        n += 1
        if not math.isclose(got, want, rel_tol=1e-9):
            bad += 1
            print(f"{sheet} {kib} KiB {mix}: workbook {got} != run.json window_results {want}")
fields = {f["key"]: f["value"] for f in rec["operator_fields"]}
if fields != {"tested_by": "Real Run Lab", "form_factor": "M.2"}:
    bad += 1
    print(f"run.json operator_fields {fields}")
if rec["device"]["pcie_link"]["source"] != "":
    bad += 1
    print(f"a file target has a PCIe link: {rec['device']['pcie_link']}")
banner = ("Steady state achieved" if st["steady_state_reached"] else "Steady state NOT achieved")
for ws in wb.worksheets:
    text = "\n".join(str(v) for r in ws.iter_rows(values_only=True) for v in r if v is not None)
    for want in (banner, "Real Run Lab", "M.2", "n/a (not a PCIe device)"):
        if want not in text:
            bad += 1
            print(f"sheet {ws.title} lacks {want!r}")
print(f"{n} window values agree with run.json; window rounds {st['window_first_round']}-{st['window_last_round']}")
sys.exit(1 if bad else 0)
PYEOF
echo "report_real_run: passed"
