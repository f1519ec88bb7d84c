#!/usr/bin/python3
"""unit-tests/e2e/config_include_graph.py [SRC] — the include graph of src/config/ has no cycle.

A unit is a header with the .cpp files that implement it (x.h + x.cpp; procedure_rows.h + the
five row files); A -> B when a file of A includes "config/B.h". Calls follow includes, so an
acyclic include graph means no two units call each other both ways. The rule (docs/architecture.md,
"The procedure table"): the graph inside config/ is acyclic, so no two files include or call each
other both ways; the rows (steady_rounds, wsat, hir, xsr, dirth) are leaves that the table and the
resolver reach only through procedure_rows.h / procedure.h. Prints the graph and exit 1 on a cycle.
"""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src")
cfg = os.path.join(src, "config")
inc = re.compile(r'^\s*#\s*include\s+"config/([A-Za-z0-9_]+)\.h"')
# A header implemented by .cpp files of other names: they belong to the header's unit.
IMPLEMENTED_BY = {"procedure_rows": ["steady_rounds", "wsat", "hir", "xsr", "dirth"]}
unit_of = {cpp: h for h, cpps in IMPLEMENTED_BY.items() for cpp in cpps}
graph = {}
for name in sorted(os.listdir(cfg)):
    base, ext = os.path.splitext(name)
    if ext not in (".h", ".cpp"):
        continue
    unit = unit_of.get(base, base) if ext == ".cpp" else base
    graph.setdefault(unit, set())
    with open(os.path.join(cfg, name), encoding="utf-8") as f:
        for line in f:
            m = inc.match(line)
            if m and m.group(1) != unit:
                graph[unit].add(m.group(1))
for unit, deps in sorted(graph.items()):
    print(f"  {unit} -> {', '.join(sorted(deps)) or '(nothing in config/)'}")

state, stack, cycles = {}, [], []


def visit(n):
    state[n] = 1
    stack.append(n)
    for m in sorted(graph.get(n, ())):
        if state.get(m) == 1:
            cycles.append(stack[stack.index(m):] + [m])
        elif m in graph and not state.get(m):
            visit(m)
    stack.pop()
    state[n] = 2


for n in sorted(graph):
    if not state.get(n):
        visit(n)
edges = sum(len(v) for v in graph.values())
if cycles:
    for c in cycles:
        print("config include cycle: " + " -> ".join(c))
    sys.exit(1)
print(f"config/: {len(graph)} units (a .h with its .cpp), {edges} include edges, no cycle: no two files include or call each other both ways")
