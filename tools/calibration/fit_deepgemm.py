#!/usr/bin/env python3
"""Fits the operand-bound term of DeepSeek's FP8 GEMMs (DeepGEMM) for codesim's `deepseek`
stack (sim/workload/piece_model.cpp, deepseek_profile) to DeepGEMM's published H800 table
(models/calibration/deepgemm/deepgemm_h800_normal.json), and prints the error on every row.
Pure Python, no GPU: python3 tools/calibration/fit_deepgemm.py

The GEMM model is kernel_cost.cpp's (fit_kernels.py mirrors it), with the `deepseek` stack's
compute terms as they are (FP8 efficiency 0.70 x the trace's 0.8975, k0 480; H800: 1979 TFLOPS
FP8, 3.35 TB/s, 132 SMs) and DeepGEMM's tile choice: its block N goes down to 16 with block M 64
(deep_gemm/jit_kernels/gemm.py picks the fewest waves), so a 64-row GEMM fills the SMs from
N = 16 x 132 = 2112 on. One number is fitted: the fraction of HBM bandwidth an operand-bound
DeepGEMM kernel streams at, from the M = 64 rows at odd positions; every other row is held out
(the M = 4096 rows are compute-bound and test the trace's scale against a later DeepGEMM).
The compute terms are read from the fits that made them (h200/fit_kernels.json,
deepseek-h800/fit_trace_scales.json); the output, models/calibration/deepgemm/fit_deepgemm.json,
is embedded at build time and check_fits.py refits it.

Run: python3 tools/calibration/fit_deepgemm.py
"""
import json
import math
import os
import statistics

from fitted_constants import read_constants, write_fit

HERE = os.path.dirname(os.path.abspath(__file__))
CALIBRATION = os.path.join(HERE, "..", "..", "models", "calibration")
DATA = os.path.join(CALIBRATION, "deepgemm", "deepgemm_h800_normal.json")
PEAK = 1979e12
HBM = 3.35e12
SMS = 132
KERNELS = read_constants(os.path.join(CALIBRATION, "h200", "fit_kernels.json"))
TRACE = read_constants(os.path.join(CALIBRATION, "deepseek-h800", "fit_trace_scales.json"))
# The default FP8 efficiency x DeepSeek's trace scale, and the FP8 k0.
EFFICIENCY = KERNELS["gemm_efficiency_fp8"] * TRACE["fp8_gemm_scale"]
K0 = KERNELS["gemm_k0_fp8"]
LAUNCH_US = 1.33
NARROW_TILE_N = 16  # DeepGEMM's smallest block N (with block M 64)
TILES = ((128, 128), (128, 64), (64, 128), (64, NARROW_TILE_N))


def predict_us(c, e_mem):
    m, n, k = c["m"], c["n"], c["k"]
    flops = 2 * m * n * k
    hbm_bytes = m * k + k * n + 2 * m * n
    best = None
    for tm, tn in TILES:
        tiles = math.ceil(m / tm) * math.ceil(n / tn)
        waves = math.ceil(tiles / SMS)
        compute = flops / (PEAK * EFFICIENCY * tiles / (waves * SMS) * k / (k + K0))
        memory = hbm_bytes / (HBM * e_mem * min(1.0, tiles / SMS))
        t = max(compute, memory)
        best = t if best is None else min(best, t)
    return best * 1e6 + LAUNCH_US


def fit():
    """The fit's output: the constants and the held-out rows' median and worst error (every
    row's prediction is printed)."""
    with open(DATA) as f:
        cases = json.load(f)["cases"]
    fitted = [c for i, c in enumerate(cases) if c["m"] == 64 and i % 2 == 1]
    def loss(e):
        return statistics.mean(abs(math.log(predict_us(c, e) / c["time_us"])) for c in fitted)
    e_mem = min((x / 100 for x in range(40, 101)), key=loss)
    print(f"DeepGEMM operand-bound efficiency: {e_mem:.2f} of HBM (fitted on {len(fitted)} rows)")
    print("|    M |     N |     K | published us | predicted us | error | |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    held = []
    for c in cases:
        p = predict_us(c, e_mem)
        err = p / c["time_us"] - 1
        role = "fitted" if c in fitted else "held out"
        if c not in fitted and c["m"] < 4096:
            held.append(abs(err))
        print(f"| {c['m']} | {c['n']} | {c['k']} | {c['time_us']:.1f} | {p:.1f} | "
              f"{100 * err:+.1f}% | {role} |")
    print(f"held out, M = 64-128: median {100 * statistics.median(held):.1f}%, "
          f"worst {100 * max(held):.1f}% (n={len(held)})")
    return {"source": "models/calibration/deepgemm/deepgemm_h800_normal.json",
            "script": "tools/calibration/fit_deepgemm.py",
            "constants": {"deepgemm_memory_efficiency": e_mem,
                          "deepgemm_narrow_tile_n": NARROW_TILE_N},
            "held_out_median": round(statistics.median(held), 4),
            "held_out_worst": round(max(held), 4)}


def main():
    write_fit(fit(), os.path.join(CALIBRATION, "deepgemm", "fit_deepgemm.json"))


if __name__ == "__main__":
    main()
