#!/usr/bin/env python3
"""Which kernels the validation models of h200_decode.py and h200_moe_decode.py run (issue 36):
the SDPA backend PyTorch picks for the Llama-dims decode step and prefill, and every kernel of
one decode step and one prefill, by name, count and device time (torch.profiler, eager, after a
warm-up). Kernel facts only: nothing here is timed for a fit.

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_decode_kernels.py --out "$OUT"
Writes OUT/h200_decode_kernels.json.
"""
import argparse
import collections
import json
import os

import torch
from torch.profiler import ProfilerActivity, profile

import h200_decode as llama
from h200_common import device_facts

BACKEND_NAMES = {0: "math", 1: "flash", 2: "efficient", 3: "cudnn", 4: "overrideable"}


def sdpa_choice(q, k, v, causal):
    """The backend index torch._fused_sdp_choice returns, by name."""
    i = torch._fused_sdp_choice(q, k, v, None, 0.0, causal, enable_gqa=True)
    return BACKEND_NAMES.get(int(i), str(i))


def kernels(fn, *args):
    """Every GPU kernel of one call of fn(*args) (after one warm-up call): name -> count, us."""
    fn(*args)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*args)
        torch.cuda.synchronize()
    table = collections.defaultdict(lambda: {"count": 0, "device_us": 0.0})
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            table[e.name]["count"] += 1
            table[e.name]["device_us"] += e.device_time_total
    return sorted(({"name": n, **v} for n, v in table.items()), key=lambda r: -r["device_us"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    result = {**device_facts(), "method": "torch.profiler over one eager call after a warm-up",
              "sdpa_choice": [], "runs": []}
    L = llama
    for b, ctx in ((1, 1024), (8, 2048), (256, 2048)):
        q = torch.randn(b, 1, L.HEADS, L.HEAD_DIM, device="cuda", dtype=L.BF16).transpose(1, 2)
        k = torch.randn(b, L.KV_HEADS, ctx, L.HEAD_DIM, device="cuda", dtype=L.BF16)
        result["sdpa_choice"].append({"phase": "decode", "batch": b, "context": ctx,
                                      "backend": sdpa_choice(q, k, k, False)})
    for n in (2048, 8192):
        q = torch.randn(1, n, L.HEADS, L.HEAD_DIM, device="cuda", dtype=L.BF16).transpose(1, 2)
        k = torch.randn(1, n, L.KV_HEADS, L.HEAD_DIM, device="cuda", dtype=L.BF16).transpose(1, 2)
        result["sdpa_choice"].append({"phase": "prefill", "batch": 1, "context": n,
                                      "backend": sdpa_choice(q, k, k, True)})
    print(json.dumps(result["sdpa_choice"]), flush=True)
    model = llama.Llama()
    with torch.no_grad():
        for b, ctx in ((8, 2048), (256, 1024)):
            caches = [(torch.randn(b, L.KV_HEADS, ctx, L.HEAD_DIM, device="cuda", dtype=L.BF16),
                       torch.randn(b, L.KV_HEADS, ctx, L.HEAD_DIM, device="cuda", dtype=L.BF16))
                      for _ in range(L.LAYERS)]
            x = torch.randn(b, 1, L.HIDDEN, device="cuda", dtype=L.BF16)
            pos = torch.tensor([ctx - 1], device="cuda")
            result["runs"].append({"model": "llama", "part": "decode_step", "batch": b,
                                   "context": ctx,
                                   "kernels": kernels(model.forward, x, pos, caches)})
            del caches
            torch.cuda.empty_cache()
        x = torch.randn(1, 2048, L.HIDDEN, device="cuda", dtype=L.BF16)
        pos = torch.arange(2048, device="cuda")
        result["runs"].append({"model": "llama", "part": "prefill", "prompts": 1,
                               "prompt_len": 2048, "kernels": kernels(model.forward, x, pos)})
    import h200_moe_decode as moe
    for name, b in (("v2_lite", 32), ("mixtral", 8)):
        torch.manual_seed(0)
        m = moe.Model(moe.MODELS[name])
        with torch.no_grad():
            caches = [a.cache(b, 1024) for a in m.attention]
            x = torch.randn(b, 1, m.d, device="cuda", dtype=L.BF16)
            pos = torch.tensor([1023], device="cuda")
            result["runs"].append({"model": name, "part": "decode_step", "batch": b,
                                   "context": 1024,
                                   "kernels": kernels(m.forward, x, pos, caches)})
            x = torch.randn(1, 2048, m.d, device="cuda", dtype=L.BF16)
            pos = torch.arange(2048, device="cuda")
            result["runs"].append({"model": name, "part": "prefill", "prompts": 1,
                                   "prompt_len": 2048, "kernels": kernels(m.forward, x, pos)})
        del m, caches
        torch.cuda.empty_cache()
    for run in result["runs"]:
        total = sum(k["count"] for k in run["kernels"])
        print(run["model"], run["part"], run.get("batch"), total, "kernels")
        for k in run["kernels"][:12]:
            print(f"  {k['count']:5d} {k['device_us']:10.1f} us  {k['name'][:110]}")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "h200_decode_kernels.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
