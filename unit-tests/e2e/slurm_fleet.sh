#!/usr/bin/env bash
# unit-tests/e2e/slurm_fleet.sh PTSUITE — a fleet run under a real Slurm, on a one-node cluster
# this test starts itself on loopback: munged (its own key and socket), slurmctld and slurmd
# (their own slurm.conf, spool and state directories, free ports), all in a scratch directory
# that stands for the shared storage. tools/fleet/submit.sh submits a 3-task job array — three
# simulated drives named in an inventory, one IOPS run each (time-scaled) — and the dependent
# job that compares the runs and checks them against the review-lab sheet (a bad inventory is
# refused first, naming file:line, with nothing submitted). At the end the three
# run directories hold complete runs, the comparison workbook lists the three drives, the check
# wrote its result, and Slurm (scontrol) shows every job COMPLETED.
# Skips (77) when Slurm or munge is not installed, or when not root. Every daemon it started is
# stopped by its pid.
set -euo pipefail
PTSUITE=$(readlink -f "${1:?usage: $0 PTSUITE}")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; [[ -z ${W:-} ]] || tail -n 20 "$W"/log/*.log "$W"/shared/*/slurm-*.out 2>/dev/null >&2; exit 1; }
for t in slurmctld slurmd munged sbatch squeue scontrol sinfo; do
  command -v $t >/dev/null || skip "no $t (apt-get install slurm-wlm munge)"
done
[[ $(id -u) -eq 0 ]] || skip "not root (slurmd runs the tasks as their user and needs root)"

W=$(mktemp -d /var/tmp/ptsuite-slurm.XXXXXX)
chmod 700 "$W"
mkdir -p "$W"/{log,spool,state,munge,shared,drives}
PIDS=()
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  [[ ! -e $W/slurm.conf ]] || SLURM_CONF=$W/slurm.conf scancel --quiet --user=root 2>/dev/null
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$W"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
t_start=$(date +%s)

# ---- munge: a key of its own, a socket in the scratch directory ----------------------------
dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$W/munge/munge.key"
munged --foreground --force --socket="$W/munge/munge.sock" --key-file="$W/munge/munge.key" \
  --pid-file="$W/munge/munged.pid" --log-file="$W/log/munged.log" --seed-file="$W/munge/munge.seed" \
  >"$W/log/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [[ -S $W/munge/munge.sock ]] && break; sleep 0.1; done
[[ -S $W/munge/munge.sock ]] || fail "munged did not start"

# ---- slurm: one node (this host) on loopback, ports nobody listens on -----------------------
read -r P1 P2 < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
NODE=$(hostname -s)
CPUS=$(nproc)
cat >"$W/slurm.conf" <<CONF
ClusterName=ptsuite-e2e
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$P1
SlurmdPort=$P2
AuthType=auth/munge
AuthInfo=socket=$W/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
SlurmdParameters=config_overrides
SchedulerParameters=defer_batch=0
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=e2e Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$W/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$W/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$NODE" >"$W/log/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
  state=$(sinfo -h -N -o '%t' 2>/dev/null | head -1 || true)
  [[ $state == idle ]] && break
  sleep 0.2
done
[[ ${state:-} == idle ]] || fail "the node did not come up idle (sinfo: '${state:-}')"
echo "one-node cluster up: $NODE, $CPUS CPUs, slurmctld :$P1, slurmd :$P2 ($(( $(date +%s) - t_start )) s)"

# ---- a bad inventory is refused before anything is submitted -------------------------------
printf '%s\n' "$NODE d1 sim:tiny@$W/drives/x.simdrive -" "nosuchnode d1 sim:tiny@$W/drives/y.simdrive -" \
  "$NODE d2 sim:tiny" >"$W/bad.inventory"
set +e
bad=$("$REPO/tools/fleet/submit.sh" --inventory "$W/bad.inventory" --test iops --shared "$W/shared" --ptsuite "$PTSUITE" 2>&1)
rc=$?
set -e
echo "$bad"
[[ $rc -eq 2 ]] || fail "submit.sh with a bad inventory: exit $rc, want 2"
grep -q "bad.inventory:2: NAME 'd1' also on line 1" <<<"$bad" || fail "the duplicate NAME is not named"
grep -q "bad.inventory:2: node 'nosuchnode' is not a node of this cluster" <<<"$bad" || fail "the unknown node is not named"
grep -q "bad.inventory:3: 3 columns" <<<"$bad" || fail "the short line is not named"
[[ -z $(squeue -h) && -z $(ls "$W/shared") ]] || fail "submit.sh submitted or wrote something for a bad inventory"

# ---- the fleet: three simulated drives of different over-provisioning on this node ---------
cat >"$W/inventory" <<INV
# NODE  NAME     TARGET                                        CONFIRM
$NODE   drive-a  sim:tiny@$W/drives/a.simdrive                 -
$NODE   drive-b  sim:tiny,op=14%@$W/drives/b.simdrive          -
$NODE   drive-c  sim:tiny,op=28%@$W/drives/c.simdrive          -
INV
out=$("$REPO/tools/fleet/submit.sh" --inventory "$W/inventory" --test iops --shared "$W/shared" --ptsuite "$PTSUITE" \
        --spec "$REPO/tests-pts/requirements/review-lab-shortlist.toml" -- ${PTS_FLEET_RUN_OPTIONS:---cell-seconds 0.25 --seed 3}) ||
  fail "submit.sh: $out"
echo "$out"
RUN_ROOT=$(awk '/^run root:/ {print $3}' <<<"$out")
array=$(awk '/job array/ {print $5; exit}' <<<"$out")
report=$(awk '/^report job/ {print $3}' <<<"$out")
[[ -n $RUN_ROOT && -n $array && -n $report ]] || fail "submit.sh printed no run root or job ids"

deadline=$(( $(date +%s) + ${PTS_FLEET_TIMEOUT:-240} ))
while squeue -h -j "$array,$report" 2>/dev/null | grep -q .; do
  [[ $(date +%s) -lt $deadline ]] || { squeue; fail "the jobs did not finish in time"; }
  sleep 1
done
echo "jobs done after $(( $(date +%s) - t_start )) s"

# ---- what the cluster left on the shared storage -------------------------------------------
for t in 0 1 2; do
  st=$(scontrol -o show job "${array}_$t" | grep -o 'JobState=[A-Z]*' | cut -d= -f2)
  [[ $st == COMPLETED ]] || fail "task ${array}_$t: $st"
done
st=$(scontrol -o show job "$report" | grep -o 'JobState=[A-Z]*' | cut -d= -f2)
[[ $st == COMPLETED ]] || fail "report job $report: $st"
echo "array ${array}_[0-2]: COMPLETED; report job $report: COMPLETED"
cat "$RUN_ROOT/fleet-summary.txt"
/usr/bin/python3 - "$RUN_ROOT" <<'PY' || fail "the fleet's results"
import json, os, sys
import openpyxl
root = sys.argv[1]
serials = []
for name in ("drive-a", "drive-b", "drive-c"):
    r = json.load(open(os.path.join(root, name, "run.json")))
    assert r["state"] == "complete", (name, r["state"])
    assert r["simulated_drive"]["profile"] == "tiny", name
    fields = {f["key"]: f["value"] for f in r["operator_fields"]}
    assert fields.get("fleet_node") and fields.get("slurm_job"), fields
    serials.append(r["device"]["serial"])
assert len(set(serials)) == 3, serials
wb = openpyxl.load_workbook(os.path.join(root, "compare-iops.xlsx"))
ws = wb["Comparison"]
text = " ".join(str(c.value) for row in ws.iter_rows() for c in row if c.value is not None)
for name, serial in zip(("drive-a", "drive-b", "drive-c"), serials):
    assert name in text and serial in text, (name, serial)
check = json.load(open(os.path.join(root, "check", "check.json")))
assert len(check["drives"]) == 3, check
print("three complete runs (serials " + ", ".join(serials) + "), compare-iops.xlsx lists them; check: " +
      ", ".join(f'{d["serial"]} {"PASS" if d["pass"] else "FAIL"}' for d in check["drives"]))
PY
echo "slurm fleet: ok ($(( $(date +%s) - t_start )) s wall)"
