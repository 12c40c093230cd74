#!/usr/bin/env python3
"""How evenly the prefills of h200_moe_decode.py spread their tokens over the experts: each MoE
layer's rows per expert (its `counts`), for the same models (random BF16 weights, seed 0) and the
same prompts (1-4 prompts of 2K-8K tokens of torch.randn), one eager forward each. The grouped
GEMM quantizes each expert's rows into tiles, so the spread, not only the mean, sets its time.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_moe_routing.py --out "$OUT"
Writes OUT/h200_moe_routing.json: per model and prefill shape, each MoE layer's counts.
"""
import argparse
import json
import os

import torch

from h200_common import device_facts
from h200_layers import MoE
from h200_moe_decode import DEV, BF16, MODELS, Model

PREFILLS = [(1, 2048), (1, 4096), (1, 8192), (2, 4096), (4, 2048)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    out = {**device_facts(), "method": __doc__, "runs": []}
    for name, spec in MODELS.items():
        torch.manual_seed(0)
        model = Model(spec)
        moes = [mlp for _, mlp, _, _ in model.layers if isinstance(mlp, MoE)]
        with torch.no_grad():
            for prompts, length in PREFILLS:
                x = torch.randn(prompts, length, model.d, device=DEV, dtype=BF16)
                model.forward(x, torch.arange(length, device=DEV))
                torch.cuda.synchronize()
                counts = [m.last_counts.tolist() for m in moes]
                out["runs"].append({"model": name, "prompts": prompts, "prompt_len": length,
                                    "experts": spec["experts"], "topk": spec["topk"],
                                    "counts": counts})
                flat = [c for layer in counts for c in layer]
                print(name, prompts, length, "rows per expert min", min(flat), "max", max(flat),
                      flush=True)
        del model
        torch.cuda.empty_cache()
    with open(os.path.join(args.out, "h200_moe_routing.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
