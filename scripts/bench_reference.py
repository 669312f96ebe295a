"""Times the workloads of tensor/bench_test.go in NumPy and PyTorch.

Run it with Debian's interpreter, which has python3-torch and python3-numpy:

    /usr/bin/python3 scripts/bench_reference.py [--reps N]

Each workload is run twice to warm up, then timed N times (default 20) with
time.perf_counter; the median is reported. --only NAME,... times only those
NumPy workloads, for scripts/bench's rounds of Go and NumPy in turn. PyTorch runs twice: with its
default number of threads, then with torch.set_num_threads(1). NumPy runs
these operations on one thread, except matmul, which its BLAS (OpenBLAS)
runs on as many threads as it picks. Every call allocates its result, as the Go
benchmarks' calls do, so the time includes touching that new memory.

Standard output is one JSON object a line, for scripts/bench to parse:

    {"info": {"numpy": "1.24.2", "torch": "1.13.0", "torch_threads": 2, "blas": "OpenBLAS, Cooperlake"}}
    {"run": "numpy", "threads": 1, "workload": "SumDim0", "ms": 9.87}

where run is "numpy", "torch" (default threads) or "torch_1thread".

Progress goes to standard error. Workload names are those of the Go
benchmarks without their "Benchmark" prefix.
"""

import argparse
import ctypes
import json
import statistics
import sys
import time

try:
    import numpy as np
    import torch
except ImportError as e:
    sys.exit(
        f"bench_reference.py: {e}: run it with /usr/bin/python3, after "
        "apt-get install -y python3-torch python3-numpy"
    )

SIDE = 4096  # the Go benchmarks' 4096×4096 Float32 matrix
BATCH = (8, 3, 256, 256)  # the Go PixelUnshuffle input
R = 2  # the pixel_unshuffle factor


def median_ms(fn, reps):
    """Warms fn up with two calls, then returns the median of reps calls in ms."""
    fn()
    fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def split_for_unshuffle(x):
    """The view pixel_unshuffle copies: (n, c, R, R, h/R, w/R), not copied yet."""
    n, c, h, w = x.shape
    return x.reshape(n, c, h // R, R, w // R, R).permute(0, 1, 3, 5, 2, 4) if torch.is_tensor(x) \
        else x.reshape(n, c, h // R, R, w // R, R).transpose(0, 1, 3, 5, 2, 4)


def numpy_unshuffle(x):
    """pixel_unshuffle as a reshape, transpose and reshape, which copies."""
    n, c, h, w = x.shape
    return split_for_unshuffle(x).reshape(n, c * R * R, h // R, w // R)


def numpy_workloads():
    rng = np.random.default_rng(0)
    a = rng.random((SIDE, SIDE), dtype=np.float32)
    bias = rng.random(SIDE, dtype=np.float32)
    batch = rng.random(BATCH, dtype=np.float32)
    m256, m1024 = (rng.random((n, n), dtype=np.float32) for n in (256, 1024))
    d256, d1024 = m256.astype(np.float64), m1024.astype(np.float64)
    split = split_for_unshuffle(batch)
    unshuffle_out = np.empty(split.shape, dtype=split.dtype)  # row-major, as the Go and torch ones
    return {
        "Matmul256": lambda: m256 @ m256,
        "Matmul1024": lambda: m1024 @ m1024,
        "Matmul256Float64": lambda: d256 @ d256,
        "Matmul1024Float64": lambda: d1024 @ d1024,
        "ContiguousPermute4D": lambda: np.ascontiguousarray(batch.transpose(0, 2, 3, 1)),
        "ContiguousTranspose": lambda: np.ascontiguousarray(a.T),
        "CopyContiguous": lambda: a.copy(),
        "BroadcastAdd": lambda: a + bias,
        "SumDim0": lambda: a.sum(0),
        "PixelUnshuffle": lambda: numpy_unshuffle(batch),
        "PixelUnshuffleInto": lambda: np.copyto(unshuffle_out, split),
    }


def torch_workloads():
    torch.manual_seed(0)
    a = torch.rand(SIDE, SIDE)
    bias = torch.rand(SIDE)
    batch = torch.rand(BATCH)
    m256, m1024 = torch.rand(256, 256), torch.rand(1024, 1024)
    d256, d1024 = m256.double(), m1024.double()
    split = split_for_unshuffle(batch)
    unshuffle_out = torch.empty(split.shape)
    return {
        "Matmul256": lambda: m256 @ m256,
        "Matmul1024": lambda: m1024 @ m1024,
        "Matmul256Float64": lambda: d256 @ d256,
        "Matmul1024Float64": lambda: d1024 @ d1024,
        "ContiguousPermute4D": lambda: batch.permute(0, 2, 3, 1).contiguous(),
        "ContiguousTranspose": lambda: a.t().contiguous(),
        "CopyContiguous": lambda: a.clone(),
        "BroadcastAdd": lambda: a + bias,
        "SumDim0": lambda: a.sum(0),
        "PixelUnshuffle": lambda: torch.nn.functional.pixel_unshuffle(batch, R),
        "PixelUnshuffleInto": lambda: unshuffle_out.copy_(split),
    }


def blas_core():
    """Which kernels NumPy's BLAS runs: OpenBLAS names its core (Haswell for
    AVX2, SkylakeX or Cooperlake for AVX-512; OPENBLAS_CORETYPE forces one)."""
    try:
        lib = ctypes.CDLL("libblas.so.3")  # the library NumPy loaded, on Debian
        corename = lib.openblas_get_corename
    except (OSError, AttributeError):
        return "not OpenBLAS"
    corename.restype = ctypes.c_char_p
    return "OpenBLAS, " + corename().decode()


def run(label, threads, workloads, reps):
    for name, fn in workloads.items():
        print(f"  {label} ({threads} thread(s)): {name}", file=sys.stderr, flush=True)
        ms = median_ms(fn, reps)
        row = {"run": label, "threads": threads, "workload": name, "ms": ms}
        print(json.dumps(row), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20, help="timed runs per workload (default 20)")
    parser.add_argument("--only", metavar="NAME,...",
                        help="time only these NumPy workloads, and no PyTorch (scripts/bench's paired rounds)")
    args = parser.parse_args()
    if args.only:
        workloads = numpy_workloads()
        names = args.only.split(",")
        unknown = [n for n in names if n not in workloads]
        if unknown:
            sys.exit(f"bench_reference.py: --only: no workload {', '.join(unknown)} (known: {', '.join(workloads)})")
        run("numpy", 1, {n: workloads[n] for n in names}, args.reps)
        return

    default_threads = torch.get_num_threads()
    info = {"numpy": np.__version__, "torch": torch.__version__, "torch_threads": default_threads,
            "blas": blas_core()}
    print(json.dumps({"info": info}), flush=True)

    run("numpy", 1, numpy_workloads(), args.reps)
    workloads = torch_workloads()
    run("torch", default_threads, workloads, args.reps)
    torch.set_num_threads(1)
    run("torch_1thread", 1, workloads, args.reps)


if __name__ == "__main__":
    main()
