#!/usr/bin/env python3
"""Which kernels a decode step runs under torch.compile, against eager (issue 54: the compiled
decode steps at batch 1 and 8 take 27-29% less than eager's, and the model, which prices both
stacks' GEMMs alike, is 17-23% slow on them). Profiling data, nothing fitted here.

h200_decode.py's Llama-3.1-8B-dims decoder without autograd, each layer's block under
torch.compile (default mode, dynamic=False) or eager; one decode step (batch 1 at 1K context,
batch 8 and 64 at 4K) after two warm-up calls, under torch.profiler: every GPU kernel by name,
summed device time and count (h200_common.kernels).

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_compiled_decode_kernels.py --out "$OUT"
Writes OUT/h200_compiled_decode_kernels.json.
"""
import argparse
import json
import os

import torch
import torch._dynamo

from h200_common import device_facts, kernels
from h200_decode import BF16, DEV, HIDDEN, Llama, kv_caches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch._dynamo.config.cache_size_limit = 256
    os.makedirs(args.out, exist_ok=True)
    result = {**device_facts(), "method": __doc__.split("\n\n")[1], "runs": []}
    model = Llama()
    eager_block = model.block
    with torch.no_grad():
        for stack in ("eager", "compiled"):
            model.block = (eager_block if stack == "eager"
                           else torch.compile(eager_block, dynamic=False))
            for batch, ctx in ((1, 1024), (8, 4096), (64, 4096)):
                caches = kv_caches(batch, ctx)
                x = torch.randn(batch, 1, HIDDEN, device=DEV, dtype=BF16)
                pos = torch.tensor([ctx - 1], device=DEV)

                def step():
                    model.forward(x, pos, caches)
                for _ in range(2):
                    step()
                torch.cuda.synchronize()
                ks = kernels(step)
                result["runs"].append({"stack": stack, "batch": batch, "context": ctx,
                                       "kernel_us": round(sum(k["us"] for k in ks), 1),
                                       "kernel_count": sum(k["count"] for k in ks),
                                       "kernels": ks})
                print(stack, batch, ctx, f"{sum(k['us'] for k in ks):.0f} us in "
                      f"{sum(k['count'] for k in ks)} kernels; top:",
                      [(k["name"][:60], k["us"], k["count"]) for k in ks[:4]], flush=True)
                del caches, x
                torch.cuda.empty_cache()
    with open(os.path.join(args.out, "h200_compiled_decode_kernels.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
