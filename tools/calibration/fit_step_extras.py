#!/usr/bin/env python3
"""The optimizer's and the loss's kernels, fitted to models/calibration/h200/steps/h200_step_extras.json
(tools/calibration/h200_step_extras.py on the H200), and unfused attention's memory-bound kernels
fitted to h200_unfused_attention.json (tools/calibration/h200_unfused_attention.py). Prints the
constants of sim/workload/optimizer_update.cpp, sim/workload/software_stack.cpp and
sim/workload/unfused_attention.cpp, and writes them with the held-out comparisons to
models/calibration/h200/steps/fit_step_extras.json; its "constants" become the header
models/calibration/step_extras.hpp at build time (models/calibration/CMakeLists.txt), and
tools/calibration/check_fits.py (a test) refits them to check the file.

  AdamW      per implementation (foreach, fused), from its dense-layout runs in BF16 and FP32: the
             kernel time per parameter is bytes / (e x 4.8 TB/s) + passes x c (bytes and passes of
             sim/workload/optimizer_update.hpp); two runs, two unknowns, solved exactly. Held out:
             the expert layout (300 small tensors) and h200_kernels.json's 64M-parameter fused run.
  loss       per kernel of cross-entropy at V = 128256 words, T = 8192 tokens: its fraction of HBM
             bandwidth, bytes per logit as named below over its measured time. Held out: V = 32000
             and 151936, each implementation's kernels summed against the fitted sum.
  unfused    per memory-bound kernel of Megatron-LM's 2021 core attention (forward and backward
             with dropout) at GPT-3 175B's shape over TP 8 (12 heads, 2048 tokens, head dimension
             128): its fraction of HBM bandwidth, bytes per score element (b x heads x s x s) or
             per Q/K element (b x heads x s x d) as named below over its measured time. Held out:
             the other four shapes, the kernels summed against the fitted sum.

Run: python3 tools/calibration/fit_step_extras.py
"""
import json
import os

from fitted_constants import constant_name, read_constants, write_fit

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "models", "calibration", "h200")
HBM = 4.8e12  # H200 HBM3e, bytes per second (NVIDIA datasheet)

# sim/workload/optimizer_update.hpp: bytes per parameter and passes, no master copy (the runs'
# parameters are the weights, their states of the parameters' dtype).
def adamw(impl, w):
    g = s = w
    return (2 * w + g + 2 * s + 2 * s, 1) if impl == "fused" else (4 * w + 2 * g + 14 * s, 8)


# Cross-entropy's kernels: (name in the model, a substring of the kernel's name, bytes per logit).
LOSS = {
    "eager": [("logits to FP32", "direct_copy_kernel", 6), ("log_softmax", "SoftMaxForward", 8),
              ("loss gradient zeros", "FillFunctor<float>", 4),
              ("log_softmax backward", "SoftMaxBackward", 12),
              ("logits gradient to BF16", "bfloat16_copy_kernel", 6)],
    "compiled": [("log_softmax (fused)", "prepare_softmax_online_0", 2),
                 ("log_softmax backward (fused)", "log_softmax_backward_data", 4)],
}

# The embedding's weight gradient (nn.Embedding's backward, at V = 128256, H = 4096): (name in the
# model, a substring of the kernel's name, bytes per element, elements: "table" (V x H) or
# "tokens" (T x H)). Eager: the gradient table zeroed in BF16, the token ids sorted (a radix sort
# and its segment scans: a fixed time, below), each token's gradient summed per segment (read in
# BF16, partial sums written in FP32) and the sums scattered to their rows. Compiled: the table
# zeroed in FP32, the tokens' gradients added atomically (BF16 read, FP32 read and written), the
# table cast to BF16.
EMBEDDING = {
    "eager": [("gradient zeros", "FillFunctor<c10::BFloat16>", 2, "table"),
              ("per-segment sums", "compute_grad_weight", 6, "tokens"),
              ("sums to rows", "sum_and_scatter", 6, "tokens")],
    "compiled": [("gradient zeros (FP32)", "embedding_dense_backward_0", 4, "table"),
                 ("atomic adds", "embedding_dense_backward_1", 10, "tokens"),
                 ("gradient to BF16", "embedding_dense_backward_2", 6, "table")],
}
# The eager backward's sort of the token ids and its segment bookkeeping: its kernels' time at
# T = 8192 (it does not grow with the table or the width), less the fixed cost the model gives
# every kernel (fit_kernels.json's launch overhead), as one kernel.
EMBEDDING_SORT = ("RadixSort", "arange", "scan::", "unique_by_key", "partial_segment",
                  "partials_per_segment", "num_of_partial_segments", "Memset")

# Megatron-LM 2021's core attention, memory-bound kernels: (name in the model, a substring of the
# kernel's name, bytes per element, elements: "scores" (b n s s) or "qk" (b n s d)).
UNFUSED = [("softmax", "softmax_warp_forward", 4, "scores"),
           ("dropout", "fused_dropout_kernel", 5, "scores"),
           ("dropout backward", "masked_scale_kernel", 5, "scores"),
           ("softmax backward", ("SoftMaxBackward", "softmax_warp_backward"), 6, "scores"),
           ("scores gradient scale", "BinaryFunctor", 4, "scores"),
           ("q and k gradient scale (two kernels)", "AUnaryFunctor", 8, "qk"),
           ("k gradient copy", "direct_copy_kernel", 4, "qk")]


def unfused_elements(case, kind):
    n = case["heads"] * case["tokens"]
    return n * (case["tokens"] if kind == "scores" else case["head_dim"])


def fit_unfused(out):
    with open(os.path.join(DATA, "steps", "h200_unfused_attention.json")) as f:
        cases = [c for c in json.load(f)["cases"]
                 if c["what"] == "attention forward and backward" and c["dropout"]]
    fit = next(c for c in cases if (c["heads"], c["tokens"], c["head_dim"]) == (12, 2048, 128))
    rates = {}
    for name, part, bytes_per, kind in UNFUSED:
        t = kernel_us(fit, part) * 1e-6
        rates[name] = {"bytes_per_element": bytes_per, "elements": kind,
                       "hbm_efficiency": round(bytes_per * unfused_elements(fit, kind) / t / HBM, 4)}
        print(f"unfused attention {name}: {bytes_per} B per {kind} element at "
              f"{rates[name]['hbm_efficiency']:.4f} of HBM")
    out["unfused_attention"] = rates
    for r in cases:
        if r is fit:
            continue
        pred = sum(unfused_elements(r, v["elements"]) * v["bytes_per_element"] /
                   (v["hbm_efficiency"] * HBM) for v in rates.values()) * 1e6
        # A row of 4096 runs PyTorch's block softmax (SoftMaxForward), not the warp kernel.
        meas = sum(kernel_us(r, part) for _, part, _, _ in UNFUSED) + \
            (kernel_us(r, "SoftMaxForward") if r["tokens"] > 2048 else 0)
        out["held_out"].append({"case": f"unfused attention memory kernels {r['heads']} heads "
                                        f"x {r['tokens']} x {r['head_dim']}",
                                "measured_us": round(meas, 1), "model_us": round(pred, 1)})


def embedding_elements(case, kind):
    return case["hidden"] * (case["vocab"] if kind == "table" else case["tokens"])


def fit_embedding(out, cases):
    emb = [c for c in cases if c["what"] == "embedding"]
    out["embedding"] = {}
    for mode, kernels in EMBEDDING.items():
        fit = next(c for c in emb if c["mode"] == mode and c["vocab"] == 128256)
        rates = {}
        for name, part, bytes_per, kind in kernels:
            t = kernel_us(fit, part) * 1e-6
            rates[name] = {"bytes_per_element": bytes_per, "elements": kind,
                           "hbm_efficiency": round(bytes_per * embedding_elements(fit, kind) / t /
                                                   HBM, 4)}
            print(f"embedding {mode} {name}: {bytes_per} B per {kind} element at "
                  f"{rates[name]['hbm_efficiency']:.4f} of HBM")
        sort_us = round(kernel_us(fit, EMBEDDING_SORT), 1) if mode == "eager" else 0.0
        out["embedding"][mode] = {"kernels": rates, "sort_us": sort_us}
        for r in emb:
            if r["mode"] != mode or r["vocab"] == 128256:
                continue
            pred = sort_us + sum(embedding_elements(r, v["elements"]) * v["bytes_per_element"] /
                                 (v["hbm_efficiency"] * HBM) for v in rates.values()) * 1e6
            meas = sum(kernel_us(r, part) for _, part, _, _ in kernels) + \
                (kernel_us(r, EMBEDDING_SORT) if mode == "eager" else 0)
            out["held_out"].append({"case": f"embedding backward {mode} V={r['vocab']} "
                                            f"H={r['hidden']}",
                                    "measured_us": round(meas, 1), "model_us": round(pred, 1)})


def kernel_us(case, part):
    """Microseconds of the case's kernels whose name holds `part` (or one of a tuple of them)."""
    parts = part if isinstance(part, tuple) else (part,)
    return sum(k["us"] for k in case["kernels"] if any(p in k["name"] for p in parts))


def fit():
    """The fit's output: the constants, the per-kernel rates and the held-out comparisons."""
    with open(os.path.join(DATA, "steps", "h200_step_extras.json")) as f:
        cases = json.load(f)["cases"]
    out = {"source": "models/calibration/h200/steps/h200_step_extras.json",
           "script": "tools/calibration/fit_step_extras.py", "adamw": {},
           "loss": {}, "held_out": []}
    opt = [c for c in cases if c["what"] == "optimizer"]
    for impl in ("foreach", "fused"):
        runs = {c["dtype"]: c for c in opt if c["impl"] == impl and c["layout"] == "dense"}
        (b16, n), (b32, _) = adamw(impl, 2), adamw(impl, 4)
        t16 = runs["bfloat16"]["kernel_us"] * 1e-6 / runs["bfloat16"]["params"]
        t32 = runs["float32"]["kernel_us"] * 1e-6 / runs["float32"]["params"]
        per_byte = (t32 - t16) / (b32 - b16)
        c = (t16 - b16 * per_byte) / n
        e = 1 / (per_byte * HBM)
        out["adamw"][impl] = {"hbm_efficiency": round(e, 4), "per_param_pass_ps": round(c * 1e12, 4)}
        print(f"AdamW {impl}: e = {e:.4f} of HBM, c = {c * 1e12:.4f} ps per parameter and pass")
        for r in opt:
            if r["impl"] != impl or r["layout"] == "dense":
                continue
            b, _ = adamw(impl, 2 if r["dtype"] == "bfloat16" else 4)
            pred = r["params"] * (b / (e * HBM) + n * c) * 1e6
            out["held_out"].append({"case": f"AdamW {impl} {r['dtype']} {r['layout']}",
                                    "measured_us": r["kernel_us"], "model_us": round(pred, 1)})
    with open(os.path.join(DATA, "h200_kernels.json")) as f:
        old = next(c for c in json.load(f)["cases"] if c["name"] == "adamw_fused_64M")
    params = old["hbm_bytes"] / 28
    a = out["adamw"]["fused"]
    pred = params * (28 / (a["hbm_efficiency"] * HBM) + a["per_param_pass_ps"] * 1e-12) * 1e6
    out["held_out"].append({"case": "AdamW fused float32 64M (h200_kernels.json)",
                            "measured_us": old["time_us"], "model_us": round(pred, 1)})

    loss = [c for c in cases if c["what"] == "loss"]
    for mode, kernels in LOSS.items():
        fit = next(c for c in loss if c["mode"] == mode and c["vocab"] == 128256)
        logits = fit["tokens"] * fit["vocab"]
        rates = {}
        for name, part, bytes_per in kernels:
            t = kernel_us(fit, part) * 1e-6
            rates[name] = {"bytes_per_logit": bytes_per,
                           "hbm_efficiency": round(bytes_per * logits / t / HBM, 4)}
            print(f"loss {mode} {name}: {bytes_per} B per logit at "
                  f"{rates[name]['hbm_efficiency']:.4f} of HBM")
        out["loss"][mode] = rates
        for r in loss:
            if r["mode"] != mode or r["vocab"] == 128256:
                continue
            n = r["tokens"] * r["vocab"]
            pred = sum(n * v["bytes_per_logit"] / (v["hbm_efficiency"] * HBM)
                       for v in rates.values()) * 1e6
            meas = sum(kernel_us(r, part) for _, part, _ in kernels)
            out["held_out"].append({"case": f"loss {mode} V={r['vocab']}",
                                    "measured_us": round(meas, 1), "model_us": round(pred, 1)})
    fit_embedding(out, cases)
    fit_unfused(out)
    for h in out["held_out"]:
        h["error"] = round(h["model_us"] / h["measured_us"] - 1, 4)
        print(f"held out {h['case']}: model {h['model_us']:.0f} us, measured "
              f"{h['measured_us']:.0f} us ({100 * h['error']:+.1f}%)")
    out["constants"] = constants_of(out)
    return out


def constants_of(out):
    """The numbers the model uses, by the names of models/calibration/step_extras.hpp: seconds
    per parameter and pass as the fit prints them (4 digits of picoseconds)."""
    c = {}
    for impl, a in out["adamw"].items():
        c[f"adamw_{impl}_hbm_efficiency"] = a["hbm_efficiency"]
        c[f"adamw_{impl}_per_param_pass_s"] = float(f"{a['per_param_pass_ps']:.4f}e-12")
    for mode, rates in out["loss"].items():
        for name, r in rates.items():
            c[constant_name("loss", mode, name)] = r["hbm_efficiency"]
    for mode, e in out["embedding"].items():
        for name, r in e["kernels"].items():
            c[constant_name("embedding", mode, name)] = r["hbm_efficiency"]
    launch_us = read_constants(os.path.join(DATA, "fit_kernels.json"))["launch_overhead_s"] * 1e6
    c["embedding_eager_sort_fixed_us"] = round(out["embedding"]["eager"]["sort_us"] - launch_us, 2)
    for name, r in out["unfused_attention"].items():
        c[constant_name("unfused", name)] = r["hbm_efficiency"]
    return c


def main():
    write_fit(fit(), os.path.join(DATA, "steps", "fit_step_extras.json"))


if __name__ == "__main__":
    main()
