#!/usr/bin/env python3
"""One transformer layer, forward and forward + backward, on one GPU (issue 33, item 3: validation
only, never fitted), and its profiler trace (item 1: the kernel inventory a software stack
launches per op, imported with codesim's Kineto importer).

Layers (tokens = batch x sequence):
  v3_ep64     DeepSeek-V3 dims: MLA (q 1536, kv 512 + 64 rope, 128 heads, d_qk 192, d_v 128),
              sigmoid router over 256 experts with group-limited top-8 (8 groups, 4 kept),
              1 shared expert of 2048; the local experts of EP64 (4): every (token, k) row goes to
              local expert (routed id mod 4), the volume a GPU of EP64 receives. 1 x 4096 tokens.
  v3_ep32     the same with the 8 local experts of EP32.
  v2_lite     DeepSeek-V2-Lite dims: MLA without q compression (16 heads), softmax router, 64
              experts top-6 of width 1408, 2 shared experts. 2 x 4096 tokens.
  mixtral     Mixtral 8x7B dims: GQA 32 heads / 8 KV, softmax router, 8 experts top-2 of 14336.
              2 x 4096 tokens.
  llama_8b    Llama 3.1 8B dims: GQA 32 / 8, SwiGLU 14336. 2 x 4096 tokens.
  gpt_2048    GPT-style: LayerNorm with bias, biases, MHA 16 heads, GELU (tanh) MLP 8192, dropout
              0.1 after attention and MLP. 4 x 2048 tokens.

The MoE is written as PyTorch MoE layers are (torchtitan-like): router scores, top-k, argsort of
the flat expert ids, per-expert counts by scatter_add, each expert's rows padded to a multiple of
8 in a static buffer (no host sync), gather, torch._grouped_mm for gate+up and down, SwiGLU,
un-permute by gather + weighted sum, shared expert added.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_layers.py --out "$OUT" --modes eager,compiled
Writes OUT/h200_layers.json (per layer and mode: its dims, the tokens per local expert of the
timed run, forward and forward + backward median times and every repeat) and OUT/traces/
<layer>_<mode>.json (torch.profiler Chrome traces of one forward + backward).

Method: BF16 weights and activations; CUDA events around each call after warm-up (compiled: the
first calls compile); median of 10. Not CUDA-graphed: eager launches are part of what the
`pytorch` stack costs, and the trace says how busy the GPU was.
"""
import argparse
import json
import math
import os
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from h200_common import device_facts, export_trace

DEV = "cuda"
BF16 = torch.bfloat16
WARMUP = 3
REPEATS = 10
ALIGN = 8  # rows per expert group padded to this (16-byte alignment of BF16 rows)


def rope_tables(seq, dim):
    inv = 1.0 / (10000 ** (torch.arange(0, dim, 2, device=DEV, dtype=torch.float32) / dim))
    freqs = torch.outer(torch.arange(seq, device=DEV, dtype=torch.float32), inv)
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos().to(BF16), emb.sin().to(BF16)


def rotate(x, cos, sin):
    """Rotary embedding, rotate-half form; x [..., S, d], cos/sin [S, d]."""
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos + rotated * sin


class MLA(nn.Module):
    def __init__(self, hidden, heads, q_rank, kv_rank=512, nope=128, rope=64, v=128):
        super().__init__()
        self.heads, self.nope, self.rope, self.v = heads, nope, rope, v
        d_qk = nope + rope
        if q_rank:
            self.q_a = nn.Linear(hidden, q_rank, bias=False)
            self.q_norm = nn.RMSNorm(q_rank)
            self.q_b = nn.Linear(q_rank, heads * d_qk, bias=False)
        else:
            self.q = nn.Linear(hidden, heads * d_qk, bias=False)
        self.q_rank = q_rank
        self.kv_a = nn.Linear(hidden, kv_rank + rope, bias=False)
        self.kv_norm = nn.RMSNorm(kv_rank)
        self.kv_b = nn.Linear(kv_rank, heads * (nope + v), bias=False)
        self.o = nn.Linear(heads * v, hidden, bias=False)
        self.kv_rank = kv_rank

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        q = self.q_b(self.q_norm(self.q_a(x))) if self.q_rank else self.q(x)
        q = q.view(b, s, self.heads, -1).transpose(1, 2)
        q_nope, q_rope = q.split([self.nope, self.rope], dim=-1)
        kv_a = self.kv_a(x)
        c_kv, k_rope = kv_a.split([self.kv_rank, self.rope], dim=-1)
        kv = self.kv_b(self.kv_norm(c_kv)).view(b, s, self.heads, -1).transpose(1, 2)
        k_nope, v = kv.split([self.nope, self.v], dim=-1)
        k_rope = rotate(k_rope.unsqueeze(1), cos, sin)
        q = torch.cat([q_nope, rotate(q_rope, cos, sin)], dim=-1)
        k = torch.cat([k_nope, k_rope.expand(-1, self.heads, -1, -1)], dim=-1)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(out.transpose(1, 2).reshape(b, s, -1))


class GQA(nn.Module):
    def __init__(self, hidden, heads, kv_heads, head_dim=128, bias=False, dropout=0.0):
        super().__init__()
        self.heads, self.kv_heads, self.d = heads, kv_heads, head_dim
        self.q = nn.Linear(hidden, heads * head_dim, bias=bias)
        self.k = nn.Linear(hidden, kv_heads * head_dim, bias=bias)
        self.v = nn.Linear(hidden, kv_heads * head_dim, bias=bias)
        self.o = nn.Linear(heads * head_dim, hidden, bias=bias)
        self.dropout = dropout
        self.use_rope = not bias

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        q = self.q(x).view(b, s, self.heads, self.d).transpose(1, 2)
        k = self.k(x).view(b, s, self.kv_heads, self.d).transpose(1, 2)
        v = self.v(x).view(b, s, self.kv_heads, self.d).transpose(1, 2)
        if self.use_rope:
            q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                             enable_gqa=self.kv_heads != self.heads)
        out = self.o(out.transpose(1, 2).reshape(b, s, -1))
        return F.dropout(out, self.dropout, training=True) if self.dropout else out


class SwiGLU(nn.Module):
    def __init__(self, hidden, width):
        super().__init__()
        self.gate_up = nn.Linear(hidden, 2 * width, bias=False)
        self.down = nn.Linear(width, hidden, bias=False)

    def forward(self, x):
        g, u = self.gate_up(x).chunk(2, dim=-1)
        return self.down(F.silu(g) * u)


class GeluMLP(nn.Module):
    def __init__(self, hidden, width, dropout):
        super().__init__()
        self.up = nn.Linear(hidden, width)
        self.down = nn.Linear(width, hidden)
        self.dropout = dropout

    def forward(self, x):
        return F.dropout(self.down(F.gelu(self.up(x), approximate="tanh")), self.dropout, training=True)


class GroupedMM(torch.autograd.Function):
    """torch._grouped_mm with its backward written out (data gradient 2d x 3d, weight gradient
    2d x 2d), used only where the installed PyTorch has no derivative for it."""

    @staticmethod
    def forward(ctx, a, w_t, offs):
        ctx.save_for_backward(a, w_t, offs)
        return torch._grouped_mm(a, w_t, offs=offs)

    @staticmethod
    def backward(ctx, grad):
        a, w_t, offs = ctx.saved_tensors
        da = torch._grouped_mm(grad, w_t.transpose(-2, -1), offs=offs)
        dw = torch._grouped_mm(a.t(), grad, offs=offs)
        return da, dw, None


NATIVE_BACKWARD = True


def grouped_mm(a, w_t, offs):
    if NATIVE_BACKWARD:
        return torch._grouped_mm(a, w_t, offs=offs)
    return GroupedMM.apply(a, w_t, offs)


def probe_native_backward():
    """Whether torch._grouped_mm has a derivative here."""
    global NATIVE_BACKWARD
    a = torch.randn(64, 128, device=DEV, dtype=BF16, requires_grad=True)
    w = torch.randn(2, 256, 128, device=DEV, dtype=BF16, requires_grad=True)
    offs = torch.tensor([32, 64], device=DEV, dtype=torch.int32)
    try:
        out = torch._grouped_mm(a, w.transpose(-2, -1), offs=offs)
        out.backward(torch.randn_like(out))
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001
        print(f"torch._grouped_mm backward: {type(e).__name__}: {str(e)[:200]}; using GroupedMM")
        NATIVE_BACKWARD = False
    return NATIVE_BACKWARD


class MoE(nn.Module):
    """Routed experts (local_experts of them on this GPU) + shared experts."""

    def __init__(self, hidden, width, routed, local_experts, topk, score, groups=1, topk_groups=1,
                 shared_width=0):
        super().__init__()
        self.routed, self.local, self.topk, self.score = routed, local_experts, topk, score
        self.groups, self.topk_groups = groups, topk_groups
        self.gate = nn.Linear(hidden, routed, bias=False)
        scale = 1.0 / math.sqrt(hidden)
        self.w_gate_up = nn.Parameter(torch.randn(local_experts, 2 * width, hidden) * scale)
        self.w_down = nn.Parameter(torch.randn(local_experts, hidden, width) / math.sqrt(width))
        self.shared = SwiGLU(hidden, shared_width) if shared_width else None

    def route(self, x):
        logits = self.gate(x).float()
        scores = logits.sigmoid() if self.score == "sigmoid" else logits.softmax(dim=-1)
        if self.groups > 1:
            t = scores.shape[0]
            g = scores.view(t, self.groups, -1).topk(2, dim=-1).values.sum(-1)
            keep = g.topk(self.topk_groups, dim=-1).indices
            mask = torch.zeros_like(g).scatter_(1, keep, 1.0)
            mask = mask.repeat_interleave(self.routed // self.groups, dim=1)
            scores_for_choice = scores.masked_fill(mask == 0, 0.0)
        else:
            scores_for_choice = scores
        idx = scores_for_choice.topk(self.topk, dim=-1).indices
        w = scores.gather(1, idx)
        if self.score == "sigmoid":
            w = w / w.sum(dim=-1, keepdim=True)
        return idx, w.to(x.dtype)

    def forward(self, x):
        shape = x.shape
        x = x.reshape(-1, shape[-1])
        t = x.shape[0]
        idx, w = self.route(x)
        local = (idx % self.local).flatten()  # the EP rank's local expert of each (token, k) row
        order = torch.argsort(local, stable=True)
        counts = torch.zeros(self.local, device=x.device, dtype=torch.int64).scatter_add_(
            0, local, torch.ones_like(local))
        padded = (counts + ALIGN - 1) // ALIGN * ALIGN
        pad_offs = torch.cumsum(padded, 0)
        starts = pad_offs - padded
        sorted_e = local[order]
        first = torch.cumsum(counts, 0) - counts
        pos = starts[sorted_e] + torch.arange(order.numel(), device=x.device) - first[sorted_e]
        rows = t * self.topk + self.local * ALIGN
        tokens = order // self.topk
        buf = x.new_zeros(rows, shape[-1]).index_copy(0, pos, x.index_select(0, tokens))
        offs = pad_offs.to(torch.int32)
        h = grouped_mm(buf, self.w_gate_up.transpose(-2, -1), offs)
        g, u = h.chunk(2, dim=-1)
        y = grouped_mm(F.silu(g) * u, self.w_down.transpose(-2, -1), offs)
        y_sorted = y.index_select(0, pos)
        y_rows = torch.empty_like(y_sorted).index_copy(0, order, y_sorted)  # back to (token, k)
        out = (y_rows.view(t, self.topk, -1) * w.unsqueeze(-1)).sum(dim=1)
        if self.shared is not None:
            out = out + self.shared(x)
        if not torch.compiler.is_compiling():
            self.last_counts = counts
        return out.view(shape)


class Layer(nn.Module):
    def __init__(self, attn, mlp, hidden, norm):
        super().__init__()
        self.attn, self.mlp = attn, mlp
        if norm == "layer":
            self.n1, self.n2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        else:
            self.n1, self.n2 = nn.RMSNorm(hidden), nn.RMSNorm(hidden)

    def forward(self, x, cos, sin):
        x = x + self.attn(self.n1(x), cos, sin)
        return x + self.mlp(self.n2(x))


LAYERS = {
    "v3_ep64": dict(hidden=7168, batch=1, seq=4096, rope_dim=64,
                    attn=lambda: MLA(7168, 128, 1536),
                    mlp=lambda: MoE(7168, 2048, 256, 4, 8, "sigmoid", 8, 4, shared_width=2048)),
    "v3_ep32": dict(hidden=7168, batch=1, seq=4096, rope_dim=64,
                    attn=lambda: MLA(7168, 128, 1536),
                    mlp=lambda: MoE(7168, 2048, 256, 8, 8, "sigmoid", 8, 4, shared_width=2048)),
    "v2_lite": dict(hidden=2048, batch=2, seq=4096, rope_dim=64,
                    attn=lambda: MLA(2048, 16, 0),
                    mlp=lambda: MoE(2048, 1408, 64, 64, 6, "softmax", shared_width=2 * 1408)),
    "mixtral": dict(hidden=4096, batch=2, seq=4096, rope_dim=128,
                    attn=lambda: GQA(4096, 32, 8),
                    mlp=lambda: MoE(4096, 14336, 8, 8, 2, "softmax")),
    "llama_8b": dict(hidden=4096, batch=2, seq=4096, rope_dim=128,
                     attn=lambda: GQA(4096, 32, 8), mlp=lambda: SwiGLU(4096, 14336)),
    "gpt_2048": dict(hidden=2048, batch=4, seq=2048, rope_dim=128, norm="layer",
                     attn=lambda: GQA(2048, 16, 16, bias=True, dropout=0.1),
                     mlp=lambda: GeluMLP(2048, 8192, 0.1)),
}


def time_calls(fn, repeats=REPEATS):
    times = []
    for _ in range(repeats):
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        ev[0].record()
        fn()
        ev[1].record()
        torch.cuda.synchronize()
        times.append(ev[0].elapsed_time(ev[1]) * 1000.0)
    return statistics.median(times), times


def measure(name, spec, mode, trace_dir):
    torch.manual_seed(0)
    layer = Layer(spec["attn"](), spec["mlp"](), spec["hidden"], spec.get("norm", "rms")).to(DEV, BF16)
    cos, sin = rope_tables(spec["seq"], spec["rope_dim"])
    run = torch.compile(layer) if mode == "compiled" else layer
    x = torch.randn(spec["batch"], spec["seq"], spec["hidden"], device=DEV, dtype=BF16, requires_grad=True)
    grad = torch.randn_like(x)
    params = list(layer.parameters())

    def fwd():
        with torch.no_grad():
            run(x, cos, sin)

    def fwd_bwd():
        for p in params:
            p.grad = None
        x.grad = None
        run(x, cos, sin).backward(grad)

    t0 = time.time()
    for _ in range(WARMUP):
        fwd_bwd()
        fwd()
    torch.cuda.synchronize()
    warm_s = time.time() - t0
    f_med, f_times = time_calls(fwd)
    fb_med, fb_times = time_calls(fwd_bwd)
    counts = None
    if isinstance(layer.mlp, MoE):
        with torch.no_grad():
            layer(x, cos, sin)
        counts = layer.mlp.last_counts.tolist()
    os.makedirs(trace_dir, exist_ok=True)
    trace = os.path.join(trace_dir, f"{name}_{mode}.json")
    export_trace(fwd_bwd, trace)
    dims = {k: v for k, v in spec.items() if not callable(v)}
    return {"layer": name, "mode": mode, **dims, "params": sum(p.numel() for p in params),
            "tokens_per_local_expert": counts, "warmup_s": warm_s,
            "fwd_us": f_med, "fwd_bwd_us": fb_med, "fwd_times_us": f_times, "fwd_bwd_times_us": fb_times,
            "trace": os.path.basename(trace)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--modes", default="eager,compiled")
    parser.add_argument("--layers", default=",".join(LAYERS))
    parser.add_argument("--budget-s", type=float, default=480)
    args = parser.parse_args()
    start = time.time()
    result = {**device_facts(),
              "method": (f"BF16; CUDA events around each call, {WARMUP} warm-up forward + backward "
                         f"and forward calls, median of {REPEATS}; not graphed; forward under no_grad"),
              "grouped_mm_native_backward": probe_native_backward(), "runs": [], "skipped": []}
    path = os.path.join(args.out, f"h200_layers_{args.modes.replace(',', '_')}.json")
    for mode in args.modes.split(","):
        for name in args.layers.split(","):
            if time.time() - start > args.budget_s:
                result["skipped"].append(f"{name} {mode}: over budget")
                continue
            try:
                r = measure(name, LAYERS[name], mode, os.path.join(args.out, "traces"))
                result["runs"].append(r)
                print(f"{name:10s} {mode:9s} fwd {r['fwd_us'] / 1e3:8.2f} ms  fwd+bwd {r['fwd_bwd_us'] / 1e3:8.2f} ms"
                      f"  (warm-up {r['warmup_s']:.0f} s) counts {r['tokens_per_local_expert'] and r['tokens_per_local_expert'][:8]}",
                      flush=True)
            except Exception as e:  # noqa: BLE001 - recorded, not fatal
                result["skipped"].append(f"{name} {mode}: {type(e).__name__}: {str(e)[:300]}")
                print(f"{name:10s} {mode:9s} skipped: {type(e).__name__}: {str(e)[:300]}", flush=True)
            torch.cuda.empty_cache()
            torch._dynamo.reset()
            os.makedirs(args.out, exist_ok=True)
            with open(path, "w") as f:
                json.dump(result, f, indent=1)
    print(f"{len(result['runs'])} runs, {len(result['skipped'])} skipped, {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
