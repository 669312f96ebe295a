#!/usr/bin/python3
"""Generate repr.json: PyTorch's repr of many tensors, for format_test.go.

Run with Debian's Python, which has PyTorch 1.13:

    /usr/bin/python3 tensor/testdata/gen_repr.py

Each case records the dtype name, the shape, the elements in row-major
order and the exact repr(t) string. Float elements are written as the
shortest decimal that reads back as the same value in the tensor's storage
precision (float32 for float32, float16 and bfloat16; float64 for
float64), with "nan", "inf" and "-inf" as strings. Integers are written as
integers and bools as true/false. The output is deterministic.
"""

import json
import math
import os
import random

import numpy
import torch

DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
    "int32": torch.int32,
    "uint8": torch.uint8,
    "bool": torch.bool,
}
FLOAT_DTYPES = ["float32", "float64", "float16", "bfloat16"]
INT_RANGES = {
    "int64": (-(2**62), 2**62),
    "int32": (-(2**31), 2**31 - 1),
    "uint8": (0, 255),
}

cases = []


def add(name, t):
    """Record tensor t under name."""
    cases.append((name, t))


def make(values, dtype, shape=None):
    """Return a tensor of the given dtype holding values (a flat list)."""
    if dtype == "bool":
        t = torch.tensor(values, dtype=torch.bool)
    elif dtype in FLOAT_DTYPES:
        t = torch.tensor(values, dtype=torch.float64).to(DTYPES[dtype])
    else:
        t = torch.tensor(values, dtype=torch.int64).to(DTYPES[dtype])
    if shape is not None:
        t = t.reshape(shape)
    return t


def hand_picked():
    """Edge cases of each rule in torch/_tensor_str.py."""
    nan, inf = math.nan, math.inf
    for dtype in DTYPES:
        add("scalar " + dtype, make([3], dtype, ()))
        add("vector " + dtype, make([0, 1, 2], dtype))
        add("empty " + dtype, make([], dtype))
        add("empty 0x3 " + dtype, make([], dtype, (0, 3)))
        add("empty 2x0x3 " + dtype, make([], dtype, (2, 0, 3)))
    add("scalar fraction", torch.tensor(0.5))
    add("scalar negative zero", torch.tensor(-0.0))
    add("scalar nan", torch.tensor(nan))
    add("scalar -inf float64", torch.tensor(-inf, dtype=torch.float64))
    add("scalar big", torch.tensor(1e10))
    add("scalar tiny", torch.tensor(1e-10))
    add("scalar bool", torch.tensor(False))
    add("scalar int", torch.tensor(-123456))
    add("zeros", torch.zeros(5))
    add("zeros 2x3", torch.zeros(2, 3))
    add("negative zeros", torch.tensor([-0.0, 0.0, -0.0]))
    add("negative zero fixed", torch.tensor([-0.0, 0.5]))
    add("negative zero sci", torch.tensor([-0.0, 1e-5, 1.0]))
    add("integral", torch.tensor([0.0, 1.0, -2.0, 300.0]))
    add("fixed", torch.tensor([0.5, -1.25, 100.0]))
    add("ratio just under 1000", torch.tensor([1.0, 1000.0]))
    add("ratio over 1000", torch.tensor([1.0, 1001.0]))
    add("fraction ratio over 1000", torch.tensor([0.5, 501.0]))
    add("max 1e8", torch.tensor([1e8], dtype=torch.float64))
    add("max over 1e8", torch.tensor([100000001.0], dtype=torch.float64))
    add("max over 1e8 float32", torch.tensor([1e9, 2e9]))
    add("min 1e-4", torch.tensor([1e-4, 1e-3], dtype=torch.float64))
    add("min under 1e-4", torch.tensor([0.99e-4, 1e-3], dtype=torch.float64))
    add("sci", torch.tensor([1e10, -2.5e-3, 1.0]))
    add("sci big exponent", torch.tensor([1e100, 1e-100, -1e300], dtype=torch.float64))
    add("subnormal", torch.tensor([5e-324, 1.0], dtype=torch.float64))
    add("nan inf", torch.tensor([nan, inf, -inf]))
    add("nan inf integral", torch.tensor([nan, inf, -inf, 1.0, 2.0]))
    add("nan inf fixed", torch.tensor([nan, inf, -inf, 1.5]))
    add("nan inf sci", torch.tensor([nan, inf, -inf, 1.5e10, 1.0]))
    add("nan inf 2d", torch.tensor([[nan, 1.0], [-inf, 123.0]]))
    add("half-even fixed", torch.tensor([1.03125, 1.09375]))
    add("half-even sci", torch.tensor([12344.5, 12345.5, 0.5], dtype=torch.float64))
    add("half-even integral", torch.tensor([0.5, 1.5, 2.5, 1e9], dtype=torch.float64))
    add("float16 max", torch.tensor([65504.0, -65504.0, 1.0], dtype=torch.float16))
    add("float16 tiny", torch.tensor([6e-8, 1.0], dtype=torch.float16))
    add("float16 third", torch.tensor([1 / 3, 2 / 3], dtype=torch.float16))
    add("bfloat16 big", torch.tensor([1e30, 3.0], dtype=torch.bfloat16))
    add("bfloat16 third", torch.tensor([1 / 3, -2 / 3], dtype=torch.bfloat16))
    add("float64 precise", torch.tensor([0.1, 0.2, 0.30000000000000004], dtype=torch.float64))
    add("bools", torch.tensor([True, False, True]))
    add("all true", torch.tensor([[True, True], [True, True]]))
    add("int widths", torch.tensor([1, -10, 100, -1000]))
    add("int64 extremes", torch.tensor([2**63 - 1, -(2**63)]))
    add("int32 extremes", torch.tensor([2**31 - 1, -(2**31)], dtype=torch.int32))
    add("uint8 range", torch.arange(0, 256, 51).to(torch.uint8))
    add("2d", torch.arange(6.0).reshape(2, 3))
    add("3d", torch.arange(24.0).reshape(2, 3, 4) / 4)
    add("4d", torch.arange(36).reshape(2, 3, 2, 3))
    add("size 1 dims", torch.tensor([[[[7.0]]]]))
    add("column", torch.arange(5, dtype=torch.int32).reshape(5, 1))
    add("long row int", torch.arange(100))
    add("long row float", torch.arange(40.0) / 3)
    add("long row sci", torch.arange(1.0, 31.0) ** 8)
    add("long row 2d", torch.arange(90.0).reshape(2, 45) / 7)
    add("long row 3d", torch.arange(120).reshape(2, 2, 30) * 1000)
    add("long row suffix", torch.arange(23, dtype=torch.int32) * 100)
    add("long row bool", torch.arange(50) % 3 == 0)
    add("wide elements", torch.tensor([[-1.2345e-10, 1e20] * 6] * 2, dtype=torch.float64))
    for n in range(1, 16):
        add("suffix wrap float64 %d" % n, torch.arange(n, dtype=torch.float64) - 0.25)
        add("suffix wrap uint8 %d" % n, (torch.arange(n * 2) * 7 % 256).to(torch.uint8))
    add("summarize 1d", torch.arange(1001))
    add("summarize 1d float", torch.arange(1001.0) / 8)
    add("summarize threshold exact", torch.arange(1000))
    add("summarize 2d", torch.arange(1200.0).reshape(40, 30))
    add("summarize 3d", torch.arange(1320).reshape(10, 11, 12))
    add("summarize short rows", torch.arange(1004).reshape(2, 502).to(torch.int32))
    add("summarize short first dims", torch.arange(1050).reshape(5, 6, 35))
    add("summarize column", torch.arange(1001.0).reshape(1001, 1))
    add("summarize 4d", torch.arange(1024).reshape(4, 4, 8, 8).to(torch.int32))
    hidden = torch.arange(1100.0)
    hidden[500] = 1e10
    hidden[501] = 0.5
    add("summarize hides middle", hidden)
    hidden_int = torch.arange(1100)
    hidden_int[600] = 10**15
    add("summarize hides middle int", hidden_int)
    nonfinite = torch.arange(1010.0).reshape(10, 101)
    nonfinite[0, 0] = math.nan
    nonfinite[9, 100] = -math.inf
    add("summarize nan inf", nonfinite)
    add("summarize bool", torch.arange(1100).reshape(11, 100) % 7 == 0)
    gen = torch.Generator().manual_seed(7)
    add("summarize randn", torch.randn(1001, generator=gen))
    add("summarize randn 2d float64", torch.randn(25, 41, generator=gen, dtype=torch.float64) * 1e5)
    add("summarize float16", (torch.randn(1100, generator=gen) * 100).to(torch.float16))
    add("summarize bfloat16 3d", torch.randn(8, 9, 15, generator=gen).to(torch.bfloat16))


def random_shape(rng):
    """A random shape of 0 to 4 dims, sometimes with a long last dimension,
    holding at most 1200 elements so a few are summarized."""
    while True:
        ndim = rng.choice([0, 1, 1, 2, 2, 3, 3, 4])
        shape = [rng.randint(1, 6) for _ in range(ndim)]
        if ndim > 0 and rng.random() < 0.25:
            shape[-1] = rng.randint(10, 60)
        if ndim > 0 and rng.random() < 0.05:
            shape[0] = rng.randint(7, 300)
        if math.prod(shape) <= 1200:
            return tuple(shape)


def random_values(rng, gen, dtype, shape):
    """A random tensor of the given dtype and shape."""
    n = math.prod(shape)
    if dtype == "bool":
        return torch.rand(shape, generator=gen) < rng.random()
    if dtype in INT_RANGES:
        lo, hi = INT_RANGES[dtype]
        scale = rng.choice([10, 1000, 10**6, hi])
        lo, hi = max(lo, -scale), min(hi, scale)
        if rng.random() < 0.3:
            lo = 0
        return torch.randint(lo, hi, shape, generator=gen, dtype=torch.int64).to(DTYPES[dtype])
    kind = rng.choice(["randn", "randn", "randn", "arange", "integers", "uniform"])
    scale = 10.0 ** rng.randint(-7, 11)
    if kind == "randn":
        t = torch.randn(shape, generator=gen, dtype=torch.float64) * scale
    elif kind == "arange":
        t = torch.arange(n, dtype=torch.float64).reshape(shape) * rng.choice([1, 0.5, 0.1, 3, scale])
    elif kind == "integers":
        t = torch.randint(-1000, 1000, shape, generator=gen).to(torch.float64) * rng.choice([1, 100, 10**7])
    else:
        t = torch.rand(shape, generator=gen, dtype=torch.float64) * scale
    flat = t.reshape(-1)
    if n > 0 and rng.random() < 0.2:
        for _ in range(rng.randint(1, 3)):
            flat[rng.randrange(n)] = rng.choice([math.nan, math.inf, -math.inf, -0.0, 0.0])
    return t.to(DTYPES[dtype])


def random_cases(count):
    """Random tensors of every dtype and shapes up to 4-D."""
    rng = random.Random(20240601)
    gen = torch.Generator().manual_seed(20240601)
    names = list(DTYPES)
    for i in range(count):
        dtype = rng.choice(names)
        add("random %d %s" % (i, dtype), random_values(rng, gen, dtype, random_shape(rng)))


def value_token(v, dtype):
    """The JSON text of one element."""
    if dtype == "bool":
        return "true" if v else "false"
    if dtype not in FLOAT_DTYPES:
        return str(v)
    if math.isnan(v):
        return '"nan"'
    if math.isinf(v):
        return '"inf"' if v > 0 else '"-inf"'
    if dtype == "float64":
        return repr(v)
    return str(numpy.float32(v))


def case_json(name, t):
    """One case as a line of JSON."""
    dtype = str(t.dtype).removeprefix("torch.")
    values = ",".join(value_token(v, dtype) for v in t.reshape(-1).tolist())
    return '{"name": %s, "dtype": %s, "shape": %s, "values": [%s], "repr": %s}' % (
        json.dumps(name),
        json.dumps(dtype),
        json.dumps(list(t.shape)),
        values,
        json.dumps(repr(t)),
    )


def main():
    torch.manual_seed(0)
    hand_picked()
    random_cases(300)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "repr.json")
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(case_json(n, t) for n, t in cases) + "\n]\n")
    print("wrote %d cases to %s" % (len(cases), path))


if __name__ == "__main__":
    main()
