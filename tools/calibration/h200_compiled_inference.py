#!/usr/bin/env python3
"""Prefill and decode with the fused stack, and serving's steps at the power cap (issue 54:
prefill with torch.compile was never measured; the serving loop prices its steps at the top
clock). Validation data: nothing is fitted to these steps.

The model is h200_decode.py's Llama-3.1-8B-dims decoder (32 layers, random BF16 weights, GQA
SDPA over a static KV cache, head over 128,256 at the last position).
  compiled   each layer's block under torch.compile (default mode, dynamic=False: one graph per
             shape, reused by the 32 layers), the head eager; prefill (1-8 prompts of 2K-8K
             tokens) and decode steps (batch 1-256, context 1K-8K), each captured as one CUDA
             graph and timed as h200_decode.py's (CUDA events around replays, median of 10).
             Dynamo's unique graph count is recorded per case: a graph that fell back to eager
             would show in it.
  sustained  one eager prefill (4 x 8192 tokens) and one eager decode step (batch 64, context
             4096), each one CUDA graph replayed back to back for `--seconds` (default 20) after
             3 s idle: cold (the first 5 replays) and each replay timed, NVML sampled every 50 ms
             (power, SM clock), the energy counter read over the last 10 s.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_compiled_inference.py --out "$OUT"
Writes OUT/h200_compiled_inference.json.
"""
import argparse
import json
import os
import statistics
import time

import pynvml
import torch
import torch._dynamo

from h200_common import capture, device_facts, run_cases
from h200_decode import BF16, DEV, HIDDEN, Llama, kv_caches
from h200_steps import run_sustained

REPEATS = 10


def unique_graphs():
    return torch._dynamo.utils.counters["stats"]["unique_graphs"]


def compiled_cases(model, decode_grid, prefill_grid):
    weights = model.weight_bytes()
    for b, ctx in decode_grid:
        caches = kv_caches(b, ctx)
        x = torch.randn(b, 1, HIDDEN, device=DEV, dtype=BF16)
        pos = torch.tensor([ctx - 1], device=DEV)
        yield ({"part": "decode_step", "stack": "compiled", "batch": b, "context": ctx,
                "weight_bytes": weights, "graphs_before": unique_graphs()},
               lambda x, pos, caches=caches: model.forward(x, pos, caches), (x, pos), 1)
        del caches
    for prompts, length in prefill_grid:
        x = torch.randn(prompts, length, HIDDEN, device=DEV, dtype=BF16)
        pos = torch.arange(length, device=DEV)
        yield ({"part": "prefill", "stack": "compiled", "prompts": prompts, "prompt_len": length,
                "weight_bytes": weights, "graphs_before": unique_graphs()},
               lambda x, pos: model.forward(x, pos), (x, pos), 1)


def sustained(h, what, fn, seconds):
    g = capture(fn, warm=3)

    def replay_us():
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        torch.cuda.synchronize()
        return a.elapsed_time(b) * 1000.0

    time.sleep(3)
    cold = [replay_us() for _ in range(5)]
    row = {**what, "cold_us": statistics.median(cold), "cold_times_us": cold,
           **run_sustained(h, replay_us, seconds)}
    print(what, f"cold {row['cold_us'] / 1e3:.2f} ms, sustained "
          f"{row['sustained_last5s_median_us'] / 1e3:.2f} ms, {row['energy_mean_w_last10s']:.0f} W,"
          f" SM {row['sm_mhz_last5s_median']:.0f} MHz", flush=True)
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--budget-s", type=float, default=300)
    args = parser.parse_args()
    torch._dynamo.config.cache_size_limit = 256
    torch._dynamo.config.accumulated_cache_size_limit = 1024
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "h200_compiled_inference.json")
    result = {**device_facts(), "method": __doc__.split("\n\n")[1], "cases": [], "skipped": [],
              "sustained": []}
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    model = Llama()
    with torch.no_grad():
        x = torch.randn(4, 8192, HIDDEN, device=DEV, dtype=BF16)
        pos = torch.arange(8192, device=DEV)
        result["sustained"].append(sustained(h, {"part": "prefill", "stack": "eager", "prompts": 4,
                                                 "prompt_len": 8192},
                                             lambda: model.forward(x, pos), args.seconds))
        del x
        caches = kv_caches(64, 4096)
        x = torch.randn(64, 1, HIDDEN, device=DEV, dtype=BF16)
        pos = torch.tensor([4095], device=DEV)
        result["sustained"].append(sustained(h, {"part": "decode_step", "stack": "eager",
                                                 "batch": 64, "context": 4096},
                                             lambda: model.forward(x, pos, caches), args.seconds))
        del caches, x
        torch.cuda.empty_cache()
        with open(path, "w") as f:
            json.dump(result, f)
        model.block = torch.compile(model.block, dynamic=False)
        decode_grid = [(1, 1024), (8, 4096), (64, 4096), (256, 2048)]
        prefill_grid = [(1, 2048), (1, 8192), (2, 4096), (4, 8192), (8, 4096)]
        run_cases([compiled_cases(model, decode_grid, prefill_grid)], result, path,
                  args.budget_s, REPEATS)
        result["unique_graphs_at_end"] = unique_graphs()
        with open(path, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
