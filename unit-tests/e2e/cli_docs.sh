#!/usr/bin/env bash
# unit-tests/e2e/cli_docs.sh CASE PTSUITE BUILD_DIR — see cli.cmake. The checks read the
# rendered page and the completion's suggestions with man and bash themselves.
set -u
case_=$1 P=$2 B=$3
fail=0
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }

case $case_ in
man)
  command -v man >/dev/null || { echo "man not installed"; exit 77; }
  page=$B/ptsuite.1
  [ -s "$page" ] || { echo "FAIL no $page"; exit 1; }
  out=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l "$page" 2>"$B/cli_man.err")
  rc=$?
  [ $rc -eq 0 ] && ok "man -l renders" || bad "man -l exit $rc"
  [ -s "$B/cli_man.err" ] && bad "man warnings: $(cat "$B/cli_man.err")" || ok "no warnings"
  # Every flag that `COMMAND --help` lists is on the page (both come from one definition).
  plain=$(sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g' <<<"$out")
  for cmd in list info spec purge run resume report analyze plan compare check; do
    for flag in $("$P" "$cmd" --help | grep -oE '^  (-h, )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
      grep -q -- "$flag" <<<"$plain" || bad "$cmd $flag missing from the page"
    done
  done
  grep -q "EXIT STATUS" <<<"$plain" && ok "exit status section" || bad "no EXIT STATUS"
  ;;
completion)
  bc=/usr/share/bash-completion/bash_completion
  [ -r "$bc" ] || { echo "bash-completion not installed"; exit 77; }
  script=$B/ptsuite.bash-completion
  # suggest WORD... : the completions bash offers for the line "ptsuite WORD..." (last word
  # being completed), one a line.
  suggest() {
    PATH="$(dirname "$P"):$PATH" bash --norc --noprofile -c '
      source "$1"; source "$2"; shift 2
      COMP_WORDS=(ptsuite "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
      COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
      _ptsuite ptsuite "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$script" "$@"
  }
  has() { # has WHAT EXPECTED -- WORDS...
    local what=$1 want=$2; shift 3
    if suggest "$@" | grep -qx -- "$want"; then ok "$what"; else bad "$what: '$want' not in [$(suggest "$@" | tr '\n' ' ')]"; fi
  }
  hasnt() {
    local what=$1 want=$2; shift 3
    if suggest "$@" | grep -qx -- "$want"; then bad "$what: '$want' offered"; else ok "$what"; fi
  }
  bash -c "source $bc; source $script; complete -p ptsuite" | grep -q -- "-F _ptsuite ptsuite" &&
    ok "complete -p ptsuite" || bad "no completion registered for ptsuite"
  has "commands" run -- r
  has "commands" resume -- r
  hasnt "no options for commands" run -- --
  has "run's options" --cell-seconds -- run iops --cell
  has "spec's access options" --bs-split -- spec sim:demo --bs
  hasnt "plan has no --confirm" --confirm -- plan iops --con
  # the tests of `ptsuite list`, at run time
  for t in $("$P" list --names); do has "test $t" "$t" -- run "${t:0:2}"; done
  has "sim:PROFILE as TARGET" sim:demo -- run iops si
  # after "sim:" bash completes the part behind the colon (a word break), bash-completion's rule
  has "a profile after sim:" demo -- run iops sim:de
  has "--pts words" pts-e-1.1 -- run iops --pts pts-e
  has "--class words" client -- plan iops --class c
  has "--purge words" sanitize-crypto -- purge /dev/null --purge sanitize-c
  has "help COMMAND" analyze -- help an
  has "compare's options" --allow-mismatch -- compare a b --allow
  has "check's options" --spec -- check a --sp
  ;;
install)
  command -v cmake >/dev/null || exit 77
  prefix=$(mktemp -d /dev/shm/ptsuite-cli-install.XXXXXX)
  trap 'rm -rf "$prefix"' EXIT
  cmake --install "$B" --prefix "$prefix" >"$prefix.log" 2>&1 && ok "cmake --install" ||
    { bad "cmake --install: $(tail -5 "$prefix.log")"; }
  rm -f "$prefix.log"
  for f in bin/ptsuite share/man/man1/ptsuite.1 share/bash-completion/completions/ptsuite \
           share/ptsuite/tests-pts/iops.toml share/ptsuite/templates/iops.toml \
           share/ptsuite/tests-pts/requirements/review-lab-shortlist.toml share/ptsuite/fleet/submit.sh; do
    [ -e "$prefix/$f" ] && ok "$f installed" || bad "$f not installed"
  done
  # The installed binary finds the installed definitions (list names their directory) and
  # templates (the demo run's report needs them).
  "$prefix/bin/ptsuite" list | grep -q "definitions in $prefix/share/ptsuite/tests-pts" &&
    ok "installed ptsuite reads share/ptsuite/tests-pts" ||
    bad "installed ptsuite reads other definitions: $("$prefix/bin/ptsuite" list 2>&1 | head -1)"
  # Its own demo drive: never the machine's default state file, which another ptsuite may own.
  out=$(cd "$prefix" && PTSUITE_DEMO_TARGET="sim:demo@$prefix/demo.simdrive" "$prefix/bin/ptsuite" run iops --out "$prefix/run" --cell-seconds 0.2 --max-rounds 5 --quiet 2>&1)
  rc=$?
  [ $rc -eq 0 ] && [ -n "$(ls "$prefix"/run/*.xlsx 2>/dev/null)" ] &&
    ok "installed ptsuite runs the demo and writes its report" || bad "installed demo run: rc=$rc $out"
  ;;
esac
exit $fail
