#!/usr/bin/env python3
"""Attention as Megatron-LM ran it before fused (flash) attention, kernel by kernel (issue 54:
the GPT-3 175B run of Narayanan et al. 2021), and the bias-dropout-add beside it.

Core attention per micro-batch on one GPU of a TP group, as Megatron-LM's CoreAttention wrote it
in 2021 (b x n heads, s tokens, head dimension d, FP16/BF16):
    scores  = baddbmm(empty, q[b n, s, d], k[b n, d, s], beta=0, alpha=1/sqrt(d))   [b n, s, s]
    probs   = softmax(scores)                (Megatron's fused scaled masked softmax: one pass)
    probs   = dropout(probs, 0.1)            (its attention dropout; cases with and without)
    context = bmm(probs, v[b n, s, d])                                               [b n, s, d]
Bias-dropout-add (Megatron's fused kernel after each of the two row-parallel projections):
    out = residual + dropout(x + bias, 0.1)  over s x h, under torch.compile (one fused kernel,
    as Megatron's scripted function runs), and eager for comparison.

Each case: 3 warm-up calls, then 10 calls of forward and backward (autograd) timed with CUDA
events, median; then one call under torch.profiler, its kernels listed with their names,
durations and count (what the model prices, kernel by kernel).

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_unfused_attention.py --out "$OUT"
Writes OUT/h200_unfused_attention.json.
"""
import argparse
import json
import math
import os

import torch
import torch.nn.functional as F

from h200_common import case, device_facts

DEV = "cuda"


def core_attention(q, k, v, dropout):
    bn, s, d = q.shape
    scores = torch.baddbmm(torch.empty(bn, s, s, device=DEV, dtype=q.dtype), q,
                           k.transpose(1, 2), beta=0.0, alpha=1.0 / math.sqrt(d))
    probs = torch.softmax(scores, dim=-1)
    if dropout:
        probs = F.dropout(probs, p=0.1, training=True)
    return torch.bmm(probs, v)


# (batch x heads on the GPU, tokens, head dimension): GPT-3 175B over TP 8 (96 / 8 heads), then
# other shapes to hold out.
ATTENTION_SHAPES = [(12, 2048, 128), (24, 2048, 128), (16, 1024, 128), (32, 2048, 64),
                    (8, 4096, 128)]


def attention_cases(out):
    for bn, s, d in ATTENTION_SHAPES:
        q, k, v = (torch.randn(bn, s, d, device=DEV, dtype=torch.bfloat16).requires_grad_(True)
                   for _ in range(3))
        grad = torch.randn(bn, s, d, device=DEV, dtype=torch.bfloat16)
        for dropout in (False, True):
            def forward():
                with torch.no_grad():
                    core_attention(q, k, v, dropout)

            def both():
                core_attention(q, k, v, dropout).backward(grad)
                q.grad = k.grad = v.grad = None
            facts = dict(heads=bn, tokens=s, head_dim=d, dropout=dropout)
            case(out, "attention forward", forward, **facts)
            case(out, "attention forward and backward", both, **facts)
        del q, k, v, grad
        torch.cuda.empty_cache()


def bias_dropout_add(x, bias, residual):
    return residual + F.dropout(x + bias, p=0.1, training=True)


def bias_dropout_add_cases(out):
    compiled = torch.compile(bias_dropout_add)
    for tokens, hidden in ((2048, 12288), (4096, 8192)):
        x = torch.randn(tokens, hidden, device=DEV, dtype=torch.bfloat16).requires_grad_(True)
        residual = torch.randn_like(x).requires_grad_(True)
        bias = torch.randn(hidden, device=DEV, dtype=torch.bfloat16).requires_grad_(True)
        grad = torch.randn_like(x)
        for mode, fn in (("compiled", compiled), ("eager", bias_dropout_add)):
            def forward():
                with torch.no_grad():
                    fn(x, bias, residual)

            def both():
                fn(x, bias, residual).backward(grad)
                x.grad = residual.grad = bias.grad = None
            facts = dict(mode=mode, tokens=tokens, hidden=hidden)
            case(out, "bias-dropout-add forward", forward, **facts)
            case(out, "bias-dropout-add forward and backward", both, **facts)
        del x, residual, bias, grad
        torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    out = {**device_facts(), "method": __doc__, "cases": []}
    for part in (attention_cases, bias_dropout_add_cases):
        part(out)
        with open(os.path.join(args.out, "h200_unfused_attention.json"), "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
