#!/usr/bin/env python3
"""The HBM rates of the kernels a software stack launches besides the op tables' (issue 33;
sim/workload/software_stack.cpp). Pure Python, no GPU:
    python3 tools/calibration/fit_stacks.py

Data: the `permute` and `memory_gpt` cases of models/calibration/h200/moe/h200_moe_kernels.json
(CUDA-graph timed on one H200; every third case of each class held out). Each kind's rate is the
median, over its cases not held out, of the bytes the script counts (`hbm_bytes`) over the time
less the fixed cost of a kernel (kernel_cost.cpp's 1.33 us); the held-out error is that of
predicting their time as bytes / rate + the fixed cost. The layer traces
(h200/moe/traces) say which of these kernels each stack launches and on which tensors; their
times are never fitted to.
"""
import json
import re
import statistics

DATA = "models/calibration/h200/moe/h200_moe_kernels.json"
HBM = 4.8e12       # H200, bytes per second
LAUNCH_US = 1.33   # kernel_cost.cpp's launch_overhead
# The kinds software_stack.cpp uses, and the constant each one sets there.
USED = {"gather": "kGather", "index_copy": "kIndexCopy", "index_add": "kIndexAdd",
        "weighted_sum": "kWeightedSum", "mla_k_cat_expand": "kStridedCat",
        "mla_q_cat": "kContiguousCat"}


def main():
    cases = json.load(open(DATA))["cases"]
    kinds = {}
    for c in cases:
        if c["class"] in ("permute", "memory_gpt"):
            kinds.setdefault(re.sub(r"_t\d+.*", "", c["name"]), []).append(c)
    print(f"{'kind':22s} {'constant':15s} {'fraction':>8s} {'TB/s':>6s} {'fit':>4s} "
          f"{'held out: median':>17s} {'worst':>7s}")
    for kind, group in kinds.items():
        fitted = [c for c in group if not c["held_out"]]
        held = [c for c in group if c["held_out"]]
        if not fitted:
            continue
        rate = statistics.median(c["hbm_bytes"] / ((c["time_us"] - LAUNCH_US) * 1e-6) / HBM
                                 for c in fitted)
        errors = [abs((c["hbm_bytes"] / (rate * HBM) * 1e6 + LAUNCH_US) / c["time_us"] - 1)
                  for c in held]
        median = f"{100 * statistics.median(errors):.1f}%" if errors else "-"
        worst = f"{100 * max(errors):.1f}%" if errors else "-"
        print(f"{kind:22s} {USED.get(kind, ''):15s} {rate:8.3f} {rate * HBM / 1e12:6.2f} "
              f"{len(fitted):4d} {median:>17s} {worst:>7s}")


if __name__ == "__main__":
    main()
