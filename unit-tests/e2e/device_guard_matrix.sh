#!/usr/bin/env bash
# device_guard_matrix.sh PTSUITE — the guard matrix on small loop devices (root): every case
# below x every command that can write (spec, purge, run, resume), each checked for exit 3,
# for the reason it names, AND for an unchanged md5 of the whole device (or file) around it.
# Every command gets the right confirmation, so only the guard can stop it.
# Cases: mounted read-only; mounted in another mount namespace only (unshare -m, a background
# holder); an on-disk GPT without kernel partitions (no partscan); the partition device itself
# (losetup -P); active swap; an ext4 signature never mounted; an LVM PV (pvcreate); a file that
# backs a mounted loop device; a file held open by another process; a second ptsuite on the same
# device; no --confirm at all; and resume of a run whose path now names another device.
# `resume` gets a real run directory: before each case is set up, a run on that same target is
# killed (kill -9) after its first cells, so a broken guard would let resume carry on writing
# (the partition case, where ptsuite cannot start a run, gets a copy of one whose device path
# is rewritten). Controls show the md5 check can see writes: a clean device is written, and
# --force-signatures writes over the ext4 signature (recorded as a deviation). dm-linear holders
# are checked in the QEMU guest (unit-tests/e2e/vm/guest-device.sh). Skips (77) when not root.
set -u
P=$1
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices, mount, unshare)"; exit 77; }
for c in losetup mkfs.ext4 sfdisk addpart mkswap swapon mount unshare pvcreate md5sum python3; do
  command -v "$c" > /dev/null || { echo "FAIL: $c missing (tools/install-deps.sh --test)"; exit 1; }
done
source "$(dirname "$0")/device_test_lib.sh"
T=$(mktemp -d /var/tmp/ptsuite-matrix.XXXXXX)
OUT=$T/out
export PTSUITE_DEMO_TARGET=$T/demo.img
loops=() pids=() mounts=() swaps=()
cleanup() {
  for p in "${pids[@]}"; do kill -CONT "$p" 2> /dev/null; kill -9 "$p" 2> /dev/null; wait "$p" 2> /dev/null; done
  for m in "${mounts[@]}"; do mountpoint -q "$m" && umount "$m"; done
  for s in "${swaps[@]}"; do swapoff "$s" 2> /dev/null; done
  for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
start=$SECONDS

img() { truncate -s 16M "$T/$1.img" && echo "$T/$1.img"; }  # img NAME: a fresh 16 MiB file
loop() {  # loop IMG [losetup options]: sets L
  L=$(losetup -f --show "${@:2}" "$1") || { fail "losetup $1"; exit 1; }
  loops+=("$L")
}
# prep_run TARGET CONFIRM DIR: a real run on TARGET, killed (-9) after its first cells
prep_run() {
  "$P" run iops "$1" --confirm "$2" --out "$3" --cell-seconds 0.05 --purge none --no-report --quiet \
    > "$3.log" 2>&1 &
  local pid=$! i
  for i in $(seq 1 400); do
    [ "$(grep -c '"event":"cell"' "$3/journal.jsonl" 2> /dev/null)" -ge 2 ] 2> /dev/null && break
    sleep 0.05
  done
  kill -9 "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  grep -q '"event":"cell"' "$3/journal.jsonl" 2> /dev/null || { fail "prep run on $1: $(cat "$3.log")"; exit 1; }
  # the kernel drops a killed process's io_uring (and its hold on the device) a little later
  [ -b "$1" ] && { wait_free "$1" || { fail "$1 still busy after the prep run"; exit 1; }; }
  return 0
}
wait_free() {  # wait_free DEV: until DEV can be opened exclusively (up to 5 s)
  python3 - "$1" << 'PY'
import os, sys, time
for _ in range(100):
    try:
        os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
PY
}
must() { "$@" > "$T/setup.log" 2>&1 || { fail "set-up failed: $* ($(cat "$T/setup.log"))"; exit 1; }; }
# matrix CASE TARGET SUMDEV RUNDIR REASON [--confirm X]: spec, purge, run and resume of TARGET
# each exit 3 naming REASON (extended regex), and SUMDEV reads the same before and after each.
matrix() {
  local name=$1 target=$2 sumdev=$3 rundir=$4 reason=$5 before why
  shift 5
  local cmds=("spec $target --rw randwrite --seconds 0.2" "purge $target"
              "run iops $target --out $T/new-$name --cell-seconds 0.05" "resume $rundir")
  for cmd in "${cmds[@]}"; do
    before=$(mark_of "$sumdev")
    # shellcheck disable=SC2086
    expect_rc "$name: ${cmd%% *}" 3 "$P" $cmd "$@"
    expect_text "$name: ${cmd%% *} names the reason" "$reason"
    if why=$(unchanged_since "$sumdev" "$before"); then pass "$name: ${cmd%% *} left $sumdev unchanged$why"
    else fail "$name: ${cmd%% *} CHANGED $sumdev$why"; fi
  done
}

echo "== mounted read-only"
I=$(img ro); loop "$I"; prep_run "$L" "$I" "$T/run-ro"
must mkfs.ext4 -q "$L"; mkdir -p "$T/m-ro"; must mount -o ro "$L" "$T/m-ro"; mounts+=("$T/m-ro")
matrix mounted-ro "$L" "$L" "$T/run-ro" "it is mounted: $L on $T/m-ro \(ext4\)" --confirm "$I"
umount "$T/m-ro"

echo "== mounted in another mount namespace only"
I=$(img ns); loop "$I"; prep_run "$L" "$I" "$T/run-ns"
must mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$L"
# The holder's mount must not propagate back to us. `unshare --propagation private` remounts /
# private, which fails where / is not a mount point (a chroot, as in CI's fresh system), so the
# mount goes under a private bind mount of our own instead: its copy in the new namespace is
# private too, and nothing mounted beneath it propagates.
mkdir -p "$T/ns"; must mount --bind "$T/ns" "$T/ns"; mounts+=("$T/ns"); must mount --make-private "$T/ns"
mkdir -p "$T/ns/m"
unshare -m --propagation unchanged sh -c "mount -o ro '$L' '$T/ns/m' && exec sleep 600" & pids+=($!)
holder=$!
for _ in $(seq 1 100); do grep -q " $T/ns/m " "/proc/$holder/mountinfo" 2> /dev/null && break; sleep 0.05; done
grep -q " $T/ns/m " "/proc/$holder/mountinfo" || { fail "no mount in pid $holder's namespace"; exit 1; }
grep -q " $T/ns/m " /proc/self/mountinfo && fail "the mount leaked into our namespace"
matrix other-namespace "$L" "$L" "$T/run-ns" "mounted: $L on $T/ns/m \(ext4\) in the mount namespace of pid $holder" \
  --confirm "$I"
kill -9 "$holder"; wait "$holder" 2> /dev/null; umount "$T/ns"

echo "== GPT on disk, no kernel partitions (no partscan)"
I=$(img gpt); loop "$I"; prep_run "$L" "$I" "$T/run-gpt"
printf 'label: gpt\n,8M\n' | sfdisk -q --no-reread "$L" > "$T/setup.log" 2>&1 || fail "sfdisk $L: $(cat "$T/setup.log")"
ls "/sys/class/block/$(basename "$L")/" | grep -q "p1$" && fail "the kernel scanned partitions of $L"
matrix gpt-no-partscan "$L" "$L" "$T/run-gpt" "gpt partition table" --confirm "$I"

echo "== the partition device itself (losetup -P)"
I=$(img part); printf 'label: gpt\n,8M\n' | sfdisk -q "$I"; loop "$I" -P
PL=$L
for _ in $(seq 1 40); do [ -b "${PL}p1" ] && break; sleep 0.05; done
# a kernel without partition-table parsers scans nothing: add the table's partition by hand
# (BLKPG, what partx/addpart do: sectors 2048.. of 16384)
[ -b "${PL}p1" ] || must addpart "$PL" 1 2048 16384
for _ in $(seq 1 40); do [ -b "${PL}p1" ] && break; sleep 0.05; done
if [ -b "${PL}p1" ]; then
  # ptsuite refuses to start a run on a partition: resume gets a real run's directory (from a
  # scratch device) whose device path is rewritten to the partition
  J=$(img part-base); loop "$J"; prep_run "$L" "$J" "$T/run-part-base"
  python3 - "$T/run-part-base" "$T/run-part" "${PL}p1" << 'PY'
import json, os, shutil, sys
src, dst, part = sys.argv[1:4]
shutil.copytree(src, dst)
lines = []
for line in open(os.path.join(dst, "journal.jsonl")):
    try:
        ev = json.loads(line)
    except ValueError:
        continue  # the torn last line of a kill -9
    if ev.get("event") == "header":
        ev["record"]["device"]["path"] = part
    lines.append(json.dumps(ev, separators=(",", ":")))
open(os.path.join(dst, "journal.jsonl"), "w").write("\n".join(lines) + "\n")
rj = os.path.join(dst, "run.json")
if os.path.exists(rj):
    r = json.load(open(rj))
    r["device"]["path"] = part
    json.dump(r, open(rj, "w"), indent=2)
PY
  matrix partition "${PL}p1" "$PL" "$T/run-part" "it is a partition of /dev/$(basename "$PL")" --confirm "$I"
else
  fail "losetup -P made no ${PL}p1"
fi

echo "== active swap"
I=$(img swap); loop "$I"; prep_run "$L" "$I" "$T/run-swap"
if mkswap -q "$L" > /dev/null 2>&1 && swapon "$L" 2> /dev/null; then
  swaps+=("$L")
  matrix swap "$L" "$L" "$T/run-swap" "it is active swap \($L\)" --confirm "$I"
  swapoff "$L"
else
  fail "swapon $L refused on this host"
fi

echo "== an ext4 signature, never mounted"
I=$(img ext4); loop "$I"; prep_run "$L" "$I" "$T/run-ext4"
must mkfs.ext4 -q "$L"
matrix ext4-signature "$L" "$L" "$T/run-ext4" "libblkid finds ext4 file system \(UUID" --confirm "$I"
EXT4=$L EXT4_IMG=$I

echo "== an LVM physical volume"
I=$(img lvm); loop "$I"; prep_run "$L" "$I" "$T/run-lvm"
must pvcreate -qq -y "$L"
matrix lvm-pv "$L" "$L" "$T/run-lvm" "LVM2_member raid signature" --confirm "$I"

echo "== a file that backs a mounted loop device"
I=$(img backing); prep_run "$I" "$I" "$T/run-backing"
must mkfs.ext4 -q -F "$I"; loop "$I"; mkdir -p "$T/m-back"; must mount -o ro "$L" "$T/m-back"; mounts+=("$T/m-back")
matrix backs-mounted-loop "$I" "$I" "$T/run-backing" "it backs loop device $L, which is mounted: $L on $T/m-back" \
  --confirm "$I"
umount "$T/m-back"; losetup -d "$L"

echo "== a file held open by another process"
I=$(img held); prep_run "$I" "$I" "$T/run-held"
sleep 600 < "$I" & pids+=($!)
sleeper=$!
matrix file-held-open "$I" "$I" "$T/run-held" "is open in another process \(pid $sleeper \(sleep\)\)" --confirm "$I"
kill -9 "$sleeper"; wait "$sleeper" 2> /dev/null

echo "== a second ptsuite on the same device"
I=$(img second); loop "$I"; prep_run "$L" "$I" "$T/run-second"
"$P" spec "$L" --rw randwrite --seconds 120 --confirm "$I" > /dev/null 2>&1 & pids+=($!)
first=$!
for _ in $(seq 1 100); do ls -l "/proc/$first/fd" 2> /dev/null | grep -q " $L$" && break; sleep 0.05; done
kill -STOP "$first"; sleep 0.3  # it holds the device but writes nothing while stopped
matrix second-ptsuite "$L" "$L" "$T/run-second" "held exclusively .*open in pid $first \(ptsuite\)" --confirm "$I"
kill -CONT "$first"; kill -9 "$first"; wait "$first" 2> /dev/null

echo "== no --confirm"
I=$(img noconfirm); loop "$I"; prep_run "$L" "$I" "$T/run-noconfirm"
matrix no-confirm "$L" "$L" "$T/run-noconfirm" "would be overwritten; pass --confirm with .*the path of its backing file"

echo "== resume when the path now names another device"
I=$(img before); loop "$I"; prep_run "$L" "$I" "$T/run-moved"
losetup -d "$L"; wait_free "$L"; K=$(img after); head -c 1M /dev/urandom | dd of="$K" conv=notrunc 2> /dev/null
if losetup "$L" "$K" 2> /dev/null; then
  before=$(sum_of "$L")
  expect_rc "another device: resume" 3 "$P" resume "$T/run-moved" --confirm "$K"
  expect_text "another device: says so" "now resolves to another device than the one this run started on"
  expect_text "another device: names the change" "identity changed on $L .*serial 'LOOP-"
  [ "$(sum_of "$L")" = "$before" ] && pass "another device: resume left $L unchanged" || fail "another device: resume CHANGED $L"
else
  echo "NOTE $L was taken by someone else meanwhile: case skipped"
fi

echo "== controls: the checksum sees writes"
I=$(img clean); loop "$I"
before=$(sum_of "$L")
expect_rc "clean device: spec randwrite" 0 "$P" spec "$L" --rw randwrite --seconds 0.3 --confirm "$I"
[ "$(sum_of "$L")" != "$before" ] && pass "clean device: written (md5 changed)" || fail "clean device: md5 unchanged"
before=$(sum_of "$EXT4")
expect_rc "ext4 + --force-signatures: spec" 0 "$P" spec "$EXT4" --rw randwrite --seconds 0.3 --confirm "$EXT4_IMG" \
  --force-signatures
expect_text "--force-signatures is a recorded deviation" "deviation \[force-signatures\] .*ext4 file system"
[ "$(sum_of "$EXT4")" != "$before" ] && pass "ext4 + --force-signatures: written" || fail "forced spec wrote nothing"

echo "== $fails failed check(s) in $((SECONDS - start)) s"
[ "$fails" -eq 0 ]
