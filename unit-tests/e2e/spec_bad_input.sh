#!/usr/bin/env bash
# e2e_spec_bad_input: every bad option or target gives one clear message naming it, exit 2,
# and leaves the target untouched (not created, not modified). A file system without
# O_DIRECT (ramfs, when we may mount it) is refused rather than run with buffered I/O, and
# writing to a device with a mounted file system is refused by the guard (exit 3).
# Usage: spec_bad_input.sh PTSUITE
set -uo pipefail
PTSUITE=${1:?usage: spec_bad_input.sh PTSUITE}
dir=/dev/shm; [ -d "$dir" ] && [ -w "$dir" ] || dir=${TMPDIR:-/tmp}
work=$(mktemp -d "$dir/ptsuite-spec-bad.XXXXXX")
cleanup() { chmod -R u+w "$work" 2>/dev/null; [ -n "${ramfs:-}" ] && umount "$ramfs" 2>/dev/null; rm -rf "$work" "${ramfs:-/nonexistent}"; }
trap cleanup EXIT
fail=0

# expect_bad NAME PATTERN ARGS... : exit 2, stderr matches PATTERN, nothing on stdout.
expect_bad() {
  local name=$1 pattern=$2; shift 2
  local out err rc
  out=$("$PTSUITE" spec "$@" 2>"$work/err"); rc=$?; err=$(cat "$work/err")
  if [ "$rc" -ne 2 ] || ! grep -qE -- "$pattern" <<<"$err" || [ -n "$out" ]; then
    echo "FAIL $name: rc=$rc stderr=[$err] stdout=[$out]"; fail=1
  else
    echo "ok   $name: $(head -1 <<<"$err")"
  fi
}

new="$work/new-file"
expect_bad "missing directory" "directory .*does not exist" "$work/no/such/dir/f" --size 1m --seconds 0.1
expect_bad "--bs 3000" "^ptsuite spec: --bs: '3000' is not a block size" "$new" --size 1m --bs 3000
expect_bad "--size not a multiple of 512" "--size: '1000' is not a size" "$new" --size 1000
expect_bad "--oio 0" "--oio: '0' is not " "$new" --size 1m --oio 0
expect_bad "--seconds -1" "--seconds: '-1' is not " "$new" --size 1m --seconds -1
expect_bad "--poll-budget -1" "--poll-budget: '-1' is not " "$new" --size 1m --poll-budget -1
expect_bad "--active-range 150" "--active-range: '150' is not " "$new" --size 1m --active-range 150
expect_bad "unknown --rw" "--rw: 'randfoo' is not a pattern" "$new" --size 1m --rw randfoo
expect_bad "missing --size" "--size: needed" "$new"
expect_bad "--zones not summing to 100" "--zones: '50/5:30/15:10/80' is not a zone list: zone shares of the I/Os sum to 90 %" "$new" --size 1m \
  --zones 50/5:30/15:10/80
expect_bad "--zones zone smaller than a block" "--zones: '50/1:50/99' gives zone 1 " "$new" --size 1m --bs 64k \
  --zones 50/1:50/99
expect_bad "unknown option" "--bogus: unknown option" "$new" --size 1m --bogus
[ -e "$new" ] && { echo "FAIL: a bad command created $new"; fail=1; }

# All problems at once: one line each.
"$PTSUITE" spec "$new" --size 1m --bs 3000 --oio 0 --seconds -1 --active-range 150 --rw x 2>"$work/err"; rc=$?
lines=$(wc -l <"$work/err")
if [ "$rc" -eq 2 ] && [ "$lines" -eq 5 ]; then echo "ok   all errors at once ($lines lines)"; else
  echo "FAIL all errors at once: rc=$rc, $lines lines:"; cat "$work/err"; fail=1; fi

# A read-only target: refused for writes, untouched.
ro="$work/ro-file"
head -c 1048576 /dev/urandom >"$ro"; chmod 0444 "$ro"; sum=$(md5sum <"$ro")
expect_bad "read-only file" "read-only" "$ro" --rw randwrite --seconds 0.2
[ "$(md5sum <"$ro")" = "$sum" ] || { echo "FAIL: read-only file was modified"; fail=1; }

# --bs not a multiple of a 4 KiB logical block: a 4Kn loop device (root only).
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
  img="$work/4kn.img"; truncate -s 16m "$img"
  if loop=$(losetup --find --show --sector-size 4096 --direct-io=on "$img" 2>/dev/null); then
    expect_bad "--bs 512 on a 4Kn device" "--bs: '512' is not a multiple of the target's logical block size \(4096" \
      "$loop" --bs 512 --seconds 0.1
    losetup -d "$loop"
  fi
  # The guard: writing to a loop device with a mounted file system is refused (exit 3).
  img="$work/mounted.img"; truncate -s 64m "$img"
  if command -v mkfs.ext4 >/dev/null && loop=$(losetup --find --show "$img" 2>/dev/null); then
    mnt="$work/mnt"; mkdir -p "$mnt"
    if mkfs.ext4 -q "$loop" && mount "$loop" "$mnt" 2>/dev/null; then
      "$PTSUITE" spec "$loop" --rw randwrite --seconds 0.2 >/dev/null 2>"$work/err"; rc=$?
      if [ "$rc" -eq 3 ] && grep -q "mounted" "$work/err"; then echo "ok   guard: $(head -1 "$work/err")"; else
        echo "FAIL guard on a mounted device: rc=$rc $(cat "$work/err")"; fail=1; fi
      umount "$mnt"
    fi
    losetup -d "$loop"
  fi
  # A file system without O_DIRECT: ramfs.
  ramfs=$(mktemp -d /tmp/ptsuite-ramfs.XXXXXX)
  if mount -t ramfs ramfs "$ramfs" 2>/dev/null; then
    expect_bad "no O_DIRECT (ramfs, new file)" "direct I/O \(O_DIRECT\) is not supported" "$ramfs/f" --size 1m
    [ -e "$ramfs/f" ] && { echo "FAIL: created a file on ramfs"; fail=1; }
    head -c 65536 /dev/zero >"$ramfs/g"
    expect_bad "no O_DIRECT (ramfs, existing file)" "direct I/O \(O_DIRECT\) is not supported" "$ramfs/g" --seconds 0.1
  else
    echo "skip ramfs case (cannot mount)"; rmdir "$ramfs"; ramfs=""
  fi
fi
exit $fail
