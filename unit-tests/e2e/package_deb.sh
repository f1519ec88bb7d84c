#!/usr/bin/env bash
# unit-tests/e2e/package_deb.sh BUILD_DIR — the Debian package a fleet node installs: `cpack -G
# DEB` in BUILD_DIR makes it; its Depends must name the Debian package of every shared library
# the packaged binary links (readelf NEEDED → the host's `dpkg -S`, independent of the CMake
# list); it must hold the binary, the definitions and requirement sheets, the templates, the
# man page, the completion and the Slurm examples. Then it is installed with apt into a fresh
# minimal Debian 12 (debootstrap, as tools/fresh-check.sh makes one: tools/lib/debian12.sh),
# which has no compiler, and `ptsuite list` and a short `spec` on `sim:tiny` run there.
# Skips (77) when not root, without cpack/dpkg-deb/debootstrap, or when the mirror does not
# answer. PTS_FRESH_APT_CACHE=DIR: bind DIR as the system's apt package cache (as fresh-check).
set -euo pipefail
BUILD=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
REPO=$(cd "$(dirname "$0")/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || skip "not root (debootstrap and chroot need root)"
for t in cpack dpkg-deb dpkg readelf debootstrap; do command -v $t >/dev/null || skip "no $t"; done
problems=()
# shellcheck source=tools/lib/debian12.sh
source "$REPO/tools/lib/debian12.sh"
debian12_sources
[[ ${#problems[@]} -eq 0 ]] || skip "${problems[*]}"

base=/var/tmp
WORK=$(mktemp -d "$base/ptsuite-deb.XXXXXX")
ROOT=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  [[ -z $ROOT ]] || debian12_teardown "$ROOT" || rc=1
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the package --------------------------------------------------------------------------
t0=$(date +%s)
(cd "$BUILD" && cpack -G DEB -B "$WORK/pkg" >"$WORK/cpack.log" 2>&1) || { cat "$WORK/cpack.log"; fail "cpack -G DEB"; }
DEB=$(ls "$WORK"/pkg/ptsuite_*.deb)
echo "package: $(basename "$DEB") ($(du -k "$DEB" | cut -f1) KiB, cpack $(( $(date +%s) - t0 )) s)"
depends=$(dpkg-deb -f "$DEB" Depends)
echo "Depends: $depends"
dpkg-deb -x "$DEB" "$WORK/x"
bin="$WORK/x/usr/bin/ptsuite"
[[ -x $bin ]] || fail "no usr/bin/ptsuite in the package"
for f in usr/share/ptsuite/tests-pts/iops.toml usr/share/ptsuite/tests-pts/requirements/review-lab-shortlist.toml \
         usr/share/ptsuite/templates/iops.toml usr/share/bash-completion/completions/ptsuite \
         usr/share/ptsuite/fleet/submit.sh usr/share/ptsuite/fleet/ptsuite-drive.sbatch; do
  [[ -e $WORK/x/$f ]] || fail "no $f in the package"
done
ls "$WORK"/x/usr/share/man/man1/ptsuite.1* >/dev/null 2>&1 || fail "no man page in the package"
# Every library the binary links comes from a package Depends names.
missing=()
for lib in $(readelf -d "$bin" | awk '/NEEDED/ {gsub(/[\[\]]/, "", $5); print $5}'); do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ && !found {print $NF; found = 1}')  # reads it all: no SIGPIPE under pipefail
  [[ -n $path ]] || fail "the host has no $lib"
  pkg=""
  real=$(readlink -f "$path")
  # dpkg knows a file by the path its package ships (/lib/... or /usr/lib/... on a merged /usr).
  for p in "$real" "$path" "${real#/usr}" "/usr$real"; do
    pkg=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1 || true)
    [[ -z $pkg ]] || break
  done
  [[ -n $pkg ]] || fail "no Debian package owns $real ($lib)"
  if [[ ",$depends," != *", $pkg ("* && ",$depends," != *",$pkg ("* && ",$depends," != *", $pkg,"* ]]; then
    missing+=("$lib ($pkg)")
  fi
  echo "  $lib -> $pkg"
done
[[ ${#missing[@]} -eq 0 ]] || fail "Depends lacks: ${missing[*]}"

# ---- a fresh Debian 12 without a compiler --------------------------------------------------
ROOT=$(mktemp -d "$base/ptsuite-deb-root.XXXXXX")
t0=$(date +%s)
debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
  { tail -20 "$WORK/debootstrap.log"; fail "debootstrap"; }
echo "debootstrap: $(( $(date +%s) - t0 )) s"
debian12_write_sources "$ROOT"
mount -t proc proc "$ROOT/proc"
mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"
[[ -z ${PTS_FRESH_APT_CACHE:-} ]] || mount --bind "$PTS_FRESH_APT_CACHE" "$ROOT/var/cache/apt/archives"
cp "$DEB" "$ROOT/tmp/"
in_root() { chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 /bin/bash -c "$1"; }
t0=$(date +%s)
in_root "apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/$(basename "$DEB")" \
  >"$WORK/apt.log" 2>&1 || { tail -30 "$WORK/apt.log"; fail "apt-get install of the package"; }
echo "apt-get install: $(( $(date +%s) - t0 )) s"
in_root "! command -v cc && ! command -v c++ && ! command -v g++" >/dev/null || fail "the system has a compiler"
in_root "ptsuite --version"
in_root "ptsuite list" >"$WORK/list.out" 2>&1 || { cat "$WORK/list.out"; fail "ptsuite list on the bare system"; }
grep -q '^  iops ' "$WORK/list.out" || { cat "$WORK/list.out"; fail "ptsuite list shows no iops test"; }
echo "ptsuite list: $(grep -c . "$WORK/list.out") lines"
in_root "cd /tmp && ptsuite spec sim:tiny@/tmp/node.simdrive --rw randwrite --bs 4k --seconds 2 --json" >"$WORK/spec.json" \
  2>"$WORK/spec.err" || { cat "$WORK/spec.err"; fail "ptsuite spec on sim:tiny on the bare system"; }
python3 - "$WORK/spec.json" <<'PY' || fail "the spec's result"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["write_ios"] > 0 and r["iops"] > 0, r
print(f"spec on sim:tiny in the bare system: {r['iops']:.0f} IOPS, {r['write_ios']} writes")
PY
echo "package: ok"
