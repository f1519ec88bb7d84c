#!/usr/bin/env bash
# e2e_spec_vs_fio: `ptsuite spec` agrees with fio on the same file with the same parameters.
# For each case, ptsuite and fio (ioengine=io_uring, direct=1, fixedbufs, registerfiles —
# the same mechanisms ptsuite uses) run as adjacent pairs, 5 times; the median of the pair
# ratios must be within 15 % (pairs cancel the load of a shared machine). Usage: spec_vs_fio.sh PTSUITE. Exit 77 when fio or O_DIRECT is unavailable.
set -euo pipefail
PTSUITE=${1:?usage: spec_vs_fio.sh PTSUITE}
command -v fio >/dev/null || { echo "SKIP: fio not installed"; exit 77; }
PY=$(command -v /usr/bin/python3 || command -v python3)
# A file on a disk-backed file system by default: there the device bounds both tools. (On
# tmpfs the "device" is a memcpy in the submitting thread, so IOPS measure each tool's CPU
# cost rather than the target; bench/ compares that.)
dir=${SPEC_VS_FIO_DIR:-${TMPDIR:-/tmp}}
file=$(mktemp "$dir/ptsuite-spec-vs-fio.XXXXXX"); rm -f "$file"
trap 'rm -f "$file" "$file.err"' EXIT
SECONDS_PER_RUN=${SPEC_VS_FIO_SECONDS:-2}
PAIRS=${SPEC_VS_FIO_PAIRS:-5}

# Create and fill the file (so reads touch written data), through ptsuite itself.
if ! "$PTSUITE" spec "$file" --size 128m --rw write --bs 1m --oio 4 --seconds 1 >/dev/null 2>"$file.err"; then
  if grep -q "direct I/O" "$file.err"; then echo "SKIP: no O_DIRECT in $dir"; exit 77; fi
  cat "$file.err"; exit 1
fi

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

fail=0
# run_case NAME RW READ_PCT BS THREADS QD: PAIRS adjacent (ptsuite, fio) pairs, alternating
# which goes first; the median of the per-pair IOPS ratios must lie in [0.85, 1.15].
run_case() {
  local name=$1 rw=$2 rpct=$3 bs=$4 threads=$5 qd=$6 p f ratios=() ps=() fs=()
  pts_run() {
    "$PTSUITE" spec "$file" --confirm "$file" --rw "$rw" --read-pct "$rpct" --bs "$bs" --threads "$threads" --oio "$qd" \
      --seconds "$SECONDS_PER_RUN" --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["iops"])'
  }
  fio_run() {
    fio --name=agree --filename="$file" --ioengine=io_uring --direct=1 --fixedbufs=1 --registerfiles=1 \
      --rw="$rw" --rwmixread="$rpct" --bs="$bs" --numjobs="$threads" --iodepth="$qd" --time_based \
      --runtime="$SECONDS_PER_RUN" --norandommap --randrepeat=0 --group_reporting --output-format=json |
      "$PY" -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(j["read"]["iops"]+j["write"]["iops"])'
  }
  for ((i = 0; i < PAIRS; i++)); do
    if ((i % 2 == 0)); then p=$(pts_run); f=$(fio_run); else f=$(fio_run); p=$(pts_run); fi
    ps+=("$(printf '%.0f' "$p")"); fs+=("$(printf '%.0f' "$f")")
    ratios+=("$(awk -v p="$p" -v f="$f" 'BEGIN { printf "%.3f", p / f }')")
  done
  local r verdict
  r=$(median "${ratios[@]}")
  verdict=$(awk -v r="$r" 'BEGIN { print (r >= 0.85 && r <= 1.15) ? "ok" : "FAIL" }')
  printf '%-22s median ratio ptsuite/fio %s %-4s  ptsuite IOPS %s | fio IOPS %s\n' \
    "$name" "$r" "$verdict" "${ps[*]}" "${fs[*]}"
  [ "$verdict" = ok ] || fail=1
}

run_case "randread 4k 1x16" randread 100 4k 1 16
run_case "randrw 70/30 4k 2x4" randrw 70 4k 2 4
run_case "read 128k 1x4" read 100 128k 1 4
exit $fail
