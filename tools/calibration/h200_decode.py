#!/usr/bin/env python3
"""Decode and prefill on one GPU (issue 36, item 2: validation data, never fitted; and the decode
kernels item 1 prices by shape).

Three parts, all CUDA-graph timed (CUDA events around graph replays, median of REPEATS):
  attention  decode attention by SDPA backend (flash, efficient, cudnn, math: each that runs),
             Llama 3.1 8B heads (32 query, 8 KV, d 128; GQA), one query token per request,
             batch 1-256, context 1K-8K, KV cache in BF16.
  gemm       decode-size GEMMs of Llama 3.1 8B (M = batch 1-256 against its projections and the
             output head; BF16, torch.matmul of [M, K] x [K, N]).
  model      a whole Llama-3.1-8B-dims model (32 layers: RMSNorm, QKV, RoPE, GQA SDPA over a
             static KV cache, O, RMSNorm, SwiGLU; head over 128,256; random BF16 weights):
             one decode step (batch 1-256, context 1K-8K, KV cache capped at 100 GB) and one
             prefill (1-8 prompts of 2K-8K tokens, causal), each captured as one CUDA graph.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_decode.py --out "$OUT" [--quick]
Writes OUT/h200_decode.json: device facts, method, and per case its part, shape, median time
(us) and every repeat. `--quick` runs a few cases of each part (a smoke test).
"""
import argparse
import os

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from h200_common import device_facts, run_cases

DEV = "cuda"
BF16 = torch.bfloat16
REPEATS = 10
# Llama 3.1 8B
HIDDEN, LAYERS, HEADS, KV_HEADS, HEAD_DIM, FFN, VOCAB = 4096, 32, 32, 8, 128, 14336, 128256
KV_CAP_BYTES = 100e9
BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "efficient": SDPBackend.EFFICIENT_ATTENTION,
            "cudnn": SDPBackend.CUDNN_ATTENTION, "math": SDPBackend.MATH}



def attention_cases(batches, contexts):
    for backend, kernel in BACKENDS.items():
        for b in batches:
            for ctx in contexts:
                q = torch.randn(b, HEADS, 1, HEAD_DIM, device=DEV, dtype=BF16)
                k = torch.randn(b, KV_HEADS, ctx, HEAD_DIM, device=DEV, dtype=BF16)
                v = torch.randn_like(k)

                def fn(q, k, v, kernel=kernel):
                    with sdpa_kernel(kernel):
                        return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
                kv_bytes = 2 * b * ctx * KV_HEADS * HEAD_DIM * 2
                yield ({"part": "attention", "backend": backend, "batch": b, "context": ctx,
                        "heads": HEADS, "kv_heads": KV_HEADS, "head_dim": HEAD_DIM,
                        "kv_bytes": kv_bytes}, fn, (q, k, v), max(1, int(2e6 / kv_bytes)))


def gemm_cases(batches):
    shapes = {"qkv": (HIDDEN, (HEADS + 2 * KV_HEADS) * HEAD_DIM), "o": (HIDDEN, HIDDEN),
              "gate_up": (HIDDEN, 2 * FFN), "down": (FFN, HIDDEN), "head": (HIDDEN, VOCAB)}
    for name, (k, n) in shapes.items():
        for m in batches:
            a = torch.randn(m, k, device=DEV, dtype=BF16)
            w = torch.randn(k, n, device=DEV, dtype=BF16)
            yield ({"part": "gemm", "name": name, "m": m, "n": n, "k": k,
                    "hbm_bytes": (m * k + k * n + m * n) * 2}, torch.matmul, (a, w), 4)


def kv_caches(batch, context):
    """Every layer's (K, V) cache of `context` tokens for `batch` sequences, random BF16."""
    return [(torch.randn(batch, KV_HEADS, context, HEAD_DIM, device=DEV, dtype=BF16),
             torch.randn(batch, KV_HEADS, context, HEAD_DIM, device=DEV, dtype=BF16))
            for _ in range(LAYERS)]


class Llama:
    """Llama-style decoder with random weights; a decode step reads and writes a static KV cache
    (one K and one V tensor per layer, the new token at the cache's last slot)."""

    def __init__(self, module_scope=False):
        self.module_scope = module_scope

        def w(*shape):
            return torch.randn(*shape, device=DEV, dtype=BF16) * 0.02
        self.layers = [{"qkv": w(HIDDEN, (HEADS + 2 * KV_HEADS) * HEAD_DIM), "o": w(HIDDEN, HIDDEN),
                        "gate_up": w(HIDDEN, 2 * FFN), "down": w(FFN, HIDDEN),
                        "n1": torch.ones(HIDDEN, device=DEV, dtype=BF16),
                        "n2": torch.ones(HIDDEN, device=DEV, dtype=BF16)} for _ in range(LAYERS)]
        self.head = w(HIDDEN, VOCAB)
        self.norm = torch.ones(HIDDEN, device=DEV, dtype=BF16)
        self.inv = 1.0 / (500000 ** (torch.arange(0, HEAD_DIM, 2, device=DEV, dtype=torch.float32)
                                     / HEAD_DIM))

    def weight_bytes(self):
        return 2 * (sum(t.numel() for layer in self.layers for t in layer.values())
                    + self.head.numel())

    def rope(self, x, pos):
        freqs = torch.outer(pos.float(), self.inv)[:, None, :]
        cos, sin = freqs.cos().to(BF16), freqs.sin().to(BF16)
        x1, x2 = x[..., ::2], x[..., 1::2]
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), -1).flatten(-2)

    def attention(self, h, layer, pos, cache):
        """The attention's output projection, and its intermediates (q, k, v, the output)."""
        b, s, _ = h.shape
        q, k, v = (h @ layer["qkv"]).split(
            [HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM], -1)
        q = self.rope(q.view(b, s, HEADS, HEAD_DIM), pos).transpose(1, 2)
        k = self.rope(k.view(b, s, KV_HEADS, HEAD_DIM), pos).transpose(1, 2)
        v = v.view(b, s, KV_HEADS, HEAD_DIM).transpose(1, 2)
        if cache is not None:
            cache[0][:, :, -1:] = k
            cache[1][:, :, -1:] = v
            k, v = cache
        a = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None, enable_gqa=True)
        return a.transpose(1, 2).reshape(b, s, HIDDEN) @ layer["o"], (q, k, v, a)

    def block(self, x, layer, pos, cache):
        """One layer. Written as one function (module_scope False, as every timing script runs
        it), the attention's intermediates stay alive through the FFN as its locals; with
        module_scope they are freed when the attention returns, as a model written as modules
        (HF transformers, torchtitan) frees them."""
        h = F.rms_norm(x, (HIDDEN,), layer["n1"])
        out, kept = self.attention(h, layer, pos, cache)
        x = x + out
        del out
        if self.module_scope:
            del kept, h
        h = F.rms_norm(x, (HIDDEN,), layer["n2"])
        g, u = (h @ layer["gate_up"]).chunk(2, -1)
        return x + (F.silu(g) * u) @ layer["down"]

    def forward(self, x, pos, caches=None):
        for i, layer in enumerate(self.layers):
            x = self.block(x, layer, pos, caches[i] if caches else None)
        return F.rms_norm(x[:, -1:], (HIDDEN,), self.norm) @ self.head


def model_cases(decode_grid, prefill_grid):
    model = Llama()
    weights = model.weight_bytes()
    for b, ctx in decode_grid:
        kv = 2 * LAYERS * b * ctx * KV_HEADS * HEAD_DIM * 2
        if kv > KV_CAP_BYTES:
            continue
        caches = kv_caches(b, ctx)
        x = torch.randn(b, 1, HIDDEN, device=DEV, dtype=BF16)
        pos = torch.tensor([ctx - 1], device=DEV)
        yield ({"part": "decode_step", "batch": b, "context": ctx, "kv_bytes": kv,
                "weight_bytes": weights},
               lambda x, pos, caches=caches: model.forward(x, pos, caches), (x, pos), 1)
        del caches
    for prompts, length in prefill_grid:
        x = torch.randn(prompts, length, HIDDEN, device=DEV, dtype=BF16)
        pos = torch.arange(length, device=DEV)
        yield ({"part": "prefill", "prompts": prompts, "prompt_len": length,
                "weight_bytes": weights}, lambda x, pos: model.forward(x, pos), (x, pos), 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--budget-s", type=float, default=480)
    args = parser.parse_args()
    batches = [1, 64] if args.quick else [1, 8, 32, 64, 128, 256]
    contexts = [1024] if args.quick else [1024, 2048, 4096, 8192]
    decode_grid = [(8, 1024)] if args.quick else [(b, c) for b in batches for c in contexts]
    prefill_grid = [(1, 2048)] if args.quick else [(p, n) for p in (1, 2, 4, 8)
                                                   for n in (2048, 4096, 8192) if p * n <= 32768]
    result = {**device_facts(),
              "method": f"CUDA graph replays timed with CUDA events, median of {REPEATS} "
                        "(attention and GEMMs: several launches per graph, time per launch); "
                        "random BF16 inputs and weights; Llama 3.1 8B dims",
              "cases": [], "skipped": []}
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "h200_decode.json")
    parts = [attention_cases(batches, contexts), gemm_cases(batches),
             model_cases(decode_grid, prefill_grid)]
    run_cases(parts, result, path, args.budget_s, REPEATS)


if __name__ == "__main__":
    main()
