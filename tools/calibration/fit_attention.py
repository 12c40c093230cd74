#!/usr/bin/env python3
"""Fits the fused-attention terms of models/cost/attention_cost.cpp to the attention cases of
models/calibration/h200/h200_kernels.json that are not held out and, for the forward, to the
few-heads cases of models/calibration/h100/kernels/attention_small.json (every third held out,
as the others; the three over 5 ms a call, run at the power cap, left out), and reports the error on
the fitted and on the held-out cases; writes the terms to models/calibration/h200/
fit_attention.json, embedded at build time as models/calibration/attention.hpp (with the
efficiencies at head dimension 128 and long sequences, a x 128 / (128 + d0)). Runs here (no GPU):
python3 tools/calibration/fit_attention.py

Model, per pass (forward; forward + backward):
    time = FLOPs / (BF16 peak x e) + k x tile FLOPs / (BF16 peak / SMs x e) + launch
    e = a x D / (D + d0) x S / (S + s0),   D = (d_qk + d_v) / 2
FLOPs are Q K^T and P V (over the causal half when causal), times 3.5 for forward + backward;
tile FLOPs those of one query tile of 128 rows over all S keys, what the kernel's last tiles run
alone on their SMs (the few-heads cases: a fixed part of about one such tile beside a part
proportional to batch x heads). D says how a small head dimension leaves the tensor cores idle
(softmax and loads per FLOP; the mean of d_qk and d_v, as MLA's 192/128 runs like 160), s0 how a
short sequence pays the per-tile prologue. Grid search on the median relative error plus a third
of the worst (so that no fitted case is far off). Forward + backward takes the forward's k (no
few-heads backward was measured).
"""
import itertools
import json
import os
import statistics

import fit_kernels
from fit_kernels import CALIBRATION
from fitted_constants import read_constants, write_fit

PEAK = 989e12  # the h200 and h100 presets' dense BF16 peak (models/hardware/catalog.cpp)
SMS = 132
TILE_ROWS = 128
DATA = os.path.join(CALIBRATION, "h200_kernels.json")
FEW_HEADS = os.path.join(CALIBRATION, "..", "h100", "kernels", "attention_small.json")
AT_THE_CAP_US = 5000  # few-heads calls longer than this ran at the power cap: left out
LAUNCH_US = read_constants(fit_kernels.OUTPUT)["launch_overhead_s"] * 1e6  # every kernel's


def efficiency(a, d0, s0, case):
    d = (case["d_qk"] + case["d_v"]) / 2
    return a * d / (d + d0) * case["seq"] / (case["seq"] + s0)


def predicted_us(case, a, d0, s0, k):
    e = efficiency(a, d0, s0, case)
    passes = 3.5 if case["class"] == "attention_fwd_bwd" else 1.0
    tile = passes * 2 * TILE_ROWS * case["seq"] * (case["d_qk"] + case["d_v"])
    return (case["flops"] / (PEAK * e) + k * tile / (PEAK / SMS * e)) * 1e6 + LAUNCH_US


def few_heads_cases():
    cases = [c for c in json.load(open(FEW_HEADS))["cases"] if c["time_us"] < AT_THE_CAP_US]
    return [{**c, "name": f"b{c['batch']}_h{c['heads']}_s{c['seq']}_d{c['d_qk']}",
             "held_out": i % 3 == 2} for i, c in enumerate(cases)]


def grid(fit, ks):
    best = None
    for a, d0, s0, k in itertools.product([x / 100 for x in range(40, 131, 2)], range(0, 129, 8),
                                          range(0, 2049, 64), ks):
        errs = [abs(predicted_us(c, a, d0, s0, k) / c["time_us"] - 1) for c in fit]
        score = statistics.median(errs) + max(errs) / 3
        if best is None or score < best[0]:
            best = (score, a, d0, s0, k)
    return best[1:]


def fit():
    """The terms of models/calibration/attention.hpp; prints each case's error."""
    cases = [c for c in json.load(open(DATA))["cases"] if c["class"].startswith("attention")]
    few = few_heads_cases()
    constants = {}
    tail = None
    for cls, name in (("attention_fwd", "forward"), ("attention_fwd_bwd", "forward_backward")):
        pool = cases + (few if cls == "attention_fwd" else [])
        fitted = [c for c in pool if c["class"] == cls and not c["held_out"]]
        a, d0, s0, k = grid(fitted, [x / 20 for x in range(0, 21)] if tail is None else [tail])
        tail = k
        print(f"{cls}: a = {a:.2f}, d0 = {d0}, s0 = {s0}, k = {k:.2f}")
        constants.update({f"{name}_a": a, f"{name}_d0": d0, f"{name}_s0": s0, f"{name}_tail": k,
                          f"{name}_efficiency_d128": round(a * 128 / (128 + d0), 2)})
        for held in (False, True):
            rows = [c for c in pool if c["class"] == cls and c["held_out"] == held]
            errs = [predicted_us(c, a, d0, s0, k) / c["time_us"] - 1 for c in rows]
            print(f"  {'held out' if held else 'fitted  '}: median {100 * statistics.median(map(abs, errs)):.1f}%, "
                  f"worst {100 * max(map(abs, errs)):.1f}%")
            for c, e in zip(rows, errs):
                print(f"    {c['name']:18s} measured {c['time_us']:10.1f} us  {100 * e:+6.1f}%")
    constants["tile_rows"] = TILE_ROWS
    return {"source": "models/calibration/h200/h200_kernels.json, "
                      "models/calibration/h100/kernels/attention_small.json",
            "script": "tools/calibration/fit_attention.py", "constants": constants}


def main():
    write_fit(fit(), os.path.join(CALIBRATION, "fit_attention.json"))


if __name__ == "__main__":
    main()
