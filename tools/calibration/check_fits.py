#!/usr/bin/env python3
"""Refits every fit whose constants the build embeds (models/calibration/CMakeLists.txt) from the
committed measurements and compares its "constants" with the committed output JSON: the numbers
the simulator uses are the fit's. Exit 1 with each difference; a test (ctest
CalibrationFits.EmbeddedConstantsAreTheFitsOutput).

Run: python3 tools/calibration/check_fits.py
"""
import contextlib
import importlib
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
CALIBRATION = os.path.join(HERE, "..", "..", "models", "calibration")


def embedded_outputs():
    """The output JSONs the build embeds, as models/calibration/CMakeLists.txt lists them (its
    `<fit> <path>.json` pairs): the one list of embedded fits."""
    with open(os.path.join(CALIBRATION, "CMakeLists.txt")) as f:
        return re.findall(r"^\s+\w+ (\S+\.json)\)?$", f.read(), re.M)


def differences(path):
    """Each constant of the output at `path` that its script (the output's "script", called with
    the output's "fit_args" where a script fits several GPUs' data alike) refits to another
    value."""
    with open(os.path.join(CALIBRATION, path)) as f:
        output = json.load(f)
    if "checked_by" in output:  # a fit the simulator's C++ makes: that test refits it
        return []
    if "refit_by_hand" in output:  # too long for the test suite: its command is in the output
        print(f"{path}: not refitted here ({output['refit_by_hand']})")
        return []
    module = importlib.import_module(os.path.splitext(os.path.basename(output["script"]))[0])
    with contextlib.redirect_stdout(io.StringIO()):  # the fits print their figures
        refit = module.fit(**output.get("fit_args", {}))["constants"]
    committed = output["constants"]
    return [f"{path}: constants.{k}: committed {committed.get(k)}, refit {refit.get(k)}"
            for k in sorted(set(refit) | set(committed)) if refit.get(k) != committed.get(k)]


def main():
    outputs = embedded_outputs()
    wrong = [d for path in outputs for d in differences(path)]
    for d in wrong:
        print(d)
    by_hand = 0
    for path in outputs:
        with open(os.path.join(CALIBRATION, path)) as f:
            by_hand += "refit_by_hand" in json.load(f)
    print(f"{len(outputs) - by_hand} fits refitted ({by_hand} refitted by hand only), "
          f"{len(wrong)} constants differ")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
