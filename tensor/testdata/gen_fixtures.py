#!/usr/bin/python3
"""Writes fixtures.json: what PyTorch (and NumPy, for its own calls) answers
for chains of tensor operations, so that the Go tests can replay every case
against package tensor.

Run it with Debian's interpreter, which has python3-torch and python3-numpy:

    /usr/bin/python3 tensor/testdata/gen_fixtures.py

Each case starts from an input tensor, applies a list of operations in
order, and records either the result (dtype, shape, strides, storage offset,
values in row-major order, contiguity, whether it shares the input's
storage, and the values of the input afterwards, which shows writes through
views) or the exception PyTorch raised (class and message). Random chains
come from a fixed seed, so the file only changes when this script does.
"""

import json
import math
import os
import random
import sys

import numpy as np
import torch

DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "int64": torch.int64,
    "int32": torch.int32,
    "uint8": torch.uint8,
    "bool": torch.bool,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
}
NAMES = {v: k for k, v in DTYPES.items()}
END = None  # an omitted slice stop; the Go side reads null as tensor.End


# ---------------------------------------------------------------- operands

def make_input(spec):
    """Builds a tensor from {"kind": "arange"|"values", "shape", "dtype", ...}:
    integer tensors from exact int64 values, the others from float64 ones."""
    dtype = DTYPES[spec["dtype"]]
    shape = spec["shape"]
    n = math.prod(shape)
    exact = dtype in (torch.int64, torch.int32, torch.uint8)
    if spec["kind"] == "arange":
        start = spec.get("start", 0)
        t = torch.arange(start, start + n, dtype=torch.int64 if exact else torch.float64)
        if dtype == torch.bool:
            t = t.remainder(2)
        return t.to(dtype).reshape(shape).clone()
    values = [decode_number(v) for v in spec["values"]]
    exact = exact and all(isinstance(v, int) for v in values)
    return torch.tensor(values, dtype=torch.int64 if exact else torch.float64).to(dtype).reshape(shape).clone()


def decode_number(v):
    if isinstance(v, str):
        return float(v)
    return v


def encode_number(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return str(v)
    return v


# The tensors a gradient case made: leaves that require grad, in order,
# and tensors saved under a name by the "save" operation.
GRAD = {"leaves": [], "saved": {}}


def operand(spec, root):
    """An operation's second operand: a scalar, a new tensor (a leaf that
    requires grad if spec says "grad"), a tensor saved earlier in the case,
    or a view of the case's input (to test aliasing)."""
    if "int" in spec:
        return spec["int"]
    if "float" in spec:
        return spec["float"]
    if "bool" in spec:
        return spec["bool"]
    if "input" in spec:
        t = make_input(spec["input"])
        if spec.get("grad"):
            t.requires_grad_()
            GRAD["leaves"].append(t)
        return t
    if "saved" in spec:
        return GRAD["saved"][spec["saved"]]
    if "root" in spec:
        t = root
        for op in spec["root"]:
            t = apply(t, op, root)
        return t
    raise ValueError(spec)


class _Grab:
    """GRAB[expr] returns the key Python builds for t[expr]."""

    def __getitem__(self, key):
        return key


def index_key(spec):
    """Evaluates a Python index expression such as "1:, ::2" into the key
    that t[1:, ::2] would receive."""
    if not spec.strip():
        return ()
    return eval("GRAB[" + spec + "]", {"GRAB": _Grab(), "None": None})  # noqa: S307


def pick(result, i):
    return result[i]


def slice_dim(t, dim, start, stop, step):
    index = [slice(None)] * (dim % t.dim()) + [slice(start, stop, step)]
    return t[tuple(index)]


# -------------------------------------------------------------- operations

def apply(t, op, root):
    name, args = op[0], op[1:]
    f = OPS[name]
    return f(t, root, *args)


def save(t, root, name):
    GRAD["saved"][name] = t
    return t


def on_saved(t, root, name, chain):
    """Applies chain to the tensor saved as name (the input for "root")
    for its side effects, and goes on with t."""
    apply_chain(root if name == "root" else GRAD["saved"][name], chain, root)
    return t


def no_grad(t, root, chain):
    with torch.no_grad():
        return apply_chain(t, chain, root)


def retain_grad(t, root):
    t.retain_grad()
    return t


# The decodes of the predefined packing contracts, written in PyTorch as
# the article writes them: view the axis, then pick the role.
CONTRACT_AXES = {"interleaved": "hrd", "blocked": "rhd", "fused_qkv": "rhd", "pixel": "chw"}


def decode(t, contract, sizes, axis, part):
    axis %= t.dim()
    names = CONTRACT_AXES[contract]
    split = t.unflatten(axis, [sizes[n] for n in names])
    if contract == "pixel":
        return split
    return split.select(axis + names.index("r"), part)


def apply_chain(t, chain, root):
    for op in chain:
        t = apply(t, op, root)
    return t


def reduce_dims(t, fn, dims, keepdim):
    if dims:
        return fn(t, dims, keepdim)
    if keepdim:
        return fn(t, tuple(range(t.dim())), True)
    return fn(t, None, False)


def amax(t, dims, keepdim):
    if dims is None:
        return t.max()
    if len(dims) == 1:
        return t.max(dims[0], keepdim=keepdim)[0]
    return t.amax(dims, keepdim=keepdim)


def amin(t, dims, keepdim):
    if dims is None:
        return t.min()
    if len(dims) == 1:
        return t.min(dims[0], keepdim=keepdim)[0]
    return t.amin(dims, keepdim=keepdim)


def total(t, dims, keepdim):
    if dims is None:
        return t.sum()
    return t.sum(dims, keepdim=keepdim)


def mean(t, dims, keepdim):
    if dims is None:
        return t.mean()
    return t.mean(dims, keepdim=keepdim)


def setitem(t, root, idx, value):
    t[tuple(idx)] = decode_number(value)
    return t


def index_select(t, root, dim, index):
    return t.index_select(dim, make_input(index))


def gather(t, root, dim, index):
    return t.gather(dim, make_input(index))


def masked_select(t, root, mask):
    return t.masked_select(make_input(mask))


def as_strided(t, root, shape, strides, offset):
    return t.as_strided(shape, strides, offset)


def numpy_ravel(t, root):
    return torch.from_numpy(np.ravel(t.numpy()))


def numpy_flatten(t, root):
    return torch.from_numpy(t.numpy().flatten())


OPS = {
    "view": lambda t, r, *shape: t.view(shape),
    "reshape": lambda t, r, *shape: t.reshape(shape),
    "transpose": lambda t, r, a, b: t.transpose(a, b),
    "permute": lambda t, r, *dims: t.permute(dims),
    "T": lambda t, r: t.permute(tuple(reversed(range(t.dim())))),  # t.T, without its warning for other than 2-D
    "t": lambda t, r: t.t(),
    "mT": lambda t, r: t.mT,
    "movedim": lambda t, r, a, b: t.movedim(a, b),
    "squeeze": lambda t, r, *dims: t.squeeze(*dims),
    "unsqueeze": lambda t, r, d: t.unsqueeze(d),
    "narrow": lambda t, r, d, s, n: t.narrow(d, s, n),
    "slice": lambda t, r, d, a, b, c: slice_dim(t, d, a, b, c),
    "select": lambda t, r, d, i: t.select(d, i),
    "unfold": lambda t, r, d, size, step: t.unfold(d, size, step),
    "diagonal": lambda t, r, o, a, b: t.diagonal(o, a, b),
    "expand": lambda t, r, *sizes: t.expand(sizes),
    "broadcast_to": lambda t, r, *sizes: torch.broadcast_to(t, sizes),
    "as_strided": as_strided,
    "chunk": lambda t, r, n, d, i: pick(t.chunk(n, d), i),
    "split": lambda t, r, n, d, i: pick(t.split(n, d), i),
    "split_sizes": lambda t, r, sizes, d, i: pick(t.split(sizes, d), i),
    "tensor_split": lambda t, r, n, d, i: pick(t.tensor_split(n, d), i),
    "tensor_split_at": lambda t, r, idx, d, i: pick(t.tensor_split(idx, d), i),
    "unbind": lambda t, r, d, i: pick(t.unbind(d), i),
    "unflatten": lambda t, r, d, sizes: t.unflatten(d, sizes),
    "flatten": lambda t, r, *se: t.flatten(*se),
    "ravel": numpy_ravel,
    "flatten_copy": numpy_flatten,
    "contiguous": lambda t, r: t.contiguous(),
    "clone": lambda t, r: t.clone(),
    "repeat": lambda t, r, *reps: t.repeat(reps),
    "tile": lambda t, r, *reps: t.tile(reps),
    "index_select": index_select,
    "gather": gather,
    "masked_select": masked_select,
    "index": lambda t, r, spec: t[index_key(spec)],
    "to": lambda t, r, dtype: t.to(DTYPES[dtype]),
    "add": lambda t, r, o: torch.add(t, operand(o, r)),
    "sub": lambda t, r, o: torch.sub(t, operand(o, r)),
    "mul": lambda t, r, o: torch.mul(t, operand(o, r)),
    "div": lambda t, r, o: torch.div(t, operand(o, r)),
    "eq": lambda t, r, o: torch.eq(t, operand(o, r)),
    "ne": lambda t, r, o: torch.ne(t, operand(o, r)),
    "lt": lambda t, r, o: torch.lt(t, operand(o, r)),
    "le": lambda t, r, o: torch.le(t, operand(o, r)),
    "gt": lambda t, r, o: torch.gt(t, operand(o, r)),
    "ge": lambda t, r, o: torch.ge(t, operand(o, r)),
    "neg": lambda t, r: torch.neg(t),
    "add_": lambda t, r, o: t.add_(operand(o, r)),
    "sub_": lambda t, r, o: t.sub_(operand(o, r)),
    "mul_": lambda t, r, o: t.mul_(operand(o, r)),
    "div_": lambda t, r, o: t.div_(operand(o, r)),
    "fill_": lambda t, r, v: t.fill_(decode_number(v)),
    "copy_": lambda t, r, o: t.copy_(operand(o, r)),
    "setitem": setitem,
    "sum": lambda t, r, dims, keep: reduce_dims(t, total, dims, keep),
    "mean": lambda t, r, dims, keep: reduce_dims(t, mean, dims, keep),
    "max": lambda t, r, dims, keep: reduce_dims(t, amax, dims, keep),
    "min": lambda t, r, dims, keep: reduce_dims(t, amin, dims, keep),
    "argmax": lambda t, r, dim, keep: t.argmax(dim, keepdim=keep),
    "argmin": lambda t, r, dim, keep: t.argmin(dim, keepdim=keep),
    "matmul": lambda t, r, o: torch.matmul(t, operand(o, r)),
    "pixel_shuffle": lambda t, r, f: torch.nn.functional.pixel_shuffle(t, f),
    "pixel_unshuffle": lambda t, r, f: torch.nn.functional.pixel_unshuffle(t, f),
    # The Go side calls tensor.Rearrange(pattern, sizes); PyTorch runs the
    # chain of reshape and permute the pattern stands for, written out by
    # hand or by random_rearrange.
    "rearrange": lambda t, r, pattern, sizes, chain: apply_chain(t, chain, r),
    # Operations of the gradient cases.
    "amax": lambda t, r, dims, keep: t.amax(dims, keepdim=keep) if dims else t.max(),
    "amin": lambda t, r, dims, keep: t.amin(dims, keepdim=keep) if dims else t.min(),
    "cat": lambda t, r, others, dim: torch.cat([t] + [operand(o, r) for o in others], dim),
    "stack": lambda t, r, others, dim: torch.stack([t] + [operand(o, r) for o in others], dim),
    "save": save,
    "load": lambda t, r, name: GRAD["saved"][name],
    "on": on_saved,
    "no_grad": no_grad,
    "detach": lambda t, r: t.detach(),
    "requires_grad_": lambda t, r, flag: t.requires_grad_(flag),
    "retain_grad": retain_grad,
    "decode": lambda t, r, contract, sizes, axis, part: decode(t, contract, sizes, axis, part),
}

# Operations answered by NumPy rather than PyTorch.
NUMPY_OPS = {"ravel", "flatten_copy"}

# Operations whose float results are computed by summing many products, so
# that PyTorch's and Go's rounding can differ in the last bits.
INEXACT = {"sum", "mean", "matmul"}


# --------------------------------------------------------------- recording

def storage_ptr(t):
    s = t.storage()
    return s.data_ptr() if s.nbytes() > 0 else None


def values_of(t):
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.float()
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    return [encode_number(v) for v in t.reshape(-1).tolist()]


def run_case(case):
    root = make_input(case["input"])
    root_ptr = storage_ptr(root)
    t = root
    try:
        for op in case["ops"]:
            t = apply(t, op, root)
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        case["error"] = {"class": type(e).__name__, "message": str(e).split("\n")[0]}
        return case
    ptr = storage_ptr(t)
    offset = t.storage_offset()
    if case["ops"][-1][0] in NUMPY_OPS:
        # The result came back from NumPy in a storage of its own that starts
        # at its first element; judge sharing and the offset by addresses.
        shared = bool(np.shares_memory(t.numpy(), root.numpy()))
        ptr = root_ptr if shared else ptr
        offset = (t.data_ptr() - root.data_ptr()) // t.element_size() if shared else 0
    case["expect"] = {
        "dtype": NAMES[t.dtype],
        "shape": list(t.shape),
        "strides": list(t.stride()),
        "offset": offset,
        "values": values_of(t),
        "contiguous": t.is_contiguous(),
        "shares_storage": None if ptr is None or root_ptr is None else ptr == root_ptr,
        "root_values": values_of(root),
        "repr": repr(t),
    }
    if t.dtype != torch.bfloat16 and t.dim() > 0 and t.numel() > 0:
        case["expect"]["byte_strides"] = list(t.numpy().strides) if ptr is not None else None
    if any(op[0] in INEXACT for op in case["ops"]) and t.dtype.is_floating_point:
        case["tolerance"] = True
    return case


def grad_record(t):
    if t is None:
        return None
    return {"shape": list(t.shape), "strides": list(t.stride()), "values": values_of(t)}


def run_grad_case(case):
    """A chain of operations on an input that requires grad, then a
    backward pass: from the result if it has one element (backward: null)
    or with the given gradient, once or twice. Records the result's
    grad_fn and repr and the gradient of the input, of every other leaf
    the case made, and of every tensor it saved by name."""
    GRAD["leaves"], GRAD["saved"] = [], {}
    root = None
    try:
        root = make_input(case["input"]).requires_grad_(case.get("requires_grad", True))
        t = root
        for op in case["ops"]:
            t = apply(t, op, root)
        fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
        result_repr = repr(t)
        grad = None if case["backward"] is None else make_input(case["backward"])
        if grad is not None and grad.dim() == 1 and grad.numel() == t.numel():
            grad = grad.reshape(t.shape)  # a flat gradient, written for the result's shape
        for _ in range(case.get("times", 1)):
            t.backward(grad)
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        case["error"] = {"class": type(e).__name__, "message": str(e).split("\n")[0]}
        return case
    case["expect"] = {
        "grad_fn": fn,
        "repr": result_repr,
        "grads": [grad_record(root.grad)] + [grad_record(leaf.grad) for leaf in GRAD["leaves"]],
        "saved_grads": {name: grad_record(v.grad if v.retains_grad else None) for name, v in GRAD["saved"].items() if not v.is_leaf},
        "root_values": values_of(root.detach()),
        "version": root._version,
    }
    return case


def run_pair_case(case):
    """np.shares_memory and np.may_share_memory of two views of one input."""
    root = make_input(case["input"])
    a, b = root, root
    for op in case["a"]:
        a = apply(a, op, root)
    for op in case["b"]:
        b = apply(b, op, root)
    case["expect"] = {
        "shares_memory": bool(np.shares_memory(a.numpy(), b.numpy())),
        "may_share_memory": bool(np.may_share_memory(a.numpy(), b.numpy())),
        "shares_storage": a.storage().data_ptr() == b.storage().data_ptr(),
    }
    return case


def run_broadcast_case(case):
    try:
        case["expect"] = {"shape": list(torch.broadcast_shapes(*[tuple(s) for s in case["shapes"]]))}
    except RuntimeError as e:
        case["error"] = {"class": type(e).__name__, "message": str(e)}
    return case


# ------------------------------------------------------------- hand-picked

def arange(*shape, dtype="float32", start=0):
    return {"kind": "arange", "shape": list(shape), "dtype": dtype, "start": start}


def values(vals, shape=None, dtype="float32"):
    return {"kind": "values", "shape": list(shape if shape is not None else [len(vals)]),
            "dtype": dtype, "values": [encode_number(v) for v in vals]}


def scalar_int(v):
    return {"int": v}


def scalar_float(v):
    return {"float": v}


def tensor_operand(spec):
    return {"input": spec}


def root_view(*ops):
    return {"root": [list(op) for op in ops]}


def hand_picked():
    c = []

    def case(name, inp, *ops):
        c.append({"name": name, "input": inp, "ops": [list(op) for op in ops]})

    # The articles' examples.
    case("article x = arange(24).reshape(2,3,4)", arange(24), ("reshape", 2, 3, 4))
    case("article x.transpose(1,2)", arange(24), ("reshape", 2, 3, 4), ("transpose", 1, 2))
    case("article y.view(-1) refuses", arange(24), ("reshape", 2, 3, 4), ("transpose", 1, 2), ("view", -1))
    case("article y.reshape(-1) copies", arange(24), ("reshape", 2, 3, 4), ("transpose", 1, 2), ("reshape", -1))
    case("article crop base[1:, 1:]", arange(12, dtype="int64"), ("reshape", 3, 4), ("index", "1:, 1:"))
    case("article a[:, 1::2]", arange(12), ("reshape", 3, 4), ("index", ":, 1::2"))
    case("article a[:, 1::2].view(-1)", arange(12), ("reshape", 3, 4), ("index", ":, 1::2"), ("view", -1))
    case("article a.T", arange(12), ("reshape", 3, 4), ("T",))
    case("article a.T.view(-1) refuses", arange(12), ("reshape", 3, 4), ("T",), ("view", -1))
    case("article b.reshape(-1) of a.T", arange(12), ("reshape", 3, 4), ("T",), ("reshape", -1))
    case("article b.contiguous()", arange(12), ("reshape", 3, 4), ("T",), ("contiguous",))
    case("article a.contiguous() is a", arange(12), ("reshape", 3, 4), ("contiguous",))
    case("article a[1:, ::2]", arange(12), ("reshape", 3, 4), ("index", "1:, ::2"))
    case("article b[2,1] = 60 writes a", arange(12), ("reshape", 3, 4), ("T",), ("setitem", [2, 1], 60))
    case("article expand(3,4)", arange(3), ("view", 3, 1), ("expand", 3, 4))
    case("article repeat(1,4)", arange(3), ("view", 3, 1), ("repeat", 1, 4))
    case("article e[0,1] = 99", arange(3), ("view", 3, 1), ("expand", 3, 4), ("setitem", [0, 1], 99))
    case("article e.add_(1) refuses", arange(3), ("view", 3, 1), ("expand", 3, 4), ("add_", scalar_int(1)))
    case("article int64 x.transpose(0,1)", arange(24, dtype="int64"), ("reshape", 2, 3, 4), ("transpose", 0, 1))
    case("article [3,1] + [1,4]", values([0, 10, 20], [3, 1], "int64"), ("add", tensor_operand(values([0, 1, 2, 3], [1, 4], "int64"))))
    case("article [3,1].expand(3,4)", values([0, 10, 20], [3, 1], "int64"), ("expand", 3, 4))
    case("article pred [32,1] - target [32]", arange(32, 1), ("sub", tensor_operand(arange(32))))
    case("article acts.mean(-1, keepdim)", arange(2, 10, 8), ("mean", [-1], True))
    case("article int32 reshape(3,4)", arange(12, dtype="int32"), ("reshape", 3, 4))
    case("article int32 b.T", arange(12, dtype="int32"), ("reshape", 3, 4), ("T",))
    case("article int32 b.T.ravel()", arange(12, dtype="int32"), ("reshape", 3, 4), ("T",), ("ravel",))
    case("article int32 b.T.reshape(12)", arange(12, dtype="int32"), ("reshape", 3, 4), ("T",), ("reshape", 12))
    case("article int32 b[:, 1:3]", arange(12, dtype="int32"), ("reshape", 3, 4), ("index", ":, 1:3"))
    case("article broadcast_to (4,2,3)", arange(6, dtype="int32"), ("reshape", 2, 3), ("broadcast_to", 4, 2, 3))
    case("article qk split view", arange(12), ("reshape", 1, 2, 12), ("view", 1, 2, 2, 2, 3), ("index", ":, :, :, 0, :"), ("transpose", 1, 2))
    case("article qk split k", arange(12), ("reshape", 1, 2, 12), ("view", 1, 2, 2, 2, 3), ("index", ":, :, :, 1, :"), ("transpose", 1, 2))
    case("article wrong qk chunk", arange(24), ("reshape", 1, 2, 12), ("chunk", 2, -1, 0), ("reshape", 1, 2, 2, 3), ("transpose", 1, 2))
    case("article patchify permute", arange(2 * 3 * 8 * 8), ("reshape", 2, 3, 8, 8), ("reshape", 2, 3, 4, 2, 4, 2), ("permute", 0, 1, 3, 5, 2, 4))
    case("article patchify", arange(2 * 3 * 8 * 8), ("reshape", 2, 3, 8, 8), ("reshape", 2, 3, 4, 2, 4, 2), ("permute", 0, 1, 3, 5, 2, 4), ("reshape", 2, 12, 4, 4))
    case("article pixel_unshuffle", arange(2 * 3 * 8 * 8), ("reshape", 2, 3, 8, 8), ("pixel_unshuffle", 2))
    case("article pixel_shuffle round trip", arange(2 * 3 * 8 * 8), ("reshape", 2, 3, 8, 8), ("pixel_unshuffle", 2), ("pixel_shuffle", 2))
    case("article x.reshape(2,3).T", arange(6), ("reshape", 2, 3), ("T",))
    case("article transpose twice", arange(12), ("reshape", 3, 4), ("T",), ("T",))

    # view's stride rule, size-1 and empty dimensions.
    case("view merge contiguous", arange(24), ("view", 6, 4))
    case("view split", arange(24), ("view", 2, 12), ("view", 2, 3, 4))
    case("view size-1 dims", arange(6), ("view", 1, 2, 1, 3, 1), ("view", 6, 1))
    case("view after unsqueeze transpose", arange(6), ("view", 2, 3), ("unsqueeze", 1), ("transpose", 0, 1), ("view", 2, 3))
    case("view of strided slice ok", arange(24), ("view", 4, 6), ("index", ":, ::2"), ("view", 12))
    case("view of slice across rows refuses", arange(24), ("view", 4, 6), ("index", ":, 1:"), ("view", 20))
    case("view keeps inner chunk", arange(24), ("view", 2, 3, 4), ("transpose", 0, 1), ("view", 3, 2, 2, 2))
    case("view two -1", arange(24), ("view", -1, -1))
    case("view bad size", arange(24), ("view", 5, 5))
    case("view -1 with 0", arange(6), ("view", -1, 0))
    case("view empty", arange(0), ("view", 0, 3))
    case("view empty -1", arange(0), ("view", -1, 3))
    case("view empty ambiguous", arange(0), ("view", -1, 0))
    case("view empty strided", arange(0), ("view", 3, 0), ("T",), ("view", 0, 3))
    case("view 0-d", arange(1), ("view",), ("view", 1, 1))
    case("view to 0-d", arange(1), ("view", 1, 1), ("view",))
    case("view expanded ok", arange(3), ("view", 3, 1), ("expand", 3, 4), ("view", 3, 2, 2))
    case("view expanded refuses", arange(3), ("view", 3, 1), ("expand", 3, 4), ("view", 12))
    case("reshape expanded copies", arange(3), ("view", 3, 1), ("expand", 3, 4), ("reshape", 12))
    case("reshape view keeps storage", arange(24), ("reshape", 4, -1))
    case("reshape negative", arange(6), ("reshape", 2, -2))

    # transpose / permute / movedim / T / mT.
    case("transpose out of range", arange(24), ("view", 2, 3, 4), ("transpose", 1, 5))
    case("transpose negative dims", arange(24), ("view", 2, 3, 4), ("transpose", -1, -3))
    case("transpose 0-d", arange(1), ("view",), ("transpose", 0, -1))
    case("permute", arange(24), ("view", 2, 3, 4), ("permute", 2, 0, 1))
    case("permute negative", arange(24), ("view", 2, 3, 4), ("permute", -1, 0, 1))
    case("permute wrong length", arange(24), ("view", 2, 3, 4), ("permute", 0, 1))
    case("permute duplicate", arange(24), ("view", 2, 3, 4), ("permute", 0, 0, 1))
    case("T 3-d", arange(24), ("view", 2, 3, 4), ("T",))
    case("T 1-d", arange(4), ("T",))
    case("mT", arange(24), ("view", 2, 3, 4), ("mT",))
    case("mT 1-d refuses", arange(4), ("mT",))
    case("movedim", arange(24), ("view", 2, 3, 4), ("movedim", 0, 2))
    case("movedim negative", arange(24), ("view", 2, 3, 4), ("movedim", -1, 0))
    case("movedim out of range", arange(6), ("movedim", 0, 1))

    # squeeze / unsqueeze.
    case("squeeze all", arange(6), ("view", 1, 2, 1, 3, 1), ("squeeze",))
    case("squeeze one", arange(6), ("view", 1, 2, 1, 3, 1), ("squeeze", 2))
    case("squeeze not size 1", arange(6), ("view", 1, 2, 1, 3, 1), ("squeeze", 1))
    case("squeeze out of range", arange(6), ("squeeze", 1))
    case("squeeze 0-d", arange(1), ("view",), ("squeeze", 0))
    case("unsqueeze end", arange(6), ("view", 2, 3), ("unsqueeze", 2))
    case("unsqueeze front", arange(6), ("view", 2, 3), ("unsqueeze", 0))
    case("unsqueeze negative", arange(6), ("view", 2, 3), ("unsqueeze", -1))
    case("unsqueeze of transpose", arange(6), ("view", 2, 3), ("T",), ("unsqueeze", 1))
    case("unsqueeze out of range", arange(6), ("unsqueeze", 2))
    case("unsqueeze 0-d", arange(1), ("view",), ("unsqueeze", 0))

    # narrow / slice / select / index.
    case("narrow", arange(24), ("view", 4, 6), ("narrow", 1, 2, 3))
    case("narrow negative start", arange(6), ("narrow", 0, -2, 2))
    case("narrow too long", arange(6), ("narrow", 0, 1, 6))
    case("narrow negative length", arange(6), ("narrow", 0, 1, -1))
    case("narrow start out of range", arange(6), ("narrow", 0, 7, 0))
    case("narrow 0-d", arange(1), ("view",), ("narrow", 0, 0, 1))
    case("slice step", arange(10), ("slice", 0, 1, END, 3))
    case("slice negative", arange(10), ("slice", 0, -4, -1, 1))
    case("slice clamps", arange(10), ("slice", 0, 5, 100, 1))
    case("slice empty past end", arange(10), ("slice", 0, 12, END, 1))
    case("slice stop before start", arange(10), ("slice", 0, 6, 2, 1))
    case("slice negative step", arange(10), ("slice", 0, 0, END, -1))
    case("select", arange(24), ("view", 2, 3, 4), ("select", 1, 2))
    case("select negative", arange(24), ("view", 2, 3, 4), ("select", -1, -1))
    case("select out of range", arange(24), ("view", 2, 3, 4), ("select", 1, 3))
    case("select 0-d", arange(1), ("view",), ("select", 0, 0))
    for spec in ["1", "-1", "1:, ::2", "..., 0, None", "None", "..., None", ":, None, 1:3",
                 "0, 1, 2", "::2, ::2, ::2", "1, ...", "..., 1", "-1, -1, -1", ":0",
                 "5", "0, 5", "0, :, 7", "None, 0, 5", "..., 9", "::0", "::-1",
                 "0, 0, 0, 0", "[1, 0]", ":, [2, 0]", ":, :, [1, 0]", "[0, 1], :, 0",
                 "0, :, [0, 1]", "0, None, [0, 1]", ":, [5]", "[-1]", "", "...", "1:1"]:
        case("index " + spec, arange(24), ("view", 2, 3, 4), ("index", spec))
    case("index 0-d int", arange(1), ("view",), ("index", "0"))
    case("index 0-d slice", arange(1), ("view",), ("index", ":"))
    case("index 0-d None", arange(1), ("view",), ("index", "None"))
    case("index 0-d ellipsis", arange(1), ("view",), ("index", "..."))

    # unfold / diagonal.
    case("unfold", arange(10), ("unfold", 0, 3, 2))
    case("unfold 2-d", arange(24), ("view", 4, 6), ("unfold", 1, 2, 2))
    case("unfold too big", arange(24), ("view", 2, 3, 4), ("unfold", 2, 5, 1))
    case("unfold bad step", arange(6), ("unfold", 0, 2, -1))
    case("unfold 0-d", arange(1), ("view",), ("unfold", 0, 1, 1))
    case("diagonal", arange(16), ("view", 4, 4), ("diagonal", 0, 0, 1))
    case("diagonal above", arange(12), ("view", 3, 4), ("diagonal", 1, 0, 1))
    case("diagonal below", arange(12), ("view", 3, 4), ("diagonal", -1, 0, 1))
    case("diagonal far", arange(12), ("view", 3, 4), ("diagonal", 5, 0, 1))
    case("diagonal batched", arange(24), ("view", 2, 3, 4), ("diagonal", 0, 1, 2))
    case("diagonal reversed dims", arange(24), ("view", 2, 3, 4), ("diagonal", 1, 2, 0))
    case("diagonal same dims", arange(24), ("view", 2, 3, 4), ("diagonal", 0, 1, 1))

    # expand / broadcast_to / as_strided.
    case("expand new dims", arange(6), ("view", 2, 3), ("expand", 4, 1, 2, 3))
    case("expand new size-1 dims", arange(6), ("view", 2, 3), ("expand", 1, 1, 2, 3))
    case("expand -1", arange(6), ("view", 2, 1, 3), ("expand", -1, 5, -1))
    case("expand of slice", arange(6), ("view", 2, 1, 3), ("index", ":, :, 1:"), ("expand", 2, 5, 2))
    case("expand too few sizes", arange(24), ("view", 2, 3, 4), ("expand", 3, 4))
    case("expand mismatch", arange(24), ("view", 2, 3, 4), ("expand", 3, 3, 4))
    case("expand leading -1", arange(6), ("expand", -1, 6))
    case("expand of expand", arange(3), ("view", 3, 1), ("expand", 3, 4), ("unsqueeze", 0), ("expand", 2, 3, 4))
    case("broadcast_to", arange(3), ("broadcast_to", 2, 3))
    case("as_strided", arange(12), ("as_strided", [3, 3], [3, 1], 1))
    case("as_strided overlapping", arange(12), ("as_strided", [4, 3], [2, 1], 0))
    case("as_strided out of bounds", arange(6), ("as_strided", [100], [1], 0))
    case("as_strided negative stride", arange(6), ("as_strided", [2], [-1], 0))
    case("as_strided negative offset", arange(6), ("as_strided", [2], [1], -1))
    case("as_strided length mismatch", arange(6), ("as_strided", [2, 3], [1], 0))
    case("as_strided of view uses storage", arange(12), ("view", 3, 4), ("index", "1:"), ("as_strided", [2, 2], [1, 2], 0))

    # splitting.
    for n in [1, 2, 3, 4, 5, 7]:
        case("chunk %d" % n, arange(10), ("chunk", n, 0, 0))
        case("chunk %d last" % n, arange(10), ("chunk", n, 0, -1))
    case("chunk 2-d", arange(24), ("view", 4, 6), ("chunk", 4, 1, 1))
    case("chunk empty", arange(0), ("chunk", 3, 0, 2))
    case("chunk zero", arange(6), ("chunk", 0, 0, 0))
    case("chunk 0-d", arange(1), ("view",), ("chunk", 2, 0, 0))
    case("split", arange(10), ("split", 3, 0, 3))
    case("split zero", arange(6), ("split", 0, 0, 0))
    case("split 0-d", arange(1), ("view",), ("split", 1, 0, 0))
    case("split sizes", arange(10), ("split_sizes", [2, 5, 3], 0, 1))
    case("split sizes bad sum", arange(6), ("split_sizes", [1, 2], 0, 0))
    case("split sizes negative", arange(6), ("split_sizes", [-1, 7], 0, 0))
    case("tensor_split", arange(10), ("tensor_split", 3, 0, 0))
    case("tensor_split last", arange(10), ("tensor_split", 3, 0, 2))
    case("tensor_split more than size", arange(3), ("tensor_split", 5, 0, 4))
    case("tensor_split zero", arange(6), ("tensor_split", 0, 0, 0))
    case("tensor_split at", arange(10), ("tensor_split_at", [2, 7], 0, 1))
    case("tensor_split at last", arange(10), ("tensor_split_at", [2, 7], 0, 2))
    case("tensor_split at negative", arange(10), ("tensor_split_at", [-3], 0, 0))
    case("tensor_split at decreasing", arange(10), ("tensor_split_at", [6, 2], 0, 1))
    case("unbind", arange(24), ("view", 2, 3, 4), ("unbind", 1, 2))
    case("unbind 0-d", arange(1), ("view",), ("unbind", 0, 0))
    case("unflatten", arange(24), ("view", 4, 6), ("unflatten", 1, [2, 3]))
    case("unflatten -1", arange(24), ("view", 4, 6), ("unflatten", 1, [-1, 3]))
    case("unflatten bad", arange(6), ("unflatten", 0, [4, 2]))
    case("unflatten of transpose", arange(24), ("view", 4, 6), ("T",), ("unflatten", 1, [2, 2]))
    case("flatten all", arange(24), ("view", 2, 3, 4), ("flatten",))
    case("flatten partial", arange(24), ("view", 2, 3, 4), ("flatten", 1))
    case("flatten range", arange(24), ("view", 2, 3, 4), ("flatten", 0, 1))
    case("flatten of transpose copies", arange(24), ("view", 2, 3, 4), ("transpose", 1, 2), ("flatten", 1))
    case("flatten same dim", arange(24), ("view", 2, 3, 4), ("flatten", 1, 1))
    case("flatten bad range", arange(24), ("view", 2, 3, 4), ("flatten", 2, 1))
    case("flatten 0-d", arange(1), ("view",), ("flatten",))
    case("ravel contiguous", arange(12), ("view", 3, 4), ("ravel",))
    case("ravel stepped slice copies", arange(12), ("view", 3, 4), ("index", ":, 1::2"), ("ravel",))
    case("ravel row slice", arange(12), ("view", 3, 4), ("index", "1:2, 1:3"), ("ravel",))
    case("flatten_copy", arange(12), ("view", 3, 4), ("flatten_copy",))

    # copies.
    case("contiguous of transpose", arange(24), ("view", 2, 3, 4), ("transpose", 0, 2), ("contiguous",))
    case("clone keeps transposed strides", arange(24), ("view", 2, 3, 4), ("transpose", 0, 2), ("clone",))
    case("clone of slice", arange(24), ("view", 4, 6), ("index", "1:, ::2"), ("clone",))
    case("clone of expand", arange(3), ("view", 3, 1), ("expand", 3, 4), ("clone",))
    case("repeat", arange(6), ("view", 2, 3), ("repeat", 2, 1, 2))
    case("repeat of transpose", arange(6), ("view", 2, 3), ("T",), ("repeat", 2, 2))
    case("repeat too few", arange(6), ("view", 2, 3), ("repeat", 2))
    case("repeat zero", arange(6), ("view", 2, 3), ("repeat", 0, 2))
    case("tile pads", arange(6), ("view", 2, 3), ("tile", 2))
    case("to int32", arange(6), ("to", "int32"))
    case("to float16", values([0.1, 1.5, 65504, 70000, 1e-8, -2.5]), ("to", "float16"))
    case("to bfloat16", values([0.1, 1.5, 3e38, 1e-40, -2.5, 1 / 3]), ("to", "bfloat16"))
    case("to bool", values([0, 0.5, -1, 0]), ("to", "bool"))
    case("to uint8 wraps", values([-1, 300, 2.7, -2.7], dtype="float64"), ("to", "int64"), ("to", "uint8"))
    case("to same dtype", arange(6), ("to", "float32"))
    wild = [1e20, -1e20, float("nan"), float("inf"), float("-inf"), 3e9, -1.5, 300.7, -300.7, 2 ** 31, -2 ** 31, -2 ** 31 - 1, -3e9]
    for dt in ["int64", "int32", "uint8", "bool"]:
        case("to %s from wild floats" % dt, values(wild, dtype="float64"), ("to", dt))
        case("to %s from wild float32s" % dt, values(wild), ("to", dt))
    # Numbers written past the dtype's range are refused (infinities and
    # NaN stay in floating dtypes; -255..-1 wrap into uint8).
    past = [("int64", float("nan")), ("int32", float("inf")), ("uint8", 256), ("uint8", -1), ("uint8", -256),
            ("uint8", 255.5), ("uint8", -0.5), ("int32", 1e10), ("int32", 2 ** 31), ("float16", 70000),
            ("float16", 65520), ("float16", float("inf")), ("float32", 1e300), ("float32", float("-inf")),
            ("bfloat16", 1e39), ("int64", 1e19), ("bool", 5), ("float64", 1e300), ("float16", 1e300)]
    for dt, v in past:
        case("fill_ %s with %r" % (dt, v), arange(3, dtype=dt), ("fill_", encode_number(v)))
        case("setitem %s with %r" % (dt, v), arange(3, dtype=dt), ("setitem", [1], encode_number(v)))
    # Edges a random differential run found (issue 14, item 10).
    case("list index into an empty result checks nothing", arange(12), ("reshape", 3, 4), ("index", "[5], 4:"))
    case("list index after an empty slice", arange(12), ("reshape", 3, 4), ("index", "4:, [7]"))
    case("list index into a dim of size 0", arange(0), ("reshape", 0, 4), ("index", "[0]"))
    case("split_with_sizes names the dim as given", arange(12), ("reshape", 3, 4), ("split_sizes", [1, 2], -1, 0))
    case("unflatten with two -1", arange(12), ("unflatten", 0, [-1, -1]))
    case("expand to a negative size of a non-singleton dim", arange(6), ("expand", 2, -3))
    case("expand to a negative size of a singleton dim", arange(1), ("expand", 2, -3))
    case("t of a matrix", arange(6), ("view", 2, 3), ("t",))
    case("t of a vector", arange(3), ("t",))
    case("t of 3-D refuses", arange(24), ("view", 2, 3, 4), ("t",))
    case("t of a transposed matrix", arange(6), ("view", 2, 3), ("t",), ("t",), ("contiguous",))
    rng = random.Random(16)
    many = [rng.choice([-1, 1]) * 10 ** rng.uniform(-9, 6) for _ in range(300)]
    half_edges = [1 + 2 ** -11, 1 + 3 * 2 ** -11, 2 ** -25, 3 * 2 ** -25, 1.5 * 2 ** -24, 65519.0, 65520.0, 6.1e-5]
    case("to float16 many", values(many + half_edges), ("to", "float16"))
    case("to bfloat16 many", values(many + [1 + 2 ** -8, 1 + 3 * 2 ** -8, 3e38, 3.4e38]), ("to", "bfloat16"))
    case("float16 arithmetic rounds each op", values(many[:50]), ("to", "float16"), ("mul", scalar_float(1.1)), ("add", scalar_float(0.3)))
    case("bfloat16 arithmetic rounds each op", values(many[:50]), ("to", "bfloat16"), ("div", scalar_float(3.0)))

    # advanced indexing.
    case("index_select", arange(24), ("view", 4, 6), ("index_select", 1, values([5, 0, 0], dtype="int64")))
    case("index_select int32", arange(24), ("view", 4, 6), ("index_select", 0, values([3, 1], dtype="int32")))
    case("index_select out of range", arange(24), ("view", 4, 6), ("index_select", 0, values([4], dtype="int64")))
    case("index_select negative", arange(24), ("view", 4, 6), ("index_select", 0, values([-1], dtype="int64")))
    case("index_select 2-d index", arange(24), ("view", 4, 6), ("index_select", 0, values([0], [1, 1], "int64")))
    case("index_select float index", arange(24), ("view", 4, 6), ("index_select", 0, values([0.0])))
    case("index_select of transpose", arange(24), ("view", 4, 6), ("T",), ("index_select", 1, values([3, 0], dtype="int64")))
    case("gather", arange(12), ("view", 3, 4), ("gather", 1, values([0, 3, 1, 1, 2, 0], [3, 2], "int64")))
    case("gather dim 0", arange(12), ("view", 3, 4), ("gather", 0, values([2, 1, 0, 0], [1, 4], "int64")))
    case("gather larger along dim", arange(12), ("view", 3, 4), ("gather", 0, values([2] * 20, [5, 4], "int64")))
    case("gather out of range", arange(12), ("view", 3, 4), ("gather", 1, values([4], [1, 1], "int64")))
    case("gather negative", arange(12), ("view", 3, 4), ("gather", 1, values([-1], [1, 1], "int64")))
    case("gather wrong rank", arange(12), ("view", 3, 4), ("gather", 1, values([0], [1], "int64")))
    case("gather too big", arange(12), ("view", 3, 4), ("gather", 1, values([0] * 5, [5, 1], "int64")))
    case("gather int32 index", arange(12), ("view", 3, 4), ("gather", 1, values([0], [1, 1], "int32")))
    case("masked_select", arange(12), ("view", 3, 4), ("masked_select", values([1, 0, 0, 1], [4], "bool")))
    case("masked_select broadcast", arange(4), ("masked_select", values([1, 0, 1, 1, 1, 0, 0, 0], [2, 4], "bool")))
    case("masked_select float mask", arange(4), ("masked_select", values([1, 0, 1, 1], [4], "float32")))
    case("masked_select mismatch", arange(4), ("masked_select", values([1, 0, 1], [3], "bool")))

    # element writes, fills, copies, in-place arithmetic and aliasing.
    case("setitem through transpose", arange(6), ("view", 2, 3), ("T",), ("setitem", [2, 1], -7))
    case("setitem out of range", arange(6), ("view", 2, 3), ("setitem", [2, 0], 1))
    case("setitem int truncates", arange(6, dtype="int64"), ("setitem", [1], 2.7))
    case("fill_ view", arange(12), ("view", 3, 4), ("index", ":, 1::2"), ("fill_", 5))
    case("fill_ expanded", arange(3), ("view", 3, 1), ("expand", 3, 4), ("fill_", 7))
    case("copy_ broadcast", arange(12), ("view", 3, 4), ("copy_", tensor_operand(values([1, 2, 3, 4]))))
    case("copy_ converts", arange(4, dtype="int64"), ("copy_", tensor_operand(values([1.9, -1.9, 0.5, 3]))))
    case("copy_ into expanded refuses", arange(3), ("view", 3, 1), ("expand", 3, 4), ("copy_", tensor_operand(arange(3, 4))))
    case("copy_ shape mismatch", arange(3), ("view", 3, 1), ("copy_", tensor_operand(arange(3, 4))))
    case("copy_ from own transpose", arange(9), ("view", 3, 3), ("copy_", root_view(("view", 3, 3), ("T",))))
    case("copy_ from own view", arange(9), ("view", 3, 3), ("copy_", root_view(("view", 3, 3))))
    case("add_ own transpose refuses", arange(9), ("view", 3, 3), ("add_", root_view(("view", 3, 3), ("T",))))
    case("add_ overlapping slice refuses", arange(10), ("slice", 0, 0, 8, 1), ("add_", root_view(("slice", 0, 2, END, 1))))
    case("add_ disjoint slice", arange(10), ("slice", 0, 0, 5, 1), ("add_", root_view(("slice", 0, 5, END, 1))))
    case("add_ self", arange(6), ("add_", root_view()))
    case("add_ broadcast", arange(6), ("view", 2, 3), ("add_", tensor_operand(values([10, 20, 30]))))
    case("add_ wrong shape", arange(3), ("view", 3, 1), ("add_", tensor_operand(arange(3, 4))))
    case("add_ float into int", arange(3, dtype="int64"), ("add_", scalar_float(1.5)))
    case("add_ int into bool", arange(3, dtype="bool"), ("add_", scalar_int(1)))
    case("div_ int", arange(3, dtype="int64"), ("div_", scalar_int(2)))
    case("mul_ view writes root", arange(12), ("view", 3, 4), ("index", "1:, 1:"), ("mul_", scalar_int(-1)))
    case("sub_ scalar", arange(4), ("sub_", scalar_float(0.5)))

    # arithmetic and promotion.
    for dt in ["float32", "float64", "int64", "int32", "uint8", "bool", "float16", "bfloat16"]:
        for op in ["add", "sub", "mul", "div", "eq", "lt", "ge"]:
            case("%s %s int scalar" % (op, dt), arange(6, dtype=dt), (op, scalar_int(3)))
            case("%s %s float scalar" % (op, dt), arange(6, dtype=dt), (op, scalar_float(2.5)))
        case("neg %s" % dt, arange(6, dtype=dt), ("neg",))
    pairs = [("int32", "int64"), ("uint8", "int32"), ("int64", "float32"), ("float16", "bfloat16"),
             ("float16", "float32"), ("bool", "uint8"), ("bool", "bool"), ("int32", "float64"), ("bfloat16", "int64")]
    for a, b in pairs:
        for op in ["add", "sub", "mul", "div", "ne", "le", "gt"]:
            case("%s %s %s" % (op, a, b), arange(6, dtype=a, start=1), (op, tensor_operand(arange(6, dtype=b, start=2))))
            case("%s %s 0-d %s" % (op, a, b), arange(6, dtype=a, start=1), (op, tensor_operand(arange(dtype=b, start=2))))
    case("add broadcast 3-d", arange(24), ("view", 2, 3, 4), ("add", tensor_operand(arange(3, 1))))
    case("add broadcast mismatch", arange(24), ("view", 2, 3, 4), ("add", tensor_operand(arange(3))))
    case("mul transposed operands", arange(12), ("view", 3, 4), ("T",), ("mul", root_view(("view", 4, 3))))
    case("div by zero", values([1, -1, 0, 2]), ("div", tensor_operand(values([0, 0, 0, 4]))))
    case("comparisons with nan", values([1, float("nan"), 3]), ("eq", tensor_operand(values([1, float("nan"), 2]))))
    case("int overflow wraps", values([2 ** 62, -(2 ** 62)], dtype="int64"), ("mul", scalar_int(4)))
    case("uint8 wraps", arange(6, dtype="uint8", start=250), ("add", scalar_int(10)))
    case("float64 plus 0.1 stays exact", arange(3, dtype="float64"), ("add", scalar_float(0.1)))
    case("float64 equals 0.1", values([0.1, 0.2], dtype="float64"), ("eq", scalar_float(0.1)))
    case("float32 equals 0.1", values([0.1, 0.2]), ("eq", scalar_float(0.1)))
    case("int64 plus 2^53+1", arange(2, dtype="int64"), ("add", scalar_int(2 ** 53 + 1)))
    case("int64 equals 2^53+1", arange(2, dtype="int64", start=2 ** 53), ("eq", scalar_int(2 ** 53 + 1)))
    case("int64 near 2^62", arange(3, dtype="int64", start=2 ** 62 - 1), ("sub", scalar_int(1)))

    # reductions.
    case("sum all", arange(24), ("view", 2, 3, 4), ("sum", [], False))
    case("sum dim", arange(24), ("view", 2, 3, 4), ("sum", [1], False))
    case("sum dims keepdim", arange(24), ("view", 2, 3, 4), ("sum", [0, 2], True))
    case("sum keepdim all", arange(24), ("view", 2, 3, 4), ("sum", [], True))
    case("sum negative dim", arange(24), ("view", 2, 3, 4), ("sum", [-1], False))
    case("sum dim twice", arange(24), ("view", 2, 3, 4), ("sum", [1, -2], False))
    case("sum of transpose", arange(24), ("view", 2, 3, 4), ("transpose", 0, 2), ("sum", [0], False))
    case("sum of expand", arange(3), ("view", 3, 1), ("expand", 3, 4), ("sum", [1], False))
    case("sum empty", arange(0), ("view", 0, 3), ("sum", [0], False))
    case("sum int32 to int64", arange(6, dtype="int32"), ("sum", [], False))
    case("sum bool", arange(6, dtype="bool"), ("sum", [], False))
    case("sum uint8", arange(6, dtype="uint8", start=100), ("sum", [], False))
    case("sum float16", arange(6, dtype="float16"), ("view", 2, 3), ("sum", [1], False))
    case("mean", arange(24), ("view", 2, 3, 4), ("mean", [1], False))
    case("mean keepdim", arange(24), ("view", 2, 3, 4), ("mean", [-1], True))
    case("mean int refuses", arange(6, dtype="int64"), ("mean", [], False))
    case("mean empty", arange(0), ("mean", [], False))
    case("mean float16 sum overflows", values([1000] * 100, dtype="float16"), ("mean", [], False))
    case("mean bfloat16", arange(40, dtype="bfloat16"), ("view", 4, 10), ("mean", [1], False))
    case("sum 0-d dim twice", arange(1), ("view",), ("sum", [0, 0], False))
    case("argmax 0-d bool", arange(1, dtype="bool"), ("view",), ("argmax", None, False))
    case("argmax 0-d bool dim", arange(1, dtype="bool"), ("view",), ("argmax", 0, False))
    case("argmax one bool", arange(1, dtype="bool"), ("argmax", 0, False))
    case("max all", values([3, 1, 4, 1, 5, 9, 2, 6]), ("max", [], False))
    case("max dim", values([3, 1, 4, 1, 5, 9, 2, 6], [2, 4]), ("max", [1], False))
    case("max dims", values([3, 1, 4, 1, 5, 9, 2, 6], [2, 2, 2]), ("max", [0, 2], True))
    case("max nan", values([3, float("nan"), 4]), ("max", [], False))
    case("max empty", arange(0), ("max", [], False))
    case("max empty dim", arange(0), ("view", 2, 0), ("max", [1], False))
    case("max int", arange(6, dtype="int32"), ("view", 2, 3), ("max", [0], False))
    case("max bool", arange(6, dtype="bool"), ("view", 2, 3), ("max", [1], False))
    case("min dim", values([3, 1, 4, 1, 5, 9, 2, 6], [2, 4]), ("min", [0], True))
    case("min nan", values([3, float("nan"), 4]), ("min", [0], False))
    case("argmax all", values([3, 1, 9, 1, 5, 9, 2, 6], [2, 4]), ("argmax", None, False))
    case("argmax dim", values([3, 1, 9, 1, 5, 9, 2, 6], [2, 4]), ("argmax", 1, False))
    case("argmax keepdim", values([3, 1, 9, 1, 5, 9, 2, 6], [2, 4]), ("argmax", 0, True))
    case("argmax nan", values([3, float("nan"), 9, float("nan")]), ("argmax", 0, False))
    case("argmax empty", arange(0), ("argmax", None, False))
    case("argmax of transpose", arange(12), ("view", 3, 4), ("T",), ("argmax", 1, False))
    case("argmax bool", values([0, 1, 1, 0], dtype="bool"), ("argmax", 0, False))
    case("argmin dim", values([3, 1, 9, 1, 5, 9, 2, 6], [2, 4]), ("argmin", 1, False))
    case("argmin int", values([3, 1, 9, -1], dtype="int64"), ("argmin", None, False))

    # matmul.
    def matmul(name, a, b, dtype="float32"):
        case("matmul " + name, arange(*a, dtype=dtype, start=1), ("matmul", tensor_operand(arange(*b, dtype=dtype, start=2))))

    matmul("dot", [3], [3])
    matmul("dot mismatch", [3], [4])
    matmul("mm", [2, 3], [3, 4])
    matmul("mm mismatch", [2, 3], [4, 5])
    matmul("mv", [2, 3], [3])
    matmul("mv mismatch", [2, 3], [4])
    matmul("vm", [3], [3, 4])
    matmul("vm mismatch", [3], [4, 5])
    matmul("batched", [2, 2, 3], [2, 3, 4])
    matmul("batched broadcast", [2, 1, 2, 3], [3, 3, 4])
    matmul("batched with matrix", [7, 2, 3], [3, 5])
    matmul("batched with matrix mismatch", [7, 2, 3], [4, 5])
    matmul("batched with vector", [7, 2, 3], [3])
    matmul("batched with vector mismatch", [7, 2, 3], [4])
    matmul("vector with batch", [3], [7, 3, 5])
    matmul("vector with batch mismatch", [3], [7, 4, 5])
    matmul("matrix with batch", [2, 3], [7, 3, 5])
    matmul("matrix with batch mismatch", [2, 3], [7, 4, 5])
    matmul("batch mismatch", [7, 2, 3], [7, 4, 5])
    matmul("batch broadcast mismatch", [7, 2, 3], [6, 3, 5])
    matmul("empty inner", [2, 0], [0, 3])
    matmul("int64", [2, 3], [3, 2], dtype="int64")
    matmul("float64", [2, 3], [3, 2], dtype="float64")
    matmul("float16 refuses", [2, 3], [3, 2], dtype="float16")
    matmul("bfloat16", [2, 3], [3, 2], dtype="bfloat16")
    matmul("bool refuses", [2, 3], [3, 2], dtype="bool")
    case("matmul 0-d", arange(1), ("view",), ("matmul", tensor_operand(arange(3))))
    case("matmul dtype mismatch", arange(6, dtype="int64"), ("view", 2, 3), ("matmul", tensor_operand(arange(3, 2))))
    case("matmul of transpose", arange(6), ("view", 2, 3), ("T",), ("matmul", root_view(("view", 2, 3))))

    # pixel shuffle.
    case("pixel_unshuffle batched", arange(2 * 2 * 3 * 4 * 6), ("view", 2, 2, 3, 4, 6), ("pixel_unshuffle", 2))
    case("pixel_unshuffle 3-d", arange(1 * 6 * 6), ("view", 1, 6, 6), ("pixel_unshuffle", 3))
    case("pixel_unshuffle height", arange(24), ("view", 1, 2, 3, 4), ("pixel_unshuffle", 2))
    case("pixel_unshuffle width", arange(80), ("view", 4, 4, 5), ("pixel_unshuffle", 2))
    case("pixel_unshuffle 2-d", arange(16), ("view", 4, 4), ("pixel_unshuffle", 2))
    case("pixel_unshuffle zero", arange(64), ("view", 4, 4, 4), ("pixel_unshuffle", 0))
    case("pixel_unshuffle of transpose", arange(2 * 3 * 4 * 4), ("view", 2, 3, 4, 4), ("transpose", 2, 3), ("pixel_unshuffle", 2))
    case("pixel_shuffle", arange(1 * 8 * 2 * 3), ("view", 1, 8, 2, 3), ("pixel_shuffle", 2))
    case("pixel_shuffle channels", arange(24), ("view", 1, 2, 3, 4), ("pixel_shuffle", 2))
    case("pixel_shuffle 2-d", arange(16), ("view", 4, 4), ("pixel_shuffle", 2))
    case("pixel_shuffle zero", arange(64), ("view", 4, 4, 4), ("pixel_shuffle", 0))
    return c


def hand_picked_pairs():
    c = []

    def pair(name, inp, a, b):
        c.append({"name": name, "input": inp, "a": [list(op) for op in a], "b": [list(op) for op in b]})

    base = arange(24)
    pair("even and odd columns", base, [("view", 4, 6), ("index", ":, 0::2")], [("view", 4, 6), ("index", ":, 1::2")])
    pair("crop and base", base, [("view", 4, 6)], [("view", 4, 6), ("index", "1:, 1:")])
    pair("first and last rows", base, [("view", 4, 6), ("index", ":2")], [("view", 4, 6), ("index", "2:")])
    pair("row and column", base, [("view", 4, 6), ("index", "1")], [("view", 4, 6), ("index", ":, 3")])
    pair("row and other column", base, [("view", 4, 6), ("index", "1, :3")], [("view", 4, 6), ("index", "2:, 4")])
    pair("transpose and original", base, [("view", 4, 6), ("T",)], [("view", 4, 6)])
    pair("interleaved steps", base, [("index", "::3")], [("index", "1::3")])
    pair("steps that meet", base, [("index", "::4")], [("index", "2::6")])
    pair("steps that miss", base, [("index", "1::4")], [("index", "2::4")])
    pair("diagonal and off diagonal", arange(16), [("view", 4, 4), ("diagonal", 0, 0, 1)], [("view", 4, 4), ("diagonal", 1, 0, 1)])
    pair("expanded and slot", arange(3), [("view", 3, 1), ("expand", 3, 4)], [("index", "1")])
    pair("copy and original", base, [("view", 4, 6), ("T",), ("contiguous",)], [("view", 4, 6)])
    pair("empty and full", base, [("index", "3:3")], [])
    return c


def hand_picked_broadcasts():
    shapes = [
        [[8, 1, 6, 1], [7, 1, 5]],
        [[2, 3], [3]],
        [[2, 3], [4]],
        [[], [3]],
        [[1], [0]],
        [[2, 1], [1, 0]],
        [[5, 1, 3], [4, 1], [1, 1, 1, 3]],
        [[2], [3], [1]],
        [[32, 1], [32]],
    ]
    return [{"name": "broadcast_shapes %s" % s, "shapes": s} for s in shapes]


# ----------------------------------------------------------- random chains

def random_shape(rng, max_dims=4, max_size=5, allow_empty=False):
    dims = rng.randint(0, max_dims)
    lo = 0 if allow_empty and rng.random() < 0.1 else 1
    return [rng.randint(lo, max_size) for _ in range(dims)]


def factorizations(n, rng, parts):
    """A random shape of the given rank whose product is n."""
    shape = [1] * parts
    rest = n
    for i in range(parts - 1):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        shape[i] = rng.choice(divisors)
        rest //= shape[i]
    if parts:
        shape[-1] = rest
    rng.shuffle(shape)
    return shape


def random_op(rng, shape):
    """A random operation for a tensor of the given shape: usually valid,
    sometimes not, so that errors are exercised too."""
    nd = len(shape)
    n = math.prod(shape)
    dim = lambda: rng.randint(-nd, nd - 1) if nd else rng.choice([0, -1])  # noqa: E731
    bad = rng.random() < 0.08
    kind = rng.choice([
        "view", "view", "reshape", "reshape", "transpose", "transpose", "permute", "permute",
        "unsqueeze", "squeeze", "slice", "slice", "slice", "select", "narrow", "expand",
        "index", "index", "contiguous", "clone", "flatten", "unfold", "diagonal", "movedim",
        "chunk", "split", "unflatten", "repeat", "mT", "T", "ravel", "sum", "max", "add", "mul",
        "gt", "sub_", "fill_", "setitem", "copy_", "as_strided", "tensor_split", "argmax",
    ])
    if kind == "ravel":
        kind = "flatten"
    if kind in ("view", "reshape"):
        parts = rng.randint(0 if n == 1 else 1, 4)
        new = factorizations(n, rng, parts) if n > 0 else [0] + [rng.randint(1, 3) for _ in range(parts - 1)]
        if new and rng.random() < 0.3:
            new[rng.randrange(len(new))] = -1
        if bad:
            new = new + [2]
        return [kind] + new
    if kind == "transpose":
        return ["transpose", dim(), dim() if not bad else nd + 1]
    if kind == "permute":
        if nd == 0:
            return ["T"]  # Python cannot call permute() without dims
        p = list(range(nd))
        rng.shuffle(p)
        if bad and p:
            p[0] = p[-1]
        return ["permute"] + p
    if kind == "unsqueeze":
        return ["unsqueeze", rng.randint(-nd - 1, nd)]
    if kind == "squeeze":
        return ["squeeze"] if rng.random() < 0.5 or nd == 0 else ["squeeze", dim()]
    if kind in ("slice", "select", "narrow", "unfold", "chunk", "split", "tensor_split", "unflatten") and nd == 0:
        return ["unsqueeze", 0]
    if kind == "slice":
        d = dim()
        size = shape[d]
        start = rng.randint(-size - 1, size + 1)
        stop = rng.choice([END, rng.randint(-size - 1, size + 1)])
        step = rng.randint(1, 3) if not bad else rng.choice([0, -1])
        if step == 0:
            return ["index", "::0"]
        return ["slice", d, start, stop, step]
    if kind == "select":
        d = dim()
        size = shape[d]
        return ["select", d, rng.randint(-size, size - 1 + (1 if bad else 0)) if size else 0]
    if kind == "narrow":
        d = dim()
        size = shape[d]
        start = rng.randint(0, size)
        return ["narrow", d, start, rng.randint(0, size - start + (1 if bad else 0))]
    if kind == "expand":
        sizes = [s if s != 1 or rng.random() < 0.3 else rng.randint(1, 4) for s in shape]
        lead = [rng.randint(1, 3) for _ in range(rng.randint(0, 1))]
        sizes = lead + [(-1 if rng.random() < 0.2 else s) for s in sizes]
        if bad and sizes:
            sizes[-1] = sizes[-1] + 2 if sizes[-1] > 1 else 3
        return ["expand"] + sizes
    if kind == "index":
        parts = []
        for d, size in enumerate(shape):
            r = rng.random()
            if r < 0.3:
                parts.append(str(rng.randint(-size, size - 1)) if size else ":")
            elif r < 0.5:
                parts.append(":")
            elif r < 0.6:
                parts.append("None, :")
            else:
                a = rng.choice(["", str(rng.randint(-size, size))])
                b = rng.choice(["", str(rng.randint(-size, size))])
                c = rng.choice(["", "", str(rng.randint(1, 3))])
                parts.append(a + ":" + b + (":" + c if c else ""))
        if parts and rng.random() < 0.3:
            cut = rng.randint(0, len(parts) - 1)
            parts = parts[:cut] + ["..."]
        if bad:
            parts.append("0")
        return ["index", ", ".join(parts)]
    if kind in ("contiguous", "clone", "mT", "T"):
        return [kind]
    if kind == "flatten":
        if nd == 0:
            return ["flatten"]
        a, b = sorted([rng.randrange(nd), rng.randrange(nd)])
        return ["flatten", a, b] if not bad else ["flatten", b + 1 if b + 1 < nd else b, a]
    if kind == "unfold":
        d = dim()
        size = shape[d]
        return ["unfold", d, rng.randint(0, size + (1 if bad else 0)), rng.randint(1, 3)]
    if kind == "diagonal":
        if nd < 2:
            return ["unsqueeze", 0]
        a, b = rng.sample(range(nd), 2)
        return ["diagonal", rng.randint(-2, 2), a, b]
    if kind == "movedim":
        return ["movedim", dim(), dim()]
    if kind == "chunk":
        return ["chunk", rng.randint(1, 4), dim(), 0]
    if kind == "split":
        d = dim()
        return ["split", rng.randint(1, 3), d, -1]
    if kind == "tensor_split":
        return ["tensor_split", rng.randint(1, 4), dim(), rng.randint(0, 0)]
    if kind == "unflatten":
        d = dim()
        size = shape[d]
        if size == 0:
            return ["unflatten", d, [0, 2]]
        return ["unflatten", d, factorizations(size, rng, rng.randint(1, 3))]
    if kind == "repeat":
        return ["repeat"] + [rng.randint(1, 2) for _ in range(nd + rng.randint(0, 1))]
    if kind in ("sum", "max"):
        dims = sorted(set(rng.randrange(nd) for _ in range(rng.randint(0, nd)))) if nd else []
        return [kind, dims, rng.random() < 0.3]
    if kind == "argmax":
        if nd and rng.random() < 0.7:
            return ["argmax", dim(), rng.random() < 0.3]
        return ["argmax", None, False]
    if kind in ("add", "mul", "gt"):
        other = [s if rng.random() < 0.7 else 1 for s in shape][rng.randint(0, nd):]
        return [kind, tensor_operand(arange(*other, start=1))]
    if kind == "sub_":
        return ["sub_", scalar_int(rng.randint(-3, 3))]
    if kind == "fill_":
        return ["fill_", rng.randint(-9, 9)]
    if kind == "setitem":
        if n == 0:
            return ["contiguous"]
        return ["setitem", [rng.randrange(s) for s in shape], -5]
    if kind == "copy_":
        return ["copy_", tensor_operand(arange(*shape[rng.randint(0, nd):], start=100))]
    if kind == "as_strided":
        size = rng.randint(1, 3)
        return ["as_strided", [size, 2], [rng.randint(0, 3), rng.randint(0, 2)], rng.randint(0, 3)]
    raise ValueError(kind)


def grow_cases(count, rng, name, new_input, next_op, max_ops, drop=lambda op, t: False):
    """count chains named "name N": each starts from new_input() and grows by
    next_op(shape) while torch accepts it (the first error is kept), up to
    max_ops operations; an operation whose result is larger than 4096
    elements, or for which drop(op, result) holds, ends the chain unrecorded."""
    cases = []
    while len(cases) < count:
        case = {"name": "%s %d" % (name, len(cases)), "input": new_input(), "ops": []}
        root = make_input(case["input"])
        t = root
        for _ in range(rng.randint(1, max_ops)):
            op = next_op(list(t.shape))
            case["ops"].append(op)
            try:
                t = apply(t, op, root)
            except (RuntimeError, IndexError, ValueError, TypeError):
                break
            if t.numel() > 4096 or drop(op, t):
                case["ops"].pop()
                break
        if case["ops"]:
            cases.append(case)
    return cases


def random_cases(count, seed):
    rng = random.Random(seed)
    dtypes = ["float32"] * 6 + ["int64", "int32", "float64", "uint8", "bool", "float16", "bfloat16"]
    return grow_cases(count, rng, "random", lambda: arange(*random_shape(rng, allow_empty=True), dtype=rng.choice(dtypes)),
                      lambda shape: random_op(rng, shape), 6)


def random_view_op(rng, shape):
    """A random call of one of the view operations the Go package has, with
    the edges that a differential run found differences at: list indexes
    (in range or not, into empty results), split sizes and negative dims,
    -1 in unflatten and expand, windows of size 0, diagonal offsets."""
    nd, n = len(shape), math.prod(shape)
    if nd == 0:
        return rng.choice([["unsqueeze", 0], ["t"], ["expand", rng.randint(-2, 3)], ["index", "None"]])

    def dim():
        return rng.randint(-nd, nd - 1)

    d = dim()
    size = shape[d]
    kind = rng.choice(["index_list", "index_list", "split_sizes", "tensor_split_at", "unbind", "unflatten",
                       "unfold", "diagonal", "broadcast_to", "t", "expand", "split", "chunk", "narrow",
                       "select", "movedim", "squeeze", "as_strided"])
    if kind == "index_list":
        parts = [rng.choice([":", ":", "1:", "::2", "None", str(rng.randint(-1, 1))]) for _ in range(rng.randint(0, nd - 1))]
        picks = ", ".join(str(rng.randint(-size - 1, size)) for _ in range(rng.randint(0, 3)))
        parts.insert(rng.randint(0, len(parts)), "[" + picks + "]")
        return ["index", ", ".join(parts)]
    if kind == "split_sizes":
        sizes, left = [], size
        while left > 0 and len(sizes) < 4:
            sizes.append(rng.randint(0, left))
            left -= sizes[-1]
        if rng.random() < 0.8:
            sizes.append(left)
        return ["split_sizes", sizes, d, rng.randint(0, max(len(sizes) - 1, 0))]
    if kind == "tensor_split_at":
        at = sorted(rng.randint(-size - 1, size + 1) for _ in range(rng.randint(0, 3)))
        return ["tensor_split_at", at, d, rng.randint(0, len(at))]
    if kind == "unbind":
        return ["unbind", d, rng.randint(-1, max(size - 1, 0))]
    if kind == "unflatten":
        sizes = factorizations(size, rng, rng.randint(1, 3)) if size else [0, rng.randint(1, 2)]
        if rng.random() < 0.5:
            sizes[rng.randrange(len(sizes))] = -1
        if rng.random() < 0.1:
            sizes = [-1, -1]
        return ["unflatten", d, sizes]
    if kind == "unfold":
        return ["unfold", d, rng.randint(0, size + 1), rng.randint(1, 3)]
    if kind == "diagonal":
        if nd < 2:
            return ["diagonal", rng.randint(-1, 1), 0, 0]
        a, b = rng.sample(range(-nd, nd), 2)
        return ["diagonal", rng.randint(-3, 3), a, b]
    if kind in ("broadcast_to", "expand"):
        target = [s if s != 1 or rng.random() < 0.5 else rng.randint(0, 3) for s in shape]
        target = [rng.randint(1, 2) for _ in range(rng.randint(0, 2))] + target
        if rng.random() < 0.4:
            target[rng.randrange(len(target))] = -1
        if rng.random() < 0.1 and 0 not in target:
            # With a 0 among the sizes PyTorch makes a tensor of negative
            # size (its overflow check multiplies by 0 last); the package
            # refuses every negative size.
            target[rng.randrange(len(target))] = -3
        return [kind] + target
    if kind == "t":
        return ["t"]
    if kind == "split":
        return ["split", rng.randint(0, 3), d, rng.randint(-1, 1)]
    if kind == "chunk":
        return ["chunk", rng.randint(1, 4), d, rng.randint(-1, 1)]
    if kind == "narrow":
        return ["narrow", d, rng.randint(-size, size), rng.randint(0, size)]
    if kind == "select":
        return ["select", d, rng.randint(-size - 1, size)]
    if kind == "movedim":
        return ["movedim", d, dim()]
    if kind == "squeeze":
        return ["squeeze", d]
    return ["as_strided", [rng.randint(0, 3), rng.randint(1, 2)], [rng.randint(0, 3), rng.randint(0, 2)], rng.randint(0, 2)]


def random_view_cases(count, seed):
    """Chains of random view operations, grown while PyTorch accepts them."""
    rng = random.Random(seed)
    return grow_cases(count, rng, "random view",
                      lambda: arange(*random_shape(rng, allow_empty=True), dtype=rng.choice(["float32", "int64"])),
                      lambda shape: random_view_op(rng, shape), 5)


VIEW_OPS = {"slice", "transpose", "select", "index", "diagonal", "unfold", "narrow", "T", "expand"}


def random_view_chain(rng, t):
    """Up to three random view operations that PyTorch accepts on t."""
    chain = []
    for _ in range(rng.randint(0, 3)):
        op = random_op(rng, list(t.shape))
        if op[0] not in VIEW_OPS:
            continue
        try:
            t = apply(t, op, t)
        except (RuntimeError, IndexError, ValueError, TypeError):
            break
        chain.append(op)
    return chain


def rearrange_case(name, shape, pattern, sizes, chain, before=()):
    """A hand-written Rearrange case: the pattern and the PyTorch chain that
    means the same, applied after the view operations in before."""
    return {"name": name, "input": arange(*shape),
            "ops": [list(op) for op in before] + [["rearrange", pattern, sizes, [list(op) for op in chain]]]}


def hand_picked_rearranges():
    r = rearrange_case
    return [
        r("rearrange article qk split", [2, 3, 12], "b s (h r d) -> r b h s d", {"h": 2, "r": 2},
          [("reshape", 2, 3, 2, 2, 3), ("permute", 3, 0, 2, 1, 4), ("reshape", 2, 2, 2, 3, 3)]),
        r("rearrange fused qkv", [1, 2, 18], "b s (r h d) -> r b h s d", {"r": 3, "h": 2},
          [("reshape", 1, 2, 3, 2, 3), ("permute", 2, 0, 3, 1, 4), ("reshape", 3, 1, 2, 2, 3)]),
        r("rearrange merge heads copies", [2, 2, 3, 4], "b h s d -> b s (h d)", {},
          [("reshape", 2, 2, 3, 4), ("permute", 0, 2, 1, 3), ("reshape", 2, 3, 8)]),
        r("rearrange patchify", [2, 3, 8, 8], "n c (hp ih) (wp iw) -> n (c ih iw) hp wp", {"ih": 2, "iw": 2},
          [("reshape", 2, 3, 4, 2, 4, 2), ("permute", 0, 1, 3, 5, 2, 4), ("reshape", 2, 12, 4, 4)]),
        r("rearrange transpose", [3, 4], "a b -> b a", {},
          [("reshape", 3, 4), ("permute", 1, 0), ("reshape", 4, 3)]),
        r("rearrange flatten", [2, 3, 4], "a b c -> (a b c)", {},
          [("reshape", 2, 3, 4), ("permute", 0, 1, 2), ("reshape", 24)]),
        r("rearrange add unit axes", [3, 4], "a b -> a 1 b ()", {},
          [("reshape", 3, 4), ("permute", 0, 1), ("reshape", 3, 1, 4, 1)]),
        r("rearrange drop unit axis", [3, 1, 4], "a 1 b -> b a", {},
          [("reshape", 3, 4), ("permute", 1, 0), ("reshape", 4, 3)]),
        r("rearrange ellipsis split", [2, 3, 8], "... (h d) -> ... h d", {"h": 2},
          [("reshape", 2, 3, 2, 4), ("permute", 0, 1, 2, 3), ("reshape", 2, 3, 2, 4)]),
        r("rearrange ellipsis middle", [2, 3, 4, 5], "b ... c -> c ... b", {},
          [("reshape", 2, 3, 4, 5), ("permute", 3, 1, 2, 0), ("reshape", 5, 3, 4, 2)]),
        r("rearrange ellipsis of nothing", [6], "... (a b) -> b ... a", {"a": 2},
          [("reshape", 2, 3), ("permute", 1, 0), ("reshape", 3, 2)]),
        r("rearrange of a transpose", [4, 6], "(b c) a -> (c a) b", {"c": 2},
          [("reshape", 3, 2, 4), ("permute", 1, 2, 0), ("reshape", 8, 3)], before=[("T",)]),
        r("rearrange of a stepped slice", [4, 6], "a (b c) -> c a b", {"c": 1},
          [("reshape", 4, 3, 1), ("permute", 2, 0, 1), ("reshape", 1, 4, 3)], before=[("index", ":, ::2")]),
        r("rearrange of an expand", [3], "a b -> (b a)", {},
          [("reshape", 3, 4), ("permute", 1, 0), ("reshape", 12)], before=[("view", 3, 1), ("expand", 3, 4)]),
        r("rearrange empty", [0, 6], "a (b c) -> a c b", {"b": 2},
          [("reshape", 0, 2, 3), ("permute", 0, 2, 1), ("reshape", 0, 3, 2)]),
        r("rearrange scalar", [], " -> 1 1", {},
          [("reshape",), ("permute",), ("reshape", 1, 1)]),
    ]


def random_rearranges(count, seed):
    """Random patterns: each input dimension split into named axes, the
    axes permuted, regrouped and given unit axes; PyTorch runs the reshape,
    permute, reshape they stand for."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        shape = random_shape(rng, max_dims=3, max_size=8)
        names, sizes, left, known = [], [], [], {}
        for n in shape:
            axes = ["a%d" % (len(names) + i) for i in range(rng.randint(1, 3) if n > 0 else 1)]
            parts = factorizations(n, rng, len(axes))
            names += axes
            sizes += parts
            left.append(axes[0] if len(axes) == 1 else "(" + " ".join(axes) + ")")
            if len(axes) > 1:
                hidden = rng.randrange(len(axes) + 1)  # sometimes every size is given
                known.update({a: v for i, (a, v) in enumerate(zip(axes, parts)) if i != hidden})
        order = list(range(len(names)))
        rng.shuffle(order)
        right, merged = [], []
        i = 0
        while i < len(order):
            k = rng.randint(1, min(3, len(order) - i))
            group = order[i:i + k]
            right.append(names[group[0]] if k == 1 else "(" + " ".join(names[j] for j in group) + ")")
            merged.append(math.prod(sizes[j] for j in group))
            i += k
            if rng.random() < 0.15:
                right.append("1")
                merged.append(1)
        pattern = " ".join(left) + " -> " + " ".join(right)
        case = rearrange_case("random rearrange %d" % len(cases), shape, pattern, known,
                              [("reshape", *sizes), ("permute", *order), ("reshape", *merged)])
        if len(shape) >= 2 and rng.random() < 0.3:
            # A non-contiguous input: the transpose of a tensor whose first
            # two dimensions are swapped has the pattern's shape.
            case["input"] = arange(shape[1], shape[0], *shape[2:])
            case["ops"].insert(0, ["transpose", 0, 1])
        cases.append(case)
    return cases


def grad_case(name, inp, ops, backward=None, **extra):
    return dict({"name": name, "input": inp, "ops": [list(op) for op in ops], "backward": backward}, **extra)


def leaf(spec):
    """An operand that is a new leaf requiring grad."""
    return {"input": spec, "grad": True}


def saved_operand(name):
    return {"saved": name}


def hand_picked_grads():
    g = grad_case
    whole = ("sum", [], False)
    x3 = values([1, 2, 3])
    return [
        # The article's two cases.
        g("article reshape(2,3).T.sum()", arange(6), [("reshape", 2, 3), ("T",), whole]),
        g("article v.expand(3,2).sum()", values([1, 2], [1, 2]), [("expand", 3, 2), whole]),
        # The article's in-place refusals and version counters.
        g("leaf add_", x3, [("add_", scalar_int(1))]),
        g("leaf fill_", x3, [("fill_", 5)]),
        g("leaf copy_", x3, [("copy_", tensor_operand(values([0, 0, 0])))]),
        g("view of leaf add_", x3, [("index", ":2"), ("add_", scalar_int(1))]),
        g("view of leaf setitem", x3, [("setitem", [0], 5)]),
        g("view leaf made by reshape", arange(6), [("reshape", 2, 3), ("detach",), ("requires_grad_", True), ("add_", scalar_int(1))]),
        g("saved non-leaf modified", x3, [("mul", scalar_int(2)), ("save", "y"), ("mul", saved_operand("y")),
                                          ("on", "y", [["add_", scalar_int(1)]]), whole]),
        g("saved leaf modified through detach", x3, [("mul", root_view()), ("on", "root", [["detach"], ["add_", scalar_int(1)]]), whole]),
        g("saved operand modified", x3, [("mul", tensor_operand(values([1, 1, 1]))), ("save", "p"), whole]),
        g("saved view modified", values([1, 2, 3], [1, 3]), [("T",), ("mul", scalar_int(1)), ("save", "y"), ("T",),
                                                             ("matmul", saved_operand("y")), ("on", "y", [["index", "0"], ["mul_", scalar_int(2)]]), whole]),
        g("no_grad write to leaf", x3, [("no_grad", [["add_", scalar_int(1)]]), ("mul", scalar_int(3)), whole]),
        g("no_grad result", x3, [("no_grad", [["mul", scalar_int(2)]]), whole]),
        g("detach", x3, [("detach",), ("mul", scalar_int(2)), whole]),
        g("requires_grad_ false on non-leaf", x3, [("mul", scalar_int(2)), ("requires_grad_", False)]),
        g("int requires grad", arange(3, dtype="int64"), []),
        g("backward of a vector", x3, [("mul", scalar_int(2))]),
        g("backward with a gradient", x3, [("mul", scalar_int(2))], backward=values([1, 10, 100])),
        g("backward gradient shape mismatch", x3, [("mul", scalar_int(2))], backward=values([1, 2])),
        g("backward of a comparison", x3, [("gt", scalar_int(1)), whole]),
        g("backward twice through sum", x3, [whole], times=2),
        g("backward twice through expand", values([1, 2], [1, 2]), [("expand", 2, 2), ("T",), whole], times=2),
        g("backward twice through mul", x3, [("mul", root_view()), whole], times=2),
        g("backward twice through mul by a number", x3, [("mul", scalar_int(2)), whole], times=2),
        g("backward twice through div by a number", x3, [("div", scalar_int(2)), whole], times=2),
        # In-place writes that are recorded.
        g("add_ on non-leaf", x3, [("mul", scalar_int(2)), ("add_", scalar_int(1)), ("mul", root_view()), whole]),
        g("mul_ into a plain tensor", values([3, 3, 3]), [("detach",), ("clone",), ("mul_", leaf(values([1, 2, 3]))), whole]),
        g("mul_ with both requiring grad", x3, [("mul", scalar_int(1)), ("mul_", leaf(values([1, 2, 3]))), whole]),
        g("div_ on non-leaf", x3, [("mul", scalar_int(1)), ("div_", leaf(values([2, 4, 8]))), whole]),
        g("fill_ on non-leaf", x3, [("mul", scalar_int(2)), ("fill_", 7), ("mul", root_view()), whole]),
        g("copy_ on non-leaf", x3, [("mul", scalar_int(2)), ("copy_", leaf(values([5, 6, 7]))), ("mul", root_view()), whole]),
        g("setitem on non-leaf", arange(6), [("reshape", 2, 3), ("mul", scalar_int(1)), ("setitem", [0, 1], 9), ("mul", scalar_int(2)), whole]),
        g("mul_ through a view", x3, [("mul", scalar_int(1)), ("save", "y"), ("index", ":2"), ("mul_", scalar_int(10)),
                                      ("load", "y"), ("index", "1:"), ("save", "v"), ("mul", saved_operand("v")), whole]),
        g("add_ of a leaf through a view of a plain tensor", values([0, 0, 0, 0]), [("detach",), ("clone",), ("save", "b"),
                                                                                   ("index", "1:3"), ("add_", leaf(values([5, 7]))), ("load", "b"), ("mul", scalar_int(3)), whole]),
        g("retain_grad", x3, [("mul", scalar_int(2)), ("retain_grad",), ("save", "y"), ("mul", root_view()), whole]),
        # Every differentiable operation once.
        g("transpose", arange(6), [("reshape", 2, 3), ("transpose", 0, 1)], backward=arange(6, start=1)),
        g("permute", arange(24), [("reshape", 2, 3, 4), ("permute", 2, 0, 1)], backward=arange(24, start=-7)),
        g("view", arange(6), [("view", 3, 2)], backward=arange(6)),
        g("reshape copy", arange(6), [("reshape", 2, 3), ("T",), ("reshape", -1)], backward=arange(6)),
        g("squeeze unsqueeze", arange(3), [("unsqueeze", 0), ("unsqueeze", 2), ("squeeze", 0)], backward=arange(3)),
        g("squeeze all", arange(3), [("unsqueeze", 0), ("squeeze",)], backward=arange(3)),
        g("narrow", arange(12), [("reshape", 3, 4), ("narrow", 1, 1, 2)], backward=arange(6, start=1)),
        g("stepped slice", arange(12), [("reshape", 3, 4), ("index", ":, 1::2")], backward=arange(6, start=1)),
        g("select", arange(12), [("reshape", 3, 4), ("select", 1, -1)], backward=arange(3, start=1)),
        g("index with ellipsis and None", arange(12), [("reshape", 3, 4), ("index", "..., None, 1")], backward=arange(3, start=1)),
        g("index list", arange(12), [("reshape", 3, 4), ("index", "[0, 2, 0], :")], backward=arange(12, start=1)),
        g("unfold overlapping", arange(6), [("unfold", 0, 3, 1)], backward=arange(12, start=1)),
        g("diagonal", arange(12), [("reshape", 3, 4), ("diagonal", 1, 0, 1)], backward=arange(3, start=1)),
        g("expand leading", arange(3), [("expand", 2, 3)], backward=arange(6, start=1)),
        g("expand middle", arange(3), [("view", 3, 1), ("expand", 3, 4)], backward=arange(12, start=1)),
        g("as_strided overlapping", arange(6), [("as_strided", [3, 2], [1, 1], 1)], backward=arange(6, start=1)),
        g("chunk", arange(10), [("chunk", 3, 0, 1)], backward=arange(4, start=1)),
        g("split", arange(10), [("split", 3, 0, -1)], backward=arange(1, start=1)),
        g("split sizes", arange(10), [("split_sizes", [3, 7], 0, 1)], backward=arange(7, start=1)),
        g("unbind", arange(6), [("reshape", 2, 3), ("unbind", 1, 2)], backward=arange(2, start=1)),
        g("tensor_split", arange(7), [("tensor_split", 3, 0, 0)], backward=arange(3, start=1)),
        g("movedim", arange(24), [("reshape", 2, 3, 4), ("movedim", 0, 2)], backward=arange(24)),
        g("flatten", arange(24), [("reshape", 2, 3, 4), ("transpose", 0, 1), ("flatten", 1, 2)], backward=arange(24)),
        g("unflatten", arange(24), [("unflatten", 0, [2, 3, 4])], backward=arange(24)),
        g("mT", arange(24), [("reshape", 2, 3, 4), ("mT",)], backward=arange(24)),
        g("contiguous of a transpose", arange(6), [("reshape", 2, 3), ("T",), ("contiguous",)], backward=arange(6)),
        g("contiguous of contiguous", arange(6), [("contiguous",)], backward=arange(6)),
        g("clone", arange(6), [("clone",)], backward=arange(6)),
        g("to float64", arange(3), [("to", "float64")], backward=arange(3, dtype="float64")),
        g("float64 times float32 leaf", arange(3), [("mul", leaf(arange(3, dtype="float64", start=1))), whole]),
        g("repeat", arange(6), [("reshape", 2, 3), ("repeat", 2, 1, 2)], backward=arange(24)),
        g("tile", arange(3), [("tile", 2, 2)], backward=arange(12)),
        g("broadcast add", arange(3), [("view", 3, 1), ("add", leaf(arange(4, start=1))), whole]),
        g("broadcast sub", arange(3), [("sub", leaf(arange(2, 3))), ("sum", [0], False), whole]),
        g("broadcast mul", arange(6), [("reshape", 2, 3), ("mul", leaf(arange(3, start=1)))], backward=arange(6, start=1)),
        g("broadcast div", arange(6), [("reshape", 2, 3), ("div", leaf(arange(2, 1, start=1)))], backward=arange(6, start=1)),
        g("neg", arange(3), [("neg",)], backward=arange(3, start=1)),
        g("x times x", arange(3), [("mul", root_view()), whole]),
        g("x plus its transpose", arange(4), [("reshape", 2, 2), ("add", root_view(("reshape", 2, 2), ("T",))), ("mul", root_view(("reshape", 2, 2))), whole]),
        g("sum dims", arange(24), [("reshape", 2, 3, 4), ("sum", [0, 2], False)], backward=arange(3, start=1)),
        g("sum keepdim", arange(24), [("reshape", 2, 3, 4), ("sum", [1], True)], backward=arange(8, start=1)),
        g("mean", arange(24), [("reshape", 2, 3, 4), ("mean", [], False)]),
        g("mean dims", arange(24), [("reshape", 2, 3, 4), ("mean", [-1], True)], backward=arange(6, start=1)),
        g("amax with ties", values([1, 3, 3, 0, 2, 2], [2, 3]), [("amax", [1], False)], backward=values([1, 10])),
        g("max of all with ties", values([1, 3, 3, 0]), [("amax", [], False)]),
        g("amin", values([1, 3, 3, 0, 2, 2], [2, 3]), [("amin", [0, 1], True)], backward=values([5], [1, 1])),
        g("dot", arange(3), [("matmul", leaf(arange(3, start=1)))]),
        g("mm", arange(6), [("reshape", 2, 3), ("matmul", leaf(arange(3, 4, start=1)))], backward=arange(8, start=1)),
        g("mv", arange(6), [("reshape", 2, 3), ("matmul", leaf(arange(3, start=1)))], backward=arange(2, start=1)),
        g("vector times matrix", arange(2), [("matmul", leaf(arange(2, 3, start=1)))], backward=arange(3, start=1)),
        g("batched matmul broadcast", arange(12), [("reshape", 2, 2, 3), ("matmul", leaf(arange(3, 2, start=1)))], backward=arange(8, start=1)),
        g("batched matmul both", arange(12), [("reshape", 2, 2, 3), ("matmul", leaf(arange(1, 3, 2, start=-2)))], backward=arange(8, start=1)),
        g("batched times vector", arange(12), [("reshape", 2, 2, 3), ("matmul", leaf(arange(3, start=1)))], backward=arange(4, start=1)),
        g("index_select repeated", arange(12), [("reshape", 3, 4), ("index_select", 1, values([3, 0, 3], dtype="int64"))], backward=arange(9, start=1)),
        g("gather", arange(12), [("reshape", 3, 4), ("gather", 1, values([0, 0, 3, 1, 2, 2], [3, 2], "int64"))], backward=arange(6, start=1)),
        g("masked_select broadcast", arange(3), [("masked_select", values([True, False, True, True, True, False], [2, 3], "bool"))], backward=arange(4, start=1)),
        g("pixel_unshuffle", arange(32), [("reshape", 2, 4, 4), ("pixel_unshuffle", 2)], backward=arange(32)),
        g("pixel_shuffle", arange(32), [("reshape", 8, 2, 2), ("pixel_shuffle", 2)], backward=arange(32)),
        g("cat", arange(6), [("reshape", 2, 3), ("cat", [leaf(arange(2, 1)), leaf(arange(2, 2, start=9))], 1)], backward=arange(12, start=1)),
        g("stack", arange(3), [("stack", [leaf(arange(3, start=5))], 1)], backward=arange(6, start=1)),
        g("float64 chain", arange(6, dtype="float64"), [("reshape", 2, 3), ("mul", scalar_float(0.5)), ("T",), ("sum", [0], False)], backward=arange(2, dtype="float64")),
        g("float16", values([1, 2, 3], dtype="float16"), [("mul", root_view()), whole]),
        # The article's packing contract decodes, and a rearrange.
        g("decode interleaved K", arange(24), [("reshape", 2, 12), ("decode", "interleaved", {"h": 2, "r": 2, "d": 3}, -1, 1)], backward=arange(12, start=1)),
        g("decode fused qkv V", arange(12), [("reshape", 1, 12), ("decode", "fused_qkv", {"r": 3, "h": 2, "d": 2}, 1, 2)], backward=arange(4, start=1)),
        g("rearrange heads", arange(24), [("reshape", 2, 12), ("rearrange", "s (h r d) -> r h s d", {"h": 2, "r": 2},
                                                                 [["reshape", 2, 2, 2, 3], ["permute", 2, 1, 0, 3], ["reshape", 2, 2, 2, 3]])],
          backward=arange(24, start=-5)),
    ]


GRAD_KINDS = ["view", "reshape", "transpose", "permute", "unsqueeze", "squeeze", "slice", "select", "narrow", "expand",
              "index", "contiguous", "clone", "flatten", "unfold", "diagonal", "movedim", "chunk", "split", "unflatten",
              "repeat", "mT", "T", "sum", "max", "add", "mul", "sub_", "fill_", "setitem", "copy_", "as_strided"]


def random_grad_op(rng, shape):
    """A random operation for a gradient chain: one of the layout chains'
    operations, with operands that sometimes require grad or are views
    of the input; max becomes amax, whose gradient PyTorch shares
    between ties."""
    kind = rng.choice(GRAD_KINDS + ["div", "neg", "mean", "matmul", "sub"])
    nd = len(shape)
    if kind in ("div", "sub", "mul", "add"):
        other = [s if rng.random() < 0.7 else 1 for s in shape][rng.randint(0, nd):]
        spec = arange(*other, start=1)
        choice = rng.random()
        if choice < 0.4:
            return [kind, leaf(spec)]
        if choice < 0.6 and kind != "div":
            return [kind, root_view()]
        if choice < 0.8:
            return [kind, scalar_float(rng.choice([0.5, -2.0, 3.0]))]
        return [kind, tensor_operand(spec)]
    if kind == "neg":
        return ["neg"]
    if kind == "mean":
        dims = sorted(set(rng.randrange(nd) for _ in range(rng.randint(0, nd)))) if nd else []
        return ["mean", dims, rng.random() < 0.3]
    if kind == "matmul":
        if nd == 0:
            return ["neg"]
        k = shape[-1]
        other = [k] if rng.random() < 0.4 else [k, rng.randint(1, 3)]
        return ["matmul", leaf(arange(*other, start=-2))]
    for _ in range(20):
        op = random_op(rng, shape)
        if op[0] in GRAD_KINDS:
            break
    else:
        op = ["clone"]
    if op[0] == "max":
        op[0] = "amax"
    return op


def random_grad_cases(count, seed):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        shape = random_shape(rng, max_dims=3, max_size=4)
        dtype = "float64" if rng.random() < 0.25 else "float32"
        case = grad_case("random grad %d" % len(cases), arange(*shape, dtype=dtype, start=-3), [])
        GRAD["leaves"], GRAD["saved"] = [], {}
        root = make_input(case["input"]).requires_grad_()
        t = root
        for _ in range(rng.randint(1, 5)):
            op = random_grad_op(rng, list(t.shape))
            case["ops"].append(op)
            try:
                t = apply(t, op, root)
            except (RuntimeError, IndexError, ValueError, TypeError):
                break
            if t.numel() > 512:
                case["ops"].pop()
                break
        if t.numel() != 1 or rng.random() < 0.3:
            case["backward"] = values([(i % 5 - 2) / 2 for i in range(t.numel())], list(t.shape), NAMES.get(t.dtype, "float32"))
        cases.append(case)
    return cases


def random_pairs(count, seed):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        inp = arange(*[rng.randint(1, 6) for _ in range(rng.randint(1, 3))])
        t = make_input(inp)
        cases.append({"name": "random pair %d" % len(cases), "input": inp,
                      "a": random_view_chain(rng, t), "b": random_view_chain(rng, t)})
    return cases


def linspace_cases(seed):
    """torch.linspace for many bounds, lengths and dtypes, compared bit for
    bit: short tensors take PyTorch's scalar path, long ones its vector path."""
    rng = random.Random(seed)
    cases = []
    lengths = list(range(0, 20)) + [31, 32, 33, 34, 63, 64, 65, 100, 129]
    for dtype in ["float32", "float64", "float16", "bfloat16", "int64", "int32"]:
        for steps in lengths:
            for start, end in [(-1, 1), (-3.3, 7.7), (10, -2.5), (rng.uniform(-100, 100), rng.uniform(-100, 100))]:
                t = torch.linspace(start, end, steps, dtype=DTYPES[dtype])
                cases.append({"dtype": dtype, "start": start, "end": end, "steps": steps,
                              "values": values_of(t)})
    return cases


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.json")
    torch.set_printoptions(profile="default")
    chains = [run_case(c) for c in hand_picked() + random_cases(600, seed=20261130) + random_view_cases(1500, seed=14)
              + hand_picked_rearranges() + random_rearranges(60, seed=5)]
    pairs = [run_pair_case(c) for c in hand_picked_pairs() + random_pairs(150, seed=7)]
    broadcasts = [run_broadcast_case(c) for c in hand_picked_broadcasts()]
    grads = [run_grad_case(c) for c in hand_picked_grads() + random_grad_cases(400, seed=11)]
    data = {
        "generator": "tensor/testdata/gen_fixtures.py",
        "torch": torch.__version__,
        "numpy": np.__version__,
        "chains": chains,
        "pairs": pairs,
        "broadcasts": broadcasts,
        "grads": grads,
        "linspace": linspace_cases(3),
    }
    with open(out, "w") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")
    errors = sum(1 for c in chains if "error" in c)
    print("wrote %s: %d chains (%d raise), %d pairs, %d broadcast cases, %d gradient cases (%d raise)"
          % (out, len(chains), errors, len(pairs), len(broadcasts), len(grads), sum(1 for c in grads if "error" in c)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
