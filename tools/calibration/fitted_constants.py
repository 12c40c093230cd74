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
