#!/usr/bin/env python3
"""The HBM rates of the kernels a software stack launches besides the op tables' (issue 33;
sim/workload/software_stack.cpp). Writes the constants to
models/calibration/h200/moe/fit_stacks.json, embedded at build time as models/calibration/stacks.hpp.
Pure Python, no GPU:
    python3 tools/calibration/fit_stacks.py

Data: the `permute` and `memory_gpt` cases of models/calibration/h200/moe/h200_moe_kernels.json
(CUDA-graph timed on one H200; every third case of each class held out). Each kind's rate is the
median, over its cases not held out, of the bytes the script counts (`hbm_bytes`) over the time
less the fixed cost of a kernel (kernel_cost.cpp's 1.33 us); the held-out error is that of
predicting their time as bytes / rate + the fixed cost. The layer traces
(h200/moe/traces) say which of these kernels each stack launches and on which tensors; their
times are never fitted to.

The router's kernels (`router` cases: scores, top-k, group-limited top-k, the argsort of the
rows by expert, the count of rows per expert, cumsum) are not paced by HBM: each kind's time is
fitted as a fixed time plus bytes over a rate (least squares on the relative error, over its
cases not held out; a negative slope leaves the fixed time alone). Their bytes are the script's
(h200_moe_kernels.py): scores T x E x 8 (FP32 in and out), top-k T x E x 4 + T x k x 12,
group-limited top-k T x E x 16, argsort T x k x 24, count T x k x 16, cumsum E x 16.
"""
import json
import math
import os
import re
import statistics

import fit_kernels
from fit_kernels import CALIBRATION
from fitted_constants import read_constants, write_fit

DATA = os.path.join(CALIBRATION, "moe", "h200_moe_kernels.json")
HBM = 4.8e12       # H200, bytes per second
LAUNCH_US = read_constants(fit_kernels.OUTPUT)["launch_overhead_s"] * 1e6  # kernel_cost.cpp's
# The kinds software_stack.cpp uses, and the constant each one sets there.
USED = {"gather": "kGather", "index_copy": "kIndexCopy", "index_add": "kIndexAdd",
        "weighted_sum": "kWeightedSum", "mla_k_cat_expand": "kStridedCat",
        "mla_q_cat": "kContiguousCat"}
# Kernels a measured kind launches, each paying LAUNCH_US (the weighted sum: a broadcast multiply
# and a sum), written as <kind>_launches for the model (software_stack.cpp); 1 where not listed.
LAUNCHES = {"weighted_sum": 2}
# The router kinds software_stack.cpp uses (argsort and sort are the same kernels).
ROUTER = {"softmax": "kSoftmaxScores", "sigmoid": "kSigmoidScores", "topk": "kTopK",
          "group_limited_topk": "kGroupLimitedTopK", "argsort": "kSortByExpert",
          "count_scatter": "kCountPerExpert", "cumsum": "kCumsum"}


def fixed_and_rate(cases):
    """(fixed us, bytes per us) minimising sum((fixed + bytes / rate) / time - 1)^2."""
    rows = [(1 / c["time_us"], c["hbm_bytes"] / c["time_us"]) for c in cases]
    suu = sum(u * u for u, _ in rows)
    svv = sum(v * v for _, v in rows)
    suv = sum(u * v for u, v in rows)
    su = sum(u for u, _ in rows)
    sv = sum(v for _, v in rows)
    det = suu * svv - suv * suv
    if len(rows) < 2 or det <= 0:
        return statistics.mean(c["time_us"] for c in cases), math.inf
    a, b = (su * svv - sv * suv) / det, (sv * suu - su * suv) / det
    if b <= 0:
        return su / suu, math.inf
    return a, 1 / b


def router(constants):
    """The router kinds' fixed time (less the launch) and fraction of HBM, into `constants`."""
    cases = [c for c in json.load(open(DATA))["cases"] if c["class"] == "router"]
    kinds = {}
    for c in cases:
        kind = re.sub(r"_t\d+.*", "", c["name"])
        kinds.setdefault("argsort" if kind == "sort" else kind, []).append(c)
    print(f"\n{'router kind':22s} {'constant':18s} {'fixed us':>8s} {'TB/s':>7s} {'fit':>4s} "
          f"{'held out: median':>17s} {'worst':>7s}")
    pooled = []
    for kind, constant in ROUTER.items():
        group = kinds[kind]
        fitted = [c for c in group if not c["held_out"]]
        held = [c for c in group if c["held_out"]]
        fixed, rate = fixed_and_rate(fitted)
        errors = [abs((fixed + c["hbm_bytes"] / rate) / c["time_us"] - 1) for c in held]
        pooled += errors
        constants[f"router_{kind}_hbm_efficiency"] = \
            0 if math.isinf(rate) else round(rate * 1e6 / HBM, 4)
        constants[f"router_{kind}_fixed_us"] = round(fixed - LAUNCH_US, 2)
        tbps = "-" if math.isinf(rate) else f"{rate * 1e6 / 1e12:7.3f}"
        print(f"{kind:22s} {constant:18s} {fixed:8.2f} {tbps:>7s} {len(fitted):4d} "
              f"{100 * statistics.median(errors):16.1f}% {100 * max(errors):6.1f}%")
    print(f"router kernels used, held out: {len(pooled)} cases, median "
          f"{100 * statistics.median(pooled):.1f}%, worst {100 * max(pooled):.1f}%")


def fit():
    """The constants of models/calibration/stacks.hpp; prints every kind's fit and error."""
    constants = {}
    cases = json.load(open(DATA))["cases"]
    kinds = {}
    for c in cases:
        if c["class"] in ("permute", "memory_gpt"):
            kinds.setdefault(re.sub(r"_t\d+.*", "", c["name"]), []).append(c)
    print(f"{'kind':22s} {'constant':15s} {'fraction':>8s} {'TB/s':>6s} {'fit':>4s} "
          f"{'held out: median':>17s} {'worst':>7s}")
    pooled = []
    for kind, group in kinds.items():
        fitted = [c for c in group if not c["held_out"]]
        held = [c for c in group if c["held_out"]]
        if not fitted:
            continue
        fixed = LAUNCHES.get(kind, 1) * LAUNCH_US
        rate = statistics.median(c["hbm_bytes"] / ((c["time_us"] - fixed) * 1e-6) / HBM
                                 for c in fitted)
        errors = [abs((c["hbm_bytes"] / (rate * HBM) * 1e6 + fixed) / c["time_us"] - 1)
                  for c in held]
        pooled += errors if kind in USED else []
        if kind in USED:
            constants[f"{kind}_hbm_efficiency"] = round(rate, 3)
            if kind in LAUNCHES:
                constants[f"{kind}_launches"] = LAUNCHES[kind]
        median = f"{100 * statistics.median(errors):.1f}%" if errors else "-"
        worst = f"{100 * max(errors):.1f}%" if errors else "-"
        print(f"{kind:22s} {USED.get(kind, ''):15s} {rate:8.3f} {rate * HBM / 1e12:6.2f} "
              f"{len(fitted):4d} {median:>17s} {worst:>7s}")
    print(f"permutation kernels used, held out: {len(pooled)} cases, median "
          f"{100 * statistics.median(pooled):.1f}%, worst {100 * max(pooled):.1f}%")
    router(constants)
    return {"source": "models/calibration/h200/moe/h200_moe_kernels.json",
            "script": "tools/calibration/fit_stacks.py", "constants": constants}


def main():
    write_fit(fit(), os.path.join(CALIBRATION, "moe", "fit_stacks.json"))


if __name__ == "__main__":
    main()
