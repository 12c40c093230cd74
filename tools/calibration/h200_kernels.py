#!/usr/bin/env python3
"""Kernel timings on one GPU for the compute model (issue 18): GEMMs of the shipped and dense
models (BF16 and FP8), small-M decode GEMMs, grouped expert GEMMs, fused attention forward and
backward, HBM-bound kernels, and the fixed cost of a kernel.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_kernels.py --out "$OUT" [--budget-s 420]
Writes OUT/h200_kernels.json: the GPU, driver, torch, CUDA, date, the method, and per case its
class, shape, FLOPs, HBM bytes (the fewest a kernel must move: inputs read once, outputs written
once), the median time and every timed repeat. Every third case of each class is marked
`held_out` (index % 3 == 2): fits leave those out and report their error on them.

Method: CUDA events around each timed call after warm-up; the median of the repeats; inputs random
normal (never zeros), several input sets rotating so that repeats do not run from L2 where a set
is smaller than it. Kernels shorter than about 50 us are timed as a CUDA graph of 20 back-to-back
launches (the event pair around the graph, divided by 20), which leaves out host launch gaps.
"""
import argparse
import json
import os
import statistics
import time

import torch
import torch.nn.functional as F

from h200_common import L2_BYTES, device_facts, eager_times, graph_times, input_sets

WARMUP = 3
REPEATS = 10
GRAPH_LAUNCHES = 20

# --- GEMM shapes: name, batch, m, n, k (C[m,n] = A[m,k] B[k,n]) -------------------------------
T = 4096  # tokens of a micro-batch per GPU


def dense_tp8(name, hidden, ffn, heads, kv_heads, head_dim, tokens, gated=True):
    """A dense transformer's GEMMs sharded over TP 8 (Megatron: QKV and MLP-in by columns,
    attention-out and MLP-out by rows), forward, and the two backward GEMMs of the MLP-in."""
    qkv = (heads + 2 * kv_heads) * head_dim // 8
    mlp_in = (2 if gated else 1) * ffn // 8
    return [
        (f"{name}_qkv", 1, tokens, qkv, hidden),
        (f"{name}_attn_out", 1, tokens, hidden, heads * head_dim // 8),
        (f"{name}_mlp_in", 1, tokens, mlp_in, hidden),
        (f"{name}_mlp_out", 1, tokens, hidden, ffn // 8),
        (f"{name}_mlp_in_dgrad", 1, tokens, hidden, mlp_in),
        (f"{name}_mlp_in_wgrad", 1, hidden, mlp_in, tokens),
    ]


GEMMS = (
    # DeepSeek-V3 (MLA, MoE) per GPU, as h200_gemm.json, plus backward shapes of the experts.
    [("v3_q_down", 1, T, 1536, 7168), ("v3_q_up", 1, T, 24576, 1536),
     ("v3_kv_down", 1, T, 576, 7168), ("v3_kv_up", 1, T, 32768, 512),
     ("v3_o_proj", 1, T, 7168, 16384), ("v3_shared_gate_up", 1, T, 4096, 7168),
     ("v3_shared_down", 1, T, 7168, 2048), ("v3_experts_down_dgrad", 4, 8192, 2048, 7168)]
    # Llama 3.1 405B (16384 wide), 70B (8192) and GPT-3 175B (12288, plain GELU MLP) on TP 8.
    + dense_tp8("l405", 16384, 53248, 128, 8, 128, T)
    + dense_tp8("l70", 8192, 28672, 64, 8, 128, T)
    + dense_tp8("gpt3", 12288, 49152, 96, 96, 128, 2048, gated=False)
    # Small-M decode: a few requests through the weights (memory-bound).
    + [(f"decode_v3_q_up_m{m}", 1, m, 24576, 1536) for m in (1, 8, 32, 128)]
    + [(f"decode_v3_o_proj_m{m}", 1, m, 7168, 16384) for m in (1, 16, 64, 256)]
    + [(f"decode_l70_mlp_in_m{m}", 1, m, 7168, 8192) for m in (4, 32, 128)]
    + [("square_4096", 1, 4096, 4096, 4096), ("square_8192", 1, 8192, 8192, 8192)]
)

# Grouped expert GEMMs: experts on the GPU, tokens per expert (even, or skewed by a Zipf-like
# share), hidden, expert width. gate+up is [tokens, 7168] x [7168, 2 x width].
GROUPED = [
    ("v3_ep64_even", 4, [8192] * 4, 7168, 4096),
    ("v3_ep64_skew", 4, [14000, 9000, 6000, 3768], 7168, 4096),
    ("v3_ep32_even", 8, [4096] * 8, 7168, 4096),
    ("v3_ep256_even", 1, [32768], 7168, 4096),
    ("v3_decode_ep320", 1, [36], 7168, 4096),
    ("v3_ep64_down_even", 4, [8192] * 4, 2048, 7168),
]

# Attention: name, batch, heads, sequence, d_qk, d_v, causal.
ATTENTION = (
    [(f"d{d}_s{s}", max(1, 32768 // s), 16, s, d, d, True)
     for d in (64, 128) for s in (2048, 8192, 32768, 131072)]
    + [(f"mla_s{s}", max(1, 16384 // s), 16, s, 192, 128, True) for s in (4096, 16384)]
    + [("d128_s4096_full", 8, 16, 4096, 128, 128, False), ("d192_s8192", 4, 16, 8192, 192, 192, True)]
)


def now_us(events):
    return events[0].elapsed_time(events[1]) * 1000.0


def time_fn(fn, inputs, expected_us=None):
    """Median time of fn(*inputs[i]) in microseconds, and every repeat. Short kernels run as a
    CUDA graph of GRAPH_LAUNCHES launches."""
    for i in range(WARMUP):
        fn(*inputs[i % len(inputs)])
    torch.cuda.synchronize()
    probe = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
    probe[0].record()
    fn(*inputs[0])
    probe[1].record()
    torch.cuda.synchronize()
    graphed = now_us(probe) < 50
    times = graph_times(fn, inputs, GRAPH_LAUNCHES, REPEATS) if graphed else \
        eager_times(fn, inputs, REPEATS)
    return statistics.median(times), times, graphed


def gemm_case(dtype, batch, m, n, k):
    el = 2 if dtype == "bf16" else 1
    sets = input_sets((m * k + k * n) * el * batch)
    if dtype == "bf16":
        inputs = [(torch.randn(batch, m, k, device="cuda", dtype=torch.bfloat16),
                   torch.randn(batch, k, n, device="cuda", dtype=torch.bfloat16)) for _ in range(sets)]
        fn = (lambda a, b: torch.matmul(a[0], b[0])) if batch == 1 else (lambda a, b: torch.bmm(a, b))
    else:
        one = torch.tensor(1.0, device="cuda")
        inputs = [(torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn),
                   torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)) for _ in range(sets)]

        def fn(a, bt):
            for _ in range(batch):
                torch._scaled_mm(a, bt.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    flops = 2.0 * batch * m * n * k
    hbm = batch * ((m * k + k * n) * el + m * n * 2)
    return flops, hbm, fn, inputs


def grouped_case(counts, hidden, width, gate_up=True):
    n = 2 * width if gate_up else width
    k = hidden
    total = sum(counts)
    offs = torch.tensor([sum(counts[:i + 1]) for i in range(len(counts))], device="cuda",
                        dtype=torch.int32)
    sets = input_sets((total * k + len(counts) * k * n) * 2)
    inputs = [(torch.randn(total, k, device="cuda", dtype=torch.bfloat16),
               torch.randn(len(counts), k, n, device="cuda", dtype=torch.bfloat16).transpose(-2, -1)
               .contiguous().transpose(-2, -1)) for _ in range(sets)]
    grouped = getattr(torch, "_grouped_mm", None)

    def fn_grouped(a, b):
        return grouped(a, b, offs=offs)

    def fn_loop(a, b):
        start = 0
        for e, c in enumerate(counts):
            torch.matmul(a[start:start + c], b[e])
            start += c

    fn, impl = (fn_grouped, "torch._grouped_mm") if grouped is not None else (fn_loop, "matmul per expert")
    try:
        fn(*inputs[0])
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001 - record and fall back
        fn, impl = fn_loop, f"matmul per expert ({type(e).__name__} from _grouped_mm)"
    flops = 2.0 * total * n * k
    hbm = (total * k + len(counts) * k * n + total * n) * 2
    return flops, hbm, fn, inputs, impl


def attention_case(batch, heads, seq, d_qk, d_v, causal, backward):
    def make():
        q = torch.randn(batch, heads, seq, d_qk, device="cuda", dtype=torch.bfloat16, requires_grad=backward)
        k = torch.randn(batch, heads, seq, d_qk, device="cuda", dtype=torch.bfloat16, requires_grad=backward)
        v = torch.randn(batch, heads, seq, d_v, device="cuda", dtype=torch.bfloat16, requires_grad=backward)
        return q, k, v
    qkv_bytes = batch * heads * seq * (2 * d_qk + d_v) * 2
    inputs = [make() for _ in range(input_sets(qkv_bytes))]
    grad = torch.randn(batch, heads, seq, d_v, device="cuda", dtype=torch.bfloat16)

    def fwd(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    def fwd_bwd(q, k, v):
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        out.backward(grad)

    pairs = batch * heads * seq * seq * (0.5 if causal else 1.0)
    flops = 2.0 * pairs * (d_qk + d_v)  # Q K^T and P V
    if backward:
        flops *= 3.5  # forward + backward (2.5x: dQ, dK, dV and the recomputed scores)
    hbm = qkv_bytes + batch * heads * seq * d_v * 2 * (3 if backward else 1)
    return flops, hbm, (fwd_bwd if backward else fwd), inputs


def memory_cases():
    """HBM-bound kernels at DeepSeek-V3 sizes (4096 tokens x 7168, experts' 8 x 4096 rows)."""
    rows, h = 4096, 7168
    cases = []

    def add(name, bytes_moved, fn, make):
        sets = input_sets(bytes_moved)
        cases.append((name, bytes_moved, fn, [make() for _ in range(sets)]))

    w = torch.randn(h, device="cuda", dtype=torch.bfloat16)
    add("rms_norm_4096x7168", rows * h * 2 * 2, lambda x: F.rms_norm(x, (h,), w),
        lambda: (torch.randn(rows, h, device="cuda", dtype=torch.bfloat16),))
    add("silu_mul_32768x2048", 32768 * 2048 * 2 * 3,
        lambda g, u: F.silu(g) * u,
        lambda: (torch.randn(32768, 2048, device="cuda", dtype=torch.bfloat16),
                 torch.randn(32768, 2048, device="cuda", dtype=torch.bfloat16)))
    add("add_4096x7168", rows * h * 2 * 3, lambda a, b: a + b,
        lambda: (torch.randn(rows, h, device="cuda", dtype=torch.bfloat16),
                 torch.randn(rows, h, device="cuda", dtype=torch.bfloat16)))
    idx = torch.randint(0, rows, (rows * 8,), device="cuda")
    add("permute_gather_32768x7168", rows * 8 * h * 2 * 2, lambda x: x.index_select(0, idx),
        lambda: (torch.randn(rows, h, device="cuda", dtype=torch.bfloat16),))

    def quantize(x):  # FP8 with a scale per 1 x 128 tile, as DeepSeek's activations
        t = x.view(x.shape[0], -1, 128)
        scale = t.abs().amax(dim=-1, keepdim=True).float().clamp(min=1e-12) / 448.0
        return (t / scale).to(torch.float8_e4m3fn), scale
    add("fp8_quantize_4096x7168", rows * h * (2 + 1) + rows * h // 128 * 4, quantize,
        lambda: (torch.randn(rows, h, device="cuda", dtype=torch.bfloat16),))
    n = 256 * 1024 * 1024
    add("copy_512MB", n * 2 * 2, lambda s, d: d.copy_(s),
        lambda: (torch.randn(n, device="cuda", dtype=torch.bfloat16),
                 torch.empty(n, device="cuda", dtype=torch.bfloat16)))
    # AdamW on 64M FP32 parameters with FP32 moments (torch's fused kernel): read p, g, m, v,
    # write p, m, v.
    p = 64 * 1024 * 1024
    params = [torch.randn(p, device="cuda", requires_grad=True)]
    params[0].grad = torch.randn(p, device="cuda")
    opt = torch.optim.AdamW(params, lr=1e-4, fused=True)
    opt.step()
    add("adamw_fused_64M", p * 4 * 7, lambda: opt.step(), lambda: ())
    return cases


def fixed_cost_cases():
    """The smallest kernels: what a launch costs inside a graph, and outside one."""
    x = torch.randn(1, device="cuda")
    return [("tiny_add_graph", lambda a: a.add_(1.0), [(x,)])]


def record(result, cls, name, shape, flops, hbm, median, times, graphed, held_out, extra=None):
    case = {"class": cls, "name": name, **shape, "flops": flops, "hbm_bytes": hbm,
            "time_us": median, "graphed": graphed, "held_out": held_out, "times_us": times}
    if extra:
        case.update(extra)
    result["cases"].append(case)
    rate = f"{flops / median / 1e6:7.1f} TFLOP/s" if flops else f"{hbm / median / 1e3:7.0f} GB/s"
    print(f"{cls:18s} {name:28s} {median:11.2f} us {rate}{' (held out)' if held_out else ''}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--budget-s", type=float, default=420, help="stop starting cases after this")
    args = parser.parse_args()
    start = time.time()
    result = {
        **device_facts(),
        "method": (f"CUDA events, {WARMUP} warm-up runs, median of {REPEATS}; random-normal inputs "
                   f"rotating over up to 4 sets to defeat the {L2_BYTES / 1e6:.0f} MB L2; kernels under "
                   f"50 us timed as a CUDA graph of {GRAPH_LAUNCHES} launches"),
        "cases": [], "skipped": [],
    }
    out_path = os.path.join(args.out, "h200_kernels.json")

    def save():
        os.makedirs(args.out, exist_ok=True)
        with open(out_path, "w") as f:
            json.dump(result, f, indent=1)

    def over_budget(name):
        if time.time() - start > args.budget_s:
            result["skipped"].append(name)
            return True
        return False

    def run(cls, index, name, shape, build):
        if over_budget(name):
            return
        try:
            built = build()
            flops, hbm, fn, inputs = built[:4]
            median, times, graphed = time_fn(fn, inputs)
            extra = {"impl": built[4]} if len(built) > 4 else None
            record(result, cls, name, shape, flops, hbm, median, times, graphed, index % 3 == 2, extra)
        except Exception as e:  # noqa: BLE001 - a case that cannot run is recorded, not fatal
            result["skipped"].append(f"{name}: {type(e).__name__}: {str(e)[:200]}")
            print(f"{cls:18s} {name:28s} skipped: {type(e).__name__}: {str(e)[:120]}", flush=True)
        torch.cuda.empty_cache()
        save()

    for i, (name, batch, m, n, k) in enumerate(GEMMS):
        for dtype in ("bf16", "fp8"):
            run(f"gemm_{dtype}", i, name, {"dtype": dtype, "batch": batch, "m": m, "n": n, "k": k},
                lambda: gemm_case(dtype, batch, m, n, k))
    for i, (name, experts, counts, hidden, width) in enumerate(GROUPED):
        gate_up = "down" not in name
        run("grouped_gemm_bf16", i, name,
            {"experts": experts, "tokens_per_expert": counts, "k": hidden, "n": 2 * width if gate_up else width},
            lambda: grouped_case(counts, hidden, width, gate_up))
    for i, (name, batch, heads, seq, d_qk, d_v, causal) in enumerate(ATTENTION):
        for backward in (False, True):
            run("attention_fwd_bwd" if backward else "attention_fwd", i, name,
                {"batch": batch, "heads": heads, "seq": seq, "d_qk": d_qk, "d_v": d_v, "causal": causal},
                lambda: attention_case(batch, heads, seq, d_qk, d_v, causal, backward))
    for i, (name, moved, fn, inputs) in enumerate(memory_cases()):
        run("memory", i, name, {}, lambda: (0.0, moved, fn, inputs))
    for i, (name, fn, inputs) in enumerate(fixed_cost_cases()):
        run("launch", i, name, {}, lambda: (0.0, 0.0, fn, inputs))
    save()
    print(f"{len(result['cases'])} cases, {len(result['skipped'])} skipped, {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
