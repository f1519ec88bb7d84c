#!/usr/bin/env bash
# file_target.sh PTSUITE — `ptsuite spec` on file targets reads the device, not the file
# system's holes: a truncated (sparse) 64 MiB file and a fallocated one (unwritten extents)
# are refused for every spec that reads (exit 2, the reason named, the file's md5 unchanged),
# while a write spec runs; a file ptsuite creates is written before it is measured (checked
# here with Python — no hole by SEEK_DATA/SEEK_HOLE, no all-zero 4 KiB block, it compresses by
# < 1 % — and with filefrag: no unwritten extent); and 0.5 KiB cells run where the file system's own
# O_DIRECT alignment allows 512-byte transfers (probed here with Python, not by ptsuite).
# Runs in /var/tmp (tmpfs has no O_DIRECT on older kernels). No root needed.
set -u
P=$1
source "$(dirname "$0")/device_test_lib.sh"
T=$(mktemp -d /var/tmp/ptsuite-file-target.XXXXXX)
OUT=$T/out
trap 'rm -rf "$T"' EXIT
if ! "$P" spec "$T/probe.img" --size 1m --rw read --bs 4k --seconds 0.05 > "$OUT" 2>&1; then
  grep -q "O_DIRECT" "$OUT" && { echo "SKIP: no O_DIRECT on /var/tmp"; exit 77; }
fi
sum() { md5sum < "$1"; }
# refused_reads NAME FILE: every reading spec exits 2 naming the holes; FILE unchanged
refused_reads() {
  local name=$1 f=$2 before rw
  for rw in read randread randrw; do
    before=$(sum "$f")
    expect_rc "$name: spec --rw $rw" 2 "$P" spec "$f" --rw "$rw" --bs 4k --seconds 0.2 --confirm "$f"
    expect_text "$name: spec --rw $rw names the holes" "are holes or unwritten extents \(FIEMAP/SEEK_HOLE"
    [ "$(sum "$f")" = "$before" ] && pass "$name: spec --rw $rw left $f unchanged" || fail "$name: $rw CHANGED $f"
  done
}

echo "== a truncated (sparse) 64 MiB file"
truncate -s 64M "$T/sparse.img"
refused_reads sparse "$T/sparse.img"
expect_text "sparse: says how much" "64.0 MiB of 64.0 MiB"

echo "== a fallocated file, one MiB of it written"
if fallocate -l 64M "$T/falloc.img" 2> /dev/null; then
  dd if=/dev/urandom of="$T/falloc.img" bs=1M count=1 seek=8 conv=notrunc,fsync 2> /dev/null
  refused_reads fallocated "$T/falloc.img"
  expect_text "fallocated: says how much" "63.0 MiB of 64.0 MiB"
else
  echo "NOTE no fallocate on /var/tmp: case not checked"
fi

echo "== writes on a sparse file are measured (they reach the device)"
expect_rc "sparse: spec --rw randwrite" 0 "$P" spec "$T/sparse.img" --rw randwrite --bs 4k --seconds 0.2 \
  --confirm "$T/sparse.img"

echo "== a file ptsuite creates is filled before it is measured"
expect_rc "created: spec --size 32m --rw randread" 0 "$P" spec "$T/new.img" --size 32m --rw randread --bs 4k \
  --seconds 0.3
expect_text "created: says it was filled" "created now and filled with incompressible data"
python3 - "$T/new.img" > "$T/check" 2>&1 << 'PY'
import os, sys, zlib
path = sys.argv[1]
size = os.path.getsize(path)
fd = os.open(path, os.O_RDONLY)
try:
    first_data = os.lseek(fd, 0, os.SEEK_DATA)
    first_hole = os.lseek(fd, 0, os.SEEK_HOLE)
except OSError as e:
    print("seek failed:", e); sys.exit(1)
os.close(fd)
data = open(path, "rb").read()
zero = bytes(4096)
zero_blocks = sum(1 for o in range(0, size, 4096) if data[o:o + 4096] == zero)
ratio = len(zlib.compress(data, 6)) / len(data)
print(f"size {size} first_data {first_data} first_hole {first_hole} zero_blocks {zero_blocks} "
      f"compressed/original {ratio:.4f}")
sys.exit(0 if first_data == 0 and first_hole == size and zero_blocks == 0 and ratio > 0.99 else 1)
PY
rc=$?
[ "$rc" -eq 0 ] && pass "created: written end to end, incompressible ($(cat "$T/check"))" ||
  fail "created: $(cat "$T/check")"
if command -v filefrag > /dev/null; then  # e2fsprogs' own view of the extents (FIEMAP)
  filefrag -v "$T/new.img" > "$T/frag" 2>&1
  grep -q unwritten "$T/frag" && fail "created: filefrag shows unwritten extents: $(cat "$T/frag")" ||
    pass "created: filefrag shows no unwritten extent ($(tail -1 "$T/frag"))"
fi

echo "== 0.5 KiB cells where the file system allows them"
python3 - "$T/new.img" > "$T/align" 2>&1 << 'PY'
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 4096)  # page-aligned
try:
    n = os.preadv(fd, [memoryview(buf)[:512]], 512)
    print("512-byte O_DIRECT read at offset 512: ok" if n == 512 else f"short read {n}")
except OSError as e:
    print(f"512-byte O_DIRECT read refused: {e}")
PY
cat "$T/align"
if grep -q ": ok" "$T/align"; then
  expect_rc "--bs 512 randread on a file system that takes 512-byte O_DIRECT" 0 "$P" spec "$T/new.img" --rw randread \
    --bs 512 --seconds 0.3 --json
  expect_text "logical block 512 from the file system" '"logical_block_bytes": 512'
  expect_text "alignment source named" '"alignment_source": "(STATX_DIOALIGN|probe)"'
else
  expect_rc "--bs 512 where the file system refuses 512-byte O_DIRECT" 2 "$P" spec "$T/new.img" --rw randread \
    --bs 512 --seconds 0.3
fi

echo "== $fails failed check(s)"
[ "$fails" -eq 0 ]
