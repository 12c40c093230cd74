#!/usr/bin/env python3
"""Fits the per-GPU pace of sim/variability (variability.gpu_cv, variability.gpu_pace_interval) to
the H200 run-to-run measurement models/calibration/h200/variability/h200_variability.json
(tools/calibration/h200_variability.py). Pure Python, no GPU:
    python3 tools/calibration/fit_variability.py

The sustained run replays a training-step-like CUDA graph (~1.3 ms) back to back for a minute.
The coefficient of variation of the time of w consecutive replays (windows of w x 1.3 ms) says
how the GPU's pace varies with time: if the pace were constant over blocks of length L with
independent blocks of cv c, a window of length W >= L would have cv c x sqrt(L / W), and one
of W <= L cv c. Fitted: c = the cv of single replays; L by least squares on log cv over the
windows of 100 ms and longer. Written at the precision the scenario defaults take (c to three
decimals, L to whole milliseconds) to models/calibration/h200/variability/fit_variability.json,
which the build embeds (the defaults of sim/variability/variability_spec.hpp and parameters.hpp).
"""
import json
import math
import os
import statistics

from fitted_constants import write_fit

SOURCE = "models/calibration/h200/variability/h200_variability.json"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DATA = os.path.join(ROOT, SOURCE)
OUTPUT = os.path.join(ROOT, "models/calibration/h200/variability/fit_variability.json")


def window_cv(times, w):
    sums = [sum(times[i:i + w]) for i in range(0, len(times) - w + 1, w)]
    mean = statistics.mean(sums)
    return mean / 1e3, statistics.pstdev(sums) / mean, len(sums)


def fit():
    d = json.load(open(DATA))
    print(f"{d['gpu']}, driver {d['driver']}, torch {d['torch']}")
    for name, g in d["graphs"].items():
        s = g["summary"]
        mhz = sorted(x["sm_mhz"] for x in g["samples"])
        watts = sorted(x["power_w"] for x in g["samples"])
        print(f"{name:20s} {s['n']:6d} replays, mean {s['mean_us']:8.1f} us, cv {s['cv']:.4f}; "
              f"SM clock {mhz[0]:.0f}-{mhz[-1]:.0f} MHz (median {mhz[len(mhz) // 2]:.0f}), "
              f"power median {watts[len(watts) // 2]:.0f} W")
    times = d["graphs"]["step_like_sustained"]["times_us"]
    c = window_cv(times, 1)[1]
    print("\nstep_like_sustained: window (ms), cv, windows")
    long_windows = []
    for w in [1, 3, 10, 30, 100, 300, 1000, 3000, 7500]:
        ms, cv, n = window_cv(times, w)
        print(f"  {ms:9.1f}  {cv:.4f}  {n}")
        if ms >= 100:
            long_windows.append((ms, cv))
    # log cv = log c + 0.5 log L - 0.5 log W: least squares for log L.
    log_l = statistics.mean(2 * (math.log(cv) - math.log(c)) + math.log(ms) for ms, cv in long_windows)
    interval = math.exp(log_l)
    print(f"\nfitted: gpu_cv {c:.3f} per block of {interval:.1f} ms")
    for ms, cv in long_windows:
        print(f"  window {ms:9.1f} ms: measured cv {cv:.4f}, model {c * math.sqrt(interval / ms):.4f}")
    return {"source": [SOURCE], "script": "tools/calibration/fit_variability.py",
            "constants": {"gpu_cv": round(c, 3), "gpu_pace_interval_ms": round(interval)}}


def main():
    write_fit(fit(), OUTPUT)


if __name__ == "__main__":
    main()
