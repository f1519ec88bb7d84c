#!/usr/bin/env bash
# device_guard_loop.sh PTSUITE — the destructive-target guard on real loop devices (root):
# refuses a mounted ext4 loop (purge with every --purge method, and a run whose plan does not
# fit: the guard runs first, exit 3), a loop with a partition table, an active swap loop and a wrong
# confirmation (exit 3), and every refused command leaves the checksum of the WHOLE device
# unchanged; a LOOP-… serial (made up by ptsuite) is no confirmation, the backing file is;
# purges a clean loop by discard and verifies it. Loop devices and mounts are cleaned up on
# exit. Skips (77) when not root. (unit-tests/e2e/device_guard_matrix.sh tries every writing
# command on every case.)
set -u
P=$1
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices, mount)"; exit 77; }
for c in losetup mkfs.ext4 sfdisk mkswap swapon mount; do
  command -v "$c" > /dev/null || { echo "FAIL: $c missing (tools/install-deps.sh --test)"; exit 1; }
done
source "$(dirname "$0")/device_test_lib.sh"
T=$(mktemp -d /var/tmp/ptsuite-guard.XXXXXX)
OUT=$T/out
export PTSUITE_DEMO_TARGET=$T/demo.img
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
  IMG=$img
  loops+=("$L")
}
field_of() { "$P" info "$1" --json | sed -n "s/^  \"$2\": \"\\(.*\\)\",\$/\\1/p"; }
# refused NAME DEV CMD...: CMD exits 3 and the whole of DEV reads the same before and after
refused() {
  local name=$1 dev=$2 before
  shift 2
  before=$(sum_of "$dev")
  expect_rc "$name" 3 "$@"
  [ "$(sum_of "$dev")" = "$before" ] && pass "$name: whole device unchanged" || fail "$name: the device changed"
}

new_loop mounted
# Inode tables and journal written now: the kernel's lazy init would write them after the
# mount, and the device's bytes must change only by what ptsuite does (it must do nothing).
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$L" && mkdir -p "$T/mnt" && mount "$L" "$T/mnt" || { fail "mount ext4 on $L"; exit 1; }
echo data > "$T/mnt/file" && sync
refused "purge of mounted $L" "$L" "$P" purge "$L" --confirm "$IMG"
expect_text "says mounted" "it is mounted: $L on $T/mnt \(ext4\)"
# The guard runs first: whatever --purge asks for (even a method this target cannot do) and
# whatever the plan (even one that does not fit), an in-use target is exit 3 with its reason.
for m in auto discard format-user format-crypto sanitize-block sanitize-crypto recreate none; do
  refused "purge --purge $m of mounted $L" "$L" "$P" purge "$L" --confirm "$IMG" --purge "$m"
  expect_text "purge --purge $m says mounted" "it is mounted: $L on $T/mnt"
done
refused "run with a plan that does not fit, mounted $L" "$L" "$P" run iops "$L" --out "$T/run-oio" --confirm "$IMG" \
  --oio 40000
expect_text "run --oio 40000 says mounted" "it is mounted: $L on $T/mnt"
umount "$T/mnt"

PART=1 new_loop partitioned -P
for cmd in "purge $L" "spec $L --rw randwrite --seconds 0.2" "run iops $L --out $T/run-part --cell-seconds 0.05"; do
  # shellcheck disable=SC2086
  refused "${cmd%% *} of partitioned $L" "$L" "$P" $cmd --confirm "$IMG"
  # the kernel's partitions, or the table on disk when the kernel has no partition support
  expect_text "${cmd%% *} says partitions" "it has partitions \($(basename "$L")p1\)|partition table"
done

new_loop swap
if mkswap -q "$L" > /dev/null 2>&1 && swapon "$L" 2> /dev/null; then
  before=$(mark_of "$L")
  expect_rc "purge of swap $L" 3 "$P" purge "$L" --confirm "$IMG"
  if why=$(unchanged_since "$L" "$before"); then pass "purge of swap $L: unchanged$why"
  else fail "purge of swap $L: the device changed$why"; fi
  expect_text "says swap" "active swap"
  swapoff "$L"
else
  echo "NOTE swapon refused on this host: swap case not checked"
fi

new_loop clean
head -c 1M /dev/urandom | dd of="$L" bs=1M oflag=direct 2> /dev/null
serial=$(field_of "$L" serial)
[[ $serial == LOOP-*:* ]] && pass "loop serial $serial (made up)" || fail "loop serial '$serial'"
[ "$(field_of "$L" confirm_with)" = "$IMG" ] && pass "confirm_with names the backing file" || fail "confirm_with"
refused "purge of $L confirmed with its made-up serial" "$L" "$P" purge "$L" --confirm "$serial"
expect_text "says the serial is made up" "is a name ptsuite made up"
refused "purge of $L with a wrong confirmation" "$L" "$P" purge "$L" --confirm "$T/swap.img"
expect_rc "purge of clean $L" 0 "$P" purge "$L" --confirm "$IMG" --json
cp "$OUT" "$T/purge.json"
[ "$(json_field "$T/purge.json" method)" = discard ] && pass "auto method discard" || fail "method"
[ "$(json_field "$T/purge.json" is_snia_purge)" = false ] && pass "discard is not a SNIA purge" || fail "snia"
grep -q '"passed": true' "$T/purge.json" && pass "verification passed" || fail "verification"
grep -q '"method": "backing-file"' "$T/purge.json" && pass "consent recorded: backing-file" || fail "consent"
[ "$(sum_of "$L")" = "$(head -c 64M /dev/zero | md5sum)" ] && pass "loop reads as zeroes" || fail "loop not zeroed"

echo "== $fails failed check(s)"
[ "$fails" -eq 0 ]
