#!/usr/bin/env python3
"""Power and SM clock of each kernel class run flat out for many seconds, beside its cold time
(issue 54, item 3: the data of a power and clock model; nothing fitted here).

Per case (a CUDA graph of back-to-back launches, a few milliseconds a replay): the GPU idles 3 s,
10 replays are timed with CUDA events (cold); then the graph is replayed back to back for
`--seconds` (default 15) with the host never letting the queue drain (it waits on the event of
the replay 32 back), every replay timed by its own pair of events, while a thread samples NVML
every 20 ms: board power (the instant field where the driver has it, else the averaged one), SM
and memory clocks, temperature, the clock-event (throttle) reasons; the energy counter is read at
the start and end of the last 10 s (its mean power). Then 10 s of idle, sampled the same way. Two
mixes: a BF16 GEMM then a copy in one graph (compute and memory in turn), and the GEMM followed by
a spin of one thread (the SMs mostly idle) of about its own length (50% duty). The board's power
limit is read, never set.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_power.py --out "$OUT"
With --bytes-sweep: BF16 GEMMs of one output over K instead (bytes_cases), to
OUT/gemm_bytes_power.json.
Writes OUT/h200_power.json: device facts, limits, per case its work per replay (FLOPs, bytes), cold
median, per second of the sustained run the median replay time, the NVML samples, the mean power
from the energy counter over the last 10 s.
"""
import argparse
import json
import os
import statistics
import threading
import time

import pynvml
import torch
import torch.nn.functional as F

from h200_common import capture, device_facts, rnd

DEV = "cuda"
BF16 = torch.bfloat16
FP8 = torch.float8_e4m3fn
SAMPLE_S = 0.02
AHEAD = 32


class Sampler:
    """NVML samples every SAMPLE_S seconds on a thread, while `running`."""

    def __init__(self, handle):
        self.h = handle
        self.samples = []
        self.instant = self._instant_field()

    def _instant_field(self):
        field = getattr(pynvml, "NVML_FI_DEV_POWER_INSTANT", None)
        if field is None:
            return None
        try:
            v = pynvml.nvmlDeviceGetFieldValues(self.h, [field])[0]
            return field if v.nvmlReturn == 0 else None
        except pynvml.NVMLError:
            return None

    def power_w(self):
        if self.instant is not None:
            v = pynvml.nvmlDeviceGetFieldValues(self.h, [self.instant])[0]
            if v.nvmlReturn == 0:
                return v.value.uiVal / 1000.0
        return pynvml.nvmlDeviceGetPowerUsage(self.h) / 1000.0

    def sample(self, t0):
        try:
            reasons = pynvml.nvmlDeviceGetCurrentClocksEventReasons(self.h)
        except (AttributeError, pynvml.NVMLError):
            reasons = pynvml.nvmlDeviceGetCurrentClocksThrottleReasons(self.h)
        return {"t_s": round(time.time() - t0, 4), "power_w": self.power_w(),
                "sm_mhz": pynvml.nvmlDeviceGetClockInfo(self.h, pynvml.NVML_CLOCK_SM),
                "mem_mhz": pynvml.nvmlDeviceGetClockInfo(self.h, pynvml.NVML_CLOCK_MEM),
                "temp_c": pynvml.nvmlDeviceGetTemperature(self.h, pynvml.NVML_TEMPERATURE_GPU),
                "reasons": int(reasons)}

    def run(self, seconds):
        """Samples for `seconds` on a thread; returns (thread, list)."""
        out = []
        t0 = time.time()

        def loop():
            while time.time() - t0 < seconds:
                out.append(self.sample(t0))
                time.sleep(SAMPLE_S)
        th = threading.Thread(target=loop)
        th.start()
        return th, out

    def energy_mj(self):
        return pynvml.nvmlDeviceGetTotalEnergyConsumption(self.h)


def board_facts(h):
    """The board's power limits and top clocks, read (never set)."""
    return {"power_limit_w": pynvml.nvmlDeviceGetEnforcedPowerLimit(h) / 1000.0,
            "default_power_limit_w": pynvml.nvmlDeviceGetPowerManagementDefaultLimit(h) / 1000.0,
            "max_sm_mhz": pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM),
            "max_mem_mhz": pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_MEM)}


def cases():
    """(name, class, fn, flops per replay, HBM bytes per replay)."""
    a, b = rnd(8192, 8192), rnd(8192, 8192)
    yield "gemm_bf16_8192", "gemm_bf16", lambda: a @ b, 2 * 8192**3, 3 * 8192**2 * 2
    x, w = rnd(4096, 7168), rnd(7168, 2048)
    yield ("gemm_bf16_4096x7168x2048", "gemm_bf16", lambda: [x @ w for _ in range(4)],
           4 * 2 * 4096 * 7168 * 2048, 4 * 2 * (4096 * 7168 + 7168 * 2048 + 4096 * 2048))
    a8, b8 = rnd(8192, 8192, dtype=FP8), rnd(8192, 8192, dtype=FP8).t()
    one = torch.ones((), device=DEV, dtype=torch.float32)
    yield ("gemm_fp8_8192", "gemm_fp8",
           lambda: [torch._scaled_mm(a8, b8, one, one, out_dtype=BF16) for _ in range(2)],
           2 * 2 * 8192**3, 2 * (2 * 8192**2 + 2 * 8192**2))
    if hasattr(torch, "_grouped_mm"):
        offs = torch.tensor([4096 * (i + 1) for i in range(8)], device=DEV, dtype=torch.int32)
        ga, gw = rnd(8 * 4096, 7168), rnd(8, 2048, 7168).transpose(-2, -1)
        yield ("grouped_bf16_8x4096x7168x2048", "grouped_gemm",
               lambda: torch._grouped_mm(ga, gw, offs=offs), 8 * 2 * 4096 * 7168 * 2048,
               2 * (8 * 4096 * 7168 + 8 * 7168 * 2048 + 8 * 4096 * 2048))
    q = rnd(2, 32, 4096, 128)
    k, v = rnd(2, 32, 4096, 128), rnd(2, 32, 4096, 128)
    yield ("attention_fwd_causal", "attention",
           lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True),
           2 * 2 * 32 * 4096 * 2048 * 256, 4 * 2 * 32 * 4096 * 128 * 2)
    src = torch.empty(1 << 29, device=DEV, dtype=BF16)
    dst = torch.empty_like(src)
    yield "copy_1gib", "copy", lambda: dst.copy_(src), 0, 2 * src.numel() * 2
    h = rnd(16384, 7168)
    nw = torch.ones(7168, device=DEV, dtype=BF16)
    yield ("rmsnorm_16384x7168", "norm", lambda: [F.rms_norm(h, (7168,), nw) for _ in range(4)], 0,
           4 * 2 * h.numel() * 2)
    g1, g2 = rnd(16384, 8192), rnd(16384, 8192)
    yield ("silu_mul_16384x8192", "elementwise", lambda: [F.silu(g1) * g2 for _ in range(2)], 0,
           2 * 3 * g1.numel() * 2)
    yield ("mix_gemm_then_copy", "mix", lambda: (a @ b, dst.copy_(src)), 2 * 8192**3,
           3 * 8192**2 * 2 + 2 * src.numel() * 2)
    # A one-thread spin after the GEMM: about the GEMM's own cold time (1.4 ms at 1.98 GHz).
    yield ("gemm_duty_50", "duty", lambda: (a @ b, torch.cuda._sleep(2_700_000)), 2 * 8192**3,
           3 * 8192**2 * 2)


def bytes_cases():
    """BF16 GEMMs of one output (8192 x 8192) over K from 256 to 8192, each launched often enough
    for a replay of a few milliseconds: HBM bytes per FLOP over 17x (1/K + 2/8192 elements per
    multiply-add), so that their power flat out separates what their FLOPs draw from what their
    bytes do (issue 54: a GEMM's bytes are priced at the copy kernel's energy per byte)."""
    m = n = 8192
    for k in (256, 512, 1024, 2048, 8192):
        a, b = rnd(m, k), rnd(k, n)
        calls = max(1, 8192 // k)
        yield (f"gemm_bf16_8192x8192x{k}", "gemm_bf16",
               lambda a=a, b=b, calls=calls: [a @ b for _ in range(calls)],
               calls * 2 * m * n * k, calls * 2 * (m * k + k * n + m * n))


def sustained(g, seconds):
    """Replays back to back for `seconds`; each replay's microseconds, with its end time."""
    events = []
    t0 = time.time()
    while time.time() - t0 < seconds:
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        events.append((a, b, time.time() - t0))
        if len(events) > AHEAD:
            events[-AHEAD][1].synchronize()
    torch.cuda.synchronize()
    return [(a.elapsed_time(b) * 1000.0, t) for a, b, t in events]


def cold(g, n=10):
    times = []
    for _ in range(n):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b) * 1000.0)
    return statistics.median(times), times


def per_second(replays):
    seconds = {}
    for us, t in replays:
        seconds.setdefault(int(t), []).append(us)
    return [{"second": s, "replays": len(v), "median_us": statistics.median(v)}
            for s, v in sorted(seconds.items())]


def measure(sampler, name, klass, fn, flops, hbm_bytes, seconds):
    g = capture(fn, warm=5)
    time.sleep(3)
    cold_us, cold_times = cold(g)
    th, samples = sampler.run(seconds + 0.5)
    energy = {}

    def energy_mark():
        time.sleep(max(0.0, seconds - 10))
        energy["start"] = (time.time(), sampler.energy_mj())
    mark = threading.Thread(target=energy_mark)
    mark.start()
    reps = sustained(g, seconds)
    end = (time.time(), sampler.energy_mj())
    mark.join()
    th.join()
    mean_w = (end[1] - energy["start"][1]) / 1000.0 / (end[0] - energy["start"][0])
    last = [us for us, t in reps if t > seconds - 5]
    del g
    return {"case": name, "class": klass, "flops_per_replay": flops, "hbm_bytes_per_replay": hbm_bytes,
            "cold_us": cold_us, "cold_times_us": cold_times,
            "sustained_last5s_median_us": statistics.median(last),
            "per_second": per_second(reps), "energy_mean_w_last10s": mean_w,
            "samples": samples}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--only", default="")
    parser.add_argument("--bytes-sweep", action="store_true",
                        help="the BF16 GEMMs over K (bytes_cases) instead, to OUT/gemm_bytes_power.json")
    args = parser.parse_args()
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    sampler = Sampler(h)
    result = {**device_facts(), **board_facts(h),
              "power_field": "instant" if sampler.instant is not None else "averaged",
              "method": __doc__.split("\n\n")[1], "cases": []}
    print(f"limit {result['power_limit_w']} W, max SM {result['max_sm_mhz']} MHz, "
          f"power field {result['power_field']}", flush=True)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "gemm_bytes_power.json" if args.bytes_sweep else "h200_power.json")
    time.sleep(5)
    th, idle = sampler.run(10)
    e0 = (time.time(), sampler.energy_mj())
    th.join()
    e1 = (time.time(), sampler.energy_mj())
    result["idle"] = {"energy_mean_w": (e1[1] - e0[1]) / 1000.0 / (e1[0] - e0[0]), "samples": idle}
    print(f"idle {result['idle']['energy_mean_w']:.1f} W", flush=True)
    for name, klass, fn, flops, hbm in (bytes_cases() if args.bytes_sweep else cases()):
        if args.only and name not in args.only.split(","):
            continue
        r = measure(sampler, name, klass, fn, flops, hbm, args.seconds)
        result["cases"].append(r)
        tail = [s for s in r["samples"] if s["t_s"] > args.seconds - 5]
        print(f"{name:32s} cold {r['cold_us']:9.1f} us  sustained {r['sustained_last5s_median_us']:9.1f} us "
              f"(x{r['sustained_last5s_median_us'] / r['cold_us']:.3f})  "
              f"{r['energy_mean_w_last10s']:6.1f} W  SM {statistics.median(s['sm_mhz'] for s in tail):.0f} MHz",
              flush=True)
        with open(path, "w") as f:
            json.dump(result, f)
        torch.cuda.empty_cache()
    with open(path, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
