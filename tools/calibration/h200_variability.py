#!/usr/bin/env python3
"""Run-to-run spread of the same GPU work on one H200 (issue 35, item 1: the distribution a step's
per-GPU compute speed is drawn from). Measurement only: nothing is fitted here.

Three CUDA graphs, each replayed back to back thousands of times, every replay timed with CUDA
events (one pair per replay, read after the loop), with the GPU's SM and memory clocks, power
draw and temperature sampled by nvidia-smi every SAMPLE_EVERY replays (the time of each sample
recorded, so that slow replays can be matched to clocks):
  step_like  a training-step-like mix, about 10 ms: BF16 GEMMs of DeepSeek-V3 layer shapes
             (4096 tokens), an FP32 softmax, a copy, a norm
  gemm       one BF16 8192^3 GEMM (compute-bound, the clock's share of the spread)
  copy       a 1 GiB device copy (HBM-bound)
Then the step_like graph for a sustained minute in one stretch (thermal and power steady state).
With --duty, instead: the step_like graph for 30 s at each of two duty cycles, each replay
followed by an idle spin kernel (torch.cuda._sleep) of 1/4 or 1 times its length, as a step's
GPUs idle at synchronizations (OUT/h200_variability_duty.json).

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_variability.py --out "$OUT" [--quick]
Writes OUT/h200_variability.json: device facts, method, per graph the replay times (us), their
percentiles and coefficient of variation, and the clock/power samples.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import torch
import torch.nn.functional as F

from h200_common import capture, device_facts

DEV = "cuda"
BF16 = torch.bfloat16
SAMPLE_EVERY = 50
QUERY = "clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active"


def gpu_sample():
    out = subprocess.run(["nvidia-smi", f"--query-gpu={QUERY}", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True).stdout.strip().split(",")
    keys = ["sm_mhz", "mem_mhz", "power_w", "temp_c", "throttle"]
    sample = {"t_s": time.time()}
    for k, v in zip(keys, out):
        v = v.strip()
        try:
            sample[k] = float(v)
        except ValueError:
            sample[k] = v
    return sample


def step_like():
    tokens, hidden = 4096, 7168
    x = torch.randn(tokens, hidden, device=DEV, dtype=BF16)
    w = [torch.randn(hidden, n, device=DEV, dtype=BF16) * 0.01 for n in (1536, 2048, 4096)]
    w_back = [torch.randn(n, hidden, device=DEV, dtype=BF16) * 0.01 for n in (1536, 2048, 4096)]
    scores = torch.randn(tokens, 4096, device=DEV, dtype=torch.float32)
    norm_w = torch.ones(hidden, device=DEV, dtype=BF16)
    buf = torch.empty_like(x)

    def fn():
        h = F.rms_norm(x, (hidden,), norm_w)
        for a, b in zip(w, w_back):
            h = (h @ a) @ b
        torch.softmax(scores, dim=-1)
        buf.copy_(h)
    return fn


def gemm():
    a = torch.randn(8192, 8192, device=DEV, dtype=BF16)
    b = torch.randn(8192, 8192, device=DEV, dtype=BF16)
    return lambda: a @ b


def copy():
    src = torch.empty(1 << 29, device=DEV, dtype=BF16)
    dst = torch.empty_like(src)
    return lambda: dst.copy_(src)


def replays(g, n, idle_cycles=0):
    """n replays back to back, each between its own pair of events (and, with idle_cycles, followed
    by a one-thread spin kernel of that many cycles, untimed); clocks sampled as they run."""
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(n)]
    samples = []
    for i, (a, b) in enumerate(events):
        a.record()
        g.replay()
        b.record()
        if idle_cycles:
            torch.cuda._sleep(idle_cycles)
        if i % SAMPLE_EVERY == 0:
            b.synchronize()
            samples.append({"replay": i, **gpu_sample()})
    torch.cuda.synchronize()
    return [a.elapsed_time(b) * 1000.0 for a, b in events], samples


def duty_main(out):
    result = {**device_facts(),
              "method": "step_like replayed, each replay followed by an idle spin kernel of "
                        "idle_per_busy x its time; only replays timed; nvidia-smi every 50",
              "graphs": {}}
    g = capture(step_like())
    per_us = statistics.fmean(replays(g, 200)[0])
    for idle in (0.25, 1.0):
        n = int(30 / (per_us * (1 + idle) / 1e6))
        # The spin kernel's cycles: idle x a replay's time at the clock's ~1.7 GHz.
        times, samples = replays(g, n, int(idle * per_us * 1.7e3))
        name = f"step_like_idle_{idle:g}"
        result["graphs"][name] = {"idle_per_busy": idle, "summary": summary(times),
                                  "times_us": times, "samples": samples}
        print(name, json.dumps(result["graphs"][name]["summary"]), flush=True)
    with open(os.path.join(out, "h200_variability_duty.json"), "w") as f:
        json.dump(result, f)


def summary(times):
    s = sorted(times)
    pick = lambda p: s[min(len(s) - 1, max(0, int(round(p * len(s))) - 1))]
    mean = statistics.fmean(s)
    return {"n": len(s), "mean_us": mean, "cv": statistics.pstdev(s) / mean,
            "p01_us": pick(0.01), "p10_us": pick(0.10), "p50_us": pick(0.50),
            "p90_us": pick(0.90), "p99_us": pick(0.99), "max_us": s[-1]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--duty", action="store_true")
    args = ap.parse_args()
    if args.duty:
        duty_main(args.out)
        return
    counts = {"step_like": 3000, "gemm": 3000, "copy": 3000}
    if args.quick:
        counts = {k: 100 for k in counts}
    result = {**device_facts(),
              "method": "each graph replayed back to back, every replay between its own CUDA "
                        "events; nvidia-smi sampled every 50 replays (" + QUERY + ")",
              "graphs": {}}
    for name, make in (("step_like", step_like), ("gemm", gemm), ("copy", copy)):
        g = capture(make())
        times, samples = replays(g, counts[name])
        result["graphs"][name] = {"summary": summary(times), "times_us": times,
                                  "samples": samples}
        print(name, json.dumps(result["graphs"][name]["summary"]), flush=True)
    # A sustained stretch: the step-like graph for about a minute (fewer with --quick).
    g = capture(step_like())
    per = statistics.fmean(result["graphs"]["step_like"]["times_us"]) / 1e6
    n = 50 if args.quick else int(60 / per)
    times, samples = replays(g, n)
    result["graphs"]["step_like_sustained"] = {"summary": summary(times), "times_us": times,
                                               "samples": samples}
    print("step_like_sustained", json.dumps(result["graphs"]["step_like_sustained"]["summary"]),
          flush=True)
    with open(os.path.join(args.out, "h200_variability.json"), "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
