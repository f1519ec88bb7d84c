#!/usr/bin/env bash
# qos_sim.sh PTSUITE — multi-job cells, namespaces and the quality-of-service tests on the
# simulated drive (virtual time, sim:tiny):
#  - `namespaces --create 6` makes six namespaces of one drive (consent: its serial), listed;
#    refused without --confirm (exit 2) and with a wrong one (exit 3), the state file unchanged;
#  - `spec` on two namespaces runs a two-job cell: each job's I/Os and bytes (and their sum)
#    against the controller's own count over the cell (run.json-free: the --json result);
#  - neighbour-6ns (scaled): the quiet namespaces' read latency is higher with the writers on
#    than off, and the namespaces' I/Os and bytes add up to the cell's and the controller's;
#  - pressure-8k (scaled steps): the reads' 99.99 % rises with the write rate, the cap is found
#    (the line stops there), and with read_priority=0 the rise is steeper;
#  - bad input (exit 2, the drive unchanged): overlapping jobs where one writes, and a write
#    rate TC × QD cannot issue.
# Every check is arithmetic in Python on ptsuite's JSON output.
source "$(dirname "$0")/sim_lib.sh" "$1"
P=$PTSUITE
D="sim:tiny@$WORK/ns.simdrive"
"$P" spec "$D" --rw randwrite --bs 128k --seconds 0.2 > /dev/null 2>&1 || fail "first write (creates the drive)"
SERIAL=$(serial_of "$D")

# --- namespaces ---------------------------------------------------------------------------
before=$(sum "$WORK/ns.simdrive")
"$P" namespaces "$D" --create 6 --size 160MiB > "$WORK/out" 2>&1 && rc=0 || rc=$?
[ $rc -eq 2 ] || fail "namespaces --create without --confirm: exit $rc, expected 2"
"$P" namespaces "$D" --create 6 --size 160MiB --confirm WRONG > "$WORK/out" 2>&1 && rc=0 || rc=$?
[ $rc -eq 3 ] || fail "namespaces --create with a wrong --confirm: exit $rc, expected 3"
[ "$(sum "$WORK/ns.simdrive")" = "$before" ] || fail "a refused --create changed the drive"
"$P" namespaces "$D" --create 6 --size 160MiB --confirm "$SERIAL" --json > "$WORK/create.json" || fail "namespaces --create 6"
"$P" namespaces "$D" --json > "$WORK/list.json" || fail "namespaces (list)"
"$P" namespaces "$D"
python3 - "$WORK/list.json" <<'PY' || fail "namespace list"
import json, sys
inv = json.load(open(sys.argv[1]))
ns = inv["namespaces"]
assert inv["namespace_management"], inv
assert [n["nsid"] for n in ns] == [1, 2, 3, 4, 5, 6], ns
assert all(n["size_bytes"] == 160 << 20 and n["attached"] for n in ns), ns
print("PASS namespaces: 6 x 160 MiB, attached, NSIDs 1-6")
PY

# --- a two-job cell on two namespaces -------------------------------------------------------
"$P" spec "$D#2" "$D#5" --rw randrw --read-pct 50 --bs 4k --oio 8 --seconds 0.5 --confirm "$SERIAL" --json \
  > "$WORK/two.json" || fail "spec on two namespaces"
python3 - "$WORK/two.json" <<'PY' || fail "two-job cell"
import json, sys
r = json.load(open(sys.argv[1]))
jobs, c = r["jobs"], r["combined"]
assert len(jobs) == 2, len(jobs)
for k in ("read_ios", "write_ios", "read_bytes", "write_bytes"):
    assert sum(j[k] for j in jobs) == c[k], (k, [j[k] for j in jobs], c[k])
ctl = c["simulated"]["controller"]
assert ctl["read_commands"] == c["read_ios"] and ctl["write_commands"] == c["write_ios"], (ctl, c["read_ios"], c["write_ios"])
assert ctl["read_bytes"] == c["read_bytes"] and ctl["write_bytes"] == c["write_bytes"], ctl
assert all(j["read_ios"] > 1000 and j["write_ios"] > 1000 for j in jobs), jobs
print("PASS two-job cell: jobs %s I/Os sum to the cell's %d = the controller's %d" % (
    [j["read_ios"] + j["write_ios"] for j in jobs], c["read_ios"] + c["write_ios"], ctl["read_commands"] + ctl["write_commands"]))
PY

# --- neighbour-6ns -------------------------------------------------------------------------
sed -e 's/^read_rate_iops = .*/read_rate_iops = 1000/' "$HERE/../../tests-pts/neighbour-6ns.toml" > "$WORK/nb.toml"
"$P" run "$WORK/nb.toml" "$D" --confirm "$SERIAL" --out "$WORK/nb" --cell-seconds 2 --seed 5 --quiet \
  || fail "neighbour-6ns run"
python3 - "$WORK/nb/run.json" <<'PY' || fail "neighbour-6ns checks"
import json, sys
rec = json.load(open(sys.argv[1]))
st = rec["subtests"][0]
f = {x["key"]: x["value"] for x in st["findings"]}
cells = {r["cells"][0]["cell_id"]: r["cells"][0] for r in st["rounds"]}
off, on = f["writers-off_quiet_read_p99_99_us"], f["writers-on_quiet_read_p99_99_us"]
moff, mon = f["writers-off_quiet_read_mean_us"], f["writers-on_quiet_read_mean_us"]
assert on > off and mon > moff, (off, on, moff, mon)
for name, c in cells.items():
    for k in ("read_ios", "write_ios", "read_bytes", "write_bytes"):
        assert sum(j[k] for j in c["jobs"]) == c[k], (name, k)
    ctl = c["simulated"]["controller"]
    assert ctl["read_commands"] + ctl["write_commands"] == c["read_ios"] + c["write_ios"], (name, ctl)
    assert ctl["read_bytes"] + ctl["write_bytes"] == c["read_bytes"] + c["write_bytes"], (name, ctl)
    assert all(j["latency_from"] == "schedule" for j in c["jobs"] if j["job"]["id"].startswith("read")), name
print("PASS neighbour-6ns: quiet namespaces' read 99.99 %% %.1f -> %.1f us, mean %.1f -> %.1f us (writers off -> on); "
      "per-namespace I/Os and bytes add up to the cell's and the controller's" % (off, on, moff, mon))
PY

# --- pressure-8k ---------------------------------------------------------------------------
pressure() {  # pressure NAME DRIVE: a scaled pressure-8k on DRIVE, its run.json in $WORK/NAME
  sed -e 's/^steps_mbps = .*/steps_mbps = [2, 4, 6, 8, 12, 16, 24, 32, 48]/' -e 's/^read_rate_iops = .*/read_rate_iops = 1000/' \
    "$HERE/../../tests-pts/pressure-8k.toml" > "$WORK/$1.toml"
  "$P" spec "$2" --rw randwrite --bs 128k --seconds 0.1 > /dev/null 2>&1 || fail "create $2"
  "$P" run "$WORK/$1.toml" "$2" --confirm "$(serial_of "$2")" --out "$WORK/$1" --cell-seconds 3 --seed 5 --quiet \
    || fail "pressure-8k run on $2"
}
pressure pr "sim:tiny@$WORK/pr.simdrive"
pressure pr0 "sim:tiny,read_priority=0@$WORK/pr0.simdrive"
python3 - "$WORK/pr/run.json" "$WORK/pr0/run.json" <<'PY' || fail "pressure-8k checks"
import json, sys
def line(path):
    st = json.load(open(path))["subtests"][0]
    f = {x["key"]: x for x in st["findings"]}
    steps = [r["cells"][0]["cell_id"] for r in st["rounds"]]
    p = [f[s + "_read_p99_99_us"]["value"] for s in steps]
    w = [f[s + "_write_mbps"]["value"] for s in steps]
    return steps, p, w, f["cap_step"]
s, p, w, cap = line(sys.argv[1])
s0, p0, w0, cap0 = line(sys.argv[2])
print("read_priority=1: steps %s\n  write MB/s %s\n  read 99.99 %% us %s\n  cap %s" % (s, [round(x, 1) for x in w], [round(x, 1) for x in p], cap["detail"]))
print("read_priority=0: steps %s\n  write MB/s %s\n  read 99.99 %% us %s\n  cap %s" % (s0, [round(x, 1) for x in w0], [round(x, 1) for x in p0], cap0["detail"]))
def slope(x, y):  # least-squares slope of y over x
    mx, my = sum(x) / len(x), sum(y) / len(y)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)
assert cap["value"] is not None and int(cap["value"]) == len(s), ("the cap ends the line", cap, s)
k, k0 = slope(w, p), slope(w0, p0)
assert k > 0 and p[-1] > min(p), ("the reads' 99.99 % rises with the write rate", k, p)
assert k0 > k, ("steeper without read priority", k, k0)
print("PASS pressure-8k: 99.99 %% from %.1f to %.1f us (%.2f us per MB/s), cap at step %d; without read priority "
      "%.2f us per MB/s" % (min(p), p[-1], k, int(cap["value"]), k0))
PY

# --- bad input -----------------------------------------------------------------------------
before=$(sum "$WORK/pr.simdrive")
sed -e 's/^read_range_pct = .*/read_range_pct = [40, 100]/' "$WORK/pr.toml" > "$WORK/overlap.toml"
"$P" run "$WORK/overlap.toml" "sim:tiny@$WORK/pr.simdrive" --confirm "$(serial_of "sim:tiny@$WORK/pr.simdrive")" \
  --out "$WORK/ov" > "$WORK/out" 2>&1 && rc=0 || rc=$?
[ $rc -eq 2 ] && grep -q "overlap" "$WORK/out" || { cat "$WORK/out"; fail "overlapping jobs: exit $rc, expected 2"; }
sed -e 's/^write_queue_depth = .*/write_queue_depth = 1/' -e 's/^write_latency_floor_us = .*/write_latency_floor_us = 1000/' \
  "$WORK/pr.toml" > "$WORK/rate.toml"
"$P" run "$WORK/rate.toml" "sim:tiny@$WORK/pr.simdrive" --confirm "$(serial_of "sim:tiny@$WORK/pr.simdrive")" \
  --out "$WORK/rt" > "$WORK/out" 2>&1 && rc=0 || rc=$?
[ $rc -eq 2 ] && grep -q "can issue" "$WORK/out" || { cat "$WORK/out"; fail "a rate TC x QD cannot issue: exit $rc, expected 2"; }
[ "$(sum "$WORK/pr.simdrive")" = "$before" ] || fail "bad input changed the drive"
echo "PASS bad input: overlapping jobs and a rate beyond TC x QD, exit 2, the drive unchanged"
