#!/usr/bin/env bash
# run-nvme-vm.sh — runs a guest script against a real Linux NVMe driver and QEMU's emulated
# NVMe controller: boots Debian's stock kernel under QEMU (TCG, no KVM needed) with ptsuite
# and nvme-cli in a busybox initramfs, and exits with the guest script's status.
#
# Usage: unit-tests/e2e/vm/run-nvme-vm.sh PTSUITE_BINARY GUEST_SCRIPT
#
# The guest script runs under busybox sh (ash) as root, in /, with PATH holding ptsuite,
# nvme and the busybox applets, and NVME_CTRL=/dev/nvme0 NVME_NS=/dev/nvme0n1
# NVME_NG=/dev/ng0n1 PTS_VM_SERIAL=<the controller's serial>. Its stdout is the console.
# /usr/lib/ptsvm-fna-all-ns.so (unit-tests/e2e/vm/fna_all_ns.c) is there to LD_PRELOAD: with it the
# controller reports, and behaves as, a Format NVM that covers every namespace.
# The project's tests-pts/ is installed at /usr/share/ptsuite/tests-pts for `ptsuite run`, and
# unit-tests/e2e/vm/guest-lib.sh (pass/fail counting, expect_rc...) at /usr/lib/ptsvm-guest-lib.sh.
# The controller (in an NVM subsystem, so the kernel uses its multipath naming) has namespace
# 1 (PTS_VM_SIZE, 512 B LBAs) attached and namespace 2 (64 MiB, 4 KiB LBAs) created but
# detached: `nvme attach-ns /dev/nvme0 -n 2 -c 0` brings it in.
#
# Exit status: the guest script's (0..255); 77 when qemu-system-x86_64 is missing (skip);
# 124 when QEMU ran past PTS_VM_TIMEOUT; 125 when the guest never reported (boot failure);
# 2 on a usage or host-setup error.
#
# Environment (all optional):
#   PTS_VM_WORK=/var/tmp/ptsuite-vm  cache: the unpacked kernel (~0.5 GB, kept between runs)
#                                    and one temporary directory per run (removed after)
#   PTS_VM_TIMEOUT=240               wall-clock limit for QEMU, seconds
#   PTS_VM_SIZE=256M                 size of the sparse file behind namespace 1
#   PTS_VM_MODULES="nvme ext4 dm-mod"  guest modules to load (dependencies resolved)
#   PTS_VM_KEEP=0                    1: keep the per-run directory (console.log, initramfs)
#   PTS_VM_SERIAL=PTSVMnnnnn         serial of the emulated controller (random by default)
#
# Host needs: qemu-system-x86, busybox-static, nvme-cli, dmsetup, kmod, cpio, xz-utils, dpkg, apt
# (tools/install-deps.sh --test). The kernel package (what linux-image-amd64 depends on) is
# fetched with `apt-get download` once and unpacked, never installed.
set -euo pipefail

log() { echo "run-nvme-vm: $*" >&2; }
die() { log "$*"; exit 2; }

[[ $# -eq 2 ]] || { sed -n '2,/^set -euo/p' "$0" | sed 's/^# \{0,1\}//;$d' >&2; exit 2; }
PTSUITE=$(readlink -f "$1")
GUEST=$(readlink -f "$2")
[[ -x $PTSUITE ]] || die "ptsuite binary not found: $1"
[[ -f $GUEST ]] || die "guest script not found: $2"
command -v qemu-system-x86_64 >/dev/null || { log "SKIP: qemu-system-x86_64 not installed"; exit 77; }
for c in busybox nvme dmsetup modprobe depmod cpio dpkg-deb xz apt-get apt-cache ldd timeout flock cc; do
  command -v "$c" >/dev/null || die "missing host command: $c (run tools/install-deps.sh --test)"
done

WORK=${PTS_VM_WORK:-/var/tmp/ptsuite-vm}
TIMEOUT=${PTS_VM_TIMEOUT:-240}
SIZE=${PTS_VM_SIZE:-256M}
MODULES=${PTS_VM_MODULES:-nvme ext4 dm-mod}
mkdir -p "$WORK"
WORK=$(readlink -f "$WORK")

# ---- 1. guest kernel: fetched and unpacked once, under a lock (parallel ctest runs) ----
kernel_package() {
  local p
  p=$(apt-cache depends linux-image-amd64 2>/dev/null |
      awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ {print $2; exit}')
  if [[ -z $p ]]; then
    p=$(apt-cache pkgnames linux-image-6.1.0- 2>/dev/null | grep -E '^linux-image-6\.1\.0-[0-9]+-amd64$' |
        sort -t- -k5,5n | tail -1)
  fi
  echo "$p"
}
exec 9>"$WORK/.lock"
flock 9
KPKG=${PTS_VM_KPKG:-$(kernel_package)}
if [[ -z $KPKG ]]; then
  log "apt knows no linux-image-amd64 kernel; running apt-get update"
  apt-get update -qq >&2 || true
  KPKG=$(kernel_package)
fi
[[ -n $KPKG ]] || die "cannot find a Debian linux-image-6.1.0-*-amd64 package"
KROOT=$WORK/kernel/$KPKG
if [[ ! -s $KROOT/vmlinux ]]; then
  log "fetching and unpacking guest kernel $KPKG (once)"
  rm -rf "$KROOT" "$KROOT.dl" && mkdir -p "$KROOT.dl"
  chmod 777 "$KROOT.dl"                         # apt-get download runs as _apt
  (cd "$KROOT.dl" && apt-get download -qq "$KPKG" >&2)
  dpkg-deb -x "$KROOT.dl"/*.deb "$KROOT.tmp"
  rm -rf "$KROOT.dl"
  kver=$(ls "$KROOT.tmp/lib/modules")
  depmod -b "$KROOT.tmp" "$kver"                # the .deb ships no modules.dep
  # Boot the ELF vmlinux through the PVH entry: unpacking the xz bzImage under TCG costs
  # seconds on every boot. The xz stream starts at its magic FD 37 7A 58 5A.
  vmlinuz=$(ls "$KROOT.tmp"/boot/vmlinuz-*)
  off=$(LC_ALL=C grep -aob $'\xfd''7zXZ' "$vmlinuz" | head -1 | cut -d: -f1)
  [[ -n $off ]] || die "no xz stream in $vmlinuz"
  { tail -c +$((off + 1)) "$vmlinuz" || true; } | xz -dc --single-stream > "$KROOT.tmp/vmlinux" 2>/dev/null || true
  [[ -s $KROOT.tmp/vmlinux ]] || die "could not unpack vmlinux from $vmlinuz"
  mv "$KROOT.tmp" "$KROOT"
fi
flock -u 9
KVER=$(ls "$KROOT/lib/modules")

# ---- 2. initramfs: busybox, ptsuite, nvme-cli, their libraries, modules, /init --------
RUN=$(mktemp -d "$WORK/run.XXXXXX")
cleanup() { [[ ${PTS_VM_KEEP:-0} == 1 ]] && log "kept $RUN" || rm -rf "$RUN"; }
trap cleanup EXIT
ROOT=$RUN/root
mkdir -p "$ROOT"/{bin,sbin,etc,proc,sys,dev,tmp,run,mnt,usr/lib,usr/lib64,usr/bin,usr/sbin}
ln -s usr/lib "$ROOT/lib"
ln -s usr/lib64 "$ROOT/lib64"
cp "$(command -v busybox)" "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"

copy_with_libs() {  # copy_with_libs FILE: the program to /usr/bin (debug info stripped, which
  local f=$1 lib    # shrinks ptsuite ~5x) and its libraries where ldd says
  if command -v strip >/dev/null; then strip --strip-debug -o "$ROOT/usr/bin/$(basename "$f")" "$f"
  else cp -L "$f" "$ROOT/usr/bin/$(basename "$f")"; fi
  ldd "$f" | awk '/=> \//{print $3} /^\t\//{print $1}' | while read -r lib; do
    [[ -e $ROOT$lib ]] && continue
    mkdir -p "$ROOT$(dirname "$lib")"
    cp -L "$lib" "$ROOT$lib"
  done
}
copy_with_libs "$PTSUITE"
copy_with_libs "$(command -v nvme)"
copy_with_libs "$(command -v dmsetup)"
# The shim that makes QEMU's controller format every namespace at once (FNA bit 0), for the
# two-namespace guard case (unit-tests/e2e/vm/fna_all_ns.c); LD_PRELOAD'ed around ptsuite only.
HERE_VM=$(dirname "$(readlink -f "$0")")
cc -shared -fPIC -O2 -o "$ROOT/usr/lib/ptsvm-fna-all-ns.so" "$HERE_VM/fna_all_ns.c" ||
  die "cannot build unit-tests/e2e/vm/fna_all_ns.c"
cp "$GUEST" "$ROOT/guest.sh"
cp "$HERE_VM/guest-lib.sh" "$ROOT/usr/lib/ptsvm-guest-lib.sh"   # what the guest scripts share
# The test definitions, where ptsuite looks for them on an installed system.
HERE=$(dirname "$(readlink -f "$0")")
if [[ -d $HERE/../../../tests-pts ]]; then
  mkdir -p "$ROOT/usr/share/ptsuite"
  cp -r "$HERE/../../../tests-pts" "$ROOT/usr/share/ptsuite/tests-pts"
fi

MODDIR=lib/modules/$KVER
mkdir -p "$ROOT/$MODDIR"
: > "$ROOT/load.list"
for m in $MODULES; do
  modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" | while read -r kind path _; do
    [[ $kind == insmod ]] || continue          # "builtin x" needs nothing
    rel=${path#"$KROOT/$MODDIR/"}
    grep -qxF "$rel" "$ROOT/load.list" && continue
    mkdir -p "$ROOT/$MODDIR/$(dirname "$rel")"
    cp "$path" "$ROOT/$MODDIR/$rel"
    echo "$rel" >> "$ROOT/load.list"
  done
done

SERIAL=${PTS_VM_SERIAL:-PTSVM$(printf '%05d' $((RANDOM % 100000)))}
cat > "$ROOT/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mkdir -p /dev/shm && mount -t tmpfs tmpfs /tmp && mount -t tmpfs tmpfs /run
while read -r rel; do insmod "/$MODDIR/\$rel" || echo "@@PTSVM insmod \$rel failed"; done < /load.list
i=0
while [ ! -b /dev/nvme0n1 ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
echo "@@PTSVM nvme0n1 present: \$([ -b /dev/nvme0n1 ] && echo yes || echo no) at \$(cut -d' ' -f1 /proc/uptime) s"
export NVME_CTRL=/dev/nvme0 NVME_NS=/dev/nvme0n1 NVME_NG=/dev/ng0n1 PTS_VM_SERIAL=$SERIAL
cd /
sh /guest.sh
echo "@@PTSVM guest-exit rc=\$?"
sync
poweroff -f
INIT
chmod 755 "$ROOT/init" "$ROOT/guest.sh"
# Uncompressed: decompressing under TCG costs more than loading the extra bytes.
(cd "$ROOT" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) > "$RUN/initramfs.cpio"
rm -rf "$ROOT"
truncate -s "$SIZE" "$RUN/nvme.img"
truncate -s 64M "$RUN/nvme-ns2.img"
log "initramfs $(du -h "$RUN/initramfs.cpio" | cut -f1), kernel $KVER, serial $SERIAL"

# ---- 3. boot ---------------------------------------------------------------------------
# -nodefaults: no NIC/VGA; -no-reboot + panic=-1: a guest panic ends QEMU.
# discard=unmap: QEMU's default drops deallocate, so discarded blocks would keep their data.
SMP=$(( $(nproc) < 2 ? $(nproc) : 2 ))
QEMU=(qemu-system-x86_64 -nodefaults -no-user-config -machine q35 -accel tcg,thread=multi -cpu max
      -smp "$SMP" -m 1G -display none -monitor none -serial stdio -no-reboot
      -kernel "$KROOT/vmlinux" -initrd "$RUN/initramfs.cpio"
      -append "console=ttyS0 quiet panic=-1 mitigations=off"
      -device "nvme-subsys,id=subsys0,nqn=ptsuite-vm"
      -device "nvme,id=nvme0,serial=$SERIAL,subsys=subsys0"
      -drive "file=$RUN/nvme.img,if=none,id=ns1,format=raw,discard=unmap"
      -device "nvme-ns,bus=nvme0,drive=ns1,nsid=1"
      -drive "file=$RUN/nvme-ns2.img,if=none,id=ns2,format=raw,discard=unmap"
      -device "nvme-ns,bus=nvme0,drive=ns2,nsid=2,detached=true,logical_block_size=4096,physical_block_size=4096")
start=$SECONDS
set +e
timeout -k 10 "$TIMEOUT" "${QEMU[@]}" < /dev/null 2>&1 | tr -d '\r' | tee "$RUN/console.log"
qrc=${PIPESTATUS[0]}
set -e
log "QEMU exited with $qrc after $((SECONDS - start)) s"
[[ $qrc == 124 || $qrc == 137 ]] && { log "timed out after ${TIMEOUT}s"; exit 124; }
rc=$(grep -a -o '@@PTSVM guest-exit rc=[0-9]*' "$RUN/console.log" | tail -1 | sed 's/.*rc=//' || true)
[[ -n $rc ]] || { log "the guest reported no exit status"; exit 125; }
exit "$rc"
