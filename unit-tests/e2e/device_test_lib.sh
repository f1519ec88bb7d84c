# device_test_lib.sh — helpers shared by the device e2e scripts (sourced, bash).
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# expect_rc NAME WANT CMD...: runs CMD (stdout+stderr in $OUT), checks its exit status.
expect_rc() {
  local name=$1 want=$2 rc
  shift 2
  "$@" > "$OUT" 2>&1 < /dev/null
  rc=$?
  if [ "$rc" -eq "$want" ]; then pass "$name (exit $rc)"; else
    fail "$name: exit $rc, expected $want"
    sed 's/^/    | /' "$OUT"
  fi
}
# expect_text NAME PATTERN: $OUT contains the extended regex PATTERN.
expect_text() {
  if grep -Eq -- "$2" "$OUT"; then pass "$1"; else fail "$1: no /$2/ in: $(cat "$OUT")"; fi
}
# json_field FILE KEY: a top-level value of ptsuite's indented JSON, unquoted.
json_field() { sed -n "s/^  \"$2\": //p" "$1" | head -1 | sed 's/,$//; s/^"//; s/"$//'; }
sum_of() { dd if="$1" bs=1M iflag=direct 2> /dev/null | md5sum; }  # the whole device or file
# An active swap area is the kernel's to write: under memory pressure it swaps pages out to it
# while a case runs, though ptsuite wrote nothing. For such a device mark_of also records
# the kernel's swap-out count (pswpout, pages), the sectors written to it (/proc/diskstats) and
# its header page; unchanged_since then accepts a changed device only when it is the only swap
# area, its header reads the same, and every sector written to it since the mark is accounted
# for by a kernel swap-out — a single byte written by anyone else is a sector too many.
is_active_swap() { awk -v d="$1" 'NR > 1 && $1 == d {f = 1} END {exit !f}' /proc/swaps; }
written_sectors() { awk -v d="$(basename "$(readlink -f "$1")")" '$3 == d {print $10}' /proc/diskstats; }
pswpout() { awk '$1 == "pswpout" {print $2}' /proc/vmstat; }
page0() { dd if="$1" bs=4096 count=1 iflag=direct 2> /dev/null | md5sum; }
# no_writes_in_flight DEV: waits (up to 2 s) until DEV has no write in flight, so that every
# swap-out pswpout has counted has reached /proc/diskstats too (it counts at submission, the
# sectors at completion)
no_writes_in_flight() {
  local f i
  f=/sys/block/$(basename "$(readlink -f "$1")")/inflight
  for i in $(seq 1 40); do [ "$(awk '{print $2}' "$f")" = 0 ] && return 0; sleep 0.05; done
}
# mark_of DEV: what unchanged_since compares
mark_of() {
  if is_active_swap "$1"; then
    no_writes_in_flight "$1"
    echo "$(sum_of "$1")|$(pswpout)|$(written_sectors "$1")|$(page0 "$1")"
  else sum_of "$1"; fi
}
# unchanged_since DEV MARK: status 0 when DEV is as at MARK (see above); prints why it judged so
unchanged_since() {
  local sum out0 sec0 head0 out1 sec1 per_page
  IFS='|' read -r sum out0 sec0 head0 <<< "$2"
  [ "$(sum_of "$1")" = "$sum" ] && return 0
  [ -n "$out0" ] || return 1
  out1=$(pswpout) sec1=$(written_sectors "$1") per_page=$(($(getconf PAGESIZE) / 512))
  echo " (changed: $((sec1 - sec0)) sectors written to it, the kernel swapped out $((out1 - out0)) pages meanwhile)"
  [ "$(grep -c '^/' /proc/swaps)" = 1 ] && [ "$(page0 "$1")" = "$head0" ] &&
    [ $((sec1 - sec0)) -le $(((out1 - out0) * per_page)) ]
}
