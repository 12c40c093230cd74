#!/usr/bin/env python3
"""Fits cuDNN's decode attention (models/cost/decode_attention.cpp, `sdpa`) to the cuDNN cases of
models/calibration/h200/decode/h200_decode.json that are not held out (every third case is), and
prints the error on both, with flash's for comparison (PyTorch picks cuDNN on Hopper:
h200_decode_kernels.json).
Writes cuDNN's terms to models/calibration/h200/decode/fit_decode_attention.json, embedded at build
time as models/calibration/decode_attention.hpp. Pure Python, no GPU:
python3 tools/calibration/fit_decode_attention.py

    time = 2 x 1.33 us + fixed + KV bytes / (4.8 TB/s x e)

(two kernels: the split-KV kernel and its reduction, each with the fixed cost of a graphed
kernel; the FLOPs of GQA decode never bound it). Grid search on the mean absolute log error plus
0.3 x the worst.
"""
import json
import math
import os
import statistics

import fit_kernels
from fit_kernels import CALIBRATION
from fitted_constants import read_constants, write_fit

DATA = os.path.join(CALIBRATION, "decode", "h200_decode.json")
HBM = 4.8e12
LAUNCH_US = read_constants(fit_kernels.OUTPUT)["launch_overhead_s"] * 1e6  # kernel_cost.cpp's


def predicted(c, p):
    e, fixed = p
    return 2 * LAUNCH_US + fixed + c["kv_bytes"] / (HBM * e) * 1e6


def fit_terms(cases):
    best = None
    for e in [x / 100 for x in range(40, 101)]:
        for fixed in range(0, 31):
            logs = [abs(math.log(predicted(c, (e, fixed)) / c["time_us"])) for c in cases]
            loss = statistics.mean(logs) + 0.3 * max(logs)
            if best is None or loss < best[0]:
                best = (loss, (e, fixed))
    return best[1]


def fit():
    """cuDNN's terms (models/calibration/decode_attention.hpp); prints both backends' errors."""
    cases = json.load(open(DATA))["cases"]
    terms = {}
    for backend in ("cudnn", "flash"):
        mine = [c for c in cases if c["part"] == "attention" and c["backend"] == backend]
        held = [i % 3 == 2 for i in range(len(mine))]
        p = fit_terms([c for c, h in zip(mine, held) if not h])
        terms[backend] = p
        print(f"{backend}: e = {p[0]:.2f} of HBM, fixed = {p[1]} us")
        for h in (False, True):
            errors = [abs(predicted(c, p) / c["time_us"] - 1) for c, hh in zip(mine, held)
                      if hh == h]
            print(f"  {'held out' if h else 'fitted  '}: median {100 * statistics.median(errors):.1f}%,"
                  f" worst {100 * max(errors):.1f}% (n={len(errors)})")
    e, fixed = terms["cudnn"]
    return {"source": "models/calibration/h200/decode/h200_decode.json",
            "script": "tools/calibration/fit_decode_attention.py",
            "constants": {"sdpa_hbm_efficiency": e, "sdpa_fixed_s": float(f"{fixed}e-6")}}


def main():
    write_fit(fit(), os.path.join(CALIBRATION, "decode", "fit_decode_attention.json"))


if __name__ == "__main__":
    main()
