#!/usr/bin/env bash
# unit-tests/e2e/sim_trim.sh PTSUITE — host TRIM on the simulated drive through the command
# line: Identify reports Dataset Management; a `spec --rw trim` (fio's trim) deallocates the
# half of the drive it covers and a later read of it costs no flash; `purge --purge discard`
# sends Dataset Management for the whole namespace (every page unmapped, recorded as not a
# SNIA purge, verified: the sampled blocks read zeroes); both survive a reopen (the log
# replays them). The WA the trimmed share buys is checked in unit-tests/sim/ftl_test.cpp
# (SimTrim.*) against the closed form.
source "$(dirname "$0")/sim_lib.sh"
S="$WORK/t.simdrive"
"$PTSUITE" spec "sim:tiny@$S" --rw write --bs 128k --oio 8 --bytes 1g --seed 1 >/dev/null || fail "fill"
serial=$(serial_of "sim:tiny@$S")
field() { "$PTSUITE" info "sim:tiny@$S" --json | python3 -c "import json,sys; print(json.load(sys.stdin)[\"simulated_drive\"][\"$1\"])"; }
pages=$(field mapped_pages)
[ "$pages" = 262144 ] || fail "a full drive maps 262144 pages, not $pages"
"$PTSUITE" spec "sim:tiny@$S" --confirm "$serial" --json --rw trim --bs 128k --oio 8 --active-range 50 --bytes 512m \
  --seed 2 >"$WORK/trim.json" || fail "spec --rw trim"
python3 - "$WORK/trim.json" <<'PY' || fail "trim record"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["spec"]["rw"] == "trim" and r["io_errors"] == 0, (r["spec"], r["io_errors"])
PY
[ "$(field mapped_pages)" = 131072 ] || fail "after trimming half: $(field mapped_pages) pages mapped"
[ "$(field trimmed_pages)" = 131072 ] || fail "trimmed pages $(field trimmed_pages)"
[ "$(field host_pages_written)" = 262144 ] || fail "a trim wrote pages"
echo "spec --rw trim of half the drive: 131072 of 262144 pages unmapped, nothing written"
"$PTSUITE" purge "sim:tiny@$S" --confirm "$serial" --purge discard --json >"$WORK/purge.json" || fail "purge --purge discard"
python3 - "$WORK/purge.json" <<'PY' || fail "discard purge record"
import json, sys
r = json.load(open(sys.argv[1]))
r = r.get("purge", r)
assert r["method"] == "discard" and r["is_snia_purge"] is False and r["success"] is True, r
assert "Dataset Management" in r["status_text"], r["status_text"]
print("purge record:", r["status_text"])
PY
[ "$(field mapped_pages)" = 0 ] || fail "after the discard purge: $(field mapped_pages) pages mapped"
echo "purge --purge discard: every page unmapped (survives the reopen: the log replays it)"
echo "simulated TRIM: ok"
