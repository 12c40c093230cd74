#!/usr/bin/env python3
"""The SM clock a kernel class runs at under the power cap, read by the kernel that counts its
cycles, and the board power it draws at each duty (issue 54, item 3: the data of the clock model).

A one-thread spin kernel (torch.cuda._sleep: it spins until the SM's clock64 has advanced N
cycles) timed between two CUDA events runs N / f: its time is the SM clock f right where it runs.
Per kernel class and duty d: the kernel, then a probe spin of 40,000 cycles (about 20 us, timed),
then, for d < 1, a filler spin of (1 - d) / d of the kernel's cold time (one thread: the SMs idle,
as while a rank waits on communication), launched eagerly back to back for `--seconds` (the host
stays ahead: it waits only on the events of the iteration 64 back). Every kernel and probe is
timed by its own events; NVML is sampled every 20 ms (power, SM clock, reasons); the energy
counter gives the mean power over the last half. Then idle gaps: 10 BF16 GEMMs (14 ms) between
filler spins of 2, 10, 50 ms, probes after every GEMM: how far the clock recovers in a gap and how
fast it falls again. The board's power limit and clocks are read, never set.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_clock.py --out "$OUT"
Writes OUT/h200_clock.json (device facts, limit, per case per duty: cold kernel time, the last
half's median kernel time, probe clock, period, NVML medians and the energy-counter power; per gap
case the probe clocks by position after the gap).
"""
import argparse
import json
import os
import statistics
import time

import pynvml
import torch
import torch.nn.functional as F

from h200_common import device_facts, rnd
from h200_power import Sampler, board_facts

BF16 = torch.bfloat16
FP8 = torch.float8_e4m3fn
PROBE_CYCLES = 40_000
MAX_MHZ = 1980
AHEAD = 64


def kernels():
    """(name, fn, flops, HBM bytes) of one launch."""
    a, b = rnd(8192, 8192), rnd(8192, 8192)
    yield "gemm_bf16_8192", lambda: a @ b, 2 * 8192**3, 3 * 8192**2 * 2
    a8, b8 = rnd(8192, 8192, dtype=FP8), rnd(8192, 8192, dtype=FP8).t()
    one = torch.ones((), device="cuda", dtype=torch.float32)
    yield ("gemm_fp8_8192", lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=BF16),
           2 * 8192**3, 2 * 8192**2 * 2)
    q, k, v = rnd(2, 32, 4096, 128), rnd(2, 32, 4096, 128), rnd(2, 32, 4096, 128)
    yield ("attention_fwd_causal", lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True),
           2 * 2 * 32 * 4096 * 2048 * 256, 4 * 2 * 32 * 4096 * 128 * 2)
    h = rnd(16384, 7168)
    nw = torch.ones(7168, device="cuda", dtype=BF16)
    yield "rmsnorm_16384x7168", lambda: F.rms_norm(h, (7168,), nw), 0, 2 * h.numel() * 2
    g1, g2 = rnd(16384, 8192), rnd(16384, 8192)
    yield "silu_mul_16384x8192", lambda: F.silu(g1) * g2, 0, 3 * g1.numel() * 2 + 2 * g1.numel() * 2
    src = torch.empty(1 << 29, device="cuda", dtype=BF16)
    dst = torch.empty_like(src)
    yield "copy_1gib", lambda: dst.copy_(src), 0, 2 * src.numel() * 2


def ev():
    return torch.cuda.Event(enable_timing=True)


def kernel_then_probe(fn):
    """fn() then the probe spin, queued; their three events (before, between, after)."""
    e = [ev(), ev(), ev()]
    e[0].record()
    fn()
    e[1].record()
    torch.cuda._sleep(PROBE_CYCLES)
    e[2].record()
    return e


def kernel_us(e):
    return e[0].elapsed_time(e[1]) * 1000.0


def probe_mhz(e):
    """The SM clock the probe ran at: its cycles over its microseconds."""
    return PROBE_CYCLES / (e[1].elapsed_time(e[2]) * 1000.0)


def cold_us(fn, n=10):
    time.sleep(3)
    out = []
    for _ in range(n):
        a, b = ev(), ev()
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        out.append(a.elapsed_time(b) * 1000.0)
    return statistics.median(out)


def run_duty(sampler, fn, cold, duty, seconds):
    """The kernel, a timed probe and a filler, back to back for `seconds`."""
    filler = int((1 - duty) / duty * cold * 1e-6 * MAX_MHZ * 1e6) if duty < 1 else 0
    th, samples = sampler.run(seconds)
    t0 = time.time()
    rows, pending = [], []
    half = None
    while time.time() - t0 < seconds:
        e = kernel_then_probe(fn)
        if filler:
            torch.cuda._sleep(filler)
        pending.append((e, time.time() - t0))
        if half is None and time.time() - t0 > seconds / 2:
            torch.cuda.synchronize()
            half = (time.time(), sampler.energy_mj())
        if len(pending) > AHEAD:
            pending[-AHEAD][0][2].synchronize()
    torch.cuda.synchronize()
    end = (time.time(), sampler.energy_mj())
    th.join()
    for i, (e, t) in enumerate(pending):
        row = {"t_s": t, "kernel_us": kernel_us(e), "probe_mhz": probe_mhz(e)}
        if i + 1 < len(pending):
            row["period_us"] = e[0].elapsed_time(pending[i + 1][0][0]) * 1000.0
        rows.append(row)
    late = [r for r in rows if r["t_s"] > seconds / 2]
    tail = [s for s in samples if s["t_s"] > seconds / 2]
    periods = [r["period_us"] for r in late if "period_us" in r]
    kernel = statistics.median(r["kernel_us"] for r in late)
    return {"duty_asked": duty, "filler_cycles": filler, "iterations": len(rows),
            "kernel_us": kernel, "probe_mhz": statistics.median(r["probe_mhz"] for r in late),
            "period_us": statistics.median(periods), "duty": kernel / statistics.median(periods),
            "nvml_sm_mhz": statistics.median(s["sm_mhz"] for s in tail),
            "nvml_power_w": statistics.median(s["power_w"] for s in tail),
            "energy_mean_w": (end[1] - half[1]) / 1000.0 / (end[0] - half[0]),
            "reasons": sorted({s["reasons"] for s in tail}),
            "first_second": [r for r in rows if r["t_s"] < 1.0][:400:4]}


def run_gaps(sampler, fn, gap_ms, seconds, burst=10):
    """Bursts of `burst` kernels, each followed by a probe, between idle spins of `gap_ms`."""
    gap = int(gap_ms * 1e-3 * MAX_MHZ * 1e6)
    th, samples = sampler.run(seconds)
    t0 = time.time()
    bursts = []
    while time.time() - t0 < seconds:
        events = [kernel_then_probe(fn) for _ in range(burst)]
        torch.cuda._sleep(gap)
        bursts.append((events, time.time() - t0))
        if len(bursts) > 8:
            bursts[-8][0][-1][2].synchronize()
    torch.cuda.synchronize()
    th.join()
    late = [b for b, t in bursts if t > seconds / 2]
    by_position = []
    for i in range(burst):
        by_position.append({
            "position": i,
            "probe_mhz": statistics.median(probe_mhz(b[i]) for b in late),
            "kernel_us": statistics.median(kernel_us(b[i]) for b in late)})
    tail = [s for s in samples if s["t_s"] > seconds / 2]
    return {"gap_ms": gap_ms, "burst": burst, "bursts": len(bursts), "by_position": by_position,
            "nvml_power_w": statistics.median(s["power_w"] for s in tail),
            "nvml_sm_mhz": statistics.median(s["sm_mhz"] for s in tail)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--duties", default="1.0,0.8,0.65,0.5")
    args = parser.parse_args()
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    sampler = Sampler(h)
    result = {**device_facts(), **board_facts(h),
              "probe_cycles": PROBE_CYCLES, "method": __doc__.split("\n\n")[1],
              "cases": [], "gaps": []}
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "h200_clock.json")
    # The probe alone at rest: the clock an idle GPU's lone thread sees.
    result["probe_alone_mhz"] = PROBE_CYCLES / cold_us(lambda: torch.cuda._sleep(PROBE_CYCLES))
    print(f"limit {result['power_limit_w']} W; probe alone {result['probe_alone_mhz']:.0f} MHz",
          flush=True)
    gemm = None
    for name, fn, flops, hbm in kernels():
        if gemm is None:
            gemm = fn
        cold = cold_us(fn)
        case = {"case": name, "flops": flops, "hbm_bytes": hbm, "cold_us": cold, "duties": []}
        for duty in (float(d) for d in args.duties.split(",")):
            time.sleep(2)
            r = run_duty(sampler, fn, cold, duty, args.seconds)
            case["duties"].append(r)
            print(f"{name:24s} d {r['duty']:.2f}  cold {cold:8.1f}  kernel {r['kernel_us']:8.1f} us "
                  f"(x{r['kernel_us'] / cold:.3f})  probe {r['probe_mhz']:5.0f}  nvml {r['nvml_sm_mhz']:5.0f} MHz"
                  f"  {r['energy_mean_w']:5.1f} W", flush=True)
        result["cases"].append(case)
        with open(path, "w") as f:
            json.dump(result, f)
    for gap_ms in (2, 10, 50):
        time.sleep(2)
        r = run_gaps(sampler, gemm, gap_ms, args.seconds)
        result["gaps"].append(r)
        print(f"gap {gap_ms:3d} ms: probe after GEMM #1..10 "
              + " ".join(f"{p['probe_mhz']:.0f}" for p in r["by_position"])
              + f"  {r['nvml_power_w']:.0f} W", flush=True)
        with open(path, "w") as f:
            json.dump(result, f)


if __name__ == "__main__":
    main()
