#!/usr/bin/env bash
# e2e_write_data_readback: what ptsuite writes is unique per write and incompressible (issue
# #13). `ptsuite spec` writes a 16 MiB file sequentially in 4 KiB blocks (several passes);
# the file is read back with dd (O_DIRECT) and checked in Python, independent of ptsuite:
# every 512-byte sector differs from every other (no write repeats data, not even part of a
# block), and zlib (level 9) and lzma (8 MiB dictionary: sees repeats across the whole
# file) shrink it by < 1 %. As root it also writes at TC 4 x QD 32 without CAP_IPC_LOCK under
# an 8 MiB locked-memory limit (a lab account's default: registered I/O buffers count against
# it), which must run as well. Usage: write_data_readback.sh PTSUITE. Exit 77 without O_DIRECT.
set -euo pipefail
PTSUITE=${1:?usage: write_data_readback.sh PTSUITE}
PY=$(command -v /usr/bin/python3 || command -v python3)
dir=${WRITE_DATA_DIR:-${TMPDIR:-/tmp}}
file=$(mktemp "$dir/ptsuite-write-data.XXXXXX"); rm -f "$file"
trap 'rm -f "$file" "$file.back" "$file.err"' EXIT
if ! "$PTSUITE" spec "$file" --size 16m --rw write --bs 4k --oio 4 --seconds 1 >/dev/null 2>"$file.err"; then
  if grep -q "direct I/O" "$file.err"; then echo "SKIP: no O_DIRECT in $dir"; exit 77; fi
  cat "$file.err"; exit 1
fi
"$PTSUITE" spec "$file" --confirm "$file" --rw write --bs 4k --oio 4 --seconds 1 >/dev/null
if [ "$(id -u)" = 0 ] && command -v prlimit >/dev/null && command -v setpriv >/dev/null; then
  prlimit --memlock=8388608:8388608 setpriv --bounding-set -ipc_lock --inh-caps -ipc_lock \
    "$PTSUITE" spec "$file" --confirm "$file" --rw randwrite --bs 4k --threads 4 --oio 32 --seconds 1 >/dev/null
  echo "TC 4 x QD 32 without CAP_IPC_LOCK under an 8 MiB locked-memory limit: ran"
fi
dd if="$file" of="$file.back" bs=1M iflag=direct status=none
"$PY" - "$file.back" <<'PY'
import lzma, sys, zlib
data = open(sys.argv[1], "rb").read()
sectors = [data[i:i + 512] for i in range(0, len(data), 512)]
distinct = len(set(sectors))
z = len(zlib.compress(data, 9)) / len(data)
x = len(lzma.compress(data, preset=6)) / len(data)
print(f"{len(data)} B read back: {distinct} distinct of {len(sectors)} sectors; "
      f"zlib keeps {z:.4f}, lzma keeps {x:.4f} of the size")
ok = distinct == len(sectors) and z > 0.99 and x > 0.99
sys.exit(0 if ok else 1)
PY
