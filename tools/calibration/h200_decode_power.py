#!/usr/bin/env python3
"""Board power and SM clock of eager decode steps at small batches (issue 54: the inference power
model was checked at batch 64 alone; serving runs mostly at small batches). Validation data:
nothing is fitted here.

h200_decode.py's Llama-3.1-8B-dims decoder (32 layers, random BF16 weights, GQA over a static KV
cache of `--context` tokens); per batch one eager decode step captured as a CUDA graph and
replayed back to back for `--seconds` after 3 s idle, as h200_compiled_inference.py's sustained
cases (cold: the first 5 replays; NVML sampled every 50 ms; the energy counter over the last 10 s).

Run on the lent GPU (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_decode_power.py --out "$OUT"
Writes OUT/decode_power.json.
"""
import argparse
import json
import os

import pynvml
import torch

from h200_common import device_facts
from h200_compiled_inference import sustained
from h200_decode import BF16, DEV, HIDDEN, Llama, kv_caches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=12)
    parser.add_argument("--context", type=int, default=4096)
    parser.add_argument("--batches", default="1,4,16,64")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    result = {**device_facts(), "method": __doc__.split("\n\n")[1], "sustained": []}
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    result["idle_w"] = pynvml.nvmlDeviceGetPowerUsage(h) / 1000.0
    model = Llama()
    with torch.no_grad():
        for b in map(int, args.batches.split(",")):
            caches = kv_caches(b, args.context)
            x = torch.randn(b, 1, HIDDEN, device=DEV, dtype=BF16)
            pos = torch.tensor([args.context - 1], device=DEV)
            result["sustained"].append(sustained(
                h, {"part": "decode_step", "stack": "eager", "batch": b, "context": args.context,
                    "weight_bytes": model.weight_bytes()},
                lambda: model.forward(x, pos, caches), args.seconds))
            del caches, x
            torch.cuda.empty_cache()
            with open(os.path.join(args.out, "decode_power.json"), "w") as f:
                json.dump(result, f)


if __name__ == "__main__":
    main()
