#!/usr/bin/env python3
"""Host launch cost per kernel without CUDA graphs, and the rates of the stack kernels the layers
run in their own layout (issue 33; sim/workload/software_stack.cpp). Pure Python, no GPU:
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
import statistics

DATA = "models/calibration/h200/launch/h200_launch.json"
FIRST = "models/calibration/h200/launch/h200_launch_first.json"
FUSED = "models/calibration/h200/launch/h200_launch_fused.json"
HBM = 4.8e12
LAUNCH_US = 1.33
MEMCPY = 0.88  # kernel_cost.cpp's memcpy efficiency


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


def rate_fit(label, rows, held_index=2):
    """rows: (name, bytes, time_us). Median rate of all but every third; errors on those."""
    fitted = [r for i, r in enumerate(rows) if i % 3 != held_index]
    held = [r for i, r in enumerate(rows) if i % 3 == held_index]
    rate = statistics.median(b / ((t - LAUNCH_US) * 1e-6) / HBM for _, b, t in fitted)
    print(f"{label}: {rate:.3f} of HBM ({rate * HBM / 1e12:.2f} TB/s), fitted on "
          f"{len(fitted)}")
    for name, b, t in rows:
        pred = b / (rate * HBM) * 1e6 + LAUNCH_US
        tag = "held out" if (name, b, t) in held else "fitted"
        print(f"  {name:34s} {t:8.1f} us  predicted {pred:8.1f}  {100 * (pred / t - 1):+6.1f}% "
              f"({tag})")
    return rate


def main():
    cases = by_name(DATA)
    first = by_name(FIRST)
    host_costs(cases)
    print("  eager decode, Llama 3.1 8B dims, batch 1 (validation, not fitted): " + ", ".join(
        f"{c['time_us'] / 1e3:.1f} ms ({c['time_us'] / c['kernels_per_call']:.1f} us/kernel)"
        for c in (first["llama8b_b1_ctx1024"], cases["llama8b_b1_ctx1024"])) + " in two sittings")

    swiglu = [c for c in cases.values() if c["name"].startswith("swiglu_")
              and c["name"].endswith("_forward")]
    fwd, bwd = [], []
    for c in swiglu:
        both = cases[c["name"] + "_backward"]
        elements = c["rows"] * c["width"]
        fwd.append((c["layer"], 5 * elements * 2, c["time_us"]))
        bwd.append((c["layer"], 13 * elements * 2, both["time_us"] - c["time_us"]))
    rate_fit("eager SwiGLU forward (kEagerSwigluForward)", fwd)
    rate_fit("eager SwiGLU backward (kEagerSwigluBackward)", bwd)

    ws_f, ws_b = [], []
    for c in cases.values():
        if c["name"].startswith("weighted_sum_") and c["name"].endswith("compiled_forward"):
            t, k, h = c["tokens"], c["topk"], c["hidden"]
            both = cases[c["name"] + "_backward"]
            ws_f.append((c["layer"], (t * k + t) * h * 2, c["time_us"]))
            ws_b.append((c["layer"], (t + 2 * t * k) * h * 2, both["time_us"] - c["time_us"]))
    rate_fit("compiled weighted sum forward (kFusedWeightedSum)", ws_f)
    rate_fit("compiled weighted sum backward (kFusedWeightedSumBackward)", ws_b)

    rot_f, rot_b = [], []
    for c in cases.values():
        if c["name"].startswith("rotary_") and c["name"].endswith("_forward"):
            e = c["elements"]
            both = cases[c["name"] + "_backward"]
            # The backward's slice fills and copies (6 elements, vectorized) at the copy rate.
            slices_us = 6 * e * 2 / (MEMCPY * HBM) * 1e6
            rot_f.append((c["layer"], 8 * e * 2, c["time_us"]))
            rot_b.append((c["layer"], 9 * e * 2, both["time_us"] - c["time_us"] - slices_us))
    rate_fit("eager rotary forward (kEagerRotary)", rot_f)
    rate_fit("eager rotary backward, strided part (kEagerRotaryBackward)", rot_b)

    fused = by_name(FUSED)
    norm_f, norm_b = [], []
    for c in fused.values():
        if c["kind"] in ("add_rmsnorm", "add_layernorm") and c["name"].endswith("_forward"):
            both = fused[c["name"] + "_backward"]
            elements = c["rows"] * c["width"]
            norm_f.append((c["layer"], 4 * elements * 2, c["time_us"]))
            norm_b.append((c["layer"], 3 * elements * 2, both["time_us"] - c["time_us"]))
    rate_fit("compiled add + norm forward, x and h in, y and norm(y) out "
             "(kFusedResidualNormForward)", norm_f)
    rate_fit("compiled add + norm backward, the norm's 3 elements (kFusedResidualNormBackward)",
             norm_b)

    glu_f, glu_b = [], []
    for c in fused.values():
        if c["kind"] == "swiglu" and c["name"].endswith("_forward"):
            both = fused[c["name"] + "_backward"]
            elements = c["rows"] * c["width"]
            glu_f.append((c["layer"], 3 * elements * 2, c["time_us"]))
            glu_b.append((c["layer"], 5 * elements * 2, both["time_us"] - c["time_us"]))
    rate_fit("compiled SwiGLU forward, gate and up in, out (kFusedSwigluForward)", glu_f)
    rate_fit("compiled SwiGLU backward, gate, up and the gradient in, two out "
             "(kFusedSwigluBackward)", glu_b)


if __name__ == "__main__":
    main()
