#!/usr/bin/env python3
"""Whole training steps on one H200, cold and sustained, with their traces (issue 54, items 1 and
3: what a step runs besides its layers, and the step at the power cap; validation data, nothing
fitted here).

A step: token embedding, `layers` transformer layers of h200_layers.py's modules, the final
RMSNorm, the output head, the logits cast to FP32 and cross-entropy (as eager PyTorch training
code computes the loss), backward, AdamW (foreach) and zeroing the gradients. Models:
  dense   Llama-3.1-8B-shaped layers (GQA 32 / 8, SwiGLU 14336), vocabulary 128256, 4 layers,
          2 x 4096 tokens
  moe     Qwen3-30B-A3B-shaped layers (hidden 2048, GQA 32 / 4 of 128, 128 experts of 768,
          top-8, softmax), vocabulary 151936, 8 layers, 2 x 4096 tokens
Each in eager PyTorch and compiled (torch.compile of the model and loss). Per model and mode:
3 warm-up steps; cold: after 3 s idle, 5 steps timed with CUDA events (median); sustained: steps
back to back for `--seconds` (default 20), each timed, NVML sampled every 50 ms (power, SM clock)
and the energy counter read over the last 10 s; one step's torch.profiler Chrome trace.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_steps.py --out "$OUT"
Writes OUT/h200_steps.json and OUT/steps_<model>_<mode>.json (the traces).
"""
import argparse
import json
import os
import statistics
import threading
import time

import pynvml
import torch
import torch.nn as nn
import torch.nn.functional as F

from h200_common import device_facts, export_trace
from h200_layers import GQA, MoE, SwiGLU, Layer, probe_native_backward, rope_tables

DEV = "cuda"
BF16 = torch.bfloat16

MODELS = {
    "dense": dict(hidden=4096, vocab=128256, layers=4, batch=2, seq=4096, rope_dim=128,
                  attn=lambda: GQA(4096, 32, 8), mlp=lambda: SwiGLU(4096, 14336)),
    "moe": dict(hidden=2048, vocab=151936, layers=8, batch=2, seq=4096, rope_dim=128,
                attn=lambda: GQA(2048, 32, 4, head_dim=128),
                mlp=lambda: MoE(2048, 768, 128, 128, 8, "softmax")),
}


class Model(nn.Module):
    def __init__(self, spec):
        super().__init__()
        self.embed = nn.Embedding(spec["vocab"], spec["hidden"])
        self.layers = nn.ModuleList(Layer(spec["attn"](), spec["mlp"](), spec["hidden"], "rms")
                                    for _ in range(spec["layers"]))
        self.norm = nn.RMSNorm(spec["hidden"])
        self.head = nn.Linear(spec["hidden"], spec["vocab"], bias=False)

    def forward(self, tokens, targets, cos, sin):
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, cos, sin)
        logits = self.head(self.norm(x)).float()
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))


def sample_loop(h, stop, out, t0):
    while not stop.is_set():
        out.append({"t_s": round(time.time() - t0, 3),
                    "power_w": pynvml.nvmlDeviceGetPowerUsage(h) / 1000.0,
                    "sm_mhz": pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)})
        time.sleep(0.05)


def run_sustained(h, one_us, seconds):
    """one_us() (a step's microseconds) back to back for `seconds`, NVML sampled every 50 ms beside
    it and the energy counter read over the last 10 s: the run's fields of a result row."""
    samples, stop = [], threading.Event()
    t0 = time.time()
    th = threading.Thread(target=sample_loop, args=(h, stop, samples, t0))
    th.start()
    steps, e_start = [], None
    while time.time() - t0 < seconds:
        if e_start is None and time.time() - t0 > seconds - 10:
            e_start = (time.time(), pynvml.nvmlDeviceGetTotalEnergyConsumption(h))
        steps.append((round(time.time() - t0, 3), one_us()))
    e_end = (time.time(), pynvml.nvmlDeviceGetTotalEnergyConsumption(h))
    stop.set()
    th.join()
    last = [t for s, t in steps if s > seconds - 5]
    tail = [s for s in samples if s["t_s"] > seconds - 5]
    return {"sustained_last5s_median_us": statistics.median(last), "sustained": steps,
            "samples": samples,
            "energy_mean_w_last10s": (e_end[1] - e_start[1]) / 1000.0 / (e_end[0] - e_start[0]),
            "sm_mhz_last5s_median": statistics.median(s["sm_mhz"] for s in tail)}


def measure(h, name, spec, mode, seconds, out_dir):
    torch.manual_seed(0)
    model = Model(spec).to(DEV, BF16)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5, foreach=True)
    run = torch.compile(model) if mode == "compiled" else model
    cos, sin = rope_tables(spec["seq"], spec["rope_dim"])
    tokens = torch.randint(0, spec["vocab"], (spec["batch"], spec["seq"]), device=DEV)
    targets = torch.randint(0, spec["vocab"], (spec["batch"], spec["seq"]), device=DEV)

    def step():
        loss = run(tokens, targets, cos, sin)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    def timed(n):
        times = []
        for _ in range(n):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            step()
            b.record()
            torch.cuda.synchronize()
            times.append(a.elapsed_time(b) * 1000.0)
        return times

    t0 = time.time()
    timed(3)
    warm_s = time.time() - t0
    time.sleep(3)
    cold = timed(5)
    sustained = run_sustained(h, lambda: timed(1)[0], seconds)
    trace = os.path.join(out_dir, f"steps_{name}_{mode}.json")
    export_trace(step, trace)
    dims = {k: v for k, v in spec.items() if not callable(v)}
    return {"model": name, "mode": mode, **dims,
            "params": sum(p.numel() for p in model.parameters()), "warmup_s": warm_s,
            "cold_us": statistics.median(cold), "cold_times_us": cold, **sustained,
            "peak_memory_bytes": torch.cuda.max_memory_allocated(),
            "trace": os.path.basename(trace)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--modes", default="eager,compiled")
    parser.add_argument("--models", default=",".join(MODELS))
    args = parser.parse_args()
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    os.makedirs(args.out, exist_ok=True)
    result = {**device_facts(), "method": __doc__.split("\n\n")[1],
              "grouped_mm_native_backward": probe_native_backward(), "runs": [], "skipped": []}
    path = os.path.join(args.out, "h200_steps.json")
    for mode in args.modes.split(","):
        for name in args.models.split(","):
            try:
                torch.cuda.reset_peak_memory_stats()
                r = measure(h, name, MODELS[name], mode, args.seconds, args.out)
                result["runs"].append(r)
                print(f"{name:6s} {mode:9s} cold {r['cold_us'] / 1e3:8.2f} ms  sustained "
                      f"{r['sustained_last5s_median_us'] / 1e3:8.2f} ms "
                      f"(x{r['sustained_last5s_median_us'] / r['cold_us']:.3f})  "
                      f"{r['energy_mean_w_last10s']:5.0f} W  SM {r['sm_mhz_last5s_median']:.0f} MHz  "
                      f"warm-up {r['warmup_s']:.0f} s", flush=True)
            except Exception as e:  # noqa: BLE001 - recorded, not fatal
                result["skipped"].append(f"{name} {mode}: {type(e).__name__}: {str(e)[:300]}")
                print(f"{name} {mode} skipped: {type(e).__name__}: {str(e)[:300]}", flush=True)
            torch.cuda.empty_cache()
            torch._dynamo.reset()
            with open(path, "w") as f:
                json.dump(result, f)


if __name__ == "__main__":
    main()
