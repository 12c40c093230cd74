#!/usr/bin/env python3
"""FP8 grouped weight gradients by their groups' K (issue 33): in the one-factor sweeps
(h200_grouped_shapes.json) the FP8 weight gradient on the wide 128 x 256 tile ran slower with 64
rows per expert than with 128, and slower with 192 than with 256, while two Zipf-loaded cases of
h200_moe_kernels.json with such rows ran as fast as their work says. This sweep asks which K
(rows per group) patterns slow that kernel: every group's K the same (8 and 4 groups, 16-512
rows), one group unlike the others, the Zipf cases' K in both orders, and more groups of few rows;
FP8 on the wide tile's shapes (Qwen3-30B-A3B's gate/up and down, DeepSeek-V2's and V2-Lite's
down) and the cooperative tile's (DeepSeek-V3's down), BF16 on two of them for comparison.
Raw data only, nothing fitted here.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_fp8_wgrad_k.py --out "$OUT"
Writes OUT/h200_fp8_wgrad_k.json: the GPU, driver, torch, CUDA, date, the method and per case its
shape, the rows of each group, FLOPs, the time (h200_moe_kernels.py's method: a CUDA graph of
back-to-back launches, CUDA events, median of 10) and the CUTLASS kernel it ran (one
torch.profiler capture).
"""
import argparse

from h200_common import device_facts
from h200_grouped_sweep import measure, write

# (name, k_fwd, n_fwd): the weight gradient dW[n, k] = dC^T[n, rows] A[rows, k].
WIDE = (("qwen3-30b-a3b_gate_up", 2048, 1536), ("qwen3-30b-a3b_down", 768, 2048),
        ("deepseek-v2_down", 1536, 5120), ("deepseek-v2-lite_down", 1408, 2048))
COOPERATIVE = (("deepseek-v3_down", 2048, 7168),)
EVEN8 = (16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 192, 224, 256, 320, 384, 448, 512)
EVEN4 = (16, 64, 128, 192)
MIXED = {"seven_128_one_64": [128] * 7 + [64], "one_64_seven_128": [64] + [128] * 7,
         "seven_128_one_16": [128] * 7 + [16], "seven_64_one_128": [64] * 7 + [128],
         "zipf_224_128_96_80": [224, 128, 96, 80], "zipf_80_96_128_224": [80, 96, 128, 224],
         "zipf_twice": [224, 128, 96, 80] * 2, "zipf_480_208_128_96": [480, 208, 128, 96],
         "pairs_192_64": [192, 64] * 4, "pairs_64_192": [64, 192] * 4,
         "sixteen_64": [64] * 16, "thirty_two_16": [16] * 32, "sixteen_128": [128] * 16}


def patterns(full):
    for rows in EVEN8:
        yield f"even8_r{rows}", [rows] * 8
    if full:
        for rows in EVEN4:
            yield f"even4_r{rows}", [rows] * 4
        yield from MIXED.items()


def cases():
    for dtype in ("fp8", "bf16"):
        for shape in WIDE + COOPERATIVE:
            if dtype == "bf16" and shape[0] not in ("qwen3-30b-a3b_gate_up", "deepseek-v2_down"):
                continue
            for label, counts in patterns(full=dtype == "fp8"):
                yield dtype, shape, label, counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    result = {**device_facts(), "method": __doc__, "cases": [], "skipped": []}
    for dtype, (model, k, n), label, counts in cases():
        measure(result, f"{model}_{dtype}_wgrad_{label}",
                {"model": model, "pattern": label, "experts": len(counts)},
                dtype, "wgrad", counts, k, n)
    write(result, args.out, "h200_fp8_wgrad_k.json")


if __name__ == "__main__":
    main()
