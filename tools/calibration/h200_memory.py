#!/usr/bin/env python3
"""What a layer keeps for its backward, measured (issue 55, item 1: the data an activation model
is checked against; nothing fitted here).

For each layer of h200_layers.py (the same modules, BF16) in eager PyTorch and compiled
(torch.compile), with and without activation checkpointing (torch.utils.checkpoint around the
layer, non-reentrant), one forward + backward after two warm-up ones:
  kept      memory allocated after the forward less before it, less the output: what autograd
            keeps for the backward (and, compiled, what the compiled graph saves)
  peak_fwd  the allocator's peak during the forward, above what was allocated before it
  peak      the peak during forward + backward, above the same base
In eager mode without checkpointing, every tensor autograd saves is also listed (a
saved_tensors_hooks pack hook: its shape, dtype and bytes, once per storage), so the model's
per-op list can be compared tensor by tensor. Then the output head and the loss: logits =
x @ W (BF16) cast to FP32 and cross-entropy over vocabularies of 128256 and 151936, eager and
compiled, the same three figures.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_memory.py --out "$OUT"
Writes OUT/h200_memory.json.
"""
import argparse
import json
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from h200_common import device_facts
from h200_layers import LAYERS, Layer, rope_tables

DEV = "cuda"
BF16 = torch.bfloat16
MIB = 1 << 20


class Head(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.norm = nn.RMSNorm(hidden)
        self.out = nn.Linear(hidden, vocab, bias=False)

    def forward(self, x, targets):
        logits = self.out(self.norm(x)).float()
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))


def saved_tensors(run):
    """Tensors autograd saves during run(): shape, dtype, bytes, once per storage."""
    seen, out = set(), []

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in seen:
            seen.add(ptr)
            out.append({"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
                        "bytes": t.untyped_storage().nbytes()})
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        result = run()
    return result, out


def memory_of(call, backward):
    """kept, peak_fwd, peak (bytes) of one call() and its backward(output)."""
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    out = call()
    torch.cuda.synchronize()
    after = torch.cuda.memory_allocated()
    peak_fwd = torch.cuda.max_memory_allocated() - base
    out_bytes = out.untyped_storage().nbytes() if out.dim() > 0 else 0
    backward(out)
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    del out
    return {"kept": after - base - out_bytes, "peak_fwd": peak_fwd, "peak": peak,
            "output": out_bytes}


def layer_run(name, spec, mode, ckpt, list_saved):
    torch.manual_seed(0)
    layer = Layer(spec["attn"](), spec["mlp"](), spec["hidden"], spec.get("norm", "rms")).to(DEV, BF16)
    cos, sin = rope_tables(spec["seq"], spec["rope_dim"])
    run = torch.compile(layer) if mode == "compiled" else layer
    x = torch.randn(spec["batch"], spec["seq"], spec["hidden"], device=DEV, dtype=BF16,
                    requires_grad=True)
    grad = torch.randn_like(x)
    params = list(layer.parameters())

    def call():
        return checkpoint(run, x, cos, sin, use_reentrant=False) if ckpt else run(x, cos, sin)

    def backward(out):
        out.backward(grad)
        for p in params:
            p.grad = None
        x.grad = None

    for _ in range(2):
        backward(call())
    r = {"layer": name, "mode": mode, "checkpoint": ckpt,
         **{k: v for k, v in spec.items() if not callable(v)},
         "param_bytes": sum(p.numel() * p.element_size() for p in params),
         "input_bytes": x.numel() * x.element_size(), **memory_of(call, backward)}
    if list_saved:
        out, saved = saved_tensors(call)
        backward(out)
        r["saved"] = saved
        r["saved_bytes"] = sum(s["bytes"] for s in saved)
    return r


def head_run(hidden, vocab, tokens, mode):
    torch.manual_seed(0)
    head = Head(hidden, vocab).to(DEV, BF16)
    run = torch.compile(head) if mode == "compiled" else head
    x = torch.randn(1, tokens, hidden, device=DEV, dtype=BF16, requires_grad=True)
    targets = torch.randint(0, vocab, (1, tokens), device=DEV)
    params = list(head.parameters())

    def backward(loss):
        loss.backward()
        for p in params:
            p.grad = None
        x.grad = None

    for _ in range(2):
        backward(run(x, targets))
    r = {"layer": f"head_{vocab}", "mode": mode, "hidden": hidden, "vocab": vocab, "tokens": tokens,
         "param_bytes": sum(p.numel() * p.element_size() for p in params),
         **memory_of(lambda: run(x, targets), backward)}
    if mode == "eager":
        loss, saved = saved_tensors(lambda: run(x, targets))
        backward(loss)
        r["saved"] = saved
        r["saved_bytes"] = sum(s["bytes"] for s in saved)
    return r


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--modes", default="eager,compiled")
    parser.add_argument("--layers", default=",".join(LAYERS))
    parser.add_argument("--budget-s", type=float, default=400)
    args = parser.parse_args()
    start = time.time()
    result = {**device_facts(), "method": __doc__.split("\n\n")[1], "runs": [], "skipped": []}
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "h200_memory.json")
    jobs = [(m, n, c) for m in args.modes.split(",") for n in args.layers.split(",")
            for c in (False, True)]
    jobs += [(m, f"head_{v}", False) for m in args.modes.split(",") for v in (128256, 151936)]
    for mode, name, ckpt in jobs:
        if time.time() - start > args.budget_s:
            result["skipped"].append(f"{name} {mode} checkpoint={ckpt}: over budget")
            continue
        try:
            if name.startswith("head_"):
                vocab = int(name.split("_")[1])
                r = head_run(4096 if vocab == 128256 else 2048, vocab, 8192, mode)
            else:
                r = layer_run(name, LAYERS[name], mode, ckpt, mode == "eager" and not ckpt)
            result["runs"].append(r)
            print(f"{name:12s} {mode:9s} ckpt {str(ckpt):5s} kept {r['kept'] / MIB:9.1f} MiB  "
                  f"peak fwd {r['peak_fwd'] / MIB:9.1f}  peak {r['peak'] / MIB:9.1f}  "
                  f"params {r['param_bytes'] / MIB:8.1f}", flush=True)
        except Exception as e:  # noqa: BLE001 - recorded, not fatal
            result["skipped"].append(f"{name} {mode} checkpoint={ckpt}: {type(e).__name__}: {str(e)[:300]}")
            print(f"{name} {mode} {ckpt} skipped: {type(e).__name__}: {str(e)[:200]}", flush=True)
        torch.cuda.empty_cache()
        torch._dynamo.reset()
        with open(path, "w") as f:
            json.dump(result, f, indent=1)
    print(f"{len(result['runs'])} runs, {len(result['skipped'])} skipped, {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
