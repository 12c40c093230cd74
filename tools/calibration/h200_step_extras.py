#!/usr/bin/env python3
"""What a training step runs besides its layers, kernel by kernel (issue 54, item 1): the optimizer
update, the loss over the vocabulary and the token embedding, each on its own, eager and compiled.

Cases (each: 3 warm-up calls, then 10 calls timed with CUDA events, median; then one call under
torch.profiler, its kernels listed with their names, durations and count):
  optimizer  torch.optim.AdamW(foreach=True) and (fused=True) over parameters in BF16 and in FP32
             (its states in the parameters' dtype, PyTorch's default), laid out as a dense model's
             few large tensors (8 x 4096 x 14336) or an MoE's many small experts (300 x 768 x
             2048); gradients set once, only opt.step() timed;
  loss       cross-entropy of BF16 logits of T = 8192 tokens over V = 32000, 128256, 151936 words,
             forward and backward: eager as training code writes it (logits.float(), then
             F.cross_entropy) and the same function under torch.compile;
  embedding  nn.Embedding(V, H) in BF16 over T = 8192 tokens, forward and backward (H = 4096,
             V = 128256 and H = 2048, V = 151936), eager and compiled.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_step_extras.py --out "$OUT"
Writes OUT/h200_step_extras.json.
"""
import argparse
import json
import os

import torch
import torch.nn.functional as F

from h200_common import case, device_facts

DEV = "cuda"
TOKENS = 8192


def optimizer_cases(out):
    layouts = {"dense": [(4096, 14336)] * 8, "experts": [(768, 2048)] * 300}
    for layout, shapes in layouts.items():
        for dtype in (torch.bfloat16, torch.float32):
            for impl in ("foreach", "fused"):
                params = [torch.nn.Parameter(torch.randn(*s, device=DEV, dtype=dtype) * 0.02)
                          for s in shapes]
                for p in params:
                    p.grad = torch.randn_like(p) * 1e-3
                opt = torch.optim.AdamW(params, lr=1e-5, **{impl: True})
                case(out, "optimizer", opt.step, layout=layout, impl=impl,
                     dtype=str(dtype).replace("torch.", ""), tensors=len(shapes),
                     params=sum(a * b for a, b in shapes))
                del opt, params
                torch.cuda.empty_cache()


def eager_loss(logits, targets):
    return F.cross_entropy(logits.float(), targets)


def loss_cases(out):
    compiled = torch.compile(eager_loss)
    for vocab in (32000, 128256, 151936):
        logits = (torch.randn(TOKENS, vocab, device=DEV, dtype=torch.bfloat16)
                  .requires_grad_(True))
        targets = torch.randint(0, vocab, (TOKENS,), device=DEV)
        for mode, fn in (("eager", eager_loss), ("compiled", compiled)):
            def step():
                fn(logits, targets).backward()
                logits.grad = None
            case(out, "loss", step, mode=mode, tokens=TOKENS, vocab=vocab)
        del logits
        torch.cuda.empty_cache()


def embedding_cases(out):
    for hidden, vocab in ((4096, 128256), (2048, 151936)):
        emb = torch.nn.Embedding(vocab, hidden, device=DEV, dtype=torch.bfloat16)
        tokens = torch.randint(0, vocab, (TOKENS,), device=DEV)
        compiled = torch.compile(emb)
        for mode, fn in (("eager", emb), ("compiled", compiled)):
            def step():
                fn(tokens).sum().backward()
                emb.weight.grad = None
            case(out, "embedding", step, mode=mode, tokens=TOKENS, vocab=vocab, hidden=hidden)
        del emb
        torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    out = {**device_facts(), "method": __doc__, "cases": []}
    for part in (optimizer_cases, loss_cases, embedding_cases):
        part(out)
        with open(os.path.join(args.out, "h200_step_extras.json"), "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
