#!/usr/bin/env python3
"""unit-tests/report/check_pdf.py — checks a PDF that LibreOffice printed from a ptsuite
workbook against the workbook itself (read with openpyxl, not with ptsuite): one page per report sheet, in order,
then the Raw sheet's pages (it prints landscape, fit to the page width, so its page count is
LibreOffice's: at least one, and every one of them a Raw page); every printed page's text
(pdftotext) holds the drive's serial number and its own caption (report sheets: the numbered
"Plot/Table 1.n – …" line; Raw pages: the table caption). A workbook without a Raw sheet (the
PDF `ptsuite report --format pdf` prints without --pdf-raw) has exactly its report pages.

usage: check_pdf.py WORKBOOK PDF SERIAL     (exit 0 ok, 1 mismatch, 77 openpyxl missing)
"""
import re
import subprocess
import sys

try:
    import openpyxl
except ImportError:  # pragma: no cover
    print("SKIP: python3-openpyxl is not installed")
    sys.exit(77)

CAPTION = re.compile(r"^(Plot|Table) 1\.\d+ – ")


def norm(text):
    return re.sub(r"\s+", " ", text).strip()


def page_text(pdf, page):
    out = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"], capture_output=True, text=True)
    return norm(out.stdout)


def expected_pages(wb):
    """([(sheet, caption)] of the report sheets, in order, (sheet, caption) of the Raw sheet or None)."""
    pages, raw = [], None
    for ws in wb.worksheets:
        values = [v for row in ws.iter_rows(values_only=True) for v in row if isinstance(v, str)]
        captions = [v for v in values if CAPTION.match(v)]
        if ws.title == "Raw" or not captions:
            caption = next(v for v in values if v.startswith("Every Round"))
            ps = ws.page_setup
            if ps.orientation != "landscape" or ps.fitToWidth not in (1, None) or ps.fitToHeight != 0 \
                    or not ws.sheet_properties.pageSetUpPr.fitToPage:
                raise SystemExit(f"{ws.title}: not set to print landscape, fit to the page width "
                                 f"({ps.orientation}, fit {ps.fitToWidth} x {ps.fitToHeight})")
            raw = (ws.title, caption)
        else:
            if len(captions) != 1:
                raise SystemExit(f"{ws.title}: {len(captions)} numbered captions, expected one")
            pages.append((ws.title, captions[0]))
    return pages, raw


def main():
    workbook, pdf, serial = sys.argv[1:4]
    wb = openpyxl.load_workbook(workbook)
    report, raw = expected_pages(wb)
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    got = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    problems = []
    raw_pages = got - len(report)
    if raw is None and raw_pages != 0:
        problems.append(f"{pdf}: {got} pages, expected {len(report)} (the report sheets, no Raw sheet)")
    if raw is not None and raw_pages < 1:
        problems.append(f"{pdf}: {got} pages, expected the {len(report)} report sheets and at least one Raw page")
    want = report + ([raw] * max(raw_pages, 0) if raw else [])
    for i, (sheet, caption) in enumerate(want[:got], start=1):
        text = page_text(pdf, i)
        if serial not in text:
            problems.append(f"page {i} ({sheet}): no serial number {serial}")
        if norm(caption) not in text:
            problems.append(f"page {i} ({sheet}): caption {caption!r} not on the page")
    for p in problems[:30]:
        print("MISMATCH:", p)
    if problems:
        return 1
    print(f"OK: {pdf}: {got} pages = {len(report)} report sheets + {max(raw_pages, 0)} Raw pages "
          f"(landscape, fit to width); serial and caption on every page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
