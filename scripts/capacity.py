#!/usr/bin/python3
"""Measures a class on one server: N kernels of one kernelspec started at
once, each running a student's cells, all together. Run by
scripts/capacity, which installs the kernels in a scratch Jupyter
directory; timings are printed, never checked.

It prints how long the kernels took to start, the first cell's time in
each, the warm cells' times (p50, p95, max), and the memory of each
kernel's process tree (the kernel, its guard, the worker, GoNB, gopls and
what they started), as PSS and RSS.

Memory is PSS, read from /proc/PID/smaps_rollup: each page a process maps
counts as its size divided by the number of processes that map it. The
kernel, its guard and its worker are one executable, and 20 kernels are 60
processes of it; RSS would count its pages of code 60 times over, and so
would a sum of RSS over a machine's kernels count more memory than the
machine has. PSS sums to what the kernels take together. RSS is printed
beside it.

With --rerun N, one kernel runs one cell N times that only redefines its
names, then a fresh kernel N cells that each declare new names; it prints
the memory and the median cell time near the start and at the end.

Each kernel runs in a process of its own (forked), so that the clients do
not wait for one another.
"""

import argparse
import datetime
import json
import multiprocessing
import os
import random
import signal
import statistics
import sys
import time

from jupyter_client.manager import start_new_kernel

# A student's cells, each whole in itself, so that they run on both
# kernelspecs (the compiled one keeps no values from cell to cell): tensor
# operations, a picture, an error.
DEFAULT_CELLS = [
    """import (
\t"fmt"
\t"github.com/tensornb/tensornb/tensor"
)
a := tensor.Float32.Arange(24).View(2, 3, 4)
b := a.Transpose(1, 2)
fmt.Println(b.Shape(), b.Strides(), b.IsContiguous())
b.Contiguous().Strides()""",
    """import (
\t"github.com/tensornb/tensornb/display"
\t"github.com/tensornb/tensornb/tensor"
)
m := tensor.Float32.Arange(12).View(3, 4)
display.Show(display.Layout(m.T()))""",
    """import "github.com/tensornb/tensornb/tensor"
w := tensor.Float32.Arange(12).View(3, 4)
w.View(5, 5) // RuntimeError: shape '[5, 5]' is invalid for input of size 12""",
    """import "github.com/tensornb/tensornb/tensor"
u := tensor.Float32.Arange(12).View(3, 4)
v := u.Add(tensor.Float32.Arange(4)).Mul(2)
v.Sum()""",
]

# The cell of --rerun: it only redefines the same names each time.
RERUN_CELL = """import (
\t"github.com/tensornb/tensornb/display"
\t"github.com/tensornb/tensornb/tensor"
)
x := tensor.Float32.Arange(24).View(2, 3, 4)
y := x.Transpose(0, 1).Contiguous()
display.Show(display.Layout(y))
y.Sum()"""

# The variant of --rerun: the same cell, declaring new names each time.
NEW_NAMES_CELL = """import (
\t"github.com/tensornb/tensornb/display"
\t"github.com/tensornb/tensornb/tensor"
)
x{i} := tensor.Float32.Arange(24).View(2, 3, 4)
y{i} := x{i}.Transpose(0, 1).Contiguous()
display.Show(display.Layout(y{i}))
y{i}.Sum()"""

# The cells a separator line splits a --cells file into.
SEPARATOR = "// ----"


def read_cells(path):
    """The cells of a notebook (its code cells), or of a text file whose
    cells are separated by lines of SEPARATOR."""
    with open(path) as f:
        if path.endswith(".ipynb"):
            nb = json.load(f)
            cells = []
            for c in nb["cells"]:
                if c["cell_type"] == "code":
                    src = c["source"]
                    cells.append("".join(src) if isinstance(src, list) else src)
            return [c for c in cells if c.strip()]
        text = f.read()
    cells, cur = [], []
    for line in text.split("\n"):
        if line.strip() == SEPARATOR:
            cells.append("\n".join(cur))
            cur = []
        else:
            cur.append(line)
    cells.append("\n".join(cur))
    return [c for c in cells if c.strip()]


def run_cell(kc, code, timeout=600):
    """Runs code, returning its time in seconds, its status, and the
    kernel's own time: from the date on its status busy message to the
    date on its status idle (the kernel's clock, which on one machine is
    the client's), or None if a date is missing."""
    dates = {}

    def hook(msg):
        if msg["header"]["msg_type"] == "status":
            dates[msg["content"]["execution_state"]] = msg["header"].get("date")

    start = time.perf_counter()
    reply = kc.execute_interactive(code, timeout=timeout, output_hook=hook)
    took = time.perf_counter() - start
    busy, idle = dates.get("busy"), dates.get("idle")
    # jupyter_client parses a header's date into a datetime when it can.
    dated = isinstance(busy, datetime.datetime) and isinstance(idle, datetime.datetime)
    kernel = (idle - busy).total_seconds() if dated else None
    return took, reply["content"]["status"], kernel


# Memory, from /proc.

def children(pid):
    """The process ids of all descendants of pid."""
    out = []
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return out
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        for k in kids:
            out += [k] + children(k)
    return out


def kind(pid):
    """What a process of a kernel's tree is: kernel, guard, worker, gonb,
    gopls, or other (go build, a compiled cell's program...)."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return "gone"
    if not argv:
        return "other"
    exe = os.path.basename(argv[0])
    if exe == "tensornb" and len(argv) > 1 and argv[1] in ("kernel", "worker", "guard"):
        return argv[1]
    if exe in ("gonb", "gopls"):
        return exe
    return "other"


def mem_kib(pid):
    """A process's PSS and RSS, in KiB (0, 0 if it is gone)."""
    pss = rss = 0
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


KINDS = ("kernel", "guard", "worker", "gonb", "gopls", "other")


def cpu_seconds(pid):
    """A process's user and system CPU time so far, with that of the
    children it has waited for (a compiled cell's go build), in seconds
    (0 if it is gone): fields 14 to 17 of /proc/PID/stat, in clock
    ticks."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def tree(pid):
    """The processes of pid's tree that are still there, with their kind."""
    for p in [pid] + children(pid):
        k = kind(p)
        if k != "gone":
            yield k, p


def tree_cpu(pid):
    """The CPU seconds of pid's process tree so far, by kind."""
    by_kind = {k: 0.0 for k in KINDS}
    for k, p in tree(pid):
        by_kind[k] += cpu_seconds(p)
    return by_kind


def tree_memory(pid):
    """The PSS and RSS (MiB) of pid's process tree, in all and by kind."""
    by_kind = {k: [0.0, 0.0] for k in KINDS}
    for k, p in tree(pid):
        pss, rss = mem_kib(p)
        by_kind[k][0] += pss / 1024
        by_kind[k][1] += rss / 1024
    total = [sum(v[0] for v in by_kind.values()), sum(v[1] for v in by_kind.values())]
    return total, by_kind


def percentile(xs, q):
    """The q-th percentile of xs (nearest rank)."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    i = max(0, min(len(xs) - 1, int(round(q / 100 * len(xs) + 0.5)) - 1))
    return xs[i]


def load():
    """The load averages, as uptime prints them."""
    return "load average %.2f, %.2f, %.2f" % os.getloadavg()


# A class: N kernels at once.

def start_kernel(kernel, tries=3):
    """Starts a kernel, again if it dies before its first answer: with
    many started at once, jupyter_client may give two kernels the same
    free port ("address already in use"). Returns the manager, the
    client and the starts it took."""
    for n in range(1, tries + 1):
        try:
            km, kc = start_new_kernel(kernel_name=kernel, startup_timeout=600)
            return km, kc, n
        except RuntimeError:
            if n == tries:
                raise


def student(i, args, cells, barrier, results, measured):
    """One kernel's life in the class: start, wait for the others, run the
    cells for the rounds asked, report, wait to be measured, shut down. A
    kernel that does not start reports it, and still meets the others at
    the barrier, which would wait for it for ever."""
    rng = random.Random(i)
    t0 = time.perf_counter()
    try:
        km, kc, starts = start_kernel(args.kernel)
    except BaseException as e:
        results.put({"i": i, "pid": None, "error": "start: " + repr(e)})
        barrier.wait()
        measured.wait()
        return
    started = time.perf_counter() - t0
    pid = km.provisioner.process.pid
    try:
        barrier.wait()
        cpu0, client0 = tree_cpu(pid), sum(os.times()[:2])
        times, statuses, busy = [], [], []
        for r in range(args.rounds):
            for ci, c in enumerate(cells):
                t, status, kernel = run_cell(kc, c)
                times.append((r, t, ci))
                statuses.append(status)
                if r > 0 and kernel is not None:
                    busy.append(kernel)
                if args.pause:
                    time.sleep(args.pause * (0.5 + rng.random()))
        cpu1, client1 = tree_cpu(pid), sum(os.times()[:2])
        cpu = {k: cpu1[k] - cpu0[k] for k in KINDS}
        cpu["client"] = client1 - client0
        results.put({"i": i, "pid": pid, "started": started, "starts": starts, "times": times, "statuses": statuses,
                     "cpu": cpu, "busy": busy})
        measured.wait()
    except BaseException as e:  # a kernel that fails still reports
        results.put({"i": i, "pid": pid, "error": repr(e)})
        measured.wait()
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def warm_up(kernel):
    """Starts and stops one kernel untimed: the first kernel a Python
    process starts pays for loading jupyter_client's machinery, and the
    first start of a binary for reading it from disk."""
    km, kc = start_new_kernel(kernel_name=kernel, startup_timeout=600)
    run_cell(kc, DEFAULT_CELLS[0])
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def class_run(args, cells):
    ctx = multiprocessing.get_context("fork")
    n = args.n
    barrier, results, measured = ctx.Barrier(n), ctx.Queue(), ctx.Event()
    print("%s: %d kernels of %s, %d cells x %d rounds each, pause %.1f s between cells; %s; %d cores"
          % (time.strftime("%H:%M:%S"), n, args.kernel, len(cells), args.rounds, args.pause, load(), os.cpu_count()))
    warm_up(args.kernel)
    procs = [ctx.Process(target=student, args=(i, args, cells, barrier, results, measured)) for i in range(n)]
    for p in procs:
        p.start()
    got = [results.get(timeout=3600) for _ in range(n)]
    if args.settle:
        time.sleep(args.settle)
    mems = {r["i"]: tree_memory(r["pid"]) for r in got if "error" not in r}
    load_after = load()
    measured.set()
    for p in procs:
        p.join(timeout=120)
    failed = [r for r in got if "error" in r]
    for r in failed:
        print("kernel %d failed: %s" % (r["i"], r["error"]))
    got = [r for r in got if "error" not in r]
    if not got:
        sys.exit(1)
    starts = [r["started"] for r in got]
    again = sum(r["starts"] - 1 for r in got)
    if again:
        print("kernels started again after dying before their first answer: %d (counted in their start)" % again)
    firsts = [r["times"][0][1] for r in got]
    round1 = [t for r in got for (rd, t, _) in r["times"][1:] if rd == 0]
    warm = [t for r in got for (rd, t, _) in r["times"] if rd > 0]
    errors = sum(s == "error" for r in got for s in r["statuses"])
    ms = lambda xs: "p50 %6.0f  p95 %6.0f  max %6.0f ms" % (
        percentile(xs, 50) * 1000, percentile(xs, 95) * 1000, max(xs) * 1000) if xs else "-"
    print("start            %s" % ms(starts))
    print("first cell       %s" % ms(firsts))
    print("rest of round 1  %s" % ms(round1))
    print("warm (rounds 2+) %s   (%d cells)" % (ms(warm), len(warm)))
    busy = [t for r in got for t in r["busy"]]
    print("warm, in the kernel %s   (status busy to idle, by the kernel's clock)" % ms(busy))
    for i, c in enumerate(cells):
        these = [t for r in got for (rd, t, ci) in r["times"] if rd > 0 and ci == i]
        first = c.strip().split("\n")[-1].strip()
        print("  cell %d  %s   %s" % (i + 1, ms(these), first[:48]))
    print("cells that failed: %d of %d (the error cell fails on purpose: %d expected)"
          % (errors, sum(len(r["statuses"]) for r in got), len(got) * args.rounds * sum("View(5, 5)" in c for c in cells)))
    cells_run = sum(len(r["times"]) for r in got)
    print("CPU a cell, mean over all %d cells (the kernel's processes, and the Python client that drives it):" % cells_run)
    for k in KINDS + ("client",):
        spent = sum(r["cpu"].get(k, 0) for r in got)
        if spent:
            print("  %-8s %6.2f ms" % (k, spent / cells_run * 1000))
    print("  %-8s %6.2f ms" % ("all", sum(sum(r["cpu"].values()) for r in got) / cells_run * 1000))
    print("memory after the cells (+%.0f s), MiB a kernel (mean over kernels), PSS / RSS:" % args.settle)
    for k in KINDS:
        pss = statistics.mean(mems[r["i"]][1][k][0] for r in got)
        rss = statistics.mean(mems[r["i"]][1][k][1] for r in got)
        if pss or rss:
            print("  %-8s %7.1f / %7.1f" % (k, pss, rss))
    pss = [mems[r["i"]][0][0] for r in got]
    rss = [mems[r["i"]][0][1] for r in got]
    print("  %-8s %7.1f / %7.1f   (min %.1f, max %.1f PSS)" % ("kernel's tree", statistics.mean(pss), statistics.mean(rss), min(pss), max(pss)))
    print("  all %d kernels: PSS %.0f MiB, RSS %.0f MiB" % (len(got), sum(pss), sum(rss)))
    print("%s after" % load_after)


# --rerun: one kernel, one cell many times.

def rerun(args, name, make_cell):
    n, window = args.rerun, 20
    km, kc = start_new_kernel(kernel_name=args.kernel, startup_timeout=600)
    pid = km.provisioner.process.pid
    try:
        times, marks = [], {}
        for i in range(n):
            t, status, _ = run_cell(kc, make_cell(i))
            if status != "ok":
                raise SystemExit("cell %d failed" % i)
            times.append(t)
            if i + 1 == window:
                marks["start"] = tree_memory(pid)
        marks["end"] = tree_memory(pid)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    (s, sk), (e, ek) = marks["start"], marks["end"]
    first = statistics.median(times[:window]) * 1000
    last = statistics.median(times[-window:]) * 1000
    print("%-15s after cell %3d: PSS %6.1f MiB, cell %5.1f ms (median of cells 1-%d)"
          % (name, window, s[0], first, window))
    print("%-15s after cell %3d: PSS %6.1f MiB, cell %5.1f ms (median of the last %d)"
          % ("", n, e[0], last, window))
    print("%-15s growth %+.1f MiB (%+.0f KB a cell); RSS %.1f -> %.1f MiB"
          % ("", e[0] - s[0], (e[0] - s[0]) * 1024 * 1.024 / (n - window), s[1], e[1]))
    print("%-15s PSS by process: %s" % ("", ", ".join(
        "%s %.1f -> %.1f" % (k, sk[k][0], ek[k][0]) for k in KINDS if sk[k][0] or ek[k][0])))

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, nargs="?", default=1, help="kernels at once")
    ap.add_argument("--kernel", default="tensornb")
    ap.add_argument("--cells", help="a notebook, or a text file of cells separated by lines " + SEPARATOR)
    ap.add_argument("--rounds", type=int, default=5, help="times each kernel runs the cells")
    ap.add_argument("--pause", type=float, default=0.0, help="mean seconds between a kernel's cells")
    ap.add_argument("--settle", type=float, default=2.0, help="seconds to wait before measuring memory")
    ap.add_argument("--rerun", type=int, help="one kernel re-runs one cell this many times")
    args = ap.parse_args()
    if args.rerun:
        print("%s: --rerun %d on %s; %s" % (time.strftime("%H:%M:%S"), args.rerun, args.kernel, load()))
        warm_up(args.kernel)
        rerun(args, "same names", lambda i: RERUN_CELL)
        rerun(args, "new names", lambda i: NEW_NAMES_CELL.replace("{i}", str(i)))
        print(load())
        return
    cells = read_cells(args.cells) if args.cells else DEFAULT_CELLS
    class_run(args, cells)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
