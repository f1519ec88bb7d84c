#!/usr/bin/env bash
# Installs what ptsuite needs to build and test on Debian 12 (root or sudo). Idempotent:
# apt-get runs only when a package is missing.
set -euo pipefail
# tools/fresh-check.sh proves this list on a bare `debootstrap --variant=minbase bookworm`.
pkgs=(build-essential cmake pkg-config git
      libnvme-dev
      libjson-c-dev   # libnvme.pc: Requires.private json-c; libnvme-dev does not depend on it
      libssl-dev      # libnvme.pc: Requires.private openssl; libnvme-dev does not depend on it
      liburing-dev libeigen3-dev
      libxlsxwriter-dev
      zlib1g-dev      # xlsxwriter.pc: Libs -lz; libxlsxwriter-dev does not depend on it
      libgtest-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev
      libblkid-dev)  # the guard's on-disk signature probe (src/device/signatures.cpp)
if [ "${1:-}" = "--test" ]; then
  # tests: fio (agreement test), openpyxl (xlsx golden tests), LibreOffice + poppler (render
  # check; Carlito has Calibri's metrics, so LibreOffice lays sheets out as Excel does and a
  # report page stays one printed page), QEMU + guest tools (the NVMe VM harness),
  # util-linux/e2fsprogs/fdisk (guard tests), clang + its runtime (libFuzzer and the
  # sanitizers' clang runtime; tools/fuzz.sh), Slurm + munge (the fleet test)
  pkgs+=(fio python3 python3-openpyxl libreoffice-calc-nogui fonts-crosextra-carlito poppler-utils
         qemu-system-x86 busybox-static nvme-cli dmsetup cpio kmod xz-utils
         util-linux e2fsprogs fdisk time
         clang libclang-rt-14-dev
         man-db bash-completion  # cli_man renders ptsuite(1) with man; cli_completion sources bash-completion
         lvm2  # lvm2: pvcreate writes a real LVM PV label for the guard matrix (no device-mapper needed)
         slurm-wlm munge)  # e2e_slurm_fleet: a one-node Slurm cluster runs a fleet (docs/fleet.md)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
