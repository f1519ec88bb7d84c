#!/usr/bin/env python3
"""unit-tests/report/check_pdf.py — checks a PDF that LibreOffice printed from a ptsuite
workbook against the workbook itself (read with openpyxl, not with ptsuite): the page count is
one page per report sheet plus the Raw sheet's pages ((row breaks + 1) × (column breaks + 1)),
and every printed page's text (pdftotext) holds the drive's serial number and its own caption
(report sheets: the numbered "Plot/Table 1.n – …" line; Raw pages: the table caption).

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
    """[(sheet, caption)] one entry per printed page, in order."""
    pages = []
    for ws in wb.worksheets:
        values = [v for row in ws.iter_rows(values_only=True) for v in row if isinstance(v, str)]
        captions = [v for v in values if CAPTION.match(v)]
        if ws.title == "Raw" or (not captions and ws.row_breaks.brk):
            caption = next(v for v in values if v.startswith("Every Round"))
            n = (len(ws.row_breaks.brk) + 1) * (len(ws.col_breaks.brk) + 1)
            pages += [(ws.title, caption)] * n
        else:
            if len(captions) != 1:
                raise SystemExit(f"{ws.title}: {len(captions)} numbered captions, expected one")
            pages.append((ws.title, captions[0]))
    return pages


def main():
    workbook, pdf, serial = sys.argv[1:4]
    wb = openpyxl.load_workbook(workbook)
    want = expected_pages(wb)
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    got = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    problems = []
    if got != len(want):
        report = sum(1 for s, _ in want if s != "Raw")
        problems.append(f"{pdf}: {got} pages, expected {len(want)} ({report} report sheets + "
                        f"{len(want) - report} Raw pages)")
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
    print(f"OK: {pdf}: {got} pages = {sum(1 for s, _ in want if s != 'Raw')} report sheets + "
          f"{sum(1 for s, _ in want if s == 'Raw')} Raw pages; serial and caption on every page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
