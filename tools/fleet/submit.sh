#!/usr/bin/env bash
# tools/fleet/submit.sh — submits a fleet run of one PTS test to Slurm: one job array per node
# (one task per drive of that node in the inventory, tools/fleet/ptsuite-drive.sbatch), and a
# job that runs once every task has ended (--dependency=afterany) and compares the runs and
# checks them against a requirement sheet (tools/fleet/ptsuite-fleet-report.sbatch). Run
# directories go to SHARED/TEST-YYYYMMDD-HHMMSS/NAME, which every node must see at the same path.
#
# Usage: tools/fleet/submit.sh --inventory FILE --test TEST --shared DIR [--spec SHEET.toml]
#                              [--ptsuite PATH] [--partition P] [-- RUN OPTIONS...]
#   --inventory FILE   the drives: NODE NAME TARGET CONFIRM per line (tools/fleet/inventory.example)
#   --test TEST        the PTS test every drive runs (iops, tp, lat, ...)
#   --shared DIR       shared storage for the run directories
#   --spec SHEET.toml  a requirement sheet for `ptsuite check` (default: no check)
#   --ptsuite PATH     the ptsuite binary on the nodes (default: ptsuite on PATH, the package's)
#   --partition P      the Slurm partition (default: the cluster's default)
#   -- RUN OPTIONS     passed to every `ptsuite run` (e.g. --seed 7 --time-scale 0.1)
# Prints the run root and the job ids. Exit 2 on bad input (every problem at once, nothing
# submitted).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed 's/^# \{0,1\}//;$d' >&2; exit 2; }
INVENTORY="" TEST="" SHARED="" SPEC="" PTSUITE_BIN="ptsuite" PARTITION="" RUN_OPTIONS=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --inventory) INVENTORY=${2:-}; shift ;;
    --test) TEST=${2:-}; shift ;;
    --shared) SHARED=${2:-}; shift ;;
    --spec) SPEC=${2:-}; shift ;;
    --ptsuite) PTSUITE_BIN=${2:-}; shift ;;
    --partition) PARTITION=${2:-}; shift ;;
    --) shift; RUN_OPTIONS=("$@"); break ;;
    -h|--help) usage ;;
    *) echo "submit.sh: unknown argument: $1" >&2; usage ;;
  esac
  shift
done

problems=()
[[ -n $INVENTORY ]] || problems+=("--inventory: missing")
[[ -z $INVENTORY || -r $INVENTORY ]] || problems+=("--inventory: cannot read $INVENTORY")
[[ -n $TEST ]] || problems+=("--test: missing")
[[ -n $SHARED ]] || problems+=("--shared: missing")
[[ -z $SHARED || -d $SHARED ]] || problems+=("--shared: $SHARED is not a directory")
[[ -z $SPEC || -r $SPEC ]] || problems+=("--spec: cannot read $SPEC")
PTSUITE=$(command -v "$PTSUITE_BIN" || true)
[[ -n $PTSUITE ]] || problems+=("--ptsuite: $PTSUITE_BIN is not an executable")
command -v sbatch >/dev/null || problems+=("no sbatch: install slurm-client (docs/fleet.md)")
declare -A count names
nodes=()
if [[ -n $INVENTORY && -r $INVENTORY ]]; then
  known=" $( (sinfo -h -N -o '%N' 2>/dev/null || true) | sort -u | tr '\n' ' ') "
  n=0
  while IFS= read -r raw; do
    n=$((n + 1))
    line=${raw%%#*}
    read -r -a f <<<"$line"
    [[ ${#f[@]} -eq 0 ]] && continue
    if [[ ${#f[@]} -ne 4 ]]; then
      problems+=("$INVENTORY:$n: ${#f[@]} columns; want NODE NAME TARGET CONFIRM"); continue
    fi
    node=${f[0]} name=${f[1]}
    [[ $name =~ ^[A-Za-z0-9._-]+$ ]] || problems+=("$INVENTORY:$n: NAME '$name': letters, digits, . _ - only")
    [[ -z ${names[$name]:-} ]] || problems+=("$INVENTORY:$n: NAME '$name' also on line ${names[$name]}")
    names[$name]=$n
    [[ $known == "  " || $known == *" $node "* ]] || problems+=("$INVENTORY:$n: node '$node' is not a node of this cluster (sinfo -N lists:$(printf " %s" $known))")
    [[ -n ${count[$node]:-} ]] || nodes+=("$node")
    count[$node]=$(( ${count[$node]:-0} + 1 ))
  done <"$INVENTORY"
  [[ ${#nodes[@]} -gt 0 ]] || problems+=("$INVENTORY: no drive")
fi
if [[ ${#problems[@]} -gt 0 ]]; then
  for p in "${problems[@]}"; do echo "submit.sh: $p" >&2; done
  exit 2
fi

RUN_ROOT="$(cd "$SHARED" && pwd)/$TEST-$(date -u +%Y%m%d-%H%M%S)"
mkdir "$RUN_ROOT"
cp "$INVENTORY" "$RUN_ROOT/inventory"
{
  printf 'PTSUITE=%q\n' "$PTSUITE"
  printf 'FLEET_TEST=%q\n' "$TEST"
  printf 'FLEET_INVENTORY=%q\n' "$RUN_ROOT/inventory"
  printf 'FLEET_SPEC=%q\n' "${SPEC:+$(cd "$(dirname "$SPEC")" && pwd)/$(basename "$SPEC")}"
  printf 'FLEET_RUN_OPTIONS=('
  [[ ${#RUN_OPTIONS[@]} -eq 0 ]] || printf '%q ' "${RUN_OPTIONS[@]}"
  printf ')\n'
} >"$RUN_ROOT/fleet.env"
part=()
[[ -z $PARTITION ]] || part=(--partition "$PARTITION")
ids=()
for node in "${nodes[@]}"; do
  id=$(sbatch --parsable "${part[@]}" --nodelist="$node" --array="0-$(( count[$node] - 1 ))" \
         --output="$RUN_ROOT/slurm-%A_%a.out" "$HERE/ptsuite-drive.sbatch" "$RUN_ROOT" "$node")
  id=${id%%;*}
  ids+=("$id")
  echo "node $node: job array $id (${count[$node]} drive(s))"
done
dep=$(IFS=:; echo "${ids[*]}")
rid=$(sbatch --parsable "${part[@]}" --dependency="afterany:$dep" --output="$RUN_ROOT/slurm-report-%j.out" \
        "$HERE/ptsuite-fleet-report.sbatch" "$RUN_ROOT")
rid=${rid%%;*}
echo "report job $rid (compare${SPEC:+ and check}) after ${ids[*]}"
echo "run root: $RUN_ROOT"
