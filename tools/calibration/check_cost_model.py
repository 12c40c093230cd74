#!/usr/bin/env python3
"""Compares `codesim cost` (the kernel cost model as fitted to h200_gemm.json) with the kernel
measurements of h200_kernels.json: median and worst error per class, and every case off by more
than 25%. Runs here (no GPU): python3 tools/calibration/check_cost_model.py [build/sim/cli/codesim]
Grouped GEMMs are given to the model as equal groups of the largest group (its only shape);
attention forward by its FLOPs and bytes; HBM-bound kernels as elementwise by their bytes.
"""
import json, statistics, subprocess, sys

BIN = sys.argv[1] if len(sys.argv) > 1 else 'build/sim/cli/codesim'
d = json.load(open('models/calibration/h200/h200_kernels.json'))
rows = []
for c in d['cases']:
    cls = c['class']
    if cls.startswith('gemm_'):
        args = ['gemm', '--m', str(c['m']), '--n', str(c['n']), '--k', str(c['k']), '--batch', str(c['batch']), '--dtype', c['dtype']]
    elif cls == 'grouped_gemm_bf16':
        tpe = c['tokens_per_expert']
        args = ['grouped_gemm', '--m', str(max(tpe)), '--n', str(c['n']), '--k', str(c['k']), '--batch', str(len(tpe)), '--dtype', 'bf16']
    elif cls.startswith('attention'):
        kind = 'attention_forward' if cls == 'attention_fwd' else None
        if kind is None:
            continue
        args = ['attention_forward', '--flops', str(c['flops']), '--bytes', str(c['hbm_bytes'])]
    elif cls == 'memory':
        args = ['elementwise', '--bytes', str(c['hbm_bytes'])]
    else:
        continue
    out = subprocess.run([BIN, 'cost'] + args + ['--hardware', 'h200', '--format', 'json'], capture_output=True, text=True)
    p = json.loads(out.stdout)['time_us']
    rows.append((cls, c['name'], c['time_us'], p, p / c['time_us'] - 1))
by = {}
for r in rows:
    by.setdefault(r[0], []).append(abs(r[4]))
for cls, errs in by.items():
    print(f"{cls:20s} n={len(errs):3d} median |err| {100*statistics.median(errs):5.1f}%  worst {100*max(errs):6.1f}%")
for r in rows:
    if abs(r[4]) > 0.25:
        print(f"  {r[0]:18s} {r[1]:28s} measured {r[2]:10.1f} predicted {r[3]:10.1f} {100*r[4]:+6.1f}%")
