# tools/lib/debian12.sh — making and removing a fresh, minimal Debian 12 system with debootstrap,
# shared by tools/fresh-check.sh (the README's commands on a bare system) and
# unit-tests/e2e/package_deb.sh (the .deb installed on a bare system). Sourced, not run.
#   debian12_sources          sets ENTRIES (the host's bookworm apt entries, "URI SUITE COMPONENTS...")
#                             and MIRROR (the bookworm one); appends to the caller's `problems`
#                             array when there is none or it does not answer
#   debian12_mounted_under R  mount points at or below R, deepest first
#   debian12_teardown R       stops what still runs inside R (TERM, then KILL), detaches loop
#                             devices backed inside it, unmounts and removes it; 1 when
#                             something stays mounted (then R is left in place)

# Every 'deb' entry of the host's apt sources as "URI SUITE COMPONENTS...", from one-line
# sources.list files and deb822 .sources files (Enabled: no skipped).
debian12_apt_entries() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r $f ]] || continue
    sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" && NF >= 3 {$1 = ""; sub(/^ /, ""); print}'
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r $f ]] || continue
    awk '
      function flush(  n, m, i, j, U, S) {
        if (f["types"] ~ /(^| )deb( |$)/ && tolower(f["enabled"]) != "no") {
          n = split(f["uris"], U, " "); m = split(f["suites"], S, " ")
          for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print U[i], S[j], f["components"]
        }
        delete f; key = ""
      }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      /^[ \t]/ { if (key != "") f[key] = f[key] " " $0; next }
      { key = tolower(substr($0, 1, index($0, ":") - 1)); f[key] = substr($0, index($0, ":") + 1) }
      END { flush() }' "$f" | awk '{$1 = $1; print}'
  done
}

debian12_sources() {
  ENTRIES=$(debian12_apt_entries | awk '$2 ~ /^bookworm(-updates|-security)?$/')
  MIRROR=$(awk '$2 == "bookworm" {print $1; exit}' <<<"$ENTRIES")
  MIRROR=${MIRROR%/}
  if [[ -z $MIRROR ]]; then
    problems+=("no 'bookworm' entry in /etc/apt/sources.list or /etc/apt/sources.list.d/*.sources: no Debian 12 mirror to debootstrap from")
    return 0
  fi
  local url="$MIRROR/dists/bookworm/Release"
  if command -v wget >/dev/null; then      # what debootstrap itself downloads with
    wget -q -T 20 -t 2 --spider "$url" || problems+=("mirror unreachable: $url (wget --spider failed)")
  elif command -v python3 >/dev/null; then
    python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=20).read(1)' "$url" 2>/dev/null ||
      problems+=("mirror unreachable: $url (python3 urllib failed)")
  fi
}

# The system's apt sources: the host's Debian entries (bookworm, -updates, -security), so the
# system gets what a fresh install from this mirror gets.
debian12_write_sources() {  # debian12_write_sources ROOT
  awk '{printf "deb %s %s", $1, $2; for (i = 3; i <= NF; i++) printf " %s", $i; print ""}' <<<"$ENTRIES" \
    >"$1/etc/apt/sources.list"
  cp -L /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null || true
}

debian12_mounted_under() {  # mount points at or below $1, deepest first
  awk -v r="$1" '$5 == r || index($5, r "/") == 1 {print $5}' /proc/self/mountinfo | sort -r
}

debian12_teardown() {  # debian12_teardown ROOT
  local root=$1 n sig=TERM left m
  # Processes still running inside the system (started by the commands, e.g. QEMU): TERM,
  # then KILL after 5 s, by id, so their traps can detach loop devices and the mounts can go.
  for n in 1 2 3 4 5 6 7 8 9 10; do
    left=($(find /proc -mindepth 2 -maxdepth 2 -name root -lname "$root" 2>/dev/null | cut -d/ -f3))
    [[ ${#left[@]} -eq 0 ]] && break
    [[ $n -gt 5 ]] && sig=KILL
    kill -"$sig" "${left[@]}" 2>/dev/null || true
    sleep 1
  done
  # Loop devices whose backing file lives in the system.
  losetup -n -O NAME,BACK-FILE --list 2>/dev/null | awk -v r="$root/" 'index($2, r) == 1 {print $1}' |
    while read -r dev; do losetup -d "$dev" || true; done
  for m in $(debian12_mounted_under "$root"); do
    umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
  left=($(debian12_mounted_under "$root"))
  if [[ ${#left[@]} -gt 0 ]]; then
    echo "ERROR: still mounted, NOT removing $root: ${left[*]}" >&2
    return 1
  fi
  rm -rf --one-file-system "$root"
  [[ ! -e $root ]] || { echo "ERROR: could not remove $root" >&2; return 1; }
}
