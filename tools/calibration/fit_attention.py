#!/usr/bin/env python3
"""Fits the fused-attention terms of models/cost/kernel_cost.cpp to the attention cases of
models/calibration/h200/h200_kernels.json that are not held out, and reports the error on the
fitted and on the held-out cases; writes the terms to models/calibration/h200/fit_attention.json,
embedded at build time as models/calibration/attention.hpp (with the efficiencies by FLOPs alone
at head dimension 128 and long sequences, a x 128 / (128 + d0)). Runs here (no GPU):
python3 tools/calibration/fit_attention.py

Model, per pass (forward; forward + backward):
    time = FLOPs / (BF16 peak x e),   e = a x d_qk / (d_qk + d0) x S / (S + s0)
FLOPs are Q K^T and P V (over the causal half when causal), times 3.5 for forward + backward.
d0 says how a small head dimension leaves the tensor cores idle (softmax and loads per FLOP), s0
how a short sequence pays the per-tile prologue. Grid search on the median relative error plus a
third of the worst (so that no fitted case is far off).
"""
import itertools
import json
import os
import statistics

from fit_kernels import CALIBRATION
from fitted_constants import write_fit

PEAK = 989e12  # the h200 preset's dense BF16 peak (models/hardware/catalog.cpp)
DATA = os.path.join(CALIBRATION, "h200_kernels.json")


def efficiency(a, d0, s0, d_qk, seq):
    return a * d_qk / (d_qk + d0) * seq / (seq + s0)


def predicted_us(case, a, d0, s0):
    return case["flops"] / (PEAK * efficiency(a, d0, s0, case["d_qk"], case["seq"])) * 1e6


def fit():
    """The terms of models/calibration/attention.hpp; prints each case's error."""
    cases = [c for c in json.load(open(DATA))["cases"] if c["class"].startswith("attention")]
    constants = {}
    for cls, name in (("attention_fwd", "forward"), ("attention_fwd_bwd", "forward_backward")):
        fit = [c for c in cases if c["class"] == cls and not c["held_out"]]
        best = None
        for a, d0, s0 in itertools.product([x / 100 for x in range(40, 121)], range(0, 129, 4),
                                           range(0, 2049, 64)):
            errs = [abs(predicted_us(c, a, d0, s0) / c["time_us"] - 1) for c in fit]
            score = statistics.median(errs) + max(errs) / 3
            if best is None or score < best[0]:
                best = (score, a, d0, s0)
        _, a, d0, s0 = best
        print(f"{cls}: a = {a:.2f}, d0 = {d0}, s0 = {s0}")
        constants.update({f"{name}_a": a, f"{name}_d0": d0, f"{name}_s0": s0,
                          f"{name}_efficiency_d128": round(a * 128 / (128 + d0), 2)})
        for held in (False, True):
            rows = [c for c in cases if c["class"] == cls and c["held_out"] == held]
            errs = [predicted_us(c, a, d0, s0) / c["time_us"] - 1 for c in rows]
            print(f"  {'held out' if held else 'fitted  '}: median {100 * statistics.median(map(abs, errs)):.1f}%, "
                  f"worst {100 * max(map(abs, errs)):.1f}%")
            for c, e in zip(rows, errs):
                print(f"    {c['name']:18s} measured {c['time_us']:10.1f} us  {100 * e:+6.1f}%")
    return {"source": "models/calibration/h200/h200_kernels.json",
            "script": "tools/calibration/fit_attention.py", "constants": constants}


def main():
    write_fit(fit(), os.path.join(CALIBRATION, "fit_attention.json"))


if __name__ == "__main__":
    main()
