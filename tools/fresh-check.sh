#!/usr/bin/env bash
# tools/fresh-check.sh — runs the README's two commands on a fresh, minimal Debian 12, the way
# a new lab would: debootstrap --variant=minbase bookworm (mirror taken from this machine's apt
# sources at run time), /dev (with /dev/pts, /dev/shm), /proc and /sys bound in, a clone of the
# commit under test at /root/ptsuite, then each command from README.md's "Two commands" block,
# exactly as written there. Fails if either command fails, if the first leaves no report under
# reports/, or if the second prints no ctest summary. Always unmounts and removes the system,
# also on Ctrl-C / SIGTERM, and checks that nothing is left mounted.
#
# Usage: tools/fresh-check.sh [--worktree] [--only-test] [REV]
#   REV          commit to test (default HEAD)
#   --worktree   test HEAD plus the uncommitted changes to tracked files (git stash create)
#   --only-test  run only the README's second command (the test command), e.g. for a shorter CI
# Environment:
#   PTS_FRESH_DIR=/var/tmp      where the temporary system is made (needs ~6 GB)
#   PTS_FRESH_APT_CACHE=DIR     optional: bind DIR as the system's apt package cache (downloads
#                               only; nothing installed is shared). Default: none, all downloaded.
# Exit: 0 pass; 1 a command failed or a check did not hold; 2 bad input or host set-up
# (not root, no debootstrap, mirror unreachable, bad REV) — before anything is created.
set -euo pipefail
{ # the whole script is one compound command: bash reads it all before running, so editing
  # or checking out another version of this file during a run cannot change the run

log() { printf 'fresh-check: %s\n' "$*" >&2; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed 's/^# \{0,1\}//;$d' >&2; exit 2; }

WORKTREE=0 ONLY_TEST=0 REV=HEAD
while [[ $# -gt 0 ]]; do
  case $1 in
    --worktree) WORKTREE=1 ;;
    --only-test) ONLY_TEST=1 ;;
    -h|--help) usage ;;
    -*) log "unknown option: $1"; usage ;;
    *) REV=$1 ;;
  esac
  shift
done
REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"

# ---- bad input: every problem at once, before anything is created ----
problems=()
[[ $(id -u) -eq 0 ]] || problems+=("not root: debootstrap, chroot and the bind mounts need root (run with sudo)")
command -v debootstrap >/dev/null || problems+=("no debootstrap: apt-get install debootstrap")
command -v git >/dev/null || problems+=("no git on the host (needed to clone the commit under test)")

# The host's Debian 12 mirror (ENTRIES, MIRROR; a problem when there is none or it does not
# answer) and the system's set-up and removal: tools/lib/debian12.sh, shared with the package test.
# shellcheck source=tools/lib/debian12.sh
source "$REPO/tools/lib/debian12.sh"
debian12_sources
SHA=""
if [[ $(id -u) -ne 0 ]]; then
  :  # git refuses a root-owned repository to other users; not root is reported above
elif [[ $WORKTREE -eq 1 ]]; then
  SHA=$(git stash create 2>/dev/null || true)
  [[ -n $SHA ]] || SHA=$(git rev-parse -q --verify HEAD^{commit} || true)
else
  SHA=$(git rev-parse -q --verify "$REV^{commit}" 2>/dev/null || true)
  [[ -n $SHA ]] || problems+=("REV '$REV' is not a commit of $REPO")
  [[ -z $(git status --porcelain --untracked-files=no 2>/dev/null) ]] ||
    log "note: the work tree has uncommitted changes; they are not tested (use --worktree)"
fi
mapfile -t COMMANDS < <(awk '
  /^## / { insec = ($0 ~ /^## Two commands/) }
  insec && /^```/ { if (inblk) exit; inblk = 1; next }
  insec && inblk && $0 !~ /^[ \t]*(#|$)/ { sub(/^[ \t]+/, ""); print }' README.md)
[[ ${#COMMANDS[@]} -eq 2 ]] ||
  problems+=("README.md: expected 2 commands in the first code block under '## Two commands', found ${#COMMANDS[@]}")
if [[ ${#problems[@]} -gt 0 ]]; then
  for p in "${problems[@]}"; do log "$p"; done
  exit 2
fi

# ---- the temporary system; cleanup runs on every exit path ----
BASE=${PTS_FRESH_DIR:-/var/tmp}
ROOT=""
CHILD=""
now() { date +%s; }
child_cpu_s() {  # user+sys seconds of every waited-for child so far (bash's `times`, line 2)
  times | awk 'NR == 2 {
    n = split($0, t, " "); s = 0
    for (i = 1; i <= n; i++) { split(t[i], p, "m"); s += p[1] * 60 + p[2] }
    printf "%d", s }'
}
cleanup() {
  local rc=$? left
  trap - EXIT INT TERM HUP
  set +e  # best effort to the end: no failing test in here may skip the unmounts
  [[ -n $ROOT ]] || exit "$rc"
  [[ -z $CHILD ]] || kill -TERM -- "-$CHILD" 2>/dev/null || true
  debian12_teardown "$ROOT" || exit 1
  rm -f "$ROOT.debootstrap.log"
  if [[ -e $ROOT ]]; then log "ERROR: could not remove $ROOT"; exit 1; fi
  log "removed $ROOT (nothing left mounted)"
  exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM HUP

mkdir -p "$BASE"
ROOT=$(mktemp -d "$BASE/ptsuite-fresh.XXXXXX")
log "commit $(git log -1 --format='%h %s' "$SHA")"
log "system: $ROOT, mirror: $MIRROR"

# Runs "$@" in a session of its own with its output in file OUT (and on stdout too when
# SHOW=1), in the background, and waits: a signal reaches the traps at once, and the traps
# write to this script's own stderr, never into OUT.
run_bg() {  # run_bg OUT SHOW CMD...
  local out=$1 show=$2 rc=0 tailpid=""
  shift 2
  setsid "$@" >"$out" 2>&1 </dev/null &
  CHILD=$!
  if [[ $show -eq 1 ]]; then tail -n +1 -f --pid="$CHILD" "$out" & tailpid=$!; fi
  wait "$CHILD" || rc=$?
  CHILD=""
  [[ -z $tailpid ]] || wait "$tailpid" || true
  return $rc
}

t0=$(now)
run_bg "$ROOT.debootstrap.log" 0 debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" || {
  tail -20 "$ROOT.debootstrap.log" >&2; rm -f "$ROOT.debootstrap.log"; log "FAIL: debootstrap"; exit 1; }
rm -f "$ROOT.debootstrap.log"
t_boot=$(( $(now) - t0 ))
log "debootstrap: ${t_boot} s"

# The machine's own Debian entries (bookworm, -updates, -security), so the system gets what a
# fresh install from this mirror gets.
debian12_write_sources "$ROOT"

mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"
mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys" && mount --make-rslave "$ROOT/sys"
if [[ -n ${PTS_FRESH_APT_CACHE:-} ]]; then
  mount --bind "$PTS_FRESH_APT_CACHE" "$ROOT/var/cache/apt/archives"
fi
for d in shm pts; do mountpoint -q "$ROOT/dev/$d" || { log "FAIL: $ROOT/dev/$d not mounted"; exit 1; }; done

git clone -q --no-checkout "$REPO" "$ROOT/root/ptsuite"
git -C "$ROOT/root/ptsuite" fetch -q "$REPO" "$SHA"
git -C "$ROOT/root/ptsuite" checkout -q --detach "$SHA"

in_system() {  # in_system CMD OUT: one README command in the system, as a new root login would
  local envs=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
              LANG=C.UTF-8 TERM=dumb SHELL=/bin/bash USER=root LOGNAME=root)
  local v
  for v in CI http_proxy https_proxy no_proxy; do [[ -z ${!v:-} ]] || envs+=("$v=${!v}"); done
  run_bg "$2" 1 chroot "$ROOT" /usr/bin/env -i "${envs[@]}" /bin/bash -c "cd /root/ptsuite && $1"
}

status=0
declare -A took
for i in "${!COMMANDS[@]}"; do
  cmd=${COMMANDS[$i]}
  [[ $ONLY_TEST -eq 1 && $i -eq 0 ]] && continue
  out="$ROOT/root/fresh-check.$i.log"
  log "command $((i + 1)): $cmd"
  t0=$(now) c0=$(child_cpu_s)
  set +e
  in_system "$cmd" "$out"
  rc=$?
  set -e
  took[$i]=$(( $(now) - t0 ))
  log "command $((i + 1)): '$cmd' exit $rc after ${took[$i]} s (CPU user+sys $(( $(child_cpu_s) - c0 )) s; load now $(cut -d' ' -f1-3 /proc/loadavg))"
  if [[ $rc -ne 0 ]]; then
    log "FAIL: '$cmd' exited $rc"; status=1; break
  fi
  if [[ $i -eq 0 ]]; then
    reports=$(find "$ROOT/root/ptsuite/reports" -name run.json 2>/dev/null | sed "s|^$ROOT/root/ptsuite/||")
    sheets=$(find "$ROOT/root/ptsuite/reports" \( -name '*.xlsx' -o -name '*.pdf' \) 2>/dev/null | wc -l)
    if [[ -z $reports || $sheets -eq 0 ]]; then
      log "FAIL: '$cmd' left no report under reports/ (run.json: ${reports:-none}, xlsx/pdf files: $sheets)"
      status=1; break
    fi
    log "report: $(tr '\n' ' ' <<<"$reports")($sheets xlsx/pdf)"
  else
    # Every ctest summary it printed (the main run first; then sanitizer and fuzz runs, if any).
    summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+|^Total Test time' "$out" || true)
    if ! grep -qE '% tests passed' <<<"$summary"; then
      log "FAIL: '$cmd' printed no ctest summary"; status=1; break
    fi
    while read -r line; do log "test summary: $line"; done <<<"$summary"
  fi
done
log "times: debootstrap ${t_boot} s$(for i in "${!took[@]}"; do printf ', "%s" %s s' "${COMMANDS[$i]}" "${took[$i]}"; done)"
[[ $status -eq 0 ]] && log "PASS" || log "FAIL"
exit $status
}
