#!/usr/bin/python3
"""Prints, for the tensornb kernel and for plain GoNB side by side: how long
the kernel takes to start, how long the first cell of a fresh kernel takes,
and the median time of a warm cell. Run by scripts/latency, which installs
both kernels in a scratch Jupyter directory; timings are printed, never
checked.
"""

import statistics
import sys
import time

from jupyter_client.manager import start_new_kernel

MODULE = sys.argv[1]  # the tensornb source GoNB builds against

# The same cell for both kernels, in GoNB's own syntax, which tensornb
# passes through unchanged.
TENSOR_CELL = """import (
\t"fmt"
\t"github.com/tensornb/tensornb/tensor"
)
%%
x := tensor.Float32.Arange(24).View(2, 3, 4)
fmt.Println(x.Transpose(1, 2).Strides())"""

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


def measure(kernel_name, setup=None, warm_runs=10):
    start = time.perf_counter()
    km, kc = start_new_kernel(kernel_name=kernel_name, startup_timeout=120)
    started = time.perf_counter() - start
    try:
        if setup:
            run(kc, setup)
        first = run(kc, TENSOR_CELL)
        warm = [run(kc, TENSOR_CELL) for _ in range(warm_runs)]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return started, first, statistics.median(warm)


def main():
    # The first kernel a Python process starts pays for loading
    # jupyter_client's machinery (about 0.4 s here): pay it untimed.
    km, kc = start_new_kernel(kernel_name="gonb", startup_timeout=120)
    kc.stop_channels()
    km.shutdown_kernel(now=True)

    rows = [("tensornb", measure("tensornb")), ("gonb", measure("gonb", setup=GONB_SETUP))]
    print("%-10s %14s %16s %18s" % ("kernel", "start (s)", "first cell (s)", "warm cell, median (s)"))
    for name, (started, first, warm) in rows:
        print("%-10s %14.2f %16.2f %18.2f" % (name, started, first, warm))
    t, g = rows[0][1], rows[1][1]
    print("\ntensornb / gonb: start %.2f, first cell %.2f, warm cell %.2f" % (t[0] / g[0], t[1] / g[1], t[2] / g[2]))
    print("goal: first cell <= 1.5 s, warm cell no slower than GoNB's")


if __name__ == "__main__":
    main()
