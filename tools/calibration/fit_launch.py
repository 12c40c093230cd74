#!/usr/bin/env python3
"""Host launch cost per kernel without CUDA graphs, and the rates of the stack kernels the layers
run in their own layout (issue 33; sim/workload/software_stack.cpp). Writes the constants to
models/calibration/h200/launch/fit_launch.json, embedded at build time as
models/calibration/launch.hpp (tools/calibration/check_fits.py refits them as a test). Pure
Python, no GPU:
    python3 tools/calibration/fit_launch.py

Data: models/calibration/h200/launch/h200_launch.json (tools/calibration/h200_launch.py on one
H200; h200_launch_first.json is an earlier sitting of the same script, kept for the spread).

1. Host cost per kernel (`HostLaunch` of each stack): tiny layers (hidden 256, 128 tokens: every
   kernel shorter than its launch) timed eagerly (`pytorch`) and under torch.compile without
   graphs (`fused`), time over the kernels torch.profiler counted; inference = the forward under
   no_grad, training = forward + backward. The mean of the two layers (a Llama-style and an
   MLA + MoE one).
2. Eager SwiGLU on the gate/up output's two strided halves (`pytorch`): HBM fraction of the
   forward (SiLU + multiply: 5 elements per output element) and of the backward (forward +
   backward less forward: 13 elements), median over the layers' shapes but the held-out one.
3. torch.compile's weighted sum over top-k (`fused`): forward reads R x H and writes T x H; the
   backward (forward + backward less forward) reads the gradient T x H and the rows R x H and
   writes R x H. Median over the shapes but the held-out one.
4. Eager rotate-half rotary on the strided q/k views (`pytorch`): forward 8 elements moved per
   rotary element; backward 9 strided plus 6 of slice fills and copies, those at the copy rate.
5. torch.compile's residual add fused with the norm (`fused`, h200_launch_fused.json): forward
   reads x and h and writes y = x + h and norm(y) (4 elements of T x H); backward (forward +
   backward less forward) counted as the op table counts a norm's backward (3 elements).
6. torch.compile's SwiGLU on the gate/up halves (`fused`): forward 3 elements per output
   (the op table's count), backward 5.
Held out: the last shape of each list (index % 3 == 2 of each group, as the other fits do).
"""
import json
import os
import statistics

from fit_kernels import CALIBRATION
from fitted_constants import write_fit

LAUNCH = os.path.join(CALIBRATION, "launch")
DATA = os.path.join(LAUNCH, "h200_launch.json")
FIRST = os.path.join(LAUNCH, "h200_launch_first.json")
FUSED = os.path.join(LAUNCH, "h200_launch_fused.json")
OUTPUT = os.path.join(LAUNCH, "fit_launch.json")
HBM = 4.8e12
LAUNCH_US = 1.33
MEMCPY = 0.88  # kernel_cost.cpp's memcpy efficiency
# Kernels each eager op launches (the layer traces, h200/moe/traces/*_eager.json), each paying
# LAUNCH_US; written with the rates, the model reads them (software_stack.cpp). SwiGLU: SiLU and
# the multiply, backward two multiplies, SiLU's backward and the cat. Rotary on one tensor: neg,
# cat, two multiplies and an add; backward two multiplies, two adds and a neg, and the slices' two
# fills and two copies.
EAGER_SWIGLU_LAUNCHES = (2, 4)
EAGER_ROTARY_LAUNCHES = (5, 5)
EAGER_ROTARY_SLICE_LAUNCHES = 4


def by_name(path):
    return {c["name"]: c for c in json.load(open(path))["cases"]}


def host_costs(cases):
    print("host cost per kernel (us): layer, mode -> time / kernels")
    out = {}
    for stack, tag in (("pytorch", ""), ("fused", "compiled_")):
        for use, mode in (("inference", "forward"), ("training", "forward_backward")):
            per = []
            for layer in ("llama", "mla_moe"):
                c = cases[f"{layer}_{tag}{mode}"]
                per.append(c["time_us"] / c["kernels_per_call"])
                print(f"  {stack:8s} {use:9s} {layer:8s} {c['kernels_per_call']:5.0f} kernels "
                      f"{c['time_us']:8.1f} us  {per[-1]:5.1f} us/kernel")
            out[(stack, use)] = statistics.mean(per)
    for (stack, use), v in out.items():
        print(f"  -> {stack} {use}: {v:.1f} us per kernel")
    return out


def rate_fit(label, rows, launches=1, held_index=2):
    """rows: (name, bytes, time_us) of an op of `launches` kernels, each paying LAUNCH_US. Median
    rate of all but every third; errors on those."""
    fitted = [r for i, r in enumerate(rows) if i % 3 != held_index]
    held = [r for i, r in enumerate(rows) if i % 3 == held_index]
    fixed = launches * LAUNCH_US
    rate = statistics.median(b / ((t - fixed) * 1e-6) / HBM for _, b, t in fitted)
    print(f"{label}: {rate:.3f} of HBM ({rate * HBM / 1e12:.2f} TB/s), fitted on "
          f"{len(fitted)}")
    for name, b, t in rows:
        pred = b / (rate * HBM) * 1e6 + fixed
        tag = "held out" if (name, b, t) in held else "fitted"
        print(f"  {name:34s} {t:8.1f} us  predicted {pred:8.1f}  {100 * (pred / t - 1):+6.1f}% "
              f"({tag})")
    return rate


def fit_pair(cases, select, labels, forward_bytes, backward_bytes, backward_less_us=None,
             launches=(1, 1)):
    """rate_fit on the selected `_forward` cases and on their backward (the `_forward_backward`
    twin less the forward, less `backward_less_us` of the case if given), of launches[0] and
    launches[1] kernels."""
    fwd, bwd = [], []
    for c in cases.values():
        if not c["name"].endswith("_forward") or not select(c):
            continue
        backward_us = cases[c["name"] + "_backward"]["time_us"] - c["time_us"]
        backward_us -= backward_less_us(c) if backward_less_us else 0
        fwd.append((c["layer"], forward_bytes(c), c["time_us"]))
        bwd.append((c["layer"], backward_bytes(c), backward_us))
    return rate_fit(labels[0], fwd, launches[0]), rate_fit(labels[1], bwd, launches[1])


def fit():
    """The constants of models/calibration/launch.hpp; prints each fit and its errors."""
    cases = by_name(DATA)
    first = by_name(FIRST)
    host = host_costs(cases)
    print("  eager decode, Llama 3.1 8B dims, batch 1 (validation, not fitted): " + ", ".join(
        f"{c['time_us'] / 1e3:.1f} ms ({c['time_us'] / c['kernels_per_call']:.1f} us/kernel)"
        for c in (first["llama8b_b1_ctx1024"], cases["llama8b_b1_ctx1024"])) + " in two sittings")

    elements = lambda c: c["rows"] * c["width"]  # noqa: E731
    rates = {}
    rates["eager_swiglu"] = fit_pair(cases, lambda c: c["name"].startswith("swiglu_"),
             ("eager SwiGLU forward (kEagerSwigluForward)",
              "eager SwiGLU backward (kEagerSwigluBackward)"),
             lambda c: 5 * elements(c) * 2, lambda c: 13 * elements(c) * 2,
             launches=EAGER_SWIGLU_LAUNCHES)
    rates["fused_weighted_sum"] = fit_pair(cases, lambda c: c["name"].startswith("weighted_sum_")
             and c["name"].endswith("compiled_forward"),
             ("compiled weighted sum forward (kFusedWeightedSum)",
              "compiled weighted sum backward (kFusedWeightedSumBackward)"),
             lambda c: (c["tokens"] * c["topk"] + c["tokens"]) * c["hidden"] * 2,
             lambda c: (c["tokens"] + 2 * c["tokens"] * c["topk"]) * c["hidden"] * 2)
    # The rotary backward's slice fills and copies (6 elements, vectorized) at the copy rate.
    rates["eager_rotary"] = fit_pair(cases, lambda c: c["name"].startswith("rotary_"),
             ("eager rotary forward (kEagerRotary)",
              "eager rotary backward, strided part (kEagerRotaryBackward)"),
             lambda c: 8 * c["elements"] * 2, lambda c: 9 * c["elements"] * 2,
             lambda c: 6 * c["elements"] * 2 / (MEMCPY * HBM) * 1e6
             + EAGER_ROTARY_SLICE_LAUNCHES * LAUNCH_US,
             launches=EAGER_ROTARY_LAUNCHES)

    fused = by_name(FUSED)
    rates["fused_residual_norm"] = fit_pair(
        fused, lambda c: c["kind"] in ("add_rmsnorm", "add_layernorm"),
             ("compiled add + norm forward, x and h in, y and norm(y) out "
              "(kFusedResidualNormForward)",
              "compiled add + norm backward, the norm's 3 elements (kFusedResidualNormBackward)"),
             lambda c: 4 * elements(c) * 2, lambda c: 3 * elements(c) * 2)
    rates["fused_swiglu"] = fit_pair(fused, lambda c: c["kind"] == "swiglu",
             ("compiled SwiGLU forward, gate and up in, out (kFusedSwigluForward)",
              "compiled SwiGLU backward, gate, up and the gradient in, two out "
              "(kFusedSwigluBackward)"),
             lambda c: 3 * elements(c) * 2, lambda c: 5 * elements(c) * 2)
    constants = {f"host_{stack}_{use}_us": round(v, 1) for (stack, use), v in host.items()}
    for name, (forward, backward) in rates.items():
        constants[f"{name}_forward"] = round(forward, 3)
        constants[f"{name}_backward"] = round(backward, 3)
    for name, (forward, backward) in (("eager_swiglu", EAGER_SWIGLU_LAUNCHES),
                                      ("eager_rotary", EAGER_ROTARY_LAUNCHES)):
        constants[f"{name}_forward_launches"] = forward
        constants[f"{name}_backward_launches"] = backward
    constants["eager_rotary_slice_launches"] = EAGER_ROTARY_SLICE_LAUNCHES
    return {"source": ["models/calibration/h200/launch/h200_launch.json",
                       "models/calibration/h200/launch/h200_launch_fused.json"],
            "script": "tools/calibration/fit_launch.py", "constants": constants}


def main():
    write_fit(fit(), OUTPUT)


if __name__ == "__main__":
    main()
