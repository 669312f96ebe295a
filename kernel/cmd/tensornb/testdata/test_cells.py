"""Cells as students write them, against a real kernel through jupyter_client.

Each case is a list of cells run in order on one kernel; every cell must
succeed unless the case says what it should show instead. The cases are the
articles' REPL style (`expr  // result`), comments and blank lines in every
place, `:=` and `var`, calls with no value, declarations after their use,
shadowing, types and methods across cells, and the errors a PyTorch user
meets first. Where the two kernelspecs differ on purpose (the compiled one
keeps no values from cell to cell), a case says what each shows.

Run by kernel/cmd/tensornb/main_test.go once per kernelspec (TENSORNB_KERNEL:
tensornb, the instant engine, or tensornb-compiled, GoNB), with the kernel
installed in a scratch JUPYTER_PATH; by hand:

    TENSORNB_KERNEL=tensornb JUPYTER_PATH=... /usr/bin/python3 -m pytest -q kernel/cmd/tensornb/testdata/test_cells.py
"""

import os
import queue
import re
import unittest

from jupyter_client.manager import start_new_kernel

KERNEL = os.environ.get("TENSORNB_KERNEL", "tensornb")
COMPILED = KERNEL == "tensornb-compiled"
README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "README.md")
TIMEOUT = 120

SETUP = """import (
\t"fmt"

\t"github.com/tensornb/tensornb/display"
\t"github.com/tensornb/tensornb/tensor"
)
var a = tensor.Float32.Arange(24).View(2, 3, 4)"""


def ok(result=None, stdout="", display=None, stderr=None):
    """A cell that succeeds with exactly this result (text/plain of Out[n],
    None for no result), this stdout, and displays of these MIME types."""
    return {"status": "ok", "result": result, "stdout": stdout, "display": display or [], "stderr": stderr}


def error(ename, *contains, line=None):
    """A cell that fails with ename, whose evalue and traceback hold every
    string of contains, and whose traceback names the cell line."""
    return {"status": "error", "ename": ename, "contains": contains, "line": line}


def instant_only(case):
    """Marks a case whose point is the instant engine's: how yaegi is made
    to run cells as Go runs them (rewritten loops, runtime errors worded as
    Go words them) or which names of tensor its symbol tables expose. On the
    compiled kernelspec the same cell is plain Go, compiled as any program
    is, so it would only test Go and the tensor package again (at a go build
    of 1 to 3 s a cell); the cases without the mark test what that kernelspec
    does itself: arranging a cell's pieces, results, displays, and errors at
    the cell's lines."""
    name, cells = case
    return name, cells, "instant only"


# Each case: (name, [(code, expectation), ...]); an expectation may be a
# pair (instant, compiled) where the kernels differ on purpose.
CASES = [
    # The articles' REPL style: a result followed by a comment of either kind.
    ("trailing line comment", [("a.Transpose(1, 2).Strides()  // (12, 1, 4)", ok("(12, 1, 4)"))]),
    ("trailing block comment", [("a.Strides() /* (12, 4, 1) */", ok("(12, 4, 1)"))]),
    ("trailing comment after a semicolon", [("a.Dim(); // 3", ok("3"))]),
    ("comment lines before the result", [("// the shape\n// of a\na.Shape()", ok("(2, 3, 4)"))]),
    ("a comment as the last line", [("a.Numel()\n// 24 elements", ok("24"))]),
    ("blank lines around", [("\n\na.Dim()\n\n", ok("3"))]),
    ("a result over several lines", [("a.\n\tTranspose(0, 2).\n\tShape() // (4, 3, 2)", ok("(4, 3, 2)"))]),
    ("print then result", [('fmt.Println("strides:")  // first\na.Strides()  // then', ok("(12, 4, 1)", stdout="strides:\n"))]),
    ("display then result, the README's style", [(
        "display.Show(display.Card(a))   // card\na.Transpose(1, 2).IsContiguous()   // false",
        ok("false", display=["image/svg+xml", "text/html", "text/plain"]))]),
    # Calls with no value.
    ("a call with no value after a comment line", [
        ("var w = tensor.Float32.Arange(6)", ok()),
        ("// try it\nw.View(2, 3).T().Set(1, 0, 0)", ok()),
    ]),
    ("a call with no value and a trailing comment", [("w.Set(7, 0) // write slot 0", ok())]),
    ("a call with no value, then one with", [("func hello() {}\nhello()", ok()), ("hello()\n1 + 1", ok("2"))]),
    ("a call with two values shows nothing", [('strconv.Atoi("42")', ok())]),
    ("two values, kept", [('n, err := strconv.Atoi("42")\nfmt.Println(n+1, err)', ok(stdout="43 <nil>\n"))]),
    ("a void method of the tensor", [("w.Fill(1)  // all ones\nw.Sum()", ok("tensor(6.)"))]),
    # := and var.
    ("a definition alone", [("x := tensor.Arange(3)", ok())]),
    ("a definition alone, with a comment", [("x := tensor.Arange(3) // 0, 1, 2", ok())]),
    ("a definition used by the next cell", [
        ("x := tensor.Arange(3)", ok()),
        ("x", (ok("tensor([0, 1, 2])"), error("CompileError", "undefined: x", line=1))),
    ]),
    ("var across cells", [("var v = tensor.Arange(4)", ok()), ("v.Sum()", ok("tensor(6)"))]),
    ("two definitions on one line", [("q, r := 17/5, 17%5\nfmt.Println(q, r)", ok(stdout="3 2\n"))]),
    ("tensor.New without a shape", [("tensor.New([]float32{1, 2, 3, 4, 5, 6, 7, 8})", ok("tensor([1., 2., 3., 4., 5., 6., 7., 8.])"))]),
    ("tensor.New with a shape", [("tensor.New([]int64{0, 10, 20, 30}, 2, 2)", ok("tensor([[ 0, 10],\n        [20, 30]])"))]),
    instant_only(("tensor.New of ints", [("tensor.New([]int{1, 2, 3}).DType()", ok("int64"))])),
    # Declarations in any order.
    ("var and func in one cell", [("var n int\nfunc inc() { n++ }\ninc()\ninc()\nn", ok("2"))]),
    ("a function used before it is written", [("fmt.Println(double(21))\nfunc double(v int) int { return 2 * v }", ok(stdout="42\n"))]),
    ("a type used before it is written", [("p := point{1, 2}\np.X + p.Y\ntype point struct{ X, Y int }", ok("3"))]),
    ("a var whose value calls a later function", [("var m = twice(4)\nfunc twice(v int) int { return 2 * v }\nm", ok("8"))]),
    ("a constant used before it is written", [("half * 3\nconst half = 0.5", ok("1.5"))]),
    # Types, functions and methods across cells.
    ("a method on a type of an earlier cell", [
        ("type celsius float64", ok()),
        ("func (c celsius) F() float64 { return float64(c)*9/5 + 32 }", ok()),
        ("celsius(100).F()", ok("212")),
    ]),
    ("a function of an earlier cell", [("func square(v float64) float64 { return v * v }", ok()), ("square(1.5)", ok("2.25"))]),
    ("a constant of an earlier cell", [("const k = 7", ok()), ("k * 6", ok("42"))]),
    ("a struct value", [("type pair struct{ A, B int }\npair{1, 2}", ok("{1 2}"))]),
    ("a value with a String method", [
        ("type slot int\nfunc (s slot) String() string { return fmt.Sprintf(\"slot %d\", int(s)) }", ok()),
        ("slot(23)", ok("slot 23")),
    ]),
    # Shadowing and redefinition.
    ("shadowing in a block", [("s := 1\nif true {\n\ts := 2\n\t_ = s\n}\ns", ok("1"))]),
    ("a name defined again with another type", [("r1 := 1\nfmt.Println(r1)", ok(stdout="1\n")), ('r1 := "one"\nr1', ok('"one"'))]),
    ("a function defined again", [("func f() int { return 1 }", ok()), ("func f() int { return 2 }\nf()", ok("2"))]),
    # Values of every kind.
    ("a string", [('"hello"', ok('"hello"'))]),
    ("a float", [("1.0 / 4", ok("0.25"))]),
    ("a bool", [("a.IsContiguous()", ok("true"))]),
    ("a slice", [("[]int{1, 2, 3}", ok("[1 2 3]"))]),
    ("a map's length", [('len(map[string]int{"a": 1})', ok("1"))]),
    instant_only(("arithmetic on a tensor", [("tensor.Arange(3).Add(10)", ok("tensor([10, 11, 12])"))])),
    instant_only(("broadcast shapes", [("tensor.BroadcastShapes(tensor.Shape{8, 1, 6, 1}, tensor.Shape{7, 1, 5})", ok("(8, 7, 6, 5)"))])),
    instant_only(("expand has stride 0", [("tensor.Float32.Arange(3).View(3, 1).Expand(3, 4).Strides()", ok("(1, 0)"))])),
    instant_only(("an element by index string", [('a.Index("1, 2, 3").Item()', ok("23"))])),
    instant_only(("the address contract", [("a.Address(1, 2, 3)", ok("23"))])),
    # Control flow at the top level.
    instant_only(("range over an int", [('for i := range 3 {\n\tfmt.Print(i, " ")\n}', ok(stdout="0 1 2 "))])),
    instant_only(("closures keep their loop variable", [(
        "var fs []func() int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() int { return i })\n}\nfmt.Println(fs[0](), fs[1](), fs[2]())",
        ok(stdout="0 1 2\n"))])),
    ("if with an init", [('if n := a.Numel(); n > 20 {\n\tfmt.Println("big", n)\n}', ok(stdout="big 24\n"))]),
    ("switch", [('switch a.Dim() {\ncase 3:\n\tfmt.Println("3-D")\n}', ok(stdout="3-D\n"))]),
    # Errors a student meets first.
    ("a view that needs a copy", [("a.Transpose(1, 2).View(-1)", error(
        "RuntimeError", "view size is not compatible with input tensor's size and stride", "Reshape", line=1))]),
    ("an index out of range", [("// pick a row\na.Select(0, 5)", error("IndexError", "out of range", line=2))]),
    ("Python's indexing", [("a[0]", error("CompileError", 'a.Index("0")', "a.Select(0, 0)", line=1))]),
    ("a compile error names its line", [('x := 1\ny := x + "a"', error("CompileError", "cell line 2", "mismatched types", line=2))]),
    ("an undefined name", [("undefinedThing", error("CompileError", "undefined: undefinedThing", line=1))]),
    ("a panic after comments", [('// setup\n// more\npanic("boom")', error("panic", "boom", line=3))]),
    ("a runtime panic", [("s := []int{1}\ni := 3\nfmt.Println(s[i])", error("panic", "runtime error: index out of range [3] with length 1", line=3))]),
    instant_only(("a slice out of bounds", [("s := []int{1, 2, 3}\nlo, hi := 2, 1\nfmt.Println(s[lo:hi])", error("panic", "runtime error: slice bounds out of range [2:1]", line=3))])),
    instant_only(("a nil pointer", [("var p *struct{ X int }\nfmt.Println(p.X)", error("panic", "runtime error: invalid memory address or nil pointer dereference", line=2))])),
    ("after an error the kernel goes on", [('panic("first")', error("panic", "first")), ("1 + 1", ok("2"))]),
]


class Kernel:
    """One kernel of the kernelspec under test, with a client."""

    def __init__(self):
        self.km, self.kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)

    def run(self, code):
        """Runs code and returns what it showed: status, result, stdout,
        stderr, the MIME types of its displays, and its error."""
        msg_id = self.kc.execute(code)
        seen = {"result": None, "stdout": "", "stderr": "", "display": [], "error": None}
        while True:
            try:
                msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError("no idle status for %r within %d s" % (code, TIMEOUT))
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "status" and content["execution_state"] == "idle":
                break
            if kind == "stream":
                seen[content["name"]] += content["text"]
            elif kind == "execute_result":
                seen["result"] = content["data"].get("text/plain")
            elif kind == "display_data":
                seen["display"].append(sorted(content["data"]))
            elif kind == "error":
                seen["error"] = content
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        seen["status"] = reply["content"]["status"]
        return seen


def check(test, code, want, got):
    """Compares what a cell showed with what it should have."""
    where = "cell %r on %s" % (code, KERNEL)
    test.assertEqual(got["status"], want["status"], "%s: %s" % (where, got))
    if want["status"] == "ok":
        test.assertEqual(got["result"], want["result"], where)
        test.assertEqual(got["stdout"], want["stdout"], where)
        for mimes in want["display"] and [want["display"]]:
            test.assertTrue(any(set(mimes) <= set(d) for d in got["display"]), "%s: displays %s" % (where, got["display"]))
        if not want["display"]:
            test.assertEqual(got["display"], [], where)
        return
    err = got["error"]
    test.assertIsNotNone(err, where)
    test.assertEqual(err["ename"], want["ename"], "%s: %s" % (where, err))
    text = err["evalue"] + "\n" + "\n".join(err["traceback"])
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)  # colours, if any
    for part in want["contains"]:
        test.assertIn(part, text, where)
    if want["line"] is not None:
        test.assertIn("cell line %d" % want["line"], text, where)
    test.assertNotRegex(text, r"tensornb[A-Z]\w*|tensornbPkg_|tensornbdisplay", "%s: an internal name reached the user" % where)


class CellsAsStudentsWriteThem(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.kernel = Kernel()
        got = cls.kernel.run(SETUP)
        assert got["status"] == "ok", got

    @classmethod
    def tearDownClass(cls):
        cls.kernel.close()

    def test_cases(self):
        self.assertGreaterEqual(len(CASES), 45)
        failures, skipped = [], []
        for name, cells, *only in CASES:
            if COMPILED and only:
                skipped.append(name)
                continue
            for code, want in cells:
                if isinstance(want, tuple):
                    want = want[1] if COMPILED else want[0]
                try:
                    check(self, code, want, self.kernel.run(code))
                except AssertionError as e:
                    failures.append("%s: %s" % (name, e))
                    break
        if skipped:
            print("\n%d of %d cases are the instant engine's only, not run on %s: %s" % (len(skipped), len(CASES), KERNEL, "; ".join(skipped)))
        if failures:
            self.fail("%d of %d cases failed:\n\n%s" % (len(failures), len(CASES) - len(skipped), "\n\n".join(failures)))


def readme_example():
    """The code block under README.md's "A first notebook", verbatim."""
    with open(README) as f:
        text = f.read()
    section = text.split("## A first notebook", 1)[1]
    return re.search(r"```go\n(.*?)```", section, re.S).group(1)


class ReadmeFirstNotebook(unittest.TestCase):
    """The README's first example, as a reader pastes it into a new notebook."""

    def test_readme_example(self):
        code = readme_example()
        kernel = Kernel()
        try:
            got = kernel.run(code)
        finally:
            kernel.close()
        self.assertEqual(got["status"], "ok", got)
        self.assertEqual(got["result"], "(12, 1, 4)", got)
        self.assertEqual(len(got["display"]), 1, got)
        self.assertIn("image/svg+xml", got["display"][0], got)


if __name__ == "__main__":
    unittest.main()
