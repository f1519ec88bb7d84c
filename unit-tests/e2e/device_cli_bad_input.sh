#!/usr/bin/env bash
# device_cli_bad_input.sh PTSUITE — bad input to `info` / `purge` on files and unsuitable
# nodes: one clear message, the documented exit code, the target untouched; then a purge
# of the file (recreate, a deviation) that verification proves. No root needed.
set -u
P=$1
source "$(dirname "$0")/device_test_lib.sh"
T=$(mktemp -d /var/tmp/ptsuite-devcli.XXXXXX)
trap 'rm -rf "$T"' EXIT
OUT=$T/out
F=$T/target.img
head -c $((8 << 20)) /dev/urandom > "$F"
sum=$(md5sum < "$F")
untouched() { [ "$(md5sum < "$F")" = "$sum" ] && pass "$1: file untouched" || fail "$1: file changed"; }

expect_rc "info of a missing target" 2 "$P" info "$T/missing"
expect_text "names the missing target" "TARGET $T/missing: no such file"
expect_rc "info of /dev/null" 2 "$P" info /dev/null
expect_text "says it is no NVMe node" "neither an NVMe controller nor an NVMe generic node"
expect_rc "info of a directory" 2 "$P" info "$T"
expect_rc "info with an unknown option" 2 "$P" info "$F" --bogus
expect_text "names the option" "--bogus: unknown option"

expect_rc "info --json of a file" 0 "$P" info "$F" --json
cp "$OUT" "$T/info.json"
serial=$(json_field "$T/info.json" serial)
[[ $serial == FILE-*:* ]] && pass "file serial $serial" || fail "file serial '$serial'"
[ "$(json_field "$T/info.json" capacity_bytes)" = $((8 << 20)) ] && pass "capacity_bytes" || fail "capacity_bytes"
[ "$(json_field "$T/info.json" purge_auto)" = recreate ] && pass "auto purge = recreate" || fail "purge_auto"

[ "$(json_field "$T/info.json" confirm_with)" = "$F" ] && pass "a file is confirmed with its path" || fail "confirm_with"
expect_rc "purge with a wrong confirmation" 3 "$P" purge "$F" --confirm WRONG
expect_text "says what confirms it" "does not confirm $F: it takes its path"
untouched "wrong confirmation"
expect_rc "purge confirmed with the made-up serial" 3 "$P" purge "$F" --confirm "$serial"
expect_text "says the serial is made up" "is a name ptsuite made up"
expect_rc "purge without --confirm (no terminal)" 3 "$P" purge "$F"
expect_text "asks for --confirm" "pass --confirm with its path"
untouched "no confirmation"
expect_rc "purge --purge sanitize-crypto on a file" 2 "$P" purge "$F" --confirm "$F" --purge sanitize-crypto
expect_text "names the supported methods" "supported: recreate, none"
untouched "unsupported method"
expect_rc "purge --purge bogus" 2 "$P" purge "$F" --confirm "$F" --purge bogus
expect_text "lists the valid methods" "--purge: .bogus. is not a purge method \(valid: auto, sanitize-crypto"
expect_rc "purge with --confirm but no value" 2 "$P" purge "$F" --confirm
untouched "bad flags"

expect_rc "purge of the file" 0 "$P" purge "$F" --confirm "$F" --json
cp "$OUT" "$T/purge.json"
[ "$(json_field "$T/purge.json" method)" = recreate ] && pass "method recreate" || fail "method"
[ "$(json_field "$T/purge.json" is_snia_purge)" = false ] && pass "not a SNIA purge" || fail "is_snia_purge"
grep -q '"passed": true' "$T/purge.json" && pass "verification passed" || fail "verification"
cmp -s "$F" <(head -c $((8 << 20)) /dev/zero) && pass "file reads as zeroes" || fail "file not zeroed"
expect_rc "serial unchanged by the purge" 0 "$P" info "$F" --json
[ "$(json_field "$OUT" serial)" = "$serial" ] && pass "same serial after recreate" || fail "serial changed"

echo "== $fails failed check(s)"
[ "$fails" -eq 0 ]
