#!/usr/bin/env python3
"""BF16 GEMMs whose contiguous dimensions are not multiples of 8 (issue 33): the factor on the
GEMM compute efficiency that cuBLAS's fallback kernels reach, by alignment. Pure Python, no GPU:
    python3 tools/calibration/fit_unaligned.py

Data: the `gemm_bf16_unaligned` cases of models/calibration/h200/moe/h200_moe_kernels.json
(torch.matmul of row-major A[m, k] and B[k, n], CUDA-graph timed; every third held out). The
contiguous dimensions of that layout are k (A's rows) and n (B's and C's rows); m is not one
(M = 4095 runs at full speed). Alignment = the largest of 8, 4, 2, 1 dividing both k and n. The
aligned model is kernel_cost.cpp's (fit_kernels.py's terms, mirrored by its `plain`); the factor
multiplies the compute efficiency of the GEMMs of each alignment below 8, fitted in log space to
the cases not held out. FP8 GEMMs refuse dimensions that are not multiples of 16 (the
`skipped` entries of the same file): nothing to fit for them.
"""
import json
import math
import os
import statistics

import fit_kernels
from fit_kernels import CALIBRATION, launch_us, plain
from fitted_constants import read_constants, write_fit

DATA = os.path.join(CALIBRATION, "moe", "h200_moe_kernels.json")
KERNELS = os.path.join(CALIBRATION, "h200_kernels.json")


def bf16_terms():
    """kernel_cost.cpp's fitted BF16 GEMM terms, from fit_kernels.py's output: efficiency, k0,
    e_mem, K per split, write efficiency."""
    c = read_constants(fit_kernels.OUTPUT)
    return tuple(c[f"gemm_{t}_bf16"]
                 for t in ("efficiency", "k0", "memory_efficiency", "k_split", "write_efficiency"))


def alignment(c):
    for a in (8, 4, 2):
        if c["k"] % a == 0 and c["n"] % a == 0:
            return a
    return 1


def predicted(c, factor, launch, bf16):
    eff, *rest = bf16
    return plain(dict(c, batch=1), (eff * factor, *rest), launch)


def fit():
    """The factors of models/calibration/unaligned.hpp; prints them and each case's error."""
    bf16 = bf16_terms()
    launch = launch_us(json.load(open(KERNELS))["cases"])
    cases = [c for c in json.load(open(DATA))["cases"] if c["class"] == "gemm_bf16_unaligned"]
    factors = {}
    for a in (4, 1):
        fit = [c for c in cases if alignment(c) == a and not c["held_out"]]
        # The time of a compute-bound GEMM is inversely proportional to the factor: the geometric
        # mean of aligned-model time / measured time over the fitted cases.
        logs = [math.log(predicted(c, 1.0, launch, bf16) / c["time_us"]) for c in fit]
        factors[a] = math.exp(statistics.mean(logs))
        print(f"alignment {a}: factor {factors[a]:.3f} from {len(fit)} cases")
    factors[8] = 1.0
    factors[2] = factors[1]  # no case at 2; taken as 1
    print("\n| case | k | n | alignment | measured us | predicted us | error | held out |")
    errors = {True: [], False: []}
    for c in cases:
        a = alignment(c)
        p = predicted(c, factors[a], launch, bf16)
        e = p / c["time_us"] - 1
        if a < 8:
            errors[c["held_out"]].append(abs(e))
        print(f"| {c['name']} | {c['k']} | {c['n']} | {a} | {c['time_us']:.1f} | {p:.1f} | "
              f"{100 * e:+.1f}% | {'yes' if c['held_out'] else ''} |")
    for held, e in errors.items():
        print(f"{'held out' if held else 'fitted'} unaligned: {len(e)} cases, median "
              f"{100 * statistics.median(e):.1f}%, worst {100 * max(e):.1f}%")
    return {"source": "models/calibration/h200/moe/h200_moe_kernels.json",
            "script": "tools/calibration/fit_unaligned.py",
            "constants": {"gemm_align4_factor": round(factors[4], 3),
                          "gemm_align1_factor": round(factors[1], 3)}}


def main():
    write_fit(fit(), os.path.join(CALIBRATION, "moe", "fit_unaligned.json"))


if __name__ == "__main__":
    main()
