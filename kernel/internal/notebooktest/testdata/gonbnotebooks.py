"""Runs GoNB's own notebooks with nbclient on one of tensornb's kernelspecs.

    gonbnotebooks.py KERNEL OUTDIR LEFTOUT NOTEBOOK...

LEFTOUT is a JSON file: for each notebook's file name, the numbers (from
1) of the code cells not to run, which are emptied first (they need the
network, or a checkout of GoNB's repository). Each notebook runs in a
fresh scratch directory, all its cells even after an error, and is
written to OUTDIR under its own name; gonbnotebooks_test.go reads the
outputs. Run it with Debian's /usr/bin/python3 and JUPYTER_PATH pointing
at an installed tensornb kernel.
"""

import json
import os
import sys
import tempfile
import time

import nbclient
import nbformat


def run(path, kernel, left_out, outdir):
    nb = nbformat.read(path, as_version=4)
    name = os.path.basename(path)
    code = [c for c in nb.cells if c.cell_type == "code"]
    for n in left_out:
        code[n - 1].source = ""
    started = time.monotonic()

    def on_start(cell, cell_index):
        if cell.cell_type == "code" and cell.source:
            first = (cell.source.strip().splitlines() or [""])[0][:60]
            print(f"  {kernel} {name} [{code.index(cell) + 1}/{len(code)}] {first}", flush=True)

    with tempfile.TemporaryDirectory() as cwd:
        client = nbclient.NotebookClient(
            nb,
            kernel_name=kernel,
            timeout=300,
            startup_timeout=300,
            allow_errors=True,
            record_timing=False,
            on_cell_start=on_start,
            resources={"metadata": {"path": cwd}},
        )
        client.execute()
    print(f"  {kernel} {name}: {len(code)} cells in {time.monotonic() - started:.1f} s", flush=True)
    nbformat.write(nb, os.path.join(outdir, name))


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    kernel, outdir, leftout = argv[0], argv[1], argv[2]
    with open(leftout) as f:
        skips = json.load(f)
    for path in argv[3:]:
        run(path, kernel, skips.get(os.path.basename(path), []), outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
