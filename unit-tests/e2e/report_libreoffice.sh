#!/usr/bin/env bash
# unit-tests/e2e/report_libreoffice.sh — every golden workbook (one or more per template in
# templates/: a template without a golden workbook fails) printed to PDF by LibreOffice
# headless; check_pdf.py compares each PDF with its workbook: one page per report sheet plus
# the Raw sheet's pages, the serial number and the page's own caption on every page. One page
# of each kind of the IOPS report is rasterised (OUT/iops-*.png) to be looked at by eye.
# Skips (77) when soffice or poppler is not installed.
#   usage: report_libreoffice.sh GOLDEN_DIR OUT_DIR TEMPLATES_DIR CHECK_PDF_PY PYTHON
set -u
GOLD=$1 OUT=$2 TEMPLATES=$3 CHECK=$4 PY=$5
command -v soffice >/dev/null && command -v pdftoppm >/dev/null && command -v pdftotext >/dev/null || {
  echo "SKIP: needs libreoffice-calc-nogui and poppler-utils"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
books=()
for dir in "$GOLD"/*/; do
  name=$(basename "$dir")
  for x in "$dir"*.xlsx; do
    [ -f "$x" ] || continue
    cp "$x" "$OUT/$name.xlsx" && books+=("$OUT/$name.xlsx")
  done
done
[ ${#books[@]} -gt 0 ] || fail "no golden workbooks in $GOLD"
# Every template has a golden workbook (the page rules hold for every template, present and to come).
for t in "$TEMPLATES"/*.toml; do
  tname=$(basename "$t" .toml)
  grep -lq "\"template_name\": \"$tname\"" "$GOLD"/*/run.json 2>/dev/null ||
    fail "template $tname has no golden workbook (add a fixture to unit-tests/report/fixture_record.cpp)"
done
timeout 600 soffice --headless --norestore "-env:UserInstallation=file://$OUT/lo-profile" \
  --convert-to pdf --outdir "$OUT" "${books[@]}" > "$OUT/soffice.log" 2>&1 ||
  fail "soffice failed: $(cat "$OUT/soffice.log")"
rc=0
for b in "${books[@]}"; do
  pdf=${b%.xlsx}.pdf
  [ -s "$pdf" ] || fail "no $(basename "$pdf"): $(cat "$OUT/soffice.log")"
  serial=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"]["serial"])' \
           "$GOLD/$(basename "${b%.xlsx}")/run.json")
  "$PY" "$CHECK" "$b" "$pdf" "$serial" || rc=1
done
[ $rc -eq 0 ] || fail "PDF pages do not follow the workbooks"
# One page of each kind, for a look: Summary (1), a window page (3), a table page (4), Raw (7).
for spec in 1:summary 3:window 4:table 7:raw; do
  pdftoppm -f "${spec%%:*}" -l "${spec%%:*}" -r 80 -png -singlefile "$OUT/iops_tv6.pdf" "$OUT/iops-${spec##*:}" ||
    fail "pdftoppm"
done
echo "PDFs: ${#books[@]} workbooks checked; pages of each kind: $OUT/iops-{summary,window,table,raw}.png"
