#!/usr/bin/env python3
"""Fits the GEMM part of codesim's kernel cost model (models/cost/kernel_cost.cpp) to the H200
measurements in models/calibration/h200/h200_gemm.json, by grid search on the median absolute
relative error, and reports the leave-one-shape-out error too (each shape predicted by the
parameters fitted without it). Pure Python: run it here, no GPU.

Model (per dtype): tiles = batch * ceil(m/128) * ceil(n/128); waves = ceil(tiles / sms);
time = 2 m n k batch / (peak * efficiency * tiles / (waves * sms)) * (k + k0) / k.
"""
import json
import math
import statistics
import sys

PEAK = {"bf16": 989e12, "fp8": 1979e12}
SMS = 132


def predict(g, eff, k0):
    tiles = g["batch"] * math.ceil(g["m"] / 128) * math.ceil(g["n"] / 128)
    waves = math.ceil(tiles / SMS)
    wave_eff = tiles / (waves * SMS)
    flops = 2.0 * g["batch"] * g["m"] * g["n"] * g["k"]
    return flops / (PEAK[g["dtype"]] * eff * wave_eff) * (g["k"] + k0) / g["k"] * 1e6


def error(gemms, eff, k0):
    return statistics.median(abs(predict(g, eff, k0) / g["time_us"] - 1) for g in gemms)


def fit(gemms):
    best = None
    for eff in [x / 1000 for x in range(500, 901, 5)]:
        for k0 in range(0, 1025, 16):
            e = error(gemms, eff, k0)
            if best is None or e < best[0]:
                best = (e, eff, k0)
    return best


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "models/calibration/h200/h200_gemm.json"
    data = json.load(open(path))
    for dtype in ("bf16", "fp8"):
        gemms = [g for g in data["gemms"] if g["dtype"] == dtype]
        e, eff, k0 = fit(gemms)
        loo = []
        for i, g in enumerate(gemms):
            _, eff_i, k0_i = fit(gemms[:i] + gemms[i + 1:])
            loo.append(abs(predict(g, eff_i, k0_i) / g["time_us"] - 1))
        print(f"{dtype}: efficiency {eff:.3f}, k0 {k0}: median error {100 * e:.1f}% "
              f"(leave-one-out {100 * statistics.median(loo):.1f}%)")


if __name__ == "__main__":
    main()
