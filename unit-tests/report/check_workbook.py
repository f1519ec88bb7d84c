#!/usr/bin/env python3
"""unit-tests/report/check_workbook.py — reads a ptsuite report workbook back with openpyxl
and checks it against expected.json written by report_fixture_tool: sheet order, header texts
and banners on every sheet (operator fields, PCIe link), the four header columns on every
report sheet, every table cell (numbers to 1e-9 relative), the stored steady-state
determinations, the window charts (exactly the five SNIA series, x axis = the window Rounds,
read from the chart XML), the Summary's headline numbers, the Raw sheet and the CSV.

usage: check_workbook.py RUN_DIR [WORKBOOK] [--no-json]   (exit 0 ok, 1 mismatch, 77 openpyxl missing)
       --no-json: the run has no JSON report to compare with run.json
"""
import csv
import json
import math
import os
import re
import sys
import zipfile

try:
    import openpyxl
except ImportError:  # pragma: no cover
    print("SKIP: python3-openpyxl is not installed")
    sys.exit(77)

REL = 1e-9
problems = []


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(b, str) or isinstance(a, str):
        return str(a) == str(b)
    return math.isclose(float(a), float(b), rel_tol=REL, abs_tol=1e-12)


_grids = {}


def grid(ws):
    """The sheet's values as a list of rows (read once; openpyxl cell access is slow)."""
    if ws.title not in _grids:
        _grids[ws.title] = [list(r) for r in ws.iter_rows(values_only=True)]
    return _grids[ws.title]


def sheet_text(ws):
    return "\n".join(str(v) for row in grid(ws) for v in row if v is not None)


def find_table(ws, caption):
    """(header, rows) of the table whose caption is in column A. Columns are the header
    cells that hold a title (a merged, wider column leaves None after its title)."""
    g = grid(ws)
    for r, line in enumerate(g):
        if line and line[0] == caption:
            head = g[r + 1]
            cols = [i for i, v in enumerate(head) if v is not None]
            header = [head[i] for i in cols]
            rows = []
            for line2 in g[r + 2:]:
                vals = [line2[i] if i < len(line2) else None for i in cols]
                first, rest = vals[0], vals[1:]
                if first is None or (isinstance(first, str) and all(v is None for v in rest)):
                    break  # a blank row or a note line ends the table
                rows.append(vals)
            return header, rows
    return None, None


def check_table(wb, t):
    where = f"{t['sheet']} / {t['caption']!r}"
    if t["sheet"] not in wb.sheetnames:
        problems.append(f"{where}: sheet missing")
        return
    header, rows = find_table(wb[t["sheet"]], t["caption"])
    if header is None:
        problems.append(f"{where}: caption not found")
        return
    if "header" in t and header != t["header"]:
        problems.append(f"{where}: header {header} != {t['header']}")
    want = t["rows"]
    if len(rows) != len(want):
        problems.append(f"{where}: {len(rows)} rows, expected {len(want)}")
    for i, (got, exp) in enumerate(zip(rows, want)):
        for j, e in enumerate(exp):
            g = got[j] if j < len(got) else None
            if not close(g, e):
                problems.append(f"{where}: row {i + 1} column {j + 1}: {g!r} != {e!r}")


def check_determination(wb, d):
    ws = wb[d["sheet"]]
    _, rows = find_table(ws, "Steady State Determination")
    if rows is None:
        problems.append(f"{d['sheet']}: no determination table")
        return
    got = {r[0]: r[1] for r in rows}
    for label, value in d["values"].items():
        if label not in got:
            problems.append(f"{d['sheet']}: determination lacks {label!r}")
        elif not close(got[label], value):
            problems.append(f"{d['sheet']}: {label}: {got[label]!r} != {value!r}")


def sheet_charts(path):
    """{sheet name: [chart XML text, ...]} from the workbook's parts (openpyxl drops charts)."""
    z = zipfile.ZipFile(path)
    names = re.findall(r'<sheet name="([^"]+)" sheetId="\d+" r:id="(rId\d+)"', z.read("xl/workbook.xml").decode())
    rels = dict(re.findall(r'Id="(rId\d+)"[^>]*Target="([^"]+)"', z.read("xl/_rels/workbook.xml.rels").decode()))
    out = {}
    for name, rid in names:
        sheet = "xl/" + rels[rid]
        srels = sheet.replace("worksheets/", "worksheets/_rels/") + ".rels"
        charts = []
        if srels in z.namelist():
            for drawing in re.findall(r'Target="\.\./drawings/([^"]+)"', z.read(srels).decode()):
                drels = "xl/drawings/_rels/" + drawing + ".rels"
                for chart in re.findall(r'Target="\.\./charts/([^"]+)"', z.read(drels).decode()):
                    charts.append(z.read("xl/charts/" + chart).decode())
        out[name.replace("&amp;", "&")] = charts
    return out


def check_window_chart(wb, charts, w):
    name = w["sheet"]
    if len(charts.get(name, [])) != 1:
        problems.append(f"{name}: {len(charts.get(name, []))} charts, expected the window plot only")
        return
    xml = charts[name][0]
    refs = re.findall(r"<c:tx><c:strRef><c:f>([^<]+)</c:f>", xml)
    ws = wb[name]
    series = []
    for ref in refs:
        cell = ref.split("!")[1].replace("$", "")
        series.append(ws[cell].value)
    if series != w["series"]:
        problems.append(f"{name}: chart series {series} != {w['series']}")
    x_axis = re.search(r"<c:valAx>.*?</c:valAx>", xml, re.S).group(0)
    lo = re.search(r'<c:min val="([^"]+)"', x_axis)
    hi = re.search(r'<c:max val="([^"]+)"', x_axis)
    if not lo or not hi or float(lo.group(1)) != w["x_min"] or float(hi.group(1)) != w["x_max"]:
        problems.append(f"{name}: x axis {lo and lo.group(1)}..{hi and hi.group(1)} != "
                        f"Rounds {w['x_min']}..{w['x_max']}")


def check_headlines(wb, headlines):
    if not headlines:
        return
    _, rows = find_table(wb["Summary"], "Headline numbers: stored Measurement Window results")
    got = {r[0]: r[1] for r in rows or []}
    for label, value in headlines:
        if label not in got:
            problems.append(f"Summary: no headline {label!r}")
        elif not close(got[label], value):
            problems.append(f"Summary: {label}: {got[label]!r} != {value!r}")


def check_raw(wb, raw, run_dir, csv_spec):
    ws = wb[raw["sheet"]]
    caption = next(line[0] for line in grid(ws)
                   if line and isinstance(line[0], str) and line[0].startswith("Every Round"))
    header, rows = find_table(ws, caption)
    if len(rows) != raw["rows"]:
        problems.append(f"Raw: {len(rows)} rows, expected {raw['rows']}")
    for s in raw["spot"]:
        row = dict(zip(header, rows[s["index"]]))
        for k in ("Round", "Cell", "IOPS", "MB/s", "ART (ns)"):
            if not close(row.get(k), s[k]):
                problems.append(f"Raw row {s['index']}: {k} {row.get(k)!r} != {s[k]!r}")
    with open(os.path.join(run_dir, csv_spec["path"]), newline="") as f:
        lines = list(csv.DictReader(f))
    if len(lines) != csv_spec["rows"]:
        problems.append(f"CSV: {len(lines)} rows, expected {csv_spec['rows']}")
    for s in raw["spot"]:
        line = lines[s["index"]]
        if int(line["round"]) != s["Round"] or line["cell_id"] != s["Cell"] or \
                not close(float(line["iops"]), s["IOPS"]) or not close(float(line["mbps"]), s["MB/s"]):
            problems.append(f"CSV row {s['index']}: {line} does not match {s}")


def main():
    no_json = "--no-json" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--no-json"]
    run_dir = args[0]
    with open(os.path.join(run_dir, "expected.json")) as f:
        exp = json.load(f)
    path = args[1] if len(args) > 1 else os.path.join(run_dir, exp["workbook"])
    wb = openpyxl.load_workbook(path)
    if wb.sheetnames != exp["sheets"]:
        problems.append(f"sheets {wb.sheetnames} != {exp['sheets']}")
    for name in wb.sheetnames:
        ws = wb[name]
        text = sheet_text(ws)
        for s in exp["every_sheet_contains"]:
            if s not in text:
                problems.append(f"sheet {name!r} lacks {s!r}")
        for s in exp["every_sheet_absent"]:
            if s in text:
                problems.append(f"sheet {name!r} must not say {s!r}")
        if name not in ("Summary", "Deviations", "Raw"):
            for s in exp["report_sheets_contain"]:
                if s not in text:
                    problems.append(f"report sheet {name!r} lacks {s!r}")
        if ws.freeze_panes is None:
            problems.append(f"sheet {name!r} has no frozen header")
    for t in exp["tables"]:
        check_table(wb, t)
    for d in exp["determinations"]:
        check_determination(wb, d)
    charts = sheet_charts(path)
    for w in exp["window_charts"]:
        check_window_chart(wb, charts, w)
    check_headlines(wb, exp["headlines"])
    check_raw(wb, exp["raw"], run_dir, exp["csv"])
    json_copy = os.path.join(run_dir, exp["workbook"].replace(".xlsx", ".json"))
    if not no_json:
        with open(json_copy) as a, open(os.path.join(run_dir, "run.json")) as b:
            if json.load(a) != json.load(b):
                problems.append("the JSON report differs from run.json")
    for p in problems[:60]:
        print("MISMATCH:", p)
    if problems:
        print(f"{len(problems)} mismatches in {path}")
        return 1
    print(f"OK: {path}: {len(wb.sheetnames)} sheets, {len(exp['tables'])} tables, "
          f"{len(exp['determinations'])} determinations, {len(exp['window_charts'])} window charts, "
          f"{len(exp['headlines'])} headlines, {exp['raw']['rows']} raw rows checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
