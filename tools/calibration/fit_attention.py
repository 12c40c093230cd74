#!/usr/bin/env python3
"""Fits the fused-attention terms of models/cost/kernel_cost.cpp to the attention cases of
models/calibration/h200/h200_kernels.json that are not held out, and reports the error on the
fitted and on the held-out cases. Runs here (no GPU): python3 tools/calibration/fit_attention.py

Model, per pass (forward; forward + backward):
    time = FLOPs / (BF16 peak x e),   e = a x d_qk / (d_qk + d0) x S / (S + s0)
FLOPs are Q K^T and P V (over the causal half when causal), times 3.5 for forward + backward.
d0 says how a small head dimension leaves the tensor cores idle (softmax and loads per FLOP), s0
how a short sequence pays the per-tile prologue. Grid search on the median relative error plus a
third of the worst (so that no fitted case is far off).
"""
import itertools
import json
import statistics

PEAK = 989e12  # the h200 preset's dense BF16 peak (models/hardware/catalog.cpp)
DATA = "models/calibration/h200/h200_kernels.json"


def efficiency(a, d0, s0, d_qk, seq):
    return a * d_qk / (d_qk + d0) * seq / (seq + s0)


def predicted_us(case, a, d0, s0):
    return case["flops"] / (PEAK * efficiency(a, d0, s0, case["d_qk"], case["seq"])) * 1e6


def main():
    cases = [c for c in json.load(open(DATA))["cases"] if c["class"].startswith("attention")]
    for cls in ("attention_fwd", "attention_fwd_bwd"):
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
        for held in (False, True):
            rows = [c for c in cases if c["class"] == cls and c["held_out"] == held]
            errs = [predicted_us(c, a, d0, s0) / c["time_us"] - 1 for c in rows]
            print(f"  {'held out' if held else 'fitted  '}: median {100 * statistics.median(map(abs, errs)):.1f}%, "
                  f"worst {100 * max(map(abs, errs)):.1f}%")
            for c, e in zip(rows, errs):
                print(f"    {c['name']:18s} measured {c['time_us']:10.1f} us  {100 * e:+6.1f}%")


if __name__ == "__main__":
    main()
