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
"""
import json
import math
import statistics

DATA = "models/calibration/deepgemm/deepgemm_h800_normal.json"
PEAK = 1979e12
HBM = 3.35e12
SMS = 132
EFFICIENCY = 0.70 * 0.89747  # default gemm_efficiency_fp8 x DeepSeek's trace scale
K0 = 480
LAUNCH_US = 1.33
TILES = ((128, 128), (128, 64), (64, 128), (64, 16))


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


def main():
    cases = json.load(open(DATA))["cases"]
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


if __name__ == "__main__":
    main()
