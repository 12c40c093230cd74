"""Writing a fit's output where the build embeds it: each fit script's JSON carries a flat
"constants" object of C++ identifiers and numbers, which models/calibration/CMakeLists.txt turns
into a header (namespace codesim::calibration::<fit>) at build time. check_fits.py refits and
compares, so the numbers the simulator uses are the fit's, never a hand copy."""
import json
import re


def constant_name(*parts):
    """A C++ identifier from words: "loss", "eager", "logits to FP32" -> loss_eager_logits_to_fp32."""
    words = "_".join(parts).lower()
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9]+", "_", words)).strip("_")


def read_constants(path):
    """The "constants" of a fit's output JSON: what another fit takes from it."""
    with open(path) as f:
        return json.load(f)["constants"]


def write_fit(out, path):
    """Writes the fit's output (with its "constants") as indented JSON."""
    for name, value in out["constants"].items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name
        assert isinstance(value, (int, float)), (name, value)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


def same_record(a, b):
    """Two records of the model's runs agree: the same keys and text, numbers within 1e-9 of
    each other (relative)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            same_record(a[k], b[k]) for k in a)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0)
    return a == b


def recorded_fit_main(description, model_path, record, fit, output_path, script):
    """The command line of a fit that inverts the model's own runs, recorded in `model_path`:
    --binary B records them anew with B (`record(B)`) before fitting; with --check it only checks
    that the record is what B gives (a test). Writes `fit()` to `output_path`."""
    import argparse
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", help="codesim, to (re)record the model's runs")
    parser.add_argument("--check", action="store_true",
                        help="only check that the recorded runs are the binary's")
    args = parser.parse_args()
    if args.binary:
        now = record(args.binary)
        if args.check:
            with open(model_path) as f:
                recorded = json.load(f)
            if not same_record(recorded, now):
                print(f"{model_path}: the model's runs moved ({recorded} -> {now}); rerun "
                      f"tools/calibration/{script} --binary <codesim>")
                return 1
            print("the recorded runs are this build's")
            return 0
        with open(model_path, "w") as f:
            json.dump(now, f, indent=1)
            f.write("\n")
    write_fit(fit(), output_path)
    return 0
