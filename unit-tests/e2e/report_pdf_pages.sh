#!/usr/bin/env bash
# unit-tests/e2e/report_pdf_pages.sh PTSUITE CHECK_PDF_PY — the PDF a lab hands over: a 5-Round
# Latency run on the simulated drive (virtual time; the IOPS test's 56 cells only take longer),
# then `ptsuite report --format pdf`. The PDF
# holds the report pages only (pdfinfo: pages = the workbook's sheets but Raw, each page with
# the serial and its own caption: check_pdf.py on a workbook without the Raw sheet), while the
# xlsx's Raw sheet and the CSV keep one row per Round × cell of run.json. Skips (77) without
# soffice, poppler or openpyxl.
set -euo pipefail
PTSUITE=${1:?usage: $0 PTSUITE CHECK_PDF_PY}
CHECK=${2:?usage: $0 PTSUITE CHECK_PDF_PY}
command -v soffice >/dev/null && command -v pdfinfo >/dev/null && command -v pdftotext >/dev/null || {
  echo "SKIP: needs libreoffice-calc-nogui and poppler-utils"; exit 77; }
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || { echo "SKIP: python3-openpyxl"; exit 77; }
base=/var/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
WORK=$(mktemp -d "$base/ptsuite-pdf.XXXXXX")
export PTSUITE_SIM_DIR=$WORK
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$PTSUITE" run latency "sim:tiny@$WORK/d.simdrive" --cell-seconds 0.2 --max-rounds 5 --seed 7 --quiet \
  --out "$WORK/run" >"$WORK/run.out" 2>&1 || { cat "$WORK/run.out"; fail "latency run"; }
"$PTSUITE" report "$WORK/run" --format xlsx,csv,pdf --out "$WORK/rep" >"$WORK/rep.out" 2>&1 ||
  { cat "$WORK/rep.out"; fail "report --format xlsx,csv,pdf"; }
pages=$(pdfinfo "$WORK/rep/latency.pdf" | awk '/^Pages:/ {print $2}')
/usr/bin/python3 - "$WORK" "$pages" <<'PY' || fail "pages / raw rows"
import csv, json, sys, openpyxl
work, pages = sys.argv[1], int(sys.argv[2])
wb = openpyxl.load_workbook(work + "/rep/latency.xlsx")
report = [n for n in wb.sheetnames if n != "Raw"]
assert "Raw" in wb.sheetnames
assert pages == len(report), "PDF has %d pages, the workbook %d report sheets" % (pages, len(report))
rec = json.load(open(work + "/run/run.json"))
cells = sum(len(r["cells"]) for st in rec["subtests"] for r in st["rounds"])
raw = [r for r in wb["Raw"].iter_rows(values_only=True) if r and r[0] in [s["id"] for s in rec["plan"]["subtests"]]]
rows = list(csv.reader(open(work + "/rep/csv/latency.csv")))[1:]
assert len(raw) == cells and len(rows) == cells, (len(raw), len(rows), cells)
print("PDF: %d pages = %d report sheets (Raw left out); Raw sheet %d rows, CSV %d rows = %d Round x cell results"
      % (pages, len(report), len(raw), len(rows), cells))
PY
# The same pages the PDF printed, checked page by page against a copy of the workbook without Raw.
/usr/bin/python3 - "$WORK/rep/latency.xlsx" "$WORK/noraw.xlsx" <<'PY'
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
del wb["Raw"]
wb.save(sys.argv[2])
PY
serial=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"]["serial"])' "$WORK/run/run.json")
/usr/bin/python3 "$CHECK" "$WORK/noraw.xlsx" "$WORK/rep/latency.pdf" "$serial" || fail "PDF pages"
