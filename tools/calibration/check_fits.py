#!/usr/bin/env python3
"""Refits every fit whose constants the build embeds (models/calibration/CMakeLists.txt) from the
committed measurements and compares its "constants" with the committed output JSON: the numbers
the simulator uses are the fit's. Exit 1 with each difference; a test (ctest
CalibrationFits.EmbeddedConstantsAreTheFitsOutput).

Run: python3 tools/calibration/check_fits.py
"""
import contextlib
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
CALIBRATION = os.path.join(HERE, "..", "..", "models", "calibration")

import fit_attention  # noqa: E402
import fit_decode_attention  # noqa: E402
import fit_kernels  # noqa: E402
import fit_stacks  # noqa: E402
import fit_step_extras  # noqa: E402
import fit_unaligned  # noqa: E402

# Each embedded fit (models/calibration/CMakeLists.txt): its module (with fit() returning the
# output) and the output's path.
FITS = [(fit_kernels, "h200/fit_kernels.json"), (fit_unaligned, "h200/moe/fit_unaligned.json"),
        (fit_attention, "h200/fit_attention.json"),
        (fit_decode_attention, "h200/decode/fit_decode_attention.json"),
        (fit_stacks, "h200/moe/fit_stacks.json"), (fit_step_extras, "h200/steps/fit_step_extras.json")]


def differences(module, path):
    with contextlib.redirect_stdout(io.StringIO()):  # the fits print their figures
        refit = module.fit()["constants"]
    with open(os.path.join(CALIBRATION, path)) as f:
        committed = json.load(f)["constants"]
    return [f"{path}: constants.{k}: committed {committed.get(k)}, refit {refit.get(k)}"
            for k in sorted(set(refit) | set(committed)) if refit.get(k) != committed.get(k)]


def main():
    wrong = [d for module, path in FITS for d in differences(module, path)]
    for d in wrong:
        print(d)
    print(f"{len(FITS)} fits refitted, {len(wrong)} constants differ")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
