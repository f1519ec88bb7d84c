#!/usr/bin/python3
"""unit-tests/e2e/golden_procedures.py — what every PTS test prints, records and reports, pinned.

A refactoring of the procedures (config/ resolves a definition into a plan, pts/ runs it) must
leave all of it as it was. This script captures, with one ptsuite binary:
  list.txt                   `ptsuite list`
  plan/T.E.C.nominal.txt     `ptsuite plan T --pts E --class C` for every test T and every
                             edition E x class C its definition supports (nominal target)
  plan/T.E.C.sim.txt         the same on a simulated drive (`sim:tiny`)
  plan/T.run.txt, .json      `plan` (text and --json) with the options of T's golden run
  run/T.json                 run.json of a short seeded run of T on `sim:tiny` (virtual time)
  xlsx/T.txt                 the report workbook rendered by `ptsuite report` from that run.json:
                             every sheet's cells and every chart's XML (series refs, titles)
Volatile values are normalised first (the one place that lists them, VOLATILE_KEYS below): wall
clock times are shifted to a fixed start (the virtual clock's origin is the state file's creation
time), CPU use (the process's and the host's, also as a finding such as a sweep step's
`*_cpu_pct`) and the simulator's own wall/CPU seconds are zeroed,
the random serial, paths, the tool's version, the host (every field of the record's host: the
report prints it on every page) and run id are replaced. Everything else must be equal field
for field.

  golden_procedures.py capture PTSUITE OUTDIR   capture everything into OUTDIR
  golden_procedures.py compare A B              field-by-field / line-by-line comparison
  golden_procedures.py check PTSUITE            capture, then compare with the checked-in
                                                unit-tests/golden/procedures/ (exit 1 on a change)
  golden_procedures.py update PTSUITE           rewrite unit-tests/golden/procedures/

The checked-in golden holds the plan texts and `list` in full and, for the larger run and report
captures, digests.txt: one SHA-256 per subtree (plan, device, each sub-test's purge, WIPC, Rounds,
window results, findings; each sheet; each chart), so a change names where it is. A deliberate
change (a simulator model change moves the measured figures) is re-pinned with `update`, and
says so in its commit message.
"""
import copy
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFS = os.path.join(SRC, "tests-pts")
GOLDEN = os.path.join(SRC, "unit-tests", "golden", "procedures")
FIXED_START_NS = 1_767_225_600_000_000_000  # 2026-01-01T00:00:00Z
SEED = "7"

# name -> (definition overrides for a scaled copy, run options). Every run is short in real time:
# tiny cells, the simulated drive's virtual time, scaled phases (each a recorded deviation).
RUNS = {
    "iops": ({}, ["--cell-seconds", "0.2", "--max-rounds", "5"]),
    "throughput": ({}, ["--cell-seconds", "0.2", "--max-rounds", "5"]),
    "latency": ({}, ["--cell-seconds", "0.2", "--max-rounds", "5"]),
    "wsat": ({}, ["--cell-seconds", "0.5", "--time-scale", "0.0001"]),
    "hir": ({"repetitions": "20", "access_c_samples": "20"},
            ["--cell-seconds", "0.2", "--max-rounds", "5", "--time-scale", "0.002"]),
    "xsr": ({}, ["--cell-seconds", "0.5", "--time-scale", "0.0001"]),
    "dirth": ({"thread_counts": "[4, 2, 1]", "queue_depths": "[8, 4, 1]", "precondition_round_cells": "10"},
              ["--cell-seconds", "0.2", "--max-rounds", "5", "--time-scale", "0.0002", "--threads", "4", "--oio", "8"]),
    "ecw": ({"thread_counts": "[4, 2, 1]", "queue_depths": "[8, 4, 1]", "precondition_round_cells": "10"},
            ["--cell-seconds", "0.2", "--max-rounds", "5", "--time-scale", "0.0002", "--threads", "4", "--oio", "8"]),
    # The review-lab workloads (not SNIA PTS tests): a curve of four points and a three-step sweep.
    "curve-4k-randread": ({"points_pct": "[10, 50, 100, 120]"}, ["--time-scale", "0.0005"]),
    "sweep-qd": ({"workers": "[1, 4, 16]", "outstanding": "[1, 1, 4]"}, ["--time-scale", "0.0005"]),
}

ZERO_KEYS = {"cpu_usr_pct", "cpu_sys_pct", "cpu_pct", "system_cpu_pct", "sim_wall_seconds", "sim_cpu_seconds"}
FIXED_KEYS = {"tool_version": "VERSION", "git_revision": "REVISION", "run_id": "RUN", "host": "HOST"}
VOLATILE_KEYS = ZERO_KEYS | set(FIXED_KEYS) | {"*_wall_ns"}


class Text:
    """Replaces what differs between two captures in free text (paths, serials)."""

    def __init__(self, work):
        self.work = work

    def __call__(self, s):
        s = s.replace(self.work, "/WORK").replace(SRC, "/SRC")
        s = re.sub(r"SIM-[0-9A-F]{12}", "SIM-SERIAL", s)
        return s


def definitions():
    out = []
    for f in sorted(os.listdir(DEFS)):
        if f.endswith(".toml") and not f.startswith("_"):
            d = tomllib.load(open(os.path.join(DEFS, f), "rb"))
            combos = [(e, c) for e, classes in d.get("editions", {}).items() for c in classes]
            out.append((d["test"]["id"], combos))
    return out


def ptsuite(exe, args, env, check=True):
    p = subprocess.run([exe] + args, capture_output=True, text=True, env=env)
    if check and p.returncode != 0:
        sys.exit("golden: ptsuite %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return p


def scaled(work, test, overrides):
    src = os.path.join(DEFS, test + ".toml")
    if not overrides:
        return test
    text = open(src).read()
    for key, value in overrides.items():
        text, n = re.subn(r"(?m)^%s = .*$" % re.escape(key), "%s = %s" % (key, value), text)
        if n != 1:
            sys.exit("golden: cannot set %s in %s" % (key, src))
    out = os.path.join(work, test + "-scaled.toml")
    open(out, "w").write(text)
    return out


def normalise(x, text, start, key=""):
    if key == "host" and isinstance(x, dict):  # the machine that ran the capture: every field fixed
        return {k: "HOST" if isinstance(v, str) else 0 for k, v in x.items()}
    if isinstance(x, dict) and isinstance(x.get("key"), str) and "value" in x and \
            any(x["key"].endswith("_" + z) for z in ZERO_KEYS):  # a finding of CPU use (a sweep step's)
        return {k: 0 if k == "value" else normalise(v, text, start, k) for k, v in x.items()}
    if isinstance(x, dict):
        return {k: normalise(v, text, start, k) for k, v in x.items()}
    if isinstance(x, list):
        return [normalise(v, text, start, key) for v in x]
    if key in FIXED_KEYS:
        return FIXED_KEYS[key]
    if key in ZERO_KEYS and (x is None or isinstance(x, (int, float))):
        return 0  # the host's CPU over a cell shorter than one kernel tick is null: volatile too
    if key.endswith("wall_ns") and isinstance(x, int) and x:
        return x - start + FIXED_START_NS
    if isinstance(x, str):
        return text(x)
    return x


def dump_json(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")


def dump_workbook(book, path, text):
    import openpyxl  # Debian's python3-openpyxl: /usr/bin/python3
    wb = openpyxl.load_workbook(book)
    lines = []
    for ws in wb.worksheets:
        lines.append("== sheet %s" % ws.title)
        for row in ws.iter_rows():
            label = None
            for c in row:
                v = c.value
                if v is not None:
                    if label == "Report date:":  # when `report` ran: the one real time on a page
                        v = "REPORT-DATE"
                    lines.append("%s %r" % (c.coordinate, text(v) if isinstance(v, str) else v))
                    label = v
    z = zipfile.ZipFile(book)
    for name in sorted(n for n in z.namelist() if n.startswith("xl/charts/")):
        lines.append("== chart %s" % name)
        xml = z.read(name).decode()
        lines.extend(t for t in re.sub(r">\s*<", ">\n<", xml).split("\n") if t.strip())
    for name in sorted(n for n in z.namelist() if n.startswith("xl/drawings/_rels/") or
                       (n.startswith("xl/worksheets/_rels/"))):
        lines.append("== rels %s" % name)
        lines.extend(re.findall(r'Target="([^"]+)"', z.read(name).decode()))
    open(path, "w").write("\n".join(lines) + "\n")


def capture(exe, out):
    exe = os.path.abspath(exe)
    work = tempfile.mkdtemp(prefix="ptsuite-golden.", dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
    try:
        env = dict(os.environ, PTSUITE_SIM_DIR=work, PTSUITE_TESTS_DIR=DEFS)
        text = Text(work)
        for sub in ("plan", "run", "xlsx"):
            os.makedirs(os.path.join(out, sub), exist_ok=True)
        open(os.path.join(out, "list.txt"), "w").write(text(ptsuite(exe, ["list"], env).stdout))
        sim = "sim:tiny@%s/plan.simdrive" % work
        for test, combos in definitions():
            for e, c in combos:
                for kind, target in (("nominal", []), ("sim", [sim])):
                    p = ptsuite(exe, ["plan", test] + target + ["--pts", e, "--class", c], env, check=False)
                    shown = p.stdout + ("" if p.returncode == 0 else "exit %d\n%s" % (p.returncode, p.stderr))
                    open(os.path.join(out, "plan", "%s.%s.%s.%s.txt" % (test, e, c, kind)), "w").write(text(shown))
        for test, (overrides, options) in RUNS.items():
            definition = scaled(work, test, overrides)
            target = "sim:tiny@%s/%s.simdrive" % (work, test)
            args = [definition, target] + options + ["--seed", SEED]
            p = ptsuite(exe, ["plan"] + args, env)
            open(os.path.join(out, "plan", test + ".run.txt"), "w").write(text(p.stdout))
            p = ptsuite(exe, ["plan"] + args + ["--json"], env)
            dump_json(normalise(json.loads(p.stdout), text, 0), os.path.join(out, "plan", test + ".run.json"))
            run_dir = os.path.join(work, test)
            ptsuite(exe, ["run"] + args + ["--out", run_dir, "--quiet"], env)
            rec = json.load(open(os.path.join(run_dir, "run.json")))
            rec = normalise(rec, text, rec["started_wall_ns"])
            dump_json(rec, os.path.join(out, "run", test + ".json"))
            # The report of the normalised record: what the workbook shows, free of volatile values.
            report_dir = os.path.join(work, test + "-report")
            os.makedirs(report_dir)
            dump_json(rec, os.path.join(report_dir, "run.json"))
            ptsuite(exe, ["report", report_dir, "--format", "xlsx"], env)
            book = os.path.join(report_dir, rec["plan"]["test_id"] + ".xlsx")
            dump_workbook(book, os.path.join(out, "xlsx", test + ".txt"), text)
            print("golden: %s captured" % test, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def json_diff(a, b, path=""):
    if type(a) != type(b):
        return ["%s: %r != %r" % (path or "/", a, b)]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append("%s/%s: only in %s" % (path, k, "the first" if k in a else "the second"))
            else:
                out += json_diff(a[k], b[k], path + "/" + k)
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return ["%s: %d != %d entries" % (path, len(a), len(b))]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += json_diff(x, y, "%s/%d" % (path, i))
        return out
    return [] if a == b else ["%s: %r != %r" % (path, a, b)]


def files(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)


def compare(a, b, only=None):
    fa, fb = files(a), files(b)
    if only is not None:
        fa = [f for f in fa if only(f)]
        fb = [f for f in fb if only(f)]
    problems, same = [], 0
    for f in sorted(set(fa) ^ set(fb)):
        problems.append("%s: only in %s" % (f, a if f in fa else b))
    for f in sorted(set(fa) & set(fb)):
        pa, pb = os.path.join(a, f), os.path.join(b, f)
        if f.endswith(".json"):
            d = json_diff(json.load(open(pa)), json.load(open(pb)))
            problems += ["%s: %s" % (f, x) for x in d[:20]] + (["%s: ... %d more" % (f, len(d) - 20)] if len(d) > 20 else [])
            same += not d
        else:
            ta, tb = open(pa).read().splitlines(), open(pb).read().splitlines()
            d = list(difflib.unified_diff(ta, tb, pa, pb, lineterm="", n=1))
            problems += d[:40]
            same += not d
    return same, problems


def subtree_digests(root):
    """Lines 'file:subtree sha256' for the run and report captures."""
    h = lambda o: hashlib.sha256(json.dumps(o, sort_keys=True).encode()).hexdigest()[:20]
    lines = []
    for f in files(root):
        if f.startswith("run/"):
            rec = json.load(open(os.path.join(root, f)))
            for k in sorted(rec):
                if k != "subtests":
                    lines.append("%s:%s %s" % (f, k, h(rec[k])))
            for i, s in enumerate(rec["subtests"]):
                for k in sorted(s):
                    if k == "rounds":
                        for r in s["rounds"]:
                            lines.append("%s:subtests/%d/rounds/%d %s" % (f, i, r["round"], h(r)))
                    else:
                        lines.append("%s:subtests/%d/%s %s" % (f, i, k, h(s[k])))
        elif f.startswith("xlsx/") or f.endswith(".run.json"):
            part, body = "", []
            for line in open(os.path.join(root, f)).read().splitlines() + ["== end"]:
                if line.startswith("== "):
                    if part:
                        lines.append("%s:%s %s" % (f, part, h(body)))
                    part, body = line[3:], []
                else:
                    body.append(line)
            if f.endswith(".json"):
                lines.append("%s %s" % (f, h(json.load(open(os.path.join(root, f))))))
    return lines


def full_text(f):
    return f == "list.txt" or (f.startswith("plan/") and f.endswith(".txt"))


def check(exe, update):
    with tempfile.TemporaryDirectory(prefix="ptsuite-golden-out.") as out:
        capture(exe, out)
        digests = subtree_digests(out)
        if update:
            shutil.rmtree(GOLDEN, ignore_errors=True)
            os.makedirs(os.path.join(GOLDEN, "plan"))
            for f in files(out):
                if full_text(f):
                    shutil.copy(os.path.join(out, f), os.path.join(GOLDEN, f))
            open(os.path.join(GOLDEN, "digests.txt"), "w").write("\n".join(digests) + "\n")
            print("golden: %s rewritten (%d texts, %d digests)" % (GOLDEN, len(files(GOLDEN)) - 1, len(digests)))
            return 0
        same, problems = compare(GOLDEN, out, only=full_text)
        want = open(os.path.join(GOLDEN, "digests.txt")).read().splitlines()
        changed = [l for l in difflib.unified_diff(want, digests, "golden digests", "this binary", lineterm="", n=0)]
        for p in problems + changed:
            print(p)
        if problems or changed:
            print("golden: CHANGED (%d texts identical; see above). A deliberate change: "
                  "unit-tests/e2e/golden_procedures.py update PTSUITE" % same)
            return 1
        print("golden: %d texts identical, %d run/report subtrees identical" % (same, len(digests)))
        return 0


def main(argv):
    try:
        import openpyxl  # noqa: F401 (the workbook dump)
    except ImportError:
        print("SKIP: no openpyxl for %s (python3-openpyxl)" % sys.executable)
        return 77
    if len(argv) == 4 and argv[1] == "capture":
        capture(argv[2], argv[3])
        return 0
    if len(argv) == 4 and argv[1] == "compare":
        same, problems = compare(argv[2], argv[3])
        for p in problems:
            print(p)
        print("golden: %d files identical, %d differences" % (same, len(problems)))
        return 1 if problems else 0
    if len(argv) == 3 and argv[1] in ("check", "update"):
        return check(argv[2], argv[1] == "update")
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
