#!/usr/bin/env python3
"""DeepSeek's trace scales (the `deepseek` stack's compute model, sim/workload/piece_model.cpp)
as `codesim trace replay` fits them to models/calibration/deepseek-h800/train.json: one scale per
kernel class so that the kernel model's totals over the trace's pieces equal the measured ones
(workload::fit_trace; models/calibration/README.md lists them). The fit is the simulator's own
C++, so this script runs the build and writes what it prints to
models/calibration/deepseek-h800/fit_trace_scales.json, whose "constants" the build embeds; the
test PieceModel.ConstantsAreTheFitOfTheProfileTrace refits them in C++ and compares.

Run: python3 tools/calibration/fit_trace_scales.py --binary build/sim/cli/codesim
"""
import argparse
import json
import os
import subprocess

from fitted_constants import write_fit

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "models", "calibration", "deepseek-h800")
SCALES = ("fp8_gemm_scale", "fp8_wgrad_scale", "fp8_grouped_scale", "fp8_grouped_wgrad_scale",
          "memory_scale")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="codesim")
    args = parser.parse_args()
    replay = json.loads(subprocess.run(
        [args.binary, "trace", "replay", os.path.join(DATA, "train.json"), "--format", "json"],
        check=True, capture_output=True, text=True).stdout)
    fit = replay["kernel_model"]
    out = {"source": "models/calibration/deepseek-h800/train.json",
           "script": "tools/calibration/fit_trace_scales.py",
           "checked_by": "PieceModel.ConstantsAreTheFitOfTheProfileTrace",
           "constants": {k: round(fit[k], 5) for k in SCALES},
           "pieces": fit["pieces"]}
    for k, v in out["constants"].items():
        print(f"{k} = {v}")
    write_fit(out, os.path.join(DATA, "fit_trace_scales.json"))


if __name__ == "__main__":
    main()
