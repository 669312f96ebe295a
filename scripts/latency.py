#!/usr/bin/python3
"""Prints, side by side, for tensornb's two kernelspecs (the instant engine
and the compiled one) and for plain GoNB: how long the kernel takes to
start, how long the first cell of a fresh kernel takes, the median time of
a warm cell, the memory the kernel process and its children hold, and how
many of its processes outlived it when it was killed (they are then
killed, so that a run leaves nothing behind). Run
by scripts/latency, which installs the kernels in a scratch Jupyter
directory; timings are printed, never checked.
"""

import os
import signal
import statistics
import sys
import time

from jupyter_client.manager import start_new_kernel

MODULE = sys.argv[1]  # the tensornb source GoNB builds against

# A typical tensor cell.
CELL = """import (
\t"fmt"
\t"github.com/tensornb/tensornb/tensor"
)
x := tensor.Float32.Arange(24).View(2, 3, 4)
fmt.Println(x.Transpose(1, 2).Strides())"""

# The same cell in GoNB's own syntax, for plain GoNB.
GONB_CELL = CELL.replace("\nx :=", "\n%%\nx :=", 1)

# GoNB needs to be told where tensornb is, as tensornb's engine tells it.
GONB_SETUP = ("!*go mod edit -replace=github.com/tensornb/tensornb={m} "
              "-require=github.com/tensornb/tensornb@v0.0.0 && cat {m}/go.sum >> go.sum").format(m=MODULE)


def run(kc, code):
    start = time.perf_counter()
    reply = kc.execute_interactive(code, timeout=600, output_hook=lambda msg: None)
    took = time.perf_counter() - start
    if reply["content"]["status"] != "ok":
        raise SystemExit("a cell failed on %s: %s" % (kc, reply["content"]))
    return took


def rss_mib(pid):
    """Resident memory of a process, in MiB."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def children(pid):
    """The process ids of all descendants of pid."""
    out = []
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        for k in kids:
            out += [k] + children(k)
    return out


def alive(pid):
    """Whether pid runs (a zombie does not)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def end(km, kc):
    """Kills the kernel as shutdown_kernel(now=True) does, and returns how
    many of its descendants still run a second later, which it then kills:
    plain GoNB leaves gopls, which it starts in a process group of its own,
    running."""
    descendants = children(km.provisioner.process.pid)
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    time.sleep(1)
    left = [p for p in descendants if alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    return len(left)


def measure(kernel_name, cell, setup=None, warm_runs=10):
    start = time.perf_counter()
    km, kc = start_new_kernel(kernel_name=kernel_name, startup_timeout=120)
    started = time.perf_counter() - start
    try:
        if setup:
            run(kc, setup)
        first = run(kc, cell)
        warm = [run(kc, cell) for _ in range(warm_runs)]
        pid = km.provisioner.process.pid
        kernel_mem = rss_mib(pid)
        child_mem = sum(rss_mib(c) for c in children(pid))
    finally:
        left = end(km, kc)
    return started, first, statistics.median(warm), kernel_mem, child_mem, left


def main():
    # The first kernel a Python process starts pays for loading
    # jupyter_client's machinery (about 0.4 s here): pay it untimed.
    km, kc = start_new_kernel(kernel_name="gonb", startup_timeout=120)
    end(km, kc)

    rows = [
        ("tensornb (instant)", measure("tensornb", CELL, warm_runs=50)),
        ("tensornb-compiled", measure("tensornb-compiled", CELL)),
        # In GoNB's own syntax the cell passes through unchanged: no
        # display.Result wrapper, so no display package to link.
        ("  same, %% syntax", measure("tensornb-compiled", GONB_CELL)),
        ("gonb", measure("gonb", GONB_CELL, setup=GONB_SETUP)),
    ]
    print("%-19s %9s %15s %22s %17s %19s %14s" % ("kernel", "start (s)", "first cell (s)", "warm cell, median (ms)",
                                                  "kernel RSS (MiB)", "children RSS (MiB)", "left running"))
    for name, (started, first, warm, kmem, cmem, left) in rows:
        print("%-19s %9.2f %15.2f %22.1f %17.0f %19.0f %14d" % (name, started, first, warm * 1000, kmem, cmem, left))
    instant, compiled, _, gonb = (r[1] for r in rows)
    print("\nwarm cell: instant / gonb %.3f (gonb is %.0fx slower); compiled / gonb %.2f" % (
        instant[2] / gonb[2], gonb[2] / instant[2], compiled[2] / gonb[2]))
    print("goals: instant warm cell <= 10 ms and >= 20x faster than GoNB; kernel RSS <= 150 MiB; "
          "first compiled cell <= 1.5 s")


if __name__ == "__main__":
    main()
