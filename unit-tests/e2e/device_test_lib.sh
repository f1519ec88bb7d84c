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
