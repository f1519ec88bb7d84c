#!/usr/bin/env bash
# unit-tests/e2e/pts_phase_bad_input.sh PTSUITE — bad input of WSAT, HIR, XSR, DIRTH and ECW (issue #11):
# a negative wait state, a bs_split not summing to 100, zone shares not summing to 100, a
# TC × QD grid larger than the target supports, an ART ceiling <= 0 (in the file and as
# --art-ceiling). Each is refused with exit 2 and a message naming file:line or the option,
# with consent given (so only the input stops it), before any device I/O: the target's bytes
# are unchanged and no run directory is made.
source "$(dirname "$0")/lib.sh"
DEFS=$(cd "$HERE/../../tests-pts" && pwd)
make_target 32M
dd if=/dev/urandom of="$TARGET" bs=1M count=32 conv=fsync status=none
before=$(sha256sum <"$TARGET")

# edited DEF SED-SCRIPT: a copy of tests-pts/DEF.toml changed by SED-SCRIPT (must change it).
edited() {
  local out=$WORK/$1-$RANDOM.toml
  sed -e "$2" "$DEFS/$1.toml" >"$out"
  ! cmp -s "$out" "$DEFS/$1.toml" || fail "sed '$2' did not change $1.toml"
  echo "$out"
}

n=0
expect2() {  # expect2 NAME PATTERN DEF ARGS...: exit 2, stderr holds every |-separated pattern
  local name=$1 pattern=$2 def=$3; shift 3
  local rc=0 out=$WORK/out-$name
  "$PTSUITE" run "$def" "${TARGET_ARGS[@]}" --out "$out" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
  [ "$rc" = 2 ] || { cat "$WORK/$name.err"; fail "$name: exit $rc, expected 2"; }
  IFS='|' read -ra pats <<<"$pattern"
  for p in "${pats[@]}"; do grep -qF -- "$p" "$WORK/$name.err" || { cat "$WORK/$name.err"; fail "$name: no '$p' in the message"; }; done
  [ "$(sha256sum <"$TARGET")" = "$before" ] || fail "$name: the target changed"
  [ ! -e "$out" ] || fail "$name: a run directory was made"
  echo "$name: ok ($(head -1 "$WORK/$name.err"))"
  n=$((n + 1))
}

# The line of the first key `$2 =` in file $1 (messages name file:line).
line_of() { grep -n -m1 "^$2 *=" "$1" | cut -d: -f1; }
hir=$(edited hir 's/^wait_seconds = .*/wait_seconds = [5, -10, 15]/')
expect2 negative-wait "$hir:$(line_of "$hir" wait_seconds): [hir] wait_seconds: -10 is not an idle time" "$hir"
ecw=$(edited ecw '0,/{ bs = "4k", pct = 67 }/s//{ bs = "4k", pct = 66 }/')
expect2 bs-split-99 "$ecw:$(line_of "$ecw" bs_split): [workload.ecw] bs_split shares sum to 99 %, not 100 %" "$ecw"
ecw=$(edited ecw '0,/^zones = "50\/5:30\/15:20\/80"/s//zones = "50\/5:30\/15:10\/80"/')
expect2 zones-90 "$ecw:$(line_of "$ecw" zones): [workload.ecw] zones '50/5:30/15:10/80': zone shares of the I/Os sum to 90 %" "$ecw"
dirth=$(edited dirth 's/^queue_depths = .*/queue_depths = [40000, 1]/')
expect2 grid-too-large "$dirth:$(line_of "$dirth" thread_counts): [dirth] thread_counts x queue_depths: point TC 32 / QD 40000 is larger than the target supports" "$dirth"
dirth=$(edited dirth 's/^art_ceiling_ms = 5/art_ceiling_ms = -1/')
expect2 ceiling-negative "$dirth:$(line_of "$dirth" art_ceiling_ms): [dirth] art_ceiling_ms = -1 must be greater than 0" "$dirth"
expect2 ceiling-option "--art-ceiling: '0' is not an ART ceiling" dirth --art-ceiling 0
# Every problem at once: two in the file and one option.
ecw=$(edited ecw '0,/{ bs = "4k", pct = 67 }/s//{ bs = "4k", pct = 66 }/; 0,/^zones = "50\/5:30\/15:20\/80"/s//zones = "50\/5:30\/15:10\/80"/')
expect2 all-at-once "bs_split shares sum to 99 %|zone shares of the I/Os sum to 90 %|--art-ceiling: '-2'" "$ecw" --art-ceiling -2
echo "phase tests' bad input: $n cases refused with exit 2, target unchanged"
