#!/bin/sh
# guest-namespaces.sh — run by unit-tests/e2e/vm/run-nvme-vm.sh inside the QEMU guest (busybox ash,
# root): ptsuite's namespaces and multi-job cells against a real Linux NVMe driver and QEMU's
# emulated controller with two namespaces (1: PTS_VM_SIZE, 512 B LBAs, attached; 2: 64 MiB, 4 KiB
# LBAs, created detached, attached here). Checks:
#  - `namespaces` on the controller node lists both (NSID, size, LBA format, attached, block
#    device, in use) as nvme-cli and the kernel see them, before and after namespace 2 is
#    attached, and names namespace 2 in use while it is mounted;
#  - a two-namespace reading cell (`spec nvme0n1 nvme0n2`) and a noisy-neighbour cell of two
#    namespaces (writes on 1, paced reads on 2; the neighbour procedure, no purge and no
#    preconditioning, so the run's only I/O is its two cells): every job's I/O count against
#    the kernel's counters of its namespace, read here before and after, within 1 %. Under the
#    subsystem's multipath naming Linux 6.1 counts nothing on the head (/sys/block/nvme0n1/stat
#    stays zero): the requests are counted on the path disk nvme0c0n1, which is what is read;
#  - `namespaces --create` on QEMU's controller (OACS bit 3 set, no Namespace Management in its
#    Commands Supported and Effects log): exit 4, says the controller does not support
#    Namespace Management, and nothing changed (the list, nvme-cli's list and every
#    namespace's checksum the same before and after).
# Exit status: the number of failed checks.
CTRL=${NVME_CTRL:-/dev/nvme0}
SERIAL=$PTS_VM_SERIAL
. /usr/lib/ptsvm-guest-lib.sh  # fails, pass, fail, expect_rc, same, nsum (guest-lib.sh)
t() { cut -d' ' -f1 /proc/uptime; }
# nsfield FILE NSID KEY: a key of one namespace in `namespaces --json` (strings unquoted)
nsfield() {
  awk -v id="$2" -v k="$3" '
    /^ *\{/ { delete v; next }
    /^ *\}/ { if (v["nsid"] == id) { print v[k]; exit } next }
    match($0, /^ *"[a-z_]+": /) {
      key = $1; gsub(/[":]/, "", key); x = substr($0, RSTART + RLENGTH); sub(/,$/, "", x); gsub(/^"|"$/, "", x)
      v[key] = x }
  ' "$1"
}
# path_stat NSID: the kernel's stat file for what the controller's path to namespace NSID carried
path_stat() {
  for d in /sys/class/nvme/nvme0/nvme0c*n*; do
    [ "$(cat "$d/nsid" 2> /dev/null)" = "$1" ] && { echo "$d/stat"; return; }
  done
}
# ios NSID: completed + merged reads and writes of namespace NSID so far (kernel)
ios() { awk '{ print $1 + $2, $5 + $6 }' "$(path_stat "$1")"; }
# within1 NAME ENGINE KERNEL: |engine - kernel| <= 1 % of engine, engine > 0
within1() {
  if [ "$2" -gt 0 ] && [ $(( ($2 - $3) * ($2 - $3) * 10000 )) -le $(( $2 * $2 )) ]; then
    pass "$1: engine $2, kernel $3"
  else fail "$1: engine $2, kernel $3 (more than 1 % apart)"; fi
}

echo "== namespaces on the controller node, namespace 2 detached [$(t) s]"
expect_rc "namespaces $CTRL --json" 0 ptsuite namespaces "$CTRL" --json
cp /tmp/out /tmp/ns-detached.json
ptsuite namespaces "$CTRL"
same "NSIDs (nvme list-ns --all)" "$(sed -n 's/.*"nsid": \([0-9]*\).*/\1/p' /tmp/ns-detached.json | tr '\n' ' ')" \
  "$(nvme list-ns "$CTRL" --all | sed -n 's/.*\]:0x\([0-9a-f]*\)/\1/p' | while read -r h; do printf '%d ' "0x$h"; done)"
same "namespace 1 attached" "$(nsfield /tmp/ns-detached.json 1 attached)" "true"
same "namespace 2 attached (created detached)" "$(nsfield /tmp/ns-detached.json 2 attached)" "false"
same "namespace 1 size" "$(nsfield /tmp/ns-detached.json 1 size_bytes)" "$(blockdev --getsize64 /dev/nvme0n1)"
same "namespace 2 size (64 MiB)" "$(nsfield /tmp/ns-detached.json 2 size_bytes)" "67108864"
same "namespace 2 LBA size" "$(nsfield /tmp/ns-detached.json 2 lba_bytes)" "4096"
same "namespace 2 block device (none while detached)" "$(nsfield /tmp/ns-detached.json 2 block)" ""

echo "== attach namespace 2 [$(t) s]"
nvme attach-ns "$CTRL" -n 2 -c "$(cat /sys/class/nvme/nvme0/cntlid)" > /tmp/attach.out 2>&1
nvme ns-rescan "$CTRL"
i=0
while [ ! -b /dev/nvme0n2 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -b /dev/nvme0n2 ] || { fail "could not attach namespace 2: $(cat /tmp/attach.out)"; exit "$fails"; }
expect_rc "namespaces $CTRL --json (two attached)" 0 ptsuite namespaces "$CTRL" --json
cp /tmp/out /tmp/ns-before.json
ptsuite namespaces "$CTRL"
for n in 1 2; do
  blk=$(nsfield /tmp/ns-before.json $n block)
  same "namespace $n attached" "$(nsfield /tmp/ns-before.json $n attached)" "true"
  same "namespace $n block device's NSID (sysfs)" "$(cat /sys/block/$blk/nsid)" "$n"
  same "namespace $n size (blockdev)" "$(nsfield /tmp/ns-before.json $n size_bytes)" "$(blockdev --getsize64 /dev/$blk)"
  same "namespace $n LBA size (blockdev --getss)" "$(nsfield /tmp/ns-before.json $n lba_bytes)" "$(blockdev --getss /dev/$blk)"
  lbaf=$(nvme id-ns /dev/$blk | sed -n 's/^lbaf *\([0-9]*\) :.*in use.*/\1/p')
  same "namespace $n LBA format (nvme id-ns 'in use')" "$(nsfield /tmp/ns-before.json $n lba_format)" "$lbaf"
  same "namespace $n in use" "$(nsfield /tmp/ns-before.json $n in_use)" "false"
done
for node in /dev/nvme0n2 /dev/ng0n1; do
  expect_rc "namespaces $node --json" 0 ptsuite namespaces "$node" --json
  same "the list through $node" "$(grep -v in_use_why /tmp/out | md5sum)" "$(grep -v in_use_why /tmp/ns-before.json | md5sum)"
done
mkdir -p /mnt/n2
if mke2fs -q -b 4096 /dev/nvme0n2 > /tmp/mkfs.out 2>&1 && mount -t ext2 -o ro /dev/nvme0n2 /mnt/n2 2> /tmp/mount.out; then
  expect_rc "namespaces $CTRL with namespace 2 mounted" 0 ptsuite namespaces "$CTRL" --json
  same "namespace 2 in use while mounted" "$(nsfield /tmp/out 2 in_use)" "true"
  same "why" "$(nsfield /tmp/out 2 in_use_why)" "/dev/nvme0n2 is in use: it is mounted: /dev/nvme0n2 on /mnt/n2 (ext2)"
  same "namespace 1 not in use" "$(nsfield /tmp/out 1 in_use)" "false"
  umount /mnt/n2
else
  fail "could not mount ext2 on /dev/nvme0n2: $(cat /tmp/mkfs.out /tmp/mount.out)"
fi
dd if=/dev/zero of=/dev/nvme0n2 bs=1M count=1 oflag=direct conv=notrunc 2> /dev/null  # the signature goes

echo "== a two-namespace reading cell, each job against the kernel's counters [$(t) s]"
echo "   (the heads' own stat, which Linux 6.1 leaves at zero under multipath: $(cat /sys/block/nvme0n1/stat | awk '{print $1 + $5}') and $(cat /sys/block/nvme0n2/stat | awk '{print $1 + $5}') I/Os so far; read instead: $(path_stat 1) $(path_stat 2))"
set -- $(ios 1) $(ios 2)
r1=$1 w1=$2 r2=$3 w2=$4
expect_rc "spec nvme0n1 nvme0n2 randread" 0 ptsuite spec /dev/nvme0n1 /dev/nvme0n2 --rw randread --bs 4k --oio 16 \
  --seconds 3 --json
cp /tmp/out /tmp/two.json
set -- $(ios 1) $(ios 2)
kr1=$(($1 - r1)) kw1=$(($2 - w1)) kr2=$(($3 - r2)) kw2=$(($4 - w2))
# job-level keys sit at the indentation of the job's "job" line
jobs=$(awk 'match($0, /^ *"job": "job[0-9]+"/) { ind = index($0, "\"") - 1; j = $2; gsub(/[",]/, "", j); next }
  j != "" && match($0, /^ *"(read|write)_ios": /) && index($0, "\"") - 1 == ind { v = $2; sub(/,$/, "", v); printf "%s ", v }
  ' /tmp/two.json)
set -- $jobs
echo "   engine: job1 $1 reads $2 writes, job2 $3 reads $4 writes; kernel: nvme0n1 $kr1/$kw1, nvme0n2 $kr2/$kw2"
within1 "job1 reads on namespace 1" "${1:-0}" "$kr1"
within1 "job2 reads on namespace 2" "${3:-0}" "$kr2"
same "no writes on either namespace (kernel)" "$kw1/$kw2" "0/0"
grep -q '"device": "nvme0n1 via nvme0c0n1"' /tmp/two.json && pass "ptsuite's own kernel counters read the path nvme0c0n1" ||
  fail "the jobs' kernel counters: $(grep '"device"' /tmp/two.json | tr -d '\n')"
ptsuite spec /dev/nvme0n1 /dev/nvme0n2 --rw randread --bs 4k --oio 16 --seconds 1 2>&1 | grep -E "job|kernel|combined"

echo "== a noisy-neighbour cell of two namespaces: writes on 1, paced reads on 2 [$(t) s]"
sed -e 's/^title = .*/title = "Noisy neighbour, 2 namespaces (not a SNIA PTS test)"/' -e 's/^namespaces = .*/namespaces = 2/' \
  -e 's/^writers = .*/writers = [1]/' -e 's/^readers = .*/readers = [2]/' -e 's/^precondition = .*/precondition = "none"/' \
  /usr/share/ptsuite/tests-pts/neighbour-6ns.toml > /tmp/nb2.toml
set -- $(ios 1) $(ios 2)
r1=$1 w1=$2 r2=$3 w2=$4
expect_rc "run neighbour (2 namespaces, no purge, no preconditioning)" 0 ptsuite run /tmp/nb2.toml /dev/nvme0n1 \
  --confirm "$SERIAL" --out /tmp/nb --cell-seconds 5 --purge none --no-report --quiet
set -- $(ios 1) $(ios 2)
kr1=$(($1 - r1)) kw1=$(($2 - w1)) kr2=$(($3 - r2)) kw2=$(($4 - w2))
# per namespace: the reads and writes of its jobs over both cells. The kernel also counts about
# 50 reads a namespace that `run` makes outside its cells (`spec` makes none): 5 s cells and the
# definition's 2000 reads/s keep them well under 1 % of each namespace's I/Os. (job-level keys one step
# shallower than the job's "id")
set -- $(awk 'match($0, /^ *"id": "(read|write)-ns[0-9]+"/) { ind = index($0, "\"") - 2; n = $2; gsub(/[^0-9]/, "", n); next }
  n != "" && match($0, /^ *"(read|write)_ios": /) && index($0, "\"") - 1 == ind {
    v = $2; sub(/,$/, "", v); if ($1 ~ /read/) r[n] += v; else w[n] += v }
  END { print r[1] + 0, w[1] + 0, r[2] + 0, w[2] + 0 }' /tmp/nb/run.json)
echo "   engine: namespace 1 $1 reads $2 writes, namespace 2 $3 reads $4 writes; kernel: $kr1/$kw1, $kr2/$kw2"
within1 "writer job on namespace 1: I/Os" "$(($1 + $2))" "$((kr1 + kw1))"
within1 "writer job on namespace 1: writes" "$2" "$kw1"
within1 "reader jobs on namespace 2: I/Os" "$3" "$kr2"
same "no writes on namespace 2 (engine/kernel)" "$4/$kw2" "0/0"
grep -q '"read-ns2"' /tmp/nb/run.json && grep -q '"write-ns1"' /tmp/nb/run.json && pass "run.json holds both jobs" ||
  fail "run.json jobs"

echo "== namespaces --create on QEMU's controller: not supported, nothing changed [$(t) s]"
dd if=/dev/urandom of=/dev/nvme0n1 bs=4096 count=16 oflag=direct conv=notrunc 2> /dev/null
dd if=/dev/urandom of=/dev/nvme0n2 bs=4096 count=16 oflag=direct conv=notrunc 2> /dev/null
expect_rc "namespaces (list before)" 0 ptsuite namespaces "$CTRL" --json
cp /tmp/out /tmp/ns-before.json
lsns_before=$(nvme list-ns "$CTRL" --all)
s1=$(nsum /dev/nvme0n1) s2=$(nsum /dev/nvme0n2)
expect_rc "namespaces --create 2 --size 32MiB" 4 ptsuite namespaces /dev/nvme0n1 --create 2 --size 32MiB --confirm "$SERIAL"
cat /tmp/out
grep -q "does not support Namespace Management" /tmp/out && pass "says the controller does not support Namespace Management" ||
  fail "message: $(cat /tmp/out)"
grep -q "nothing was changed" /tmp/out && pass "says nothing was changed" || fail "no 'nothing was changed'"
expect_rc "namespaces (list after)" 0 ptsuite namespaces "$CTRL" --json
same "the list after the refused --create" "$(md5sum < /tmp/out)" "$(md5sum < /tmp/ns-before.json)"
same "nvme list-ns --all after" "$(nvme list-ns "$CTRL" --all)" "$lsns_before"
same "namespace 1 checksum (whole namespace)" "$(nsum /dev/nvme0n1)" "$s1"
same "namespace 2 checksum (whole namespace)" "$(nsum /dev/nvme0n2)" "$s2"
expect_rc "namespaces --create through the controller node" 2 ptsuite namespaces "$CTRL" --create 2 --size 32MiB \
  --confirm "$SERIAL"
grep -q "name the namespace" /tmp/out && pass "asks for a namespace to hold: $(cat /tmp/out)" || fail "$(cat /tmp/out)"

echo "== $fails failed check(s) [$(t) s]"
exit "$fails"
