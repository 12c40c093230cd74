#!/usr/bin/env python3
"""MoE decode and prefill on one GPU (issue 36, item 2: validation data, never fitted; and the MLA
decode-attention kernels item 1 prices by shape). Companion of h200_decode.py (dense Llama dims).

Two parts, all CUDA-graph timed (CUDA events around graph replays, median of REPEATS):
  mla_attention  MLA decode attention in its absorbed form (what serving engines run for decode:
                 the query's no-RoPE part multiplied into the latent space, attention over the
                 cached latent [ctx, 512 + 64] shared by every head, the output multiplied back
                 out per head), as PyTorch ops (two batched GEMMs around a softmax in FP32),
                 16 heads (DeepSeek-V2-Lite) and 128 (DeepSeek-V3, one GPU's share under DP
                 attention), batch 1-256, context 1K-8K.
  model          whole MoE models with random BF16 weights, one decode step (batch 1-256,
                 context 1K-4K) and one prefill (1-4 prompts of 2K-8K tokens), each one CUDA graph:
                   v2_lite  DeepSeek-V2-Lite dims: 27 layers (the first dense, FFN 10944), MLA
                            without q compression (16 heads, absorbed at decode, decompressed
                            at prefill), 64 experts top-6 of 1408 + 2 shared, vocabulary 102,400
                   mixtral  Mixtral 8x7B dims: 32 layers, GQA 32 / 8, 8 experts top-2 of 14336,
                            vocabulary 32,000
                 The MoE is h200_layers.py's (torchtitan-like, static shapes, no host sync): every
                 expert's rows padded to 8 in a static buffer, torch._grouped_mm for gate+up and
                 down; one GPU holds every expert.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_moe_decode.py --out "$OUT" [--quick]
Writes OUT/h200_moe_decode.json: device facts, method, and per case its part, shape, median time
(us) and every repeat. `--quick` runs a few cases of each part (a smoke test).
"""
import argparse
import math
import os

import torch
import torch.nn.functional as F

from h200_common import device_facts, run_cases
from h200_layers import MoE

DEV = "cuda"
BF16 = torch.bfloat16
REPEATS = 10
KV_RANK, ROPE, NOPE, V_DIM = 512, 64, 128, 128
KV_CAP_BYTES = 30e9

MODELS = {
    "v2_lite": dict(hidden=2048, layers=27, dense_layers=1, dense_ffn=10944, heads=16,
                    attention="mla", experts=64, topk=6, expert_ffn=1408, shared=2,
                    vocab=102400),
    "mixtral": dict(hidden=4096, layers=32, dense_layers=0, heads=32, kv_heads=8, head_dim=128,
                    attention="gqa", experts=8, topk=2, expert_ffn=14336, shared=0, vocab=32000),
}



def w(*shape, fan_in=None):
    return torch.randn(*shape, device=DEV, dtype=BF16) / math.sqrt(fan_in or shape[0])


def rope(x, pos, dim):
    """Rotate-half rotary embedding of x [b, s, ..., dim] at positions pos [s]."""
    inv = 1.0 / (10000 ** (torch.arange(0, dim, 2, device=DEV, dtype=torch.float32) / dim))
    freqs = torch.outer(pos.float(), inv)
    emb = torch.cat([freqs, freqs], -1)
    shape = [1, pos.numel()] + [1] * (x.dim() - 3) + [dim]
    cos, sin = emb.cos().to(BF16).view(shape), emb.sin().to(BF16).view(shape)
    half = dim // 2
    return x * cos + torch.cat([-x[..., half:], x[..., :half]], -1) * sin


def absorbed_attention(q_lat, q_rope, cache, scale):
    """q_lat [b, h, 512], q_rope [b, h, 64], cache [b, ctx, 576] -> latent output [b, h, 512]."""
    q = torch.cat([q_lat, q_rope], -1)
    scores = torch.bmm(q, cache.transpose(1, 2)).float() * scale
    p = scores.softmax(-1).to(BF16)
    return torch.bmm(p, cache[..., :KV_RANK])


def mla_attention_cases(batches, contexts):
    for heads in (16, 128):
        for b in batches:
            for ctx in contexts:
                q_lat = torch.randn(b, heads, KV_RANK, device=DEV, dtype=BF16)
                q_rope = torch.randn(b, heads, ROPE, device=DEV, dtype=BF16)
                cache = torch.randn(b, ctx, KV_RANK + ROPE, device=DEV, dtype=BF16)
                cache_bytes = cache.numel() * 2
                yield ({"part": "mla_attention", "heads": heads, "batch": b, "context": ctx,
                        "latent": KV_RANK, "rope": ROPE, "cache_bytes": cache_bytes},
                       lambda a, r, c: absorbed_attention(a, r, c, (NOPE + ROPE) ** -0.5),
                       (q_lat, q_rope, cache), max(1, int(2e6 / cache_bytes)))


class Mla:
    def __init__(self, d, heads):
        self.heads = heads
        self.q = w(d, heads * (NOPE + ROPE))
        self.kv_a = w(d, KV_RANK + ROPE)
        self.kv_norm = torch.ones(KV_RANK, device=DEV, dtype=BF16)
        self.w_uk = w(heads, NOPE, KV_RANK, fan_in=KV_RANK)  # k_nope = c W_uk^T per head
        self.w_uv = w(heads, KV_RANK, V_DIM, fan_in=KV_RANK)  # v = c W_uv per head
        self.o = w(heads * V_DIM, d)

    def cache(self, b, ctx):
        return torch.randn(b, ctx, KV_RANK + ROPE, device=DEV, dtype=BF16)

    def cache_bytes(self, b, ctx):
        return b * ctx * (KV_RANK + ROPE) * 2

    def latent(self, x, pos):
        c, k_rope = (x @ self.kv_a).split([KV_RANK, ROPE], -1)
        return torch.cat([F.rms_norm(c, (KV_RANK,), self.kv_norm), rope(k_rope, pos, ROPE)], -1)

    def queries(self, x, pos):
        b, s, _ = x.shape
        q_nope, q_rope = (x @ self.q).view(b, s, self.heads, -1).split([NOPE, ROPE], -1)
        return q_nope, rope(q_rope, pos, ROPE)

    def decode(self, x, pos, cache):
        b = x.shape[0]
        cache[:, -1:] = self.latent(x, pos)
        q_nope, q_rope = self.queries(x, pos)
        q_lat = torch.einsum("bhn,hnc->bhc", q_nope[:, 0], self.w_uk)
        o_lat = absorbed_attention(q_lat, q_rope[:, 0], cache, (NOPE + ROPE) ** -0.5)
        out = torch.einsum("bhc,hcv->bhv", o_lat, self.w_uv)
        return (out.reshape(b, -1) @ self.o).view(b, 1, -1)

    def prefill(self, x, pos):
        b, s, _ = x.shape
        lat = self.latent(x, pos)
        c, k_rope = lat.split([KV_RANK, ROPE], -1)
        k_nope = torch.einsum("bsc,hnc->bhsn", c, self.w_uk)
        v = torch.einsum("bsc,hcv->bhsv", c, self.w_uv)
        q_nope, q_rope = self.queries(x, pos)
        q = torch.cat([q_nope, q_rope], -1).transpose(1, 2)
        k = torch.cat([k_nope, k_rope.unsqueeze(1).expand(-1, self.heads, -1, -1)], -1)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return out.transpose(1, 2).reshape(b, s, -1) @ self.o


class Gqa:
    def __init__(self, d, heads, kv_heads, head_dim):
        self.heads, self.kv_heads, self.d = heads, kv_heads, head_dim
        self.qkv = w(d, (heads + 2 * kv_heads) * head_dim)
        self.o = w(heads * head_dim, d)

    def cache(self, b, ctx):
        return (torch.randn(b, self.kv_heads, ctx, self.d, device=DEV, dtype=BF16),
                torch.randn(b, self.kv_heads, ctx, self.d, device=DEV, dtype=BF16))

    def cache_bytes(self, b, ctx):
        return 2 * b * ctx * self.kv_heads * self.d * 2

    def project(self, x, pos):
        b, s, _ = x.shape
        q, k, v = (x @ self.qkv).split(
            [self.heads * self.d, self.kv_heads * self.d, self.kv_heads * self.d], -1)
        q = rope(q.view(b, s, self.heads, self.d), pos, self.d).transpose(1, 2)
        k = rope(k.view(b, s, self.kv_heads, self.d), pos, self.d).transpose(1, 2)
        return q, k, v.view(b, s, self.kv_heads, self.d).transpose(1, 2)

    def decode(self, x, pos, cache):
        b = x.shape[0]
        q, k, v = self.project(x, pos)
        cache[0][:, :, -1:] = k
        cache[1][:, :, -1:] = v
        a = F.scaled_dot_product_attention(q, cache[0], cache[1], enable_gqa=True)
        return a.transpose(1, 2).reshape(b, 1, -1) @ self.o

    def prefill(self, x, pos):
        b, s, _ = x.shape
        q, k, v = self.project(x, pos)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        return a.transpose(1, 2).reshape(b, s, -1) @ self.o


class Dense:
    def __init__(self, d, ffn):
        self.gate_up, self.down = w(d, 2 * ffn), w(ffn, d)

    def __call__(self, x):
        g, u = (x @ self.gate_up).chunk(2, -1)
        return (F.silu(g) * u) @ self.down


class Model:
    def __init__(self, spec):
        d = self.d = spec["hidden"]
        self.layers = []
        for i in range(spec["layers"]):
            attn = (Mla(d, spec["heads"]) if spec["attention"] == "mla" else
                    Gqa(d, spec["heads"], spec["kv_heads"], spec["head_dim"]))
            if i < spec["dense_layers"]:
                mlp = Dense(d, spec["dense_ffn"])
            else:
                with torch.device(DEV):
                    mlp = MoE(d, spec["expert_ffn"], spec["experts"], spec["experts"],
                              spec["topk"], "softmax",
                              shared_width=spec["shared"] * spec["expert_ffn"]).to(BF16)
            self.layers.append((attn, mlp, torch.ones(d, device=DEV, dtype=BF16),
                                torch.ones(d, device=DEV, dtype=BF16)))
        self.norm = torch.ones(d, device=DEV, dtype=BF16)
        self.head = w(d, spec["vocab"])
        self.attention = [layer[0] for layer in self.layers]

    def weight_bytes(self):
        total = self.head.numel()
        for attn, mlp, _, _ in self.layers:
            for obj in (attn, mlp):
                if isinstance(obj, torch.nn.Module):
                    total += sum(p.numel() for p in obj.parameters())
                else:
                    total += sum(t.numel() for t in vars(obj).values() if torch.is_tensor(t))
        return 2 * total

    def forward(self, x, pos, caches=None):
        for i, (attn, mlp, n1, n2) in enumerate(self.layers):
            h = F.rms_norm(x, (self.d,), n1)
            x = x + (attn.decode(h, pos, caches[i]) if caches else attn.prefill(h, pos))
            x = x + mlp(F.rms_norm(x, (self.d,), n2))
        return F.rms_norm(x[:, -1:], (self.d,), self.norm) @ self.head


def model_cases(names, decode_grid, prefill_grid):
    for name in names:
        spec = MODELS[name]
        torch.manual_seed(0)
        model = Model(spec)
        weights = model.weight_bytes()
        dims = {"model": name, "weight_bytes": weights}
        with torch.no_grad():
            for b, ctx in decode_grid:
                kv = sum(a.cache_bytes(b, ctx) for a in model.attention)
                if kv > KV_CAP_BYTES:
                    continue
                caches = [a.cache(b, ctx) for a in model.attention]
                x = torch.randn(b, 1, model.d, device=DEV, dtype=BF16)
                pos = torch.tensor([ctx - 1], device=DEV)
                yield ({"part": "decode_step", **dims, "batch": b, "context": ctx,
                        "kv_bytes": kv},
                       lambda x, pos, caches=caches: model.forward(x, pos, caches), (x, pos), 1)
                del caches
            for prompts, length in prefill_grid:
                x = torch.randn(prompts, length, model.d, device=DEV, dtype=BF16)
                pos = torch.arange(length, device=DEV)
                yield ({"part": "prefill", **dims, "prompts": prompts, "prompt_len": length},
                       lambda x, pos: model.forward(x, pos), (x, pos), 1)
        del model
        torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--budget-s", type=float, default=480)
    args = parser.parse_args()
    batches = [1, 64] if args.quick else [1, 8, 32, 64, 128, 256]
    contexts = [1024] if args.quick else [1024, 2048, 4096, 8192]
    decode_grid = ([(8, 1024)] if args.quick else
                   [(b, c) for b in batches for c in (1024, 4096)])
    prefill_grid = ([(1, 2048)] if args.quick else
                    [(1, 2048), (1, 4096), (1, 8192), (2, 4096), (4, 2048)])
    result = {**device_facts(),
              "method": f"CUDA graph replays timed with CUDA events, median of {REPEATS} "
                        "(MLA attention: several launches per graph, time per launch); "
                        "random BF16 inputs and weights; no_grad",
              "cases": [], "skipped": []}
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "h200_moe_decode.json")
    parts = [mla_attention_cases(batches, contexts),
             model_cases(args.models.split(","), decode_grid, prefill_grid)]
    run_cases(parts, result, path, args.budget_s, REPEATS)


if __name__ == "__main__":
    main()
