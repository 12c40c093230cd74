#!/usr/bin/env python3
"""What a prefill or decode step allocates beside its weights and KV cache (issue 55: inference
memory and admission; validation data, nothing fitted here).

The model is h200_decode.py's Llama-3.1-8B-dims decoder (32 layers, random BF16 weights, GQA SDPA,
head over 128,256 at the last position), without autograd. Per case, after one warm-up call:
  base       memory allocated before the call: weights, the KV cache (decode), the input
  transient  the allocator's peak during one call above that base (what the step needs on top)
  reserved   the allocator's reserved memory after the call above the reserved before it
Cases: prefill of 1-8 prompts of 2K-32K tokens (eager, and each layer under torch.compile);
decode at batch 1-256 and context 1K-8K (eager; the cache preallocated as h200_decode.py's).
With --moe: the eager prefills of h200_moe_decode.py's DeepSeek-V2-Lite and Mixtral 8x7B dims
models too (2K-16K tokens), each layer's MoE as that script writes it (--moe-models picks them:
Mixtral's 93 GB of weights fit only the H200).
With --module-scope: only the Llama's eager prefill and decode, its layers written as modules are
(Llama(module_scope=True): the attention's intermediates freed when it returns, as the MoE
models' are), into h200_inference_memory_module.json.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_inference_memory.py --out "$OUT"
Writes OUT/h200_inference_memory.json.
"""
import argparse
import json
import os

import torch
import torch._dynamo

from h200_common import device_facts
from h200_decode import BF16, DEV, HEAD_DIM, HIDDEN, KV_HEADS, LAYERS, Llama, kv_caches


def measure(fn, what, out):
    fn()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    reserved = torch.cuda.memory_reserved()
    fn()
    torch.cuda.synchronize()
    row = {**what, "base_bytes": base,
           "transient_bytes": torch.cuda.max_memory_allocated() - base,
           "reserved_growth_bytes": torch.cuda.memory_reserved() - reserved}
    out.append(row)
    print(json.dumps(row), flush=True)


def prefill_cases(model, stack, out):
    for prompts, length in ((1, 2048), (1, 8192), (1, 32768), (2, 4096), (4, 8192), (8, 4096)):
        x = torch.randn(prompts, length, HIDDEN, device=DEV, dtype=BF16)
        pos = torch.arange(length, device=DEV)
        measure(lambda: model.forward(x, pos),
                {"part": "prefill", "stack": stack, "prompts": prompts, "prompt_len": length,
                 "input_bytes": x.numel() * 2}, out)
        del x
        torch.cuda.empty_cache()


def moe_prefill_cases(names, out):
    from h200_moe_decode import MODELS, Model
    for name in names:
        torch.manual_seed(0)
        model = Model(MODELS[name])
        for prompts, length in ((1, 2048), (1, 8192), (2, 8192)):
            x = torch.randn(prompts, length, model.d, device=DEV, dtype=BF16)
            pos = torch.arange(length, device=DEV)
            measure(lambda: model.forward(x, pos),
                    {"part": "prefill", "model": name, "stack": "eager", "prompts": prompts,
                     "prompt_len": length, "weight_bytes": model.weight_bytes(),
                     "input_bytes": x.numel() * 2}, out)
            del x
        del model
        torch.cuda.empty_cache()


def decode_cases(model, out):
    for batch, ctx in ((1, 1024), (8, 4096), (64, 4096), (256, 2048), (64, 8192)):
        caches = kv_caches(batch, ctx)
        x = torch.randn(batch, 1, HIDDEN, device=DEV, dtype=BF16)
        pos = torch.tensor([ctx - 1], device=DEV)
        measure(lambda: model.forward(x, pos, caches),
                {"part": "decode_step", "stack": "eager", "batch": batch, "context": ctx,
                 "kv_bytes": 2 * LAYERS * batch * ctx * KV_HEADS * HEAD_DIM * 2}, out)
        del caches, x
        torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--moe", action="store_true")
    parser.add_argument("--only-moe", action="store_true")
    parser.add_argument("--module-scope", action="store_true")
    parser.add_argument("--moe-models", default="v2_lite,mixtral",
                        help="Mixtral's weights (93 GB) need the H200")
    args = parser.parse_args()
    torch._dynamo.config.cache_size_limit = 256
    os.makedirs(args.out, exist_ok=True)
    result = {**device_facts(), "method": __doc__.split("\n\n")[1], "cases": []}
    with torch.no_grad():
        if args.module_scope or not args.only_moe:
            model = Llama(module_scope=args.module_scope)
            result["weight_bytes"] = model.weight_bytes()
            prefill_cases(model, "eager", result["cases"])
            decode_cases(model, result["cases"])
            if not args.module_scope:
                model.block = torch.compile(model.block, dynamic=False)
                prefill_cases(model, "compiled", result["cases"])
            del model
            torch.cuda.empty_cache()
        if args.moe or args.only_moe:
            moe_prefill_cases(args.moe_models.split(","), result["cases"])
    name = ("h200_inference_memory_module.json" if args.module_scope else
            "h200_inference_memory_moe.json" if args.only_moe else "h200_inference_memory.json")
    with open(os.path.join(args.out, name), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
