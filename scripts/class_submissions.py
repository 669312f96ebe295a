"""Writes a class of submissions of the stride puzzles, for scripts/grade-class.

    class_submissions.py STUDENT_NOTEBOOK OUTDIR N

STUDENT_NOTEBOOK is the student's version (tensornb assign). Each of the
N students gets OUTDIR/submitted/studentNNN/puzzles/puzzles.ipynb, as
nbgrader's zipcollect lays submissions out, of one of these kinds, in
turn: right (the answers written with view methods), a copy for one
puzzle, wrong strides for one, a panic in one, a loop in one, and the
stubs left as they are. It prints how many of each it wrote.
"""

import json
import os
import sys

# The answers, written otherwise than the teacher's solutions (as
# kernel/cmd/tensornb/course_test.go writes them).
RIGHT = {
    "row": "return x.Select(0, i)",
    "column": "return x.Select(1, j)",
    "everyotherrow": "return x.Slice(0, 0, tensor.End, 2)",
    "transposed": "return x.T()",
    "diagonal": "return x.Diagonal(0, 0, 1)",
    "antidiagonal": "n := x.Size(0)\n\tcorner := x.Select(1, n-1)\n\treturn corner.AsStrided([]int{n}, []int{x.Stride(0) - x.Stride(1)}, corner.StorageOffset())",
    "rowsof": "return v.Unsqueeze(0).Expand(n, v.Size(0))",
    "windows": "return v.Unfold(0, k, 1)",
    "batchtransposed": "return x.Transpose(1, 2)",
    "crop": "return x.Narrow(0, top, h).Narrow(1, left, w)",
    "patches": "return img.Unfold(0, k, 1).Unfold(1, k, 1)",
    "tiles": "return img.Unfold(0, p, p).Unfold(1, p, p)",
    "hankel": "return c.Unfold(0, n, 1)",
}

# The kinds of a class, and how often each comes, out of 20 students.
KINDS = [
    ("right", 12, {}),
    ("copy", 3, {"row": "return x.Select(0, i).Clone()"}),
    ("strides", 2, {"diagonal": "return x.AsStrided([]int{x.Size(0)}, []int{x.Stride(0) + 1}, x.StorageOffset())"}),
    ("panic", 1, {"crop": "var corner []int\n\treturn x.Narrow(0, corner[0], h).Narrow(1, left, w)"}),
    ("loop", 1, {"hankel": "for {\n\t}"}),
    ("stubs", 1, None),
]


def source(cell):
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def answered(nb, edits):
    """Returns a copy of nb with every answer right but those edits gives."""
    nb = json.loads(json.dumps(nb))
    for cell in nb["cells"]:
        gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if gid in RIGHT:
            body = edits.get(gid, RIGHT[gid])
            signature = source(cell).split("\n", 1)[0]
            cell["source"] = signature + "\n\t" + body + "\n}"
    return nb


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    student, outdir, n = argv[0], argv[1], int(argv[2])
    with open(student) as f:
        nb = json.load(f)
    plan = [k for k in KINDS for _ in range(k[1])]
    counts = {}
    for i in range(n):
        kind, _, edits = plan[i % len(plan)]
        sub = nb if edits is None else answered(nb, edits)
        folder = os.path.join(outdir, "submitted", "student%03d" % (i + 1), "puzzles")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "puzzles.ipynb"), "w") as f:
            json.dump(sub, f, indent=1)
        counts[kind] = counts.get(kind, 0) + 1
    print("wrote %d submissions: %s" % (n, ", ".join("%d %s" % (c, k) for k, c in counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
