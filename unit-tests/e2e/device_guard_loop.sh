#!/usr/bin/env bash
# device_guard_loop.sh PTSUITE — the destructive-target guard on real loop devices (root):
# refuses a mounted ext4 loop, a loop with a partition table, an active swap loop and a wrong
# serial (exit 3, nothing written); purges a clean loop by discard and verifies it. Loop
# devices and mounts are cleaned up on exit. Skips (77) when not root.
set -u
P=$1
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices, mount)"; exit 77; }
for c in losetup mkfs.ext4 sfdisk mkswap swapon mount; do
  command -v "$c" > /dev/null || { echo "FAIL: $c missing (tools/install-deps.sh --test)"; exit 1; }
done
source "$(dirname "$0")/device_test_lib.sh"
T=$(mktemp -d /var/tmp/ptsuite-guard.XXXXXX)
OUT=$T/out
loops=()
cleanup() {
  mountpoint -q "$T/mnt" && umount "$T/mnt"
  for l in "${loops[@]}"; do swapoff "$l" 2> /dev/null; losetup -d "$l" 2> /dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
new_loop() {  # new_loop NAME [losetup options]: a 64 MiB loop device over a fresh file
  local img=$T/$1.img
  shift
  truncate -s 64M "$img"
  [ -n "${PART:-}" ] && printf 'label: gpt\n,16M\n' | sfdisk -q "$img"
  L=$(losetup -f --show "$@" "$img") || { fail "losetup $img"; exit 1; }
  loops+=("$L")
}
serial_of() { "$P" info "$1" --json | sed -n 's/^  "serial": "\(.*\)",$/\1/p'; }
sum_of() { dd if="$1" bs=1M count=64 iflag=direct 2> /dev/null | md5sum; }

new_loop mounted
mkfs.ext4 -q "$L" && mkdir -p "$T/mnt" && mount "$L" "$T/mnt" || { fail "mount ext4 on $L"; exit 1; }
echo data > "$T/mnt/file" && sync
before=$(sum_of "$L")
expect_rc "purge of mounted $L" 3 "$P" purge "$L" --confirm "$(serial_of "$L")"
expect_text "says mounted" "it is mounted: $L on $T/mnt \(ext4\)"
[ "$(sum_of "$L")" = "$before" ] && pass "mounted loop untouched" || fail "mounted loop changed"
umount "$T/mnt"

PART=1 new_loop partitioned -P
expect_rc "purge of partitioned $L" 3 "$P" purge "$L" --confirm "$(serial_of "$L")"
# the kernel's partitions, or the table on disk when the kernel has no partition support
expect_text "says partitions" "it has partitions \($(basename "$L")p1\)|it has a partition table \(GPT\) on disk"

new_loop swap
if mkswap -q "$L" > /dev/null 2>&1 && swapon "$L" 2> /dev/null; then
  expect_rc "purge of swap $L" 3 "$P" purge "$L" --confirm "$(serial_of "$L")"
  expect_text "says swap" "active swap"
  swapoff "$L"
else
  echo "NOTE swapon refused on this host: swap case not checked"
fi

new_loop clean
head -c 1M /dev/urandom | dd of="$L" bs=1M oflag=direct 2> /dev/null
before=$(sum_of "$L")
serial=$(serial_of "$L")
[[ $serial == LOOP-*:* ]] && pass "loop serial $serial" || fail "loop serial '$serial'"
expect_rc "purge of $L with a wrong serial" 3 "$P" purge "$L" --confirm "X$serial"
[ "$(sum_of "$L")" = "$before" ] && pass "wrong serial: loop untouched" || fail "wrong serial: loop changed"
expect_rc "purge of clean $L" 0 "$P" purge "$L" --confirm "$serial" --json
cp "$OUT" "$T/purge.json"
[ "$(json_field "$T/purge.json" method)" = discard ] && pass "auto method discard" || fail "method"
[ "$(json_field "$T/purge.json" is_snia_purge)" = false ] && pass "discard is not a SNIA purge" || fail "snia"
grep -q '"passed": true' "$T/purge.json" && pass "verification passed" || fail "verification"
[ "$(sum_of "$L")" = "$(head -c 64M /dev/zero | md5sum)" ] && pass "loop reads as zeroes" || fail "loop not zeroed"

echo "== $fails failed check(s)"
[ "$fails" -eq 0 ]
