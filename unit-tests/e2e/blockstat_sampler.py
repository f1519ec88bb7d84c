#!/usr/bin/env python3
"""unit-tests/e2e/blockstat_sampler.py DEV OUT — samples the kernel's block-layer counters of
DEV (/sys/block/<name>/stat) about every millisecond until SIGTERM, one line per sample:
"wall_ns reads writes in_flight". An observer independent of ptsuite: the HIR audit checks
that no I/O completed while ptsuite said the host was idle, and that I/O flowed without a
pause while it said the writes were continuous."""
import os
import signal
import sys
import time

dev, out_path = sys.argv[1], sys.argv[2]
stat_path = "/sys/block/%s/stat" % os.path.basename(dev)
running = True


def stop(*_):
    global running
    running = False


signal.signal(signal.SIGTERM, stop)
with open(stat_path) as f, open(out_path, "w") as out:
    while running:
        f.seek(0)
        fields = f.read().split()
        now = time.time_ns()
        # fields: read I/Os, read merges, read sectors, read ticks, write I/Os, write merges,
        # write sectors, write ticks, in flight, ...
        out.write("%d %s %s %s\n" % (now, fields[0], fields[4], fields[8]))
        time.sleep(0.001)
