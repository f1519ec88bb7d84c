#!/usr/bin/env bash
# unit-tests/e2e/report_libreoffice.sh — LibreOffice headless converts two rendered workbooks
# (IOPS with the TV-6 window, Latency) to PDF without error; the page holding the IOPS
# Measurement Window chart is rasterised with pdftoppm (OUT/iops-window-page.png) to be looked
# at by eye. Skips (77) when soffice or pdftoppm is not installed.
#   usage: report_libreoffice.sh GOLDEN_DIR OUT_DIR
set -u
GOLD=$1 OUT=$2
command -v soffice >/dev/null && command -v pdftoppm >/dev/null && command -v pdftotext >/dev/null || {
  echo "SKIP: needs libreoffice-calc-nogui and poppler-utils"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
cp "$GOLD/iops_tv6/iops.xlsx" "$OUT/iops_tv6.xlsx" || fail "no golden IOPS workbook"
cp "$GOLD/latency/latency.xlsx" "$OUT/latency.xlsx" || fail "no golden Latency workbook"
timeout 300 soffice --headless --norestore "-env:UserInstallation=file://$OUT/lo-profile" \
  --convert-to pdf --outdir "$OUT" "$OUT/iops_tv6.xlsx" "$OUT/latency.xlsx" > "$OUT/soffice.log" 2>&1 ||
  fail "soffice failed: $(cat "$OUT/soffice.log")"
for f in iops_tv6 latency; do
  [ -s "$OUT/$f.pdf" ] || fail "no $f.pdf: $(cat "$OUT/soffice.log")"
  pdftotext -layout "$OUT/$f.pdf" "$OUT/$f.txt" || fail "pdftotext $f"
  grep -q "SNIA SSS TWG" "$OUT/$f.txt" || fail "$f.pdf lacks the header block"
  grep -q "Steady State Determination" "$OUT/$f.txt" || fail "$f.pdf lacks the determination table"
done
grep -q "11,726.8" "$OUT/iops_tv6.txt" || fail "iops_tv6.pdf does not show the window average 11,726.8"
# The page of the IOPS window plot: the first page with the plot's legend ("Least-squares fit";
# the header-only first page of the sheet has the sub-title but no legend).
pages=$(pdfinfo "$OUT/iops_tv6.pdf" | awk '/^Pages:/ {print $2}')
page=""
for ((p = 1; p <= pages; p++)); do
  if pdftotext -f "$p" -l "$p" "$OUT/iops_tv6.pdf" - | grep -q "Least-squares fit"; then page=$p; break; fi
done
[ -n "$page" ] || fail "no page with the Measurement Window"
pdftoppm -f "$page" -l "$page" -r 70 -png -singlefile "$OUT/iops_tv6.pdf" "$OUT/iops-window-page" ||
  fail "pdftoppm"
[ -s "$OUT/iops-window-page.png" ] || fail "no PNG"
echo "PDFs: $OUT/iops_tv6.pdf ($pages pages), $OUT/latency.pdf; window page $page -> $OUT/iops-window-page.png"
