#!/usr/bin/env python3
"""Kernels timed cold and under sustained load (issue 33): the kernel model is fitted to short
CUDA-graph bursts (h200_moe_kernels.py's method: a few milliseconds of work after the GPU idled),
while a training step keeps the GPU near its power cap for minutes, where its SM clock drops
(h200_variability.json: 1,560-1,965 MHz, median 1,605, flat out). This measures how much slower
the same kernels run in that state. Raw data only, nothing fitted here.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_sustained.py --out "$OUT"
    ... --only step_like   (h200_variability.py's step-like graph alone: h200_sustained_step_like.json)
    ... --self-load        (each case heated by itself, not by GEMMs: its own flat-out state)
Writes OUT/h200_sustained.json: the GPU, driver, torch, CUDA, date, the method, and per case its
shape and per round its cold and sustained medians (h200_common.graph_times: a CUDA graph of
back-to-back launches, CUDA events, median of 10 replays) with nvidia-smi samples.

Method: each case is captured once as a CUDA graph of back-to-back launches (a replay of about
2 ms cold). Each round (3), per case: the GPU idles 3 s and 10 replays are timed with CUDA events
(cold); then a load graph (16 BF16 GEMMs of 8192^3) is queued back to back for `--heat-s` seconds
(20 at the first case of a round, 2 before the others, which keeps the power cap reached; with
`--self-load` the case's own graph for `--heat-s` before every case: its own flat-out state) and the
case's 10 timed replays are queued right behind it, with no host synchronization between, so
that the GPU never leaves its power-capped state (sustained). nvidia-smi is sampled while the
load runs. A first sitting that synchronized and captured between the load and the timing
(the GPU idle for milliseconds) measured the case after its clock had partly recovered.
"""
import argparse
import json
import os
import statistics
import time

import torch
import torch.nn.functional as F

from h200_common import device_facts, rnd
from h200_variability import gpu_sample, step_like

DEV = "cuda"
BF16 = torch.bfloat16
FP8 = torch.float8_e4m3fn
ROUNDS = 3
REPEATS = 10


def cases():
    """(name, class, fn, args, launches): launches chosen for a replay of about 2 ms cold."""
    a, b = rnd(8192, 8192), rnd(8192, 8192)
    yield "gemm_bf16_8192", "gemm_bf16", lambda x, y: x @ y, (a, b), 1
    x, w = rnd(4096, 7168), rnd(7168, 4096)
    yield "gemm_bf16_4096x7168x4096", "gemm_bf16", lambda p, q: p @ q, (x, w), 4
    a8, b8 = rnd(8192, 8192, dtype=FP8), rnd(8192, 8192, dtype=FP8).t()
    one = torch.ones((), device=DEV, dtype=torch.float32)
    yield "gemm_fp8_8192", "gemm_fp8", \
        lambda p, q: torch._scaled_mm(p, q, one, one, out_dtype=BF16), (a8, b8), 2
    offs = torch.tensor([4096 * (i + 1) for i in range(8)], device=DEV, dtype=torch.int32)
    ga, gw = rnd(8 * 4096, 7168), rnd(8, 4096, 7168)
    yield "grouped_bf16_8x4096_7168x4096", "grouped_gemm_bf16", \
        lambda p, q: torch._grouped_mm(p, q.transpose(-2, -1), offs=offs), (ga, gw), 1
    src = torch.empty(1 << 28, device=DEV, dtype=BF16)
    dst = torch.empty_like(src)
    yield "copy_512MiB", "memory", lambda s, d: d.copy_(s), (src, dst), 4
    h, nw = rnd(16384, 7168), torch.ones(7168, device=DEV, dtype=BF16)
    yield "rmsnorm_16384x7168", "memory", lambda p, q: F.rms_norm(p, (7168,), q), (h, nw), 8
    # h200_variability.py's step-like graph (GEMMs of DeepSeek-V3 layer shapes, a softmax, a
    # copy, a norm): a step's mix rather than one kernel.
    yield "step_like", "mix", step_like(), (), 2


def capture(fn, args, launches):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn(*args)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(launches):
                fn(*args)
    torch.cuda.current_stream().wait_stream(s)
    g.replay()
    torch.cuda.synchronize()
    return g


def timed(g, launches, after=None, load_replays=0):
    """Microseconds per launch of REPEATS replays of g, queued behind `load_replays` replays of
    `after` (no host synchronization between them), each replay between its own events; an
    nvidia-smi sample taken while the last of the load runs."""
    tail = min(load_replays, 20)  # behind a sync: the sample falls in the last ~0.4 s of load
    for _ in range(load_replays - tail):
        after.replay()
    torch.cuda.synchronize()
    for _ in range(tail):
        after.replay()
    sample = gpu_sample()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(REPEATS)]
    for a, b in events:
        a.record()
        g.replay()
        b.record()
    torch.cuda.synchronize()
    return [a.elapsed_time(b) * 1000.0 / launches for a, b in events], sample


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--heat-s", type=float, default=20.0)
    parser.add_argument("--only", help="one case by name; writes h200_sustained_NAME.json")
    parser.add_argument("--self-load", action="store_true",
                        help="heat with the case's own graph (its own flat-out state) instead of "
                             "the GEMMs; the file name gets _self")
    args = parser.parse_args()
    result = {**device_facts(), "method": __doc__, "cases": []}
    a, b = rnd(8192, 8192), rnd(8192, 8192)
    load = capture(lambda x, y: x @ y, (a, b), 16)
    load_us = statistics.median(timed(load, 1)[0])
    result["load_replay_us_cold"] = load_us
    # Every kernel but the step-like mix, or the one case --only names.
    wanted = (lambda name, cls: name == args.only) if args.only else \
        (lambda name, cls: cls != "mix")
    all_cases = [(name, cls, capture(fn, inputs, launches), launches)
                 for name, cls, fn, inputs, launches in cases() if wanted(name, cls)]
    rows = {name: {"name": name, "class": cls, "rounds": []} for name, cls, *_ in all_cases}
    for r in range(ROUNDS):
        for i, (name, _, g, launches) in enumerate(all_cases):
            time.sleep(3.0)
            cold, cold_sample = timed(g, launches)
            seconds = args.heat_s if i == 0 or args.self_load else 2.0
            if args.self_load:
                own_us = statistics.median(cold) * launches
                hot, hot_sample = timed(g, launches, g, int(seconds * 1e6 / own_us))
            else:
                hot, hot_sample = timed(g, launches, load, int(seconds * 1e6 / load_us))
            row = {"round": r, "cold_us": statistics.median(cold), "cold_times_us": cold,
                   "cold_gpu": cold_sample, "sustained_us": statistics.median(hot),
                   "sustained_times_us": hot, "sustained_gpu": hot_sample}
            rows[name]["rounds"].append(row)
            print(f"round {r} {name:32s} cold {row['cold_us']:9.1f} us ({cold_sample['sm_mhz']} "
                  f"MHz)  sustained {row['sustained_us']:9.1f} us ({hot_sample['sm_mhz']} MHz, "
                  f"{hot_sample['power_w']} W)  x{row['sustained_us'] / row['cold_us']:.3f}",
                  flush=True)
    for row in rows.values():
        row["sustained_over_cold"] = statistics.median(
            x["sustained_us"] / x["cold_us"] for x in row["rounds"])
        result["cases"].append(row)
        print(f"{row['name']:32s} sustained / cold x{row['sustained_over_cold']:.3f}")
    os.makedirs(args.out, exist_ok=True)
    name = "h200_sustained" + (f"_{args.only}" if args.only else "") + \
        ("_self" if args.self_load else "") + ".json"
    with open(os.path.join(args.out, name), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
