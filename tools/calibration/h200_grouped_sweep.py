#!/usr/bin/env python3
"""Grouped expert GEMMs one factor at a time (issue 33): h200_moe_kernels.json's 188 cases are a
seeded draw over every factor at once, and no kernel model fitted to them reaches the issue's
held-out targets (tools/calibration/fit_grouped.py); these sweeps hold all but one factor fixed
so that each factor's effect can be read on its own. Raw data only, nothing fitted here.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_grouped_sweep.py --out "$OUT"
Writes OUT/h200_grouped_sweep.json: the GPU, driver, torch, CUDA, date, the method and per case
its sweep, dtype, pass, shape, rows per expert, FLOPs, the time (h200_moe_kernels.py's method:
a CUDA graph of back-to-back launches, CUDA events, median of 10) and the CUTLASS kernel it ran
(name and grid, from one torch.profiler capture).

Sweeps, for BF16 (torch._grouped_mm) and FP8 (torch._scaled_grouped_mm, row-wise scales), in the
forward, data-gradient and weight-gradient shapes of DeepSeek-V3's experts (gate/up: 7168 -> 4096;
down: 2048 -> 7168), even loads:
- `rows`: 8 local experts, rows per expert 16 to 4096;
- `experts`: 512 rows per expert, 1 to 64 local experts.
With `--set shapes` (writes h200_grouped_shapes.json): the `rows` sweep on DeepSeek-V2-Lite's,
Qwen3-30B-A3B's and Mixtral 8x7B's experts instead.
"""
import argparse
import json
import os
import statistics

import torch
from torch.profiler import ProfilerActivity, profile

from h200_common import device_facts
from h200_moe_kernels import grouped_case, time_fn, zipf_counts

SHAPES = {"gate_up": (7168, 4096), "down": (2048, 7168)}
# --set shapes: the rows sweep on other models' experts (hidden, 2 x width) and (width, hidden).
OTHER_SHAPES = {"deepseek-v2-lite": (2048, 1408), "qwen3-30b-a3b": (2048, 768),
                "mixtral-8x7b": (4096, 14336)}
ROWS = (16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 2048, 4096)
EXPERTS = (1, 2, 4, 8, 16, 32, 64)


def kernel_of(fn, inputs):
    """The main (CUTLASS device) kernel's name and grid of one call."""
    fn(*inputs[0])
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*inputs[0])
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    main = [n for n in names if "device_kernel" in n] or [n for n in names if "prepare" not in n]
    return (main or names or [""])[0]


def other_cases():
    for dtype in ("bf16", "fp8"):
        for pass_ in ("fwd", "dgrad", "wgrad"):
            for model, (hidden, width) in OTHER_SHAPES.items():
                for proj, (k, n) in (("gate_up", (hidden, 2 * width)), ("down", (width, hidden))):
                    for rows in ROWS:
                        yield f"rows-{model}", dtype, pass_, proj, 8, rows, k, n


def cases():
    for dtype in ("bf16", "fp8"):
        for pass_ in ("fwd", "dgrad", "wgrad"):
            for proj, (k, n) in SHAPES.items():
                for rows in ROWS:
                    yield "rows", dtype, pass_, proj, 8, rows, k, n
                for experts in EXPERTS:
                    yield "experts", dtype, pass_, proj, experts, 512, k, n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--set", default="deepseek-v3", choices=("deepseek-v3", "shapes"))
    args = parser.parse_args()
    result = {**device_facts(), "method": __doc__, "cases": [], "skipped": []}
    for sweep, dtype, pass_, proj, experts, rows, k, n in (
            cases() if args.set == "deepseek-v3" else other_cases()):
        name = f"{sweep}_{dtype}_{pass_}_{proj}_e{experts}_r{rows}"
        if args.set == "shapes":
            name = f"{sweep}_{dtype}_{pass_}_{proj}_r{rows}"
        counts = zipf_counts(experts, rows, 0, 16 if dtype == "fp8" else 1)
        measure(result, name, {"sweep": sweep, "projection": proj, "experts": experts},
                dtype, pass_, counts, k, n)
    write(result, args.out,
          "h200_grouped_sweep.json" if args.set == "deepseek-v3" else "h200_grouped_shapes.json")


def measure(result, name, fields, dtype, pass_, counts, k, n):
    """Times one grouped GEMM (h200_moe_kernels.py's method) into result["cases"] with `fields`
    and the kernel it ran, or lists it under result["skipped"] if the installed PyTorch refuses
    it."""
    try:
        flops, hbm, fn, inputs, impl = grouped_case(dtype, pass_, counts, k, n)
        median, times, graphed, launches = time_fn(fn, inputs)
        result["cases"].append({
            "name": name, **fields, "dtype": dtype, "pass": pass_, "k_fwd": k, "n_fwd": n,
            "tokens_per_expert": counts, "flops": flops, "hbm_bytes": hbm, "time_us": median,
            "times_us": times, "graphed": graphed, "launches_per_replay": launches,
            "impl": impl, "kernel": kernel_of(fn, inputs)})
        print(f"{name:56s} {median:10.1f} us {flops / median / 1e6:7.0f} TFLOPS", flush=True)
        del inputs, fn
        torch.cuda.empty_cache()
    except Exception as e:  # noqa: BLE001 - a case the installed PyTorch refuses is a result
        result["skipped"].append({"name": name, "error": repr(e)[:300]})
        print(f"skipped {name}: {e!r}"[:200], flush=True)


def write(result, out_dir, file_name):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, file_name), "w") as f:
        json.dump(result, f, indent=1)
    print(f"{len(result['cases'])} cases, {len(result['skipped'])} skipped; median of medians "
          f"{statistics.median(c['time_us'] for c in result['cases']):.1f} us")


if __name__ == "__main__":
    main()
