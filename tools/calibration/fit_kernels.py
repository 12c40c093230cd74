#!/usr/bin/env python3
"""Fits the GEMM and memory-bound terms of codesim's kernel cost model
(models/cost/kernel_cost.cpp, default_params) to the cases of
models/calibration/h200/h200_kernels.json that are not held out, and prints the error per class
on the fitted and on the held-out cases (models/calibration/README.md copies the table). Writes
the constants to models/calibration/h200/fit_kernels.json, embedded at build time as
models/calibration/kernels.hpp (tools/calibration/check_fits.py refits them as a test).
Pure Python, no GPU: python3 tools/calibration/fit_kernels.py   (a few seconds)

GEMM model, per dtype (the C++ is the reference; this mirrors it):
    tiles   = ceil(m / tm) ceil(n / tn) per group, the best of 128x128, 128x64 and 64x128
    splits  = max(1, floor(k / k_split))   (BF16: cuBLAS splits K when few tiles; FP8: 1)
    units   = tiles x min(splits, ceil(132 / tiles))   (split-K fills at most one wave)
    fill    = min(1, units / 132), waves = ceil(units / 132)
    compute = 2mnk / (peak x e x units / (waves x 132) x k / (k + k0))
  BF16 (each tile's main loop, then its epilogue writing C; across waves one tile's epilogue runs
  under the next one's main loop, the last wave's is not hidden):
    main    = max(compute, (A + B bytes) / (4.8 TB/s x e_mem x fill))
    write   = C bytes / (4.8 TB/s x e_w x fill)
    time    = max(main, write) + min(main, write) / waves + 1.33 us
  FP8 (no GEMM with a small k was timed to tell the epilogue apart):
    time    = max(compute, (A + B + C bytes) / (4.8 TB/s x e_mem x fill)) + 1.33 us
  (1.33 us: the tiny graphed kernel of the same file.) BF16: the five terms by coordinate descent
  over grids until none moves; FP8: a grid over e, k0, e_mem. Both on the mean absolute log
  error plus 0.3 x the worst.
  Grouped GEMMs have a model of
their own (fit_grouped.py, on the CUDA-graph-timed h200/moe data); this file's six grouped cases,
timed without graphs in an earlier sitting, are no longer fitted.
Memory-bound classes: one measured kernel each, efficiency = the bytes its kernels move / (time -
1.33 us per kernel) / 4.8 TB/s. silu_mul is F.silu(g) * u: two kernels moving 5 elements per
output, not the 3 a fused SwiGLU moves. The held-out elementwise (add) and copy cases are
predicted with them. The unfused FP8 quantize (seven PyTorch kernels) is reference only: a fused
cast is an elementwise kernel, and DeepSeek's own casts are measured in its trace.
"""
import json
import math
import os
import statistics

from fitted_constants import write_fit

CALIBRATION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models",
                           "calibration", "h200")
DATA = os.path.join(CALIBRATION, "h200_kernels.json")
OUTPUT = os.path.join(CALIBRATION, "fit_kernels.json")  # the fit's output: fit() and constants
# The 4 GB device copy timed beside the GEMMs: copies' (and fused attention's floor) efficiency.
COPY = os.path.join(CALIBRATION, "h200_gemm.json")
# Decode-size BF16 GEMMs of Llama 3.1 8B (M = 1-256 against its projections and head), CUDA-graph
# timed on the same H200 a day later (tools/calibration/h200_decode.py): fitted with the BF16
# cases, every third held out.
DECODE = os.path.join(CALIBRATION, "decode", "h200_decode.json")
# BF16 GEMMs with a small inner or outer dimension, plain and batched (k = 64-512 with large m = n;
# attention's scores and context shapes, batch 12-96; n = 64, 128), CUDA-graph timed
# (tools/calibration/h200_small_k.py): every third held out. Held out entirely in the form
# without an epilogue, the model priced them 3-59% slow (median 24%); fitting them in that form
# made the large GEMMs faster than measured (the H200 GPT layer -8%). Their time is the main
# loop's or the write of C, whichever is longer, the other hidden but in the last wave: the BF16
# form above.
SMALL_K = os.path.join(CALIBRATION, "h200_small_k.json")
# h200_kernels.json's GEMMs timed again, cold, on an H100 (tools/calibration/h200_kernels_cold.py):
# h200_kernels.py timed its calls one at a time with events recorded on an idle GPU (the host's
# launch of the call inside) and back to back (the clock falling under the power cap); the cold
# calls are queued behind a spin after an idle second, at the top clock. They replace that file's
# GEMM cases (same shapes, same held-out third); the H100's SMs and tensor rates are the H200's,
# its HBM 3.35 TB/s (the cases' bandwidth factor).
COLD = os.path.join(CALIBRATION, "..", "h100", "kernels", "kernels_cold.json")
K_SPLITS = (0, 128, 256, 512, 1024)  # BF16's K per split tried
PEAK = {"bf16": 989e12, "fp8": 1979e12}  # the h200 preset (models/hardware/catalog.cpp)
HBM = 4.8e12
COLD_HBM_FACTOR = 3.35e12 / HBM  # the h100 preset's bandwidth over the H200's
SMS = 132
TILES = ((128, 128), (128, 64), (64, 128))


def launch_us(cases):
    return next(c["time_us"] for c in cases if c["class"] == "launch")


def gemm_us(group_m, n, k, dtype, flops, hbm_bytes, p, launch, factor=1.0, mem_factor=1.0,
            c_bytes=0.0):
    """p: (e, k0, e_mem, k_split), the form without an epilogue, or (e, k0, e_mem, k_split, e_w)
    with e_w > 0: the main loop reads `hbm_bytes` less `c_bytes`, the epilogue writes those."""
    eff, k0, e_mem, k_split = p[:4]
    e_w = p[4] if len(p) > 4 else 0
    splits = max(1, k // k_split) if k_split else 1
    best = None
    for tm, tn in TILES:
        tiles = sum(math.ceil(m / tm) for m in group_m) * math.ceil(n / tn)
        units = tiles * min(splits, math.ceil(SMS / tiles))
        waves = math.ceil(units / SMS)
        fill = min(1.0, units / SMS)
        e = eff * factor * units / (waves * SMS) * k / (k + k0)
        compute = flops / (PEAK[dtype] * e)
        if e_w > 0:
            main = max(compute, (hbm_bytes - c_bytes) / (HBM * e_mem * mem_factor * fill))
            write = c_bytes / (HBM * e_w * mem_factor * fill)
            t = max(main, write) + min(main, write) / waves
        else:
            t = max(compute, hbm_bytes / (HBM * e_mem * mem_factor * fill))
        best = t if best is None else min(best, t)
    return best * 1e6 + launch


def plain(c, p, launch):
    return gemm_us([c["m"]] * c["batch"], c["n"], c["k"], c["dtype"], c["flops"], c["hbm_bytes"],
                   p, launch, mem_factor=c.get("hbm_factor", 1.0),
                   c_bytes=2.0 * c["batch"] * c["m"] * c["n"])


def loss(errors):
    logs = [abs(math.log(e + 1)) for e in errors]
    return statistics.mean(logs) + 0.3 * max(logs)


def fit_fp8(cases, launch):
    """e, k0 and e_mem of the form without an epilogue, on h200_kernels.json's FP8 cases."""
    best = None
    for eff in [x / 100 for x in range(60, 86)]:
        for k0 in range(0, 1024, 32):
            for e_mem in [x / 20 for x in range(8, 20)]:
                p = (eff, k0, e_mem, 0)
                l = loss([plain(c, p, launch) / c["time_us"] - 1 for c in cases])
                if best is None or l < best[0]:
                    best = (l, p)
    return best[1] + (0,)


def fit_bf16(cases, launch):
    """The BF16 form's five terms by coordinate descent from the middle of the grids: grids over
    (e_mem, e_w, split) and (e, k0) in turn until neither moves. Each case's tiling per split is
    computed once (gemm_us's arithmetic, rearranged)."""
    def tiling(c, k_split):
        splits = max(1, c["k"] // k_split) if k_split else 1
        out = []
        for tm, tn in TILES:
            tiles = c["batch"] * math.ceil(c["m"] / tm) * math.ceil(c["n"] / tn)
            units = tiles * min(splits, math.ceil(SMS / tiles))
            waves = math.ceil(units / SMS)
            out.append((units / (waves * SMS), min(1.0, units / SMS), waves))
        return out

    pre = [(c, {ks: tiling(c, ks) for ks in K_SPLITS}, 2.0 * c["batch"] * c["m"] * c["n"],
            HBM * c.get("hbm_factor", 1.0)) for c in cases]

    def cost(p):
        eff, k0, e_mem, k_split, e_w = p
        errors = []
        for c, tilings, c_bytes, hbm in pre:
            compute = c["flops"] / (PEAK["bf16"] * eff * c["k"] / (c["k"] + k0))
            operands = (c["hbm_bytes"] - c_bytes) / (hbm * e_mem)
            write = c_bytes / (hbm * e_w)
            best = None
            for wave_fill, fill, waves in tilings[k_split]:
                main = max(compute / wave_fill, operands / fill)
                t = max(main, write / fill) + min(main, write / fill) / waves
                best = t if best is None else min(best, t)
            errors.append((best * 1e6 + launch) / c["time_us"] - 1)
        return loss(errors)

    e_mems = [x / 100 for x in range(50, 96, 5)]
    e_ws = [x / 100 for x in range(50, 101, 10)]
    grids = (
        lambda p: [p[:2] + (e_mem, ks, e_w) for e_mem in e_mems for ks in K_SPLITS
                   for e_w in e_ws],
        lambda p: [(e, k0) + p[2:] for e in [x / 100 for x in range(60, 96, 2)]
                   for k0 in range(0, 513, 32)],
    )
    p = (0.72, 256, 0.75, 128, 0.8)  # mid-grid
    for _ in range(10):
        before = p
        for grid in grids:
            p = min(grid(p), key=cost)
        if p == before:
            break
    assert abs(cost(p) - loss([plain(c, p, launch) / c["time_us"] - 1 for c in cases])) < 1e-12
    return p


def decode_gemms():
    """h200_decode.json's GEMM cases in h200_kernels.json's form, every third held out."""
    cases = [c for c in json.load(open(DECODE))["cases"] if c["part"] == "gemm"]
    return [{**c, "class": "gemm_bf16", "dtype": "bf16", "batch": 1,
             "flops": 2 * c["m"] * c["n"] * c["k"], "held_out": i % 3 == 2}
            for i, c in enumerate(cases)]


def small_k_gemms():
    """h200_small_k.json's cases in h200_kernels.json's form, every third held out."""
    cases = json.load(open(SMALL_K))["cases"]
    return [{**c, "class": "gemm_bf16", "dtype": "bf16", "held_out": i % 3 == 2}
            for i, c in enumerate(cases)]


def cold_gemms(cases):
    """kernels_cold.json's GEMMs in h200_kernels.json's form (its FLOPs, bytes and held-out
    third), timed cold on the H100."""
    listed = {(c["class"], c["name"]): c for c in cases}
    return [{**listed[(c["class"], c["name"])], "time_us": c["cold_us"],
             "hbm_factor": COLD_HBM_FACTOR}
            for c in json.load(open(COLD))["cases"] if c["class"].startswith("gemm")]


def report(name, fitted, held_out):
    def stats(errors):
        if not errors:
            return "      -              -"
        a = [abs(e) for e in errors]
        return f"{100 * statistics.median(a):5.1f}% {100 * max(a):6.1f}% (n={len(a)})"
    print(f"| {name:18s} | fitted {stats(fitted)} | held out {stats(held_out)} |")


def fit():
    """The constants of models/calibration/kernels.hpp; prints the fit and its errors."""
    timed = json.load(open(DATA))["cases"]
    cases = [c for c in timed if not c["class"].startswith("gemm")] + cold_gemms(timed)
    decode = decode_gemms()
    small_k = small_k_gemms()
    launch = launch_us(cases)
    print(f"fixed cost per kernel: {launch:.2f} us")
    fitted = [c for c in cases + decode + small_k if not c["held_out"]]
    params = {"bf16": fit_bf16([c for c in fitted if c["class"] == "gemm_bf16"], launch),
              "fp8": fit_fp8([c for c in fitted if c["class"] == "gemm_fp8"], launch)}
    for dtype, p in params.items():
        print(f"gemm {dtype}: efficiency {p[0]:.2f}, k0 {p[1]}, memory efficiency {p[2]:.2f}, "
              f"K per split {p[3] or 'no split'}, write efficiency {p[4] or 'none'}")
    kernels = {"silu_mul_32768x2048": 2}
    moved = {"silu_mul_32768x2048": 32768 * 2048 * 2 * 5}
    memory = {c["name"]: moved.get(c["name"], c["hbm_bytes"]) /
              ((c["time_us"] - kernels.get(c["name"], 1) * launch) * 1e-6) / HBM
              for c in cases if c["class"] == "memory"}
    for name, e in memory.items():
        print(f"memory {name}: {e:.3f} of HBM")
    print()
    print("| class              | fitted: median, worst | held out: median, worst |")
    for dtype in ("bf16", "fp8"):
        for name, data in (("", cases), (" decode", decode), (" small k", small_k)):
            mine = [c for c in data if c["class"] == f"gemm_{dtype}"]
            if not mine:
                continue
            errs = {h: [plain(c, params[dtype], launch) / c["time_us"] - 1 for c in mine
                        if c["held_out"] == h] for h in (False, True)}
            report(f"gemm {dtype}{name}", errs[False], errs[True])
    # Held-out memory kernels predicted by the class they belong to.
    add = next(c for c in cases if c["name"] == "add_4096x7168")
    copy = next(c for c in cases if c["name"] == "copy_512MB")
    e_add = (add["hbm_bytes"] / (HBM * memory["silu_mul_32768x2048"]) * 1e6 + launch) / add["time_us"] - 1
    memcpy = round(json.load(open(COPY))["copy"]["read_plus_write_GBps"] * 1e9 / HBM, 2)
    e_copy = (copy["hbm_bytes"] / (HBM * memcpy) * 1e6 + launch) / copy["time_us"] - 1
    report("memory-bound", [], [e_add, e_copy])
    constants = {"launch_overhead_s": float(f"{launch:.2f}e-6"), "memcpy_efficiency": memcpy,
                 "norm_efficiency": round(memory["rms_norm_4096x7168"], 3),
                 "elementwise_efficiency": round(memory["silu_mul_32768x2048"], 3),
                 "optimizer_efficiency": round(memory["adamw_fused_64M"], 3)}
    for dtype, (eff, k0, e_mem, k_split, e_w) in params.items():
        constants.update({f"gemm_efficiency_{dtype}": eff, f"gemm_k0_{dtype}": k0,
                          f"gemm_memory_efficiency_{dtype}": e_mem,
                          f"gemm_k_split_{dtype}": k_split,
                          f"gemm_write_efficiency_{dtype}": e_w})
    return {"source": ["models/calibration/h200/h200_kernels.json",
                       "models/calibration/h100/kernels/kernels_cold.json",
                       "models/calibration/h200/decode/h200_decode.json",
                       "models/calibration/h200/h200_small_k.json",
                       "models/calibration/h200/h200_gemm.json"],
            "script": "tools/calibration/fit_kernels.py", "constants": constants}


def main():
    write_fit(fit(), OUTPUT)


if __name__ == "__main__":
    main()
