"""Runs tensornb's notebooks with nbclient on the installed tensornb kernel.

    execute.py [--kernel NAME] save NOTEBOOK...          run each and write its outputs back
    execute.py [--kernel NAME] check OUTDIR NOTEBOOK...  run each into OUTDIR and compare
    execute.py compare RUNDIR NOTEBOOK...                compare each with RUNDIR's run of it

NAME is the kernelspec to run them on, by default the notebook's own
(tensornb, the instant engine); CI checks them under tensornb-compiled
(GoNB) too, against the same stored outputs.

Both modes stop with an error if a cell raises without the tag
raises-exception, or has the tag and does not raise. A cell tagged
instant-engine (widgets, whose callbacks need the program to live on
after the cell) runs on the notebook's own kernelspec only: on another,
check leaves it out, saying so, and does not compare its outputs; compare
leaves out the cells the other client marked left out (metadata
tensornb.left_out). check also compares
the new outputs with the ones stored in the notebook, ignoring what
changes from run to run (see comparable), and lists every cell whose
outputs differ: a notebook whose code changed without a re-run fails.
compare makes the same checks of notebooks another client ran: the
image's smoke test (docker/image_test.go) runs them through a Jupyter
server's REST API and kernel websocket with JupyterLab's own client
library, writes them to RUNDIR under their own names, and has them
checked here.
Run it with Debian's /usr/bin/python3 (python3-nbclient, python3-nbformat)
and JUPYTER_PATH pointing at an installed tensornb kernel; scripts/notebooks
does both.
"""

import copy
import json
import os
import re
import sys
import time

import nbclient
import nbformat

TAG = "raises-exception"
INSTANT = "instant-engine"

# Displays give their elements random ids so that outputs of separate runs
# can share a page, and widgets' models have random comm ids; they are the
# same pictures all the same.
RANDOM_IDS = re.compile(r'tnb-(?:explorer|playground)-\d+-[0-9a-f]{8}|tensornb-mermaid-[0-9a-f]{16}|(?<="model_id": ")[0-9a-f]{32}')


def left_out(nb, kernel):
    """The indexes of the cells a run on kernel (None: the notebook's own)
    leaves out: those tagged instant-engine, on another kernelspec."""
    if kernel is None or kernel == nb.metadata.kernelspec.name:
        return set()
    return {i for i, c in enumerate(nb.cells) if c.cell_type == "code" and INSTANT in c.metadata.get("tags", [])}


def run(path, kernel):
    """Executes the notebook at path on kernel (None: the notebook's own)
    and returns it with fresh outputs."""
    nb = nbformat.read(path, as_version=4)
    for i in sorted(left_out(nb, kernel)):
        first = (nb.cells[i].source.strip().splitlines() or [""])[0][:60]
        print(f"  {os.path.basename(path)}: cell {i} ({first}) is left out: it is tagged {INSTANT}, and {kernel} is not the instant engine", flush=True)
        nb.cells[i].source = ""
    cells = [c for c in nb.cells if c.cell_type == "code"]
    name = os.path.basename(path)
    started = time.monotonic()
    done = [0]

    def on_start(cell, cell_index):
        if cell.cell_type != "code":
            return
        done[0] += 1
        first = (cell.source.strip().splitlines() or [""])[0][:60]
        print(f"  {name} [{done[0]}/{len(cells)}] {first}", flush=True)

    client = nbclient.NotebookClient(
        nb,
        kernel_name=kernel or nb.metadata.kernelspec.name,
        timeout=300,
        startup_timeout=300,
        allow_errors=False,
        record_timing=False,
        on_cell_start=on_start,
        # Widgets are saved as their still pictures, which nbconvert and
        # GitHub show, not as their state: with the state, nbconvert would
        # draw them with scripts from the web instead.
        store_widget_state=False,
    )
    client.execute()
    for cell in cells:
        cell.outputs = coalesce(cell.outputs)
    print(f"  {name}: {len(cells)} cells in {time.monotonic() - started:.1f} s", flush=True)
    return nb


def raising_problems(nb):
    """Cells that raise without the tag, or have it and do not raise."""
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tagged = TAG in cell.metadata.get("tags", [])
        raised = any(o.output_type == "error" for o in cell.outputs)
        if raised and not tagged:
            problems.append(f"cell {i} raised: {error_text(cell)}")
        if tagged and not raised:
            problems.append(f"cell {i} is tagged {TAG} but did not raise")
    return problems


def error_text(cell):
    for o in cell.outputs:
        if o.output_type == "error":
            return f"{o.ename}: {o.evalue}"
    return ""


def coalesce(outputs):
    """Joins neighbouring stream outputs of the same stream: how a cell's
    prints are cut into messages depends on timing, not on the code."""
    out = []
    for o in outputs:
        if o.output_type == "stream" and out and out[-1].output_type == "stream" and out[-1].name == o.name:
            out[-1].text += o.text
        else:
            out.append(o)
    return out


def comparable(outputs):
    """The outputs as JSON, without what differs from run to run: execution
    counts, the random element ids of displays, the stack of an error (it
    holds memory addresses; the error's name and message are compared), and
    how prints were cut into messages and interleaved with displays (they
    reach the kernel by separate pipes), so each stream is compared whole."""
    streams, others = {}, []
    for o in copy.deepcopy(outputs):
        if o.get("output_type") == "stream":
            streams[o["name"]] = streams.get(o["name"], "") + o["text"]
            continue
        o.pop("execution_count", None)
        o.pop("transient", None)
        if o.get("output_type") == "error":
            o.pop("traceback", None)
        others.append(o)
    return RANDOM_IDS.sub("<id>", json.dumps({"streams": streams, "outputs": others}, sort_keys=True, indent=1))


def stale_cells(stored, fresh, skip=frozenset()):
    """Code cells whose stored outputs differ from a fresh run's, but for
    the indexes in skip."""
    stale = []
    if len(stored.cells) != len(fresh.cells):
        return ["the number of cells changed"]
    for i, (a, b) in enumerate(zip(stored.cells, fresh.cells)):
        if i in skip:
            continue
        if a.cell_type == "code" and comparable(a.outputs) != comparable(b.outputs):
            stale.append(f"cell {i}: {(b.source.strip().splitlines() or [''])[0][:60]}")
    return stale


def stale_problems(stored, fresh, skip=frozenset()):
    """stale_cells as the problem check reports."""
    stale = stale_cells(stored, fresh, skip)
    if not stale:
        return []
    return [
        "stored outputs differ from a fresh run (run scripts/notebooks to re-execute and save):\n    "
        + "\n    ".join(stale)
    ]


def main(argv):
    kernel = None
    if argv[:1] == ["--kernel"] and len(argv) > 1:
        kernel, argv = argv[1], argv[2:]
    if len(argv) < 2 or argv[0] not in ("save", "check", "compare") or (argv[0] != "save" and len(argv) < 3):
        print(__doc__, file=sys.stderr)
        return 2
    mode = argv[0]
    outdir = argv[1] if mode != "save" else None
    paths = argv[2:] if mode != "save" else argv[1:]
    failed = False
    for n, path in enumerate(paths, 1):
        stored = nbformat.read(path, as_version=4)
        if mode == "compare":
            ran = os.path.join(outdir, os.path.basename(path))
            if not os.path.exists(ran):
                print(f"{path}: no run of it in {outdir}", file=sys.stderr)
                failed = True
                continue
            fresh = nbformat.read(ran, as_version=4)
            for cell in fresh.cells:
                if cell.cell_type == "code":
                    cell.outputs = coalesce(cell.outputs)
            skip = {i for i, c in enumerate(fresh.cells) if c.get("metadata", {}).get("tensornb", {}).get("left_out")}
            problems = raising_problems(fresh) + stale_problems(stored, fresh, skip)
            for p in problems:
                print(f"{path}: {p}", file=sys.stderr)
            failed = failed or bool(problems)
            continue
        print(f"[{n}/{len(paths)}] {path}", flush=True)
        if mode == "save" and left_out(stored, kernel):
            print(f"{path}: not saved: on {kernel} it would lose the outputs of its cells tagged {INSTANT}; save it on its own kernelspec", file=sys.stderr)
            failed = True
            continue
        try:
            fresh = run(path, kernel)
        except nbclient.exceptions.CellExecutionError as e:
            print(f"{path}: a cell without the tag {TAG} raised:\n{e}", file=sys.stderr)
            failed = True
            continue
        problems = raising_problems(fresh)
        if mode == "check":
            nbformat.write(fresh, os.path.join(outdir, os.path.basename(path)))
            problems += stale_problems(stored, fresh, left_out(stored, kernel))
        else:
            nbformat.write(fresh, path)
        for p in problems:
            print(f"{path}: {p}", file=sys.stderr)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
