#!/usr/bin/env python3
"""Launch cost with and without CUDA graphs, and the eager elementwise kernels of the measured
layers in the layout the layers run them (issue 33: `software.cuda_graphs`, and the kernels
`software.stack: pytorch` priced by bytes without a measurement of their own).

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_launch.py --out "$OUT"
Writes OUT/h200_launch.json: the GPU, driver, torch, CUDA, date, the method and the cases.

Parts:
- `launch_graph`: a one-element add, 1,000 launches in one CUDA graph: the device's cost per
  kernel when nothing waits on the host.
- `launch_eager`: each op below called 2,000 times back to back from Python on tiny tensors, CUDA
  events around the loop, no synchronization inside: the interval at which eager PyTorch issues
  that op (Python, ATen dispatch, the launch itself); kernels per call counted with
  torch.profiler.
- `layer_eager`: tiny transformer layers (tools/calibration/h200_layers.py's modules at
  hidden 256, 128 tokens) forward, and forward + backward, eager: time per kernel when every
  kernel is shorter than its launch (forward from Python, backward from autograd's C++ engine).
- `layer_compiled`: the same under torch.compile (default mode: Inductor's kernels launched from
  its generated wrapper, no CUDA graphs).
- `decode_eager` / `decode_compiled`: whole Llama-3.1-8B-dims decode steps (h200_decode.py's
  model) run eagerly / compiled without graphs, the shapes of h200_decode.json's CUDA-graph
  `decode_step` cases: what the graphs save (validation data, never fitted).
- `fused` (alone, `--parts fused`, writes h200_launch_fused.json): torch.compile's kernels at the
  layers' shapes: residual add fused with RMSNorm / LayerNorm, SwiGLU, GELU, rotary; forward and
  forward + backward as CUDA graphs.
- `elementwise`: the eager SwiGLU (SiLU of one half of the gate/up output times the other half)
  and the rotate-half rotary on the strided views of q/k, forward and forward + backward, at the
  measured layers' shapes; the weighted sum over top-k under torch.compile (fused's). Timed as
  CUDA graphs (autograd.grad inside the capture).
"""
import argparse
import json
import os
import statistics

import torch
import torch.nn.functional as F

from h200_common import device_facts, graph_times
import h200_decode
import h200_layers

DEV = "cuda"
BF16 = torch.bfloat16
REPEATS = 10


def kernels_per_call(fn, calls=20):
    """CUDA kernels torch.profiler sees per call of fn()."""
    fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA
               and "memcpy" not in e.name.lower() and "memset" not in e.name.lower()]
    return len(kernels) / calls


def loop_us(fn, calls, repeats=REPEATS):
    """Microseconds per call of `calls` back-to-back eager calls, events around the loop."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        ev[0].record()
        for _ in range(calls):
            fn()
        ev[1].record()
        torch.cuda.synchronize()
        times.append(ev[0].elapsed_time(ev[1]) * 1000.0 / calls)
    return times


def launch_cases():
    x = torch.randn(1, device=DEV)
    t = graph_times(lambda: x.add_(1.0), [()], 1000, REPEATS)
    yield {"part": "launch_graph", "name": "add_1_element", "kernels_per_call": 1,
           "time_us": statistics.median(t), "times_us": t}
    a = torch.randn(8, 64, device=DEV, dtype=BF16)
    w = torch.randn(64, 64, device=DEV, dtype=BF16)
    idx = torch.arange(8, device=DEV)
    norm_w = torch.ones(64, device=DEV, dtype=BF16)
    q = torch.randn(1, 2, 8, 64, device=DEV, dtype=BF16)
    ops = {"add_": lambda: a.add_(1.0), "mul": lambda: a * a, "silu": lambda: F.silu(a),
           "linear": lambda: F.linear(a, w), "cat": lambda: torch.cat([a, a], -1),
           "index_select": lambda: a.index_select(0, idx),
           "rms_norm": lambda: F.rms_norm(a, (64,), norm_w),
           "layer_norm": lambda: F.layer_norm(a, (64,), norm_w, norm_w),
           "sdpa": lambda: F.scaled_dot_product_attention(q, q, q, is_causal=True)}
    for name, fn in ops.items():
        t = loop_us(fn, 2000)
        yield {"part": "launch_eager", "name": name, "kernels_per_call": kernels_per_call(fn),
               "time_us": statistics.median(t), "times_us": t}


def tiny_layers():
    hidden = 256
    return {"llama": lambda: h200_layers.Layer(h200_layers.GQA(hidden, 4, 2),
                                               h200_layers.SwiGLU(hidden, 512), hidden, "rms"),
            "mla_moe": lambda: h200_layers.Layer(
                h200_layers.MLA(hidden, 4, 0, kv_rank=64, nope=32, rope=32, v=32),
                h200_layers.MoE(hidden, 128, 16, 16, 4, "softmax", shared_width=128),
                hidden, "rms")}


def layer_cases(compiled=False):
    h200_layers.probe_native_backward()
    seq = 128
    for name, make in tiny_layers().items():
        layer = make().to(DEV, BF16)
        run = torch.compile(layer) if compiled else layer
        x = torch.randn(1, seq, 256, device=DEV, dtype=BF16, requires_grad=True)
        cos, sin = h200_layers.rope_tables(seq, 32 if name == "mla_moe" else 128)

        def fwd():
            with torch.no_grad():
                return run(x, cos, sin)

        def fwd_bwd():
            run(x, cos, sin).sum().backward()

        for mode, fn in (("forward", fwd), ("forward_backward", fwd_bwd)):
            t = loop_us(fn, 20)
            k = kernels_per_call(fn, 5)
            label = f"{name}_{'compiled_' if compiled else ''}{mode}"
            yield {"part": "layer_compiled" if compiled else "layer_eager", "name": label,
                   "kernels_per_call": k, "time_us": statistics.median(t),
                   "us_per_kernel": statistics.median(t) / k, "times_us": t}


def decode_cases(compiled=False):
    model = h200_decode.Llama()
    forward = torch.compile(model.forward) if compiled else model.forward
    grid = ((1, 1024),) if compiled else ((1, 1024), (16, 1024), (64, 2048))
    for b, ctx in grid:
        caches = [(torch.randn(b, 8, ctx, 128, device=DEV, dtype=BF16),
                   torch.randn(b, 8, ctx, 128, device=DEV, dtype=BF16)) for _ in range(32)]
        x = torch.randn(b, 1, 4096, device=DEV, dtype=BF16)
        pos = torch.tensor([ctx - 1], device=DEV)

        def step():
            with torch.no_grad():
                return forward(x, pos, caches)

        t = loop_us(step, 5)
        yield {"part": "decode_compiled" if compiled else "decode_eager",
               "name": f"llama8b_b{b}_ctx{ctx}", "batch": b,
               "context": ctx, "kernels_per_call": kernels_per_call(step, 2),
               "time_us": statistics.median(t), "times_us": t}
        del caches


def graphed_grads(fn, inputs):
    """Microseconds of fn forward (one tensor or a tuple) + autograd.grad back to the inputs that
    need it, as one CUDA graph."""
    def fwd_bwd(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, tuple) else (out,)
        return torch.autograd.grad(outs, [x for x in xs if x.requires_grad],
                                   [torch.ones_like(o) for o in outs])
    return graph_times(fwd_bwd, [inputs], 5, REPEATS)


def forward_and_backward(base, name, fn, inputs, forward_extra=None):
    """The two cases of one kernel: `name`_forward (fn alone) and `name`_forward_backward, each
    5 launches per CUDA graph; `forward_extra` goes into the forward's record."""
    t = graph_times(lambda *xs: fn(*xs), [inputs], 5, REPEATS)
    yield {**base, **(forward_extra or {}), "name": f"{name}_forward",
           "time_us": statistics.median(t), "times_us": t}
    t = graphed_grads(fn, inputs)
    yield {**base, "name": f"{name}_forward_backward", "time_us": statistics.median(t),
           "times_us": t}


def elementwise_cases():
    def swiglu(h):
        g, u = h.chunk(2, dim=-1)
        return F.silu(g) * u

    # (layer, rows, expert or FFN width): the measured layers' gate/up outputs.
    for layer, rows, width in (("v2_lite", 8192 * 6 + 64 * 128, 1408), ("v3_ep64", 4096 * 8 // 64 * 4,
                                                                          2048),
                               ("mixtral", 8192 * 2, 14336), ("llama_8b", 8192, 14336)):
        h = torch.randn(rows, 2 * width, device=DEV, dtype=BF16, requires_grad=True)
        base = {"part": "elementwise", "layer": layer, "rows": rows, "width": width}
        yield from forward_and_backward(base, f"swiglu_{layer}", swiglu, (h,),
                                        {"bytes": rows * width * 2 * 3})

    # Rotary on the strided q/k views of the measured layers (MLA: the rope part of each head).
    for layer, b, heads, seq, head_dim, rope in (("v2_lite_q", 2, 16, 4096, 192, 64),
                                                 ("v3_q", 1, 128, 4096, 192, 64),
                                                 ("llama_8b_q", 2, 32, 4096, 128, 128),
                                                 ("llama_8b_k", 2, 8, 4096, 128, 128)):
        full = torch.randn(b, seq, heads, head_dim, device=DEV, dtype=BF16, requires_grad=True)
        cos, sin = h200_layers.rope_tables(seq, rope)

        def rot(full, cos=cos, sin=sin, rope=rope, head_dim=head_dim):
            x = full.transpose(1, 2)[..., head_dim - rope:]
            return h200_layers.rotate(x, cos, sin)

        base = {"part": "elementwise", "layer": layer, "elements": b * heads * seq * rope}
        yield from forward_and_backward(base, f"rotary_{layer}", rot, (full,))

    def weighted(y, w):
        return (y.view(w.shape[0], w.shape[1], -1) * w.unsqueeze(-1)).sum(dim=1)

    for layer, tokens, topk, hidden in (("v2_lite", 8192, 6, 2048), ("v3", 4096, 8, 7168),
                                        ("mixtral", 8192, 2, 4096)):
        y = torch.randn(tokens * topk, hidden, device=DEV, dtype=BF16, requires_grad=True)
        w = torch.rand(tokens, topk, device=DEV, dtype=BF16, requires_grad=True)
        base = {"part": "elementwise", "layer": layer, "tokens": tokens, "topk": topk,
                "hidden": hidden}
        # A fresh static-shape compile per case: a second shape through one compiled function
        # recompiles it with symbolic shapes, into slower kernels than a layer's own compile.
        compiled = torch.compile(weighted, dynamic=False)
        for label, fn in (("eager", weighted), ("compiled", compiled)):
            yield from forward_and_backward(base, f"weighted_sum_{layer}_{label}", fn, (y, w),
                                            {"bytes": (tokens * topk + tokens) * hidden * 2})


def fused_cases():
    """torch.compile's fused kernels at the measured layers' shapes (a fresh static-shape compile
    per case): the residual add fused with RMSNorm or LayerNorm, SwiGLU on the gate/up output's
    halves, GELU, rotary on q's strided view. `elements`: the tensor's elements (T x H, rows x
    width, ...); the kernels' bytes are for the fit to count."""
    def add_rms(x, h, w):
        y = x + h
        return y, F.rms_norm(y, (y.shape[-1],), w)

    def add_ln(x, h, w, b):
        y = x + h
        return y, F.layer_norm(y, (y.shape[-1],), w, b)

    def swiglu(h):
        g, u = h.chunk(2, dim=-1)
        return F.silu(g) * u

    def gelu(h):
        return F.gelu(h, approximate="tanh")

    shapes = {"add_rmsnorm": [("llama_8b", 8192, 4096), ("v3", 4096, 7168), ("v2_lite", 8192, 2048)],
              "add_layernorm": [("gpt_2048", 8192, 2048)],
              "swiglu": [("llama_8b", 8192, 14336), ("v2_lite", 8192 * 6 + 64 * 8, 1408),
                         ("mixtral", 16384, 14336)],
              "gelu": [("gpt_2048", 8192, 8192)]}
    for kind, cases in shapes.items():
        for layer, rows, width in cases:
            def t(*shape):
                return torch.randn(*shape, device=DEV, dtype=BF16, requires_grad=True)
            if kind == "add_rmsnorm":
                fn, inputs = add_rms, (t(rows, width), t(rows, width), t(width))
            elif kind == "add_layernorm":
                fn, inputs = add_ln, (t(rows, width), t(rows, width), t(width), t(width))
            elif kind == "swiglu":
                fn, inputs = swiglu, (t(rows, 2 * width),)
            else:
                fn, inputs = gelu, (t(rows, width),)
            compiled = torch.compile(fn, dynamic=False)
            base = {"part": "fused", "kind": kind, "layer": layer, "rows": rows, "width": width}
            yield from forward_and_backward(
                base, f"{kind}_{layer}", compiled, inputs,
                {"kernels_per_call": kernels_per_call(lambda: compiled(*inputs))})
    for layer, b, heads, seq, head_dim, rope in (("llama_8b_q", 2, 32, 4096, 128, 128),
                                                 ("v3_q", 1, 128, 4096, 192, 64)):
        full = torch.randn(b, seq, heads, head_dim, device=DEV, dtype=BF16, requires_grad=True)
        cos, sin = h200_layers.rope_tables(seq, rope)

        def rot(full, cos=cos, sin=sin, rope=rope, head_dim=head_dim):
            return h200_layers.rotate(full.transpose(1, 2)[..., head_dim - rope:], cos, sin)

        base = {"part": "fused", "kind": "rotary", "layer": layer,
                "elements": b * heads * seq * rope}
        yield from forward_and_backward(base, f"rotary_{layer}",
                                        torch.compile(rot, dynamic=False), (full,))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--parts", default="launch,layer,layer_compiled,decode,decode_compiled,"
                        "elementwise")
    args = parser.parse_args()
    parts = {"launch": launch_cases, "layer": layer_cases, "decode": decode_cases,
             "elementwise": elementwise_cases,
             "layer_compiled": lambda: layer_cases(compiled=True),
             "decode_compiled": lambda: decode_cases(compiled=True), "fused": fused_cases}
    result = {**device_facts(), "method": __doc__, "cases": [], "skipped": []}
    for part in (parts[p] for p in args.parts.split(",")):
        try:
            for case in part():
                result["cases"].append(case)
                print(f"{case['part']:13s} {case['name']:44s} {case['time_us']:10.2f} us "
                      f"{case.get('kernels_per_call', '')}", flush=True)
        except Exception as e:  # noqa: BLE001 - a part the installed PyTorch refuses is a result
            result["skipped"].append({"part": str(part), "error": repr(e)[:500]})
            print(f"skipped {part}: {e!r}"[:300], flush=True)
    os.makedirs(args.out, exist_ok=True)
    out = "h200_launch.json" if args.parts != "fused" else "h200_launch_fused.json"
    with open(os.path.join(args.out, out), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
