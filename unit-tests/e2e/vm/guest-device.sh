#!/bin/sh
# guest-device.sh — run by unit-tests/e2e/vm/run-nvme-vm.sh inside the QEMU guest (busybox ash, root):
# ptsuite's device layer against a real Linux NVMe driver and QEMU's emulated controller.
# Checks: `info` agrees with nvme-cli (model, serial, firmware, capacity, LBA size) through
# the namespace, controller and generic nodes; the guard refuses the mounted namespace (purge,
# spec and run, each leaving the checksum of the whole namespace unchanged), one held by
# device-mapper and a wrong --confirm without writing; an unsupported --purge is bad input; a
# Format NVM purge succeeds and a pattern written before it is gone; `spec` runs through
# io_uring; `run` (PTS-E enterprise) turns the volatile write cache off on the controller and
# back to its starting value when it ends (and, killed with -9, when its resume ends); a
# second namespace (4 KiB LBAs, attached during the test) is identified, makes the controller
# ambiguous, and is purged without touching the first; then, with the controller made to
# format every namespace at once (the fna_all_ns.c shim), a purge of the first namespace is
# refused while the second is mounted (its checksum unchanged), and goes through — reaching
# the second — once it is not.
# Exit status: the number of failed checks.
NS=${NVME_NS:-/dev/nvme0n1}
CTRL=${NVME_CTRL:-/dev/nvme0}
NG=${NVME_NG:-/dev/ng0n1}
. /usr/lib/ptsvm-guest-lib.sh  # fails, pass, fail, expect_rc, same, nsum (guest-lib.sh)
# jstr FILE KEY: value of a top-level key in ptsuite's indented JSON (strings unquoted)
jstr() { sed -n "s/^  \"$2\": //p" "$1" | head -1 | sed 's/,$//; s/^"//; s/"$//'; }
# ctrl FIELD / ns FIELD: a field of nvme-cli's id-ctrl / id-ns text output, blanks trimmed
ctrl() { nvme id-ctrl "$CTRL" | sed -n "s/^$1 *: \(.*\)\$/\1/p" | sed 's/ *$//'; }
ns() { nvme id-ns "$NS" | sed -n "s/^$1 *: \(.*\)\$/\1/p" | sed 's/ *$//'; }
# refused NAME DEV CMD...: CMD exits 3 and the whole of DEV reads the same before and after
# (back-to-back calls on one device reuse the last checksum as the next "before": each
# checksum of 256 MiB costs seconds under emulation; call `fresh` after anything else writes)
sum_dev="" sum_val=""
fresh() { sum_dev=""; }
refused() {
  rname=$1 rdev=$2
  shift 2
  [ "$sum_dev" = "$rdev" ] || { sum_val=$(nsum "$rdev"); sum_dev=$rdev; }
  expect_rc "$rname" 3 "$@"
  rafter=$(nsum "$rdev")
  [ "$rafter" = "$sum_val" ] && pass "$rname: whole $rdev unchanged" || fail "$rname: $rdev changed"
  sum_val=$rafter
}
# zeroes OFFSET_BLOCKS: true when the 4 KiB block there reads as zeroes (O_DIRECT)
zeroes() { dd if="$NS" bs=4096 skip="$1" count=1 iflag=direct 2>/dev/null | cmp -s - /tmp/zero4k; }
head -c 4096 /dev/zero > /tmp/zero4k

echo "== info agrees with nvme-cli [$(cut -d' ' -f1 /proc/uptime) s]"
expect_rc "info --json $NS" 0 ptsuite info "$NS" --json
cp /tmp/out /tmp/info.json
SERIAL=$(ctrl sn)
lbads=$(nvme id-ns "$NS" | sed -n 's/^lbaf *[0-9]* : ms:[0-9]* *lbads:\([0-9]*\) .*in use.*/\1/p')
lba=$((1 << lbads))
same "model" "$(jstr /tmp/info.json model)" "$(ctrl mn)"
same "serial" "$(jstr /tmp/info.json serial)" "$SERIAL"
same "firmware" "$(jstr /tmp/info.json firmware)" "$(ctrl fr)"
same "lba_size" "$(jstr /tmp/info.json lba_size)" "$lba"
same "capacity_bytes (nsze x LBA size)" "$(jstr /tmp/info.json capacity_bytes)" "$(($(ns nsze) * lba))"
same "capacity_bytes (blockdev)" "$(jstr /tmp/info.json capacity_bytes)" "$(blockdev --getsize64 "$NS")"
same "namespace_id" "$(jstr /tmp/info.json namespace_id)" "$(cat /sys/class/block/nvme0n1/nsid)"
same "nvme_version" "$(jstr /tmp/info.json nvme_version)" "1.4"
# Get Features 06h: "Current value:0x00000001" (nvme-cli 2.3 drops the 0x for zero)
vwc_now() { nvme get-feature "$CTRL" -f 6 | sed -n 's/.*Current value: *\(0x\)\{0,1\}\([0-9a-f]*\).*/\2/p'; }
[ "$((0x$(vwc_now) & 1))" -eq 1 ] && want_wc=enabled || want_wc=disabled
same "write_cache (Get Features 06h)" "$(jstr /tmp/info.json write_cache)" "$want_wc"
for node in "$CTRL" "$NG"; do  # the controller has one attached namespace so far
  expect_rc "info --json $node" 0 ptsuite info "$node" --json
  same "serial via $node" "$(jstr /tmp/out serial)" "$SERIAL"
  same "capacity via $node" "$(jstr /tmp/out capacity_bytes)" "$(jstr /tmp/info.json capacity_bytes)"
done
ptsuite info "$NS"

echo "== bad input and the guard write nothing [$(cut -d' ' -f1 /proc/uptime) s]"
head -c 4096 /dev/urandom > /tmp/marker
dd if=/tmp/marker of="$NS" bs=4096 count=1 oflag=direct conv=notrunc 2>/dev/null
expect_rc "info /dev/null (not an NVMe node)" 2 ptsuite info /dev/null
expect_rc "purge with a wrong serial" 3 ptsuite purge "$NS" --confirm "NOT-$SERIAL"
grep -q "does not confirm $NS: it takes its serial $SERIAL" /tmp/out && pass "wrong serial message" ||
  fail "wrong serial message: $(cat /tmp/out)"
expect_rc "purge --purge sanitize-crypto (no SANICAP)" 2 ptsuite purge "$NS" --confirm "$SERIAL" --purge sanitize-crypto
grep -q "supported: format-user, discard, none" /tmp/out && pass "names the supported methods" ||
  fail "supported methods not named: $(cat /tmp/out)"
expect_rc "purge --purge format-crypto (FNA bit 2 clear)" 2 ptsuite purge "$NS" --confirm "$SERIAL" --purge format-crypto
dd if="$NS" bs=4096 count=1 iflag=direct 2>/dev/null | cmp -s - /tmp/marker &&
  pass "block 0 untouched by the refused commands" || fail "block 0 changed by a refused command"

echo "== the guard refuses the mounted namespace (whole-namespace checksum around every command) [$(cut -d' ' -f1 /proc/uptime) s]"
# (remounted read-only once written: a read-write mount keeps updating its superblock, which
# would move the checksum by itself)
if mke2fs -q "$NS" > /tmp/mkfs.out 2>&1 && mkdir -p /mnt/t && mount -t ext4 "$NS" /mnt/t 2>/tmp/mount.out; then
  echo data > /mnt/t/file && sync && mount -o remount,ro /mnt/t
  refused "purge of the mounted namespace" "$NS" ptsuite purge "$NS" --confirm "$SERIAL"
  grep -q "mounted" /tmp/out && pass "says mounted: $(cat /tmp/out)" || fail "reason not named: $(cat /tmp/out)"
  refused "spec randwrite on the mounted namespace" "$NS" ptsuite spec "$NS" --rw randwrite --seconds 0.2 \
    --confirm "$SERIAL"
  refused "run latency on the mounted namespace" "$NS" ptsuite run latency "$NS" --confirm "$SERIAL" \
    --out /tmp/run-mounted --cell-seconds 0.1 --max-rounds 5 --no-report --quiet
  umount /mnt/t && fresh
  refused "purge of the unmounted namespace that still holds ext2" "$NS" ptsuite purge "$NS" --confirm "$SERIAL"
  grep -q "libblkid finds ext[24] file system" /tmp/out && pass "names the ext2 signature" ||
    fail "signature not named: $(cat /tmp/out)"
  dd if=/dev/zero of="$NS" bs=1M count=1 oflag=direct conv=notrunc 2>/dev/null  # wipe the superblock
  fresh
else
  fail "could not mount an ext2 file system on $NS: $(cat /tmp/mkfs.out /tmp/mount.out)"
fi

echo "== the guard refuses the namespace while device-mapper holds it [$(cut -d' ' -f1 /proc/uptime) s]"
if echo "0 $(blockdev --getsz "$NS") linear $NS 0" | dmsetup create ptsuite-held --noudevsync > /tmp/dm.out 2>&1; then
  expect_rc "purge of the namespace under dm-0" 3 ptsuite purge "$NS" --confirm "$SERIAL"
  grep -q "it is held by dm-0" /tmp/out && pass "says held by dm-0" || fail "holder not named: $(cat /tmp/out)"
  dmsetup remove --noudevsync ptsuite-held
else
  fail "dmsetup create failed: $(cat /tmp/dm.out)"
fi

echo "== purge: Format NVM user-data erase, verified [$(cut -d' ' -f1 /proc/uptime) s]"
LAST=$(($(blockdev --getsize64 "$NS") / 4096 - 1))  # the namespace's last 4 KiB block
MID=$((LAST / 2))
for blk in 0 1000 $MID $LAST; do
  dd if=/dev/urandom of="$NS" bs=4096 seek=$blk count=1 oflag=direct conv=notrunc 2>/dev/null
done
zeroes 1000 && fail "pattern not written" || pass "pattern written at blocks 0 1000 $MID $LAST"
expect_rc "purge (auto)" 0 ptsuite purge "$NS" --confirm "$SERIAL" --json
cp /tmp/out /tmp/purge.json
cat /tmp/purge.json
same "method" "$(jstr /tmp/purge.json method)" "format-user"
same "opcode (Format NVM)" "$(jstr /tmp/purge.json opcode)" "128"
cdw10=$(sed -n '/"cdw": \[/{n;p}' /tmp/purge.json | tr -d ' ,')
same "cdw10 SES field (bits 11:9)" "$(( (cdw10 >> 9) & 7 ))" "1"
same "status SCT/SC" "$(jstr /tmp/purge.json status_sct)/$(jstr /tmp/purge.json status_sc)" "0/0"
same "success" "$(jstr /tmp/purge.json success)" "true"
same "is_snia_purge" "$(jstr /tmp/purge.json is_snia_purge)" "true"
grep -q '"passed": true' /tmp/purge.json && pass "verification passed" || fail "verification did not pass"
grep -q '"blocks_still_holding_pattern": 0' /tmp/purge.json && pass "no sampled block holds the pattern" ||
  fail "pattern survived"
gone=0
for blk in 0 1000 $MID $LAST; do zeroes $blk && gone=$((gone + 1)); done
same "blocks written before the purge now read as zeroes" "$gone" "4"

echo "== purge: discard (a deviation), text output [$(cut -d' ' -f1 /proc/uptime) s]"
expect_rc "purge --purge discard" 0 ptsuite purge "$NS" --confirm "$SERIAL" --purge discard
cat /tmp/out
grep -q "SNIA purge    no" /tmp/out && pass "discard recorded as not a SNIA purge" || fail "discard not flagged"

echo "== spec through io_uring on $NS [$(cut -d' ' -f1 /proc/uptime) s]"
expect_rc "spec randwrite without --confirm" 3 ptsuite spec "$NS" --rw randwrite --bs 4k --oio 16 --seconds 2
expect_rc "spec randwrite" 0 ptsuite spec "$NS" --rw randwrite --bs 4k --oio 16 --seconds 2 --json --confirm "$SERIAL"
iops=$(jstr /tmp/out iops | cut -d. -f1)
[ "${iops:-0}" -gt 0 ] && pass "randwrite iops $iops" || fail "randwrite iops '$iops'"
expect_rc "spec randread" 0 ptsuite spec "$NS" --rw randread --bs 4k --oio 16 --seconds 2 --json
iops=$(jstr /tmp/out iops | cut -d. -f1)
[ "${iops:-0}" -gt 0 ] && pass "randread iops $iops" || fail "randread iops '$iops'"

echo "== run: PTS-E enterprise disables the volatile write cache (Set Features 06h), then sets it back [$(cut -d' ' -f1 /proc/uptime) s]"
nvme set-feature "$CTRL" -f 6 -v 1 > /dev/null 2>&1
wc_start=$((0x$(vwc_now) & 1))
same "write cache before the run (the operator's setting)" "$wc_start" "1"
expect_rc "run latency (tiny cells)" 0 ptsuite run latency "$NS" --pts pts-e-1.1 --class enterprise \
  --confirm "$SERIAL" --out /tmp/run --cell-seconds 0.1 --max-rounds 5 --no-report --quiet
grep -q '"write_cache": "disabled"' /tmp/run/run.json && pass "run.json records the cache disabled" ||
  fail "run.json write_cache: $(grep -o '"write_cache": "[a-z-]*"' /tmp/run/run.json)"
same "controller's write cache back to its starting value after the run (Get Features 06h)" \
  "$((0x$(vwc_now) & 1))" "$wc_start"
grep -A1 '"write_cache_original"' /tmp/run/run.json | grep -q '"current": "enabled"' &&
  pass "run.json records the operator's setting (enabled)" ||
  fail "write_cache_original: $(grep -A3 '"write_cache_original"' /tmp/run/run.json)"
# QEMU 7.2 sets ONCS bit 4 but the feature is not saveable: the test's setting goes current-only
grep -q 'disabled, set current-only (SV = 0' /tmp/run/run.json && pass "set current-only (feature not saveable)" ||
  fail "WriteCache transition: $(grep -o '"detail": "disabled[^"]*"' /tmp/run/run.json | head -1)"
grep -q "back to the operator's setting from before the run: enabled" /tmp/run/run.json &&
  pass "the restore is journaled" || fail "no WriteCacheRestored transition"
grep -q '"method": "format-user"' /tmp/run/run.json && pass "run.json holds the format-user purge" ||
  fail "no format-user purge in run.json"

echo "== Ctrl-C and kill -9 mid-run: the write cache comes back (kill -9: when resume ends) [$(cut -d' ' -f1 /proc/uptime) s]"
# wait_cells RUNDIR N: until the journal holds N cells (60 s at most)
wait_cells() {
  i=0
  while [ $i -lt 600 ]; do
    [ -f "$1/journal.jsonl" ] && [ "$(grep -c '"event":"cell"' "$1/journal.jsonl")" -ge "$2" ] && return 0
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}
for how in INT KILL; do
  ptsuite run latency "$NS" --pts pts-e-1.1 --class enterprise --confirm "$SERIAL" --out /tmp/run-$how \
    --cell-seconds 0.1 --max-rounds 5 --no-report --quiet > /tmp/run-$how.out 2>&1 &
  bg=$!
  if wait_cells /tmp/run-$how 3; then
    kill -$how $bg
    wait $bg
    rc=$?
    if [ $how = INT ]; then
      same "exit status after SIGINT" "$rc" "130"
      same "write cache after Ctrl-C (back to its starting value)" "$((0x$(vwc_now) & 1))" "$wc_start"
    else
      same "write cache after kill -9 (the test's setting, until resume ends)" "$((0x$(vwc_now) & 1))" "0"
      expect_rc "info after kill -9" 0 ptsuite info "$NS" --json
      same "info shows the cache as the killed run left it" "$(jstr /tmp/out write_cache)" "disabled"
    fi
    expect_rc "resume after SIG$how" 0 ptsuite resume /tmp/run-$how --confirm "$SERIAL" --no-report --quiet
    same "write cache after the resume of the SIG$how run (its starting value)" "$((0x$(vwc_now) & 1))" "$wc_start"
  else
    kill -9 $bg
    wait $bg
    fail "the SIG$how run never reached 3 cells: $(cat /tmp/run-$how.out)"
  fi
done

echo "== a second namespace with 4 KiB LBAs, attached now [$(cut -d' ' -f1 /proc/uptime) s]"
NS2=/dev/nvme0n2
if nvme attach-ns "$CTRL" -n 2 -c "$(cat /sys/class/nvme/nvme0/cntlid)" > /tmp/attach.out 2>&1; then
  nvme ns-rescan "$CTRL"
  i=0
  while [ ! -b $NS2 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
fi
if [ -b $NS2 ]; then
  expect_rc "info --json $NS2" 0 ptsuite info $NS2 --json
  cp /tmp/out /tmp/info2.json
  lbads2=$(nvme id-ns $NS2 | sed -n 's/^lbaf *[0-9]* : ms:[0-9]* *lbads:\([0-9]*\) .*in use.*/\1/p')
  same "$NS2 lba_size" "$(jstr /tmp/info2.json lba_size)" "$((1 << lbads2))"
  same "$NS2 lba_size is 4096" "$(jstr /tmp/info2.json lba_size)" "4096"
  same "$NS2 capacity_bytes" "$(jstr /tmp/info2.json capacity_bytes)" \
    "$(($(nvme id-ns $NS2 | sed -n 's/^nsze *: \(.*\)$/\1/p') * (1 << lbads2)))"
  same "$NS2 namespace_id" "$(jstr /tmp/info2.json namespace_id)" "2"
  expect_rc "info of the controller with two namespaces" 2 ptsuite info "$CTRL"
  grep -q "2 namespaces (/dev/nvme0n1, /dev/nvme0n2); name the namespace" /tmp/out &&
    pass "names both namespaces" || fail "namespaces not named: $(cat /tmp/out)"
  dd if=/tmp/marker of="$NS" bs=4096 count=1 oflag=direct conv=notrunc 2>/dev/null
  dd if=/dev/urandom of=$NS2 bs=4096 seek=100 count=1 oflag=direct conv=notrunc 2>/dev/null
  expect_rc "purge of $NS2 (4 KiB LBAs)" 0 ptsuite purge $NS2 --confirm "$SERIAL" --json
  grep -q '"passed": true' /tmp/out && pass "$NS2 verification passed" || fail "$NS2 verification"
  same "$NS2 Format nsid" "$(jstr /tmp/out nsid)" "2"
  cdw10=$(sed -n '/"cdw": \[/{n;p}' /tmp/out | tr -d ' ,')
  same "$NS2 Format keeps LBA format 4, SES=1" "$((cdw10 & 0xF))/$(( (cdw10 >> 9) & 7 ))" "4/1"
  dd if=$NS2 bs=4096 skip=100 count=1 iflag=direct 2>/dev/null | cmp -s - /tmp/zero4k &&
    pass "$NS2 block written before the purge reads as zeroes" || fail "$NS2 block survived"
  dd if="$NS" bs=4096 count=1 iflag=direct 2>/dev/null | cmp -s - /tmp/marker &&
    pass "$NS untouched by the purge of $NS2" || fail "$NS changed by the purge of $NS2"

  echo "== two namespaces, a Format that covers both: refused while the second is mounted [$(cut -d' ' -f1 /proc/uptime) s]"
  SHIM=/usr/lib/ptsvm-fna-all-ns.so
  LD_PRELOAD=$SHIM ptsuite info "$NS" > /tmp/out 2>&1
  grep -q "applies to all namespaces: yes" /tmp/out && pass "with the shim the controller formats every namespace" ||
    fail "shim not in effect: $(cat /tmp/out)"
  mkdir -p /mnt/t2
  if mke2fs -q -b 4096 "$NS2" > /tmp/mkfs2.out 2>&1 && mount -t ext2 "$NS2" /mnt/t2 2>/tmp/mount2.out; then
    echo precious > /mnt/t2/data && sync && mount -o remount,ro /mnt/t2
    sum1=$(nsum "$NS")
    refused "purge of $NS while $NS2 is mounted" "$NS2" env LD_PRELOAD=$SHIM ptsuite purge "$NS" --confirm "$SERIAL"
    grep -q "mounted: $NS2 on /mnt/t2" /tmp/out && pass "names the mount of $NS2" || fail "mount not named: $(cat /tmp/out)"
    grep -q "is namespace 2 of nvme-subsys0 (this Format applies to every namespace)" /tmp/out &&
      pass "says the Format would reach namespace 2" || fail "sibling not named: $(cat /tmp/out)"
    [ "$(nsum "$NS")" = "$sum1" ] && pass "$NS untouched too" || fail "$NS changed by the refused purge"
    [ "$(cat /mnt/t2/data)" = precious ] && pass "$NS2's file intact" || fail "$NS2's file changed"
    umount /mnt/t2
    # The control: unmounted and without a signature, the same purge goes through and reaches
    # the second namespace (so the refusal above is what kept its data).
    dd if=/dev/zero of="$NS2" bs=1M count=1 oflag=direct conv=notrunc 2>/dev/null
    dd if=/dev/urandom of="$NS2" bs=4096 seek=100 count=1 oflag=direct conv=notrunc 2>/dev/null
    expect_rc "purge of $NS once $NS2 is free" 0 env LD_PRELOAD=$SHIM ptsuite purge "$NS" --confirm "$SERIAL"
    dd if=$NS2 bs=4096 skip=100 count=1 iflag=direct 2>/dev/null | cmp -s - /tmp/zero4k &&
      pass "that Format erased $NS2 too (block 100 reads as zeroes)" || fail "the broadcast Format did not reach $NS2"
  else
    fail "could not mount ext2 on $NS2: $(cat /tmp/mkfs2.out /tmp/mount2.out)"
  fi
else
  fail "could not attach namespace 2: $(cat /tmp/attach.out)"
fi

echo "== $fails failed check(s) [$(cut -d' ' -f1 /proc/uptime) s]"
exit "$fails"
