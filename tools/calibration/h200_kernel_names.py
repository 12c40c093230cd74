#!/usr/bin/env python3
"""Which kernel each grouped-GEMM case of h200_moe_kernels.py (the same seeded plan) and each
dense GEMM of h200_kernels.json's shapes actually launches, with its launch configuration (issue
33): the kernel's name (CUTLASS and cuBLAS names carry their tile shape), grid, block, registers
and shared memory, from one torch.profiler (Kineto) capture per case after a warm-up call. No
timing is taken here (the timings are h200_moe_kernels.json's, CUDA-graph timed); the names say
which tile configuration each shape got, which a roofline needs to know.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_kernel_names.py --out "$OUT"
Writes OUT/h200_kernel_names.json: device facts, then per case its class, name and kernels.
"""
import argparse
import json
import os
import tempfile
import time

import torch
from torch.profiler import ProfilerActivity, profile

from h200_common import device_facts
from h200_moe_kernels import grouped_case, grouped_plan


def launches(fn, args):
    """The kernels one call of fn(*args) launches: name, grid, block, registers, shared memory
    and duration (us, single call; not a timing to fit), from the profiler's Chrome trace."""
    fn(*args)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*args)
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    prof.export_chrome_trace(path)
    with open(path) as f:
        trace = json.load(f)
    os.unlink(path)
    out = []
    for e in trace.get("traceEvents", []):
        if e.get("cat") != "kernel":
            continue
        a = e.get("args", {})
        out.append({"name": e.get("name"), "grid": a.get("grid"), "block": a.get("block"),
                    "registers": a.get("registers per thread"),
                    "shared_memory": a.get("shared memory"), "dur_us": e.get("dur")})
    return out


def dense_plan():
    """(name, dtype, m, n, k) of the plain GEMMs timed in h200_kernels.json (read from it)."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "models", "calibration", "h200",
                        "h200_kernels.json")
    with open(path) as f:
        data = json.load(f)
    return [(c["name"], c["dtype"], int(c["m"]), int(c["n"]), int(c["k"]))
            for c in data["cases"] if c["class"].startswith("gemm_") and c.get("batch", 1) == 1]


def dense_case(dtype, m, n, k):
    """As h200_kernels.py lays them out: BF16 A[m, k] @ B[k, n]; FP8 A[m, k] x B^T of [n, k]."""
    if dtype == "bf16":
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        return torch.matmul, (a, b)
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    one = torch.tensor(1.0, device="cuda")
    a8, b8 = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
    return (lambda x, y: torch._scaled_mm(x, y.t(), scale_a=one, scale_b=one,
                                          out_dtype=torch.bfloat16)), (a8, b8)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--budget-s", type=float, default=300)
    args = parser.parse_args()
    start = time.time()
    result = {**device_facts(), "method": "torch.profiler CUDA activity, one call after a warm-up "
              "call; kernel args as Kineto records them", "cases": [], "skipped": []}
    os.makedirs(args.out, exist_ok=True)
    out_path = os.path.join(args.out, "h200_kernel_names.json")

    def record(cls, name, build):
        if time.time() - start > args.budget_s:
            result["skipped"].append(f"{name}: over budget")
            return
        try:
            fn, fn_args = build()
            kernels = launches(fn, fn_args)
            result["cases"].append({"class": cls, "name": name, "kernels": kernels})
            print(f"{cls:18s} {name:52s} " + " | ".join(
                f"{k['name'][:90]} grid={k['grid']}" for k in kernels), flush=True)
        except Exception as e:  # noqa: BLE001 - a refused case is recorded, not fatal
            result["skipped"].append(f"{cls} {name}: {type(e).__name__}: {str(e)[:200]}")
        finally:
            torch.cuda.empty_cache()

    for name, dtype, pass_, _model, _proj, counts, k, n, _skew in grouped_plan():
        def build(dtype=dtype, pass_=pass_, counts=counts, k=k, n=n):
            _, _, fn, inputs, _ = grouped_case(dtype, pass_, counts, k, n)
            return fn, inputs[0]
        record(f"grouped_gemm_{dtype}", name, build)
    for name, dtype, m, n, k in dense_plan():
        record(f"gemm_{dtype}", name, lambda dtype=dtype, m=m, n=n, k=k: dense_case(dtype, m, n, k))
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
