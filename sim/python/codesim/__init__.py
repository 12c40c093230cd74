"""codesim from Python: load a scenario, change its keys, simulate it.

    import codesim
    s = codesim.load("scenarios/deepseek-v3-h800-mpft.yaml")
    s.set("hardware.nic_bandwidth", "800Gbps")
    r = codesim.simulate(s, fidelity="fast")
    print(r.step_time_s, r.tokens_per_day, r.breakdown_s)

Sweeps, comparisons and searches (`sweep`, `compare`, `search`) return a pandas DataFrame, one
row per point, when pandas is installed (a list of dicts otherwise). Results carry the JSON
report's keys as attributes (`step_time_s`, `tokens_per_day`,
`breakdown_s`, ...; `r.to_dict()` gives them all). Each simulation runs in a forked child of the
Python process, so several run one after another in one process. A scenario the model cannot run
raises `codesim.ScenarioError` with the file, line, column and key of each problem.
"""
import itertools
import json
import os

from . import _codesim

__all__ = ["Scenario", "ScenarioError", "Result", "load", "simulate", "serve", "campaign", "sweep",
           "compare", "search"]

ScenarioError = _codesim.ScenarioError
ScenarioError.__module__ = "codesim"  # shown as codesim.ScenarioError
ScenarioError.__doc__ = ("A scenario codesim refuses; `.diagnostics` lists each problem as a dict "
                         "(file, line, column, key, message, hint).")


def _yaml_value(value):
    """A Python value as the scenario's YAML spells it (`--set` syntax)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    return str(value)


class Scenario:
    """A scenario file or YAML text, and the keys set over it (applied in order, as `--set`)."""

    def __init__(self, source, is_path, name):
        self._source = source
        self._is_path = is_path
        self._name = name
        self._settings = []
        self.resolved()  # refuse a bad scenario now, with its locations

    @classmethod
    def from_yaml(cls, text, name="scenario.yaml"):
        """A scenario from YAML text; `name` is the file name its errors give (and where its
        includes are found from)."""
        return cls(text, False, name)

    def set(self, key, value):
        """Sets `key` (a schema key path such as "hardware.nic_bandwidth") to `value` (units as in
        scenario files: "800Gbps", "3.7us"); checks the scenario again. Returns the scenario."""
        self._settings.append(f"{key}={_yaml_value(value)}")
        try:
            self.resolved()
        except ScenarioError:
            self._settings.pop()
            raise
        return self

    def resolved(self):
        """The scenario with its includes, presets and settings applied, as YAML text."""
        return _codesim.resolved_yaml(self._source, self._is_path, self._name, self._settings)

    def copy(self):
        """The same scenario with its own list of settings (a `set` on it leaves this one)."""
        other = Scenario.__new__(Scenario)
        other._source, other._is_path, other._name = self._source, self._is_path, self._name
        other._settings = list(self._settings)
        return other

    def __repr__(self):
        where = self._source if self._is_path else self._name
        return f"Scenario({where!r}, settings={self._settings!r})"


def load(path):
    """The scenario in the YAML file at `path`."""
    return Scenario(str(path), True, str(path))


def _scenario(scenario):
    """A study's scenario: a Scenario, or the path of a scenario file (str or os.PathLike)."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, (str, os.PathLike)):
        return load(scenario)
    raise TypeError(f"a scenario is a codesim.Scenario or a file path, not {type(scenario).__name__}")


class Result:
    """A simulation's figures: the JSON report's keys as attributes (a training step's
    `step_time_s`, `breakdown_s`, `tokens_per_day`, `mfu_causal`, ...; an inference step's
    `tpot_ms`, `tokens_per_s_per_gpu`, ...)."""

    def __init__(self, report):
        self._report = report
        for key, value in report.items():
            setattr(self, key, value)

    def to_dict(self):
        return json.loads(json.dumps(self._report))

    def __repr__(self):
        figures = ", ".join(f"{k}={self._report[k]!r}" for k in
                            ("scenario", "step_time_s", "tokens_per_day", "tpot_ms")
                            if k in self._report)
        return f"Result({figures})"


def _step_report(scenario, fidelity):
    """One step's JSON report (a dict) of a Scenario."""
    return json.loads(_codesim.simulate(scenario._source, scenario._is_path, scenario._name,
                                        scenario._settings, fidelity))


def simulate(scenario, fidelity="full"):
    """Simulates one step of `scenario` (training or inference): "full" replays it on SimGrid,
    "fast" times its critical path (training only). `scenario`: a Scenario or a file path."""
    return Result(_step_report(_scenario(scenario), fidelity))


def _table(rows):
    """A pandas DataFrame of `rows` (dicts) when pandas is installed, else the list itself."""
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows)


def _figures(report):
    """A run report's figures in one flat row: scalars as they are, the breakdown's items as
    `breakdown_s.<item>`; lists (links, notes) left out (the report has them)."""
    row = {}
    for key, value in (report or {}).items():
        if isinstance(value, dict) and key == "breakdown_s":
            row.update({f"breakdown_s.{k}": v for k, v in value.items()})
        elif not isinstance(value, (dict, list)):
            row[key] = value
    return row


def _file_of(scenario, why):
    """The file a file-only study reads (`why` says what it reads there)."""
    if not scenario._is_path:
        raise ValueError(f"{why} from a scenario file: use codesim.load(path)")
    return scenario._source


def _typed(text):
    """A swept value as the report spells it: a number as an int or a float, else the text (a
    value with its unit, "4min", or a name)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _point_row(index, scenario, values, fidelity):
    """One in-memory point: the scenario with `values` set, simulated; its row."""
    row = {"point": index, **values, "error": ""}
    try:
        point = scenario.copy()
        for key, value in values.items():
            point.set(key, value)
        row.update(_figures(_step_report(point, fidelity)))
    except ScenarioError as e:
        row["error"] = str(e)
    return row


def _reporter(progress, total):
    """What `sweep` calls after each in-memory point: `progress` itself if callable (with the
    points done, their total and the point's row), a tqdm bar if `progress` is True and tqdm is
    installed, else nothing."""
    if callable(progress):
        return progress, lambda: None
    if progress:
        try:
            from tqdm import tqdm
            bar = tqdm(total=total, unit="point")
            return (lambda done, total, row: bar.update(1)), bar.close
        except ImportError:
            pass
    return (lambda done, total, row: None), lambda: None


def sweep(scenario, points=None, fidelity="full", jobs=2, progress=None):
    """A table of runs, one row per point: its values, its `error` if it could not run, then the
    run's figures.

    Without `points`, every point of the scenario file's `sweep:` section (with the scenario's
    settings), simulated in forked children, `jobs` at a time. With `points`, a dict of key ->
    list of values (Python values or unit strings, as `Scenario.set` takes them), every
    combination of them over the scenario, file or YAML text, one after another (each in a forked
    child; `jobs` unused): `sweep(s, {"routing.node_limit": [1, 2, 4]})`; `progress` (a callable
    taking the points done, their total and the last row, or True for a tqdm bar) hears of each
    point as it ends. Swept numbers come back as numbers."""
    scenario = _scenario(scenario)
    if points is not None:
        keys = list(points)
        combos = list(itertools.product(*(list(points[k]) for k in keys)))
        report, close = _reporter(progress, len(combos))
        rows = []
        try:
            for i, combo in enumerate(combos):
                rows.append(_point_row(i, scenario, dict(zip(keys, combo)), fidelity))
                report(i + 1, len(combos), rows[-1])
        finally:
            close()
        return _table(rows)
    report = json.loads(_codesim.sweep(_file_of(scenario, "sweep reads its section"), scenario._settings, fidelity,
                                       jobs))
    return _table([{"point": p["point"], **{k: _typed(v) for k, v in p["values"].items()},
                    "error": p["error"], **_figures(p["result"])} for p in report["points"]])


def serve(scenario):
    """The scenario file's `serve:` section (with the scenario's settings): requests through its
    prefill and decode instances; the report (TTFT, TPOT and latency percentiles, throughput,
    SLO attainment, notes) as a Result."""
    scenario = _scenario(scenario)
    return Result(json.loads(_codesim.serve(_file_of(scenario, "serve reads its section"),
                                            scenario._settings)))


def campaign(scenario, fidelity="fast", sweep=False, search=False):
    """The scenario file's `campaign:` section (with the scenario's settings): its training run
    under failures and checkpoints; the report (days, GPU-hours, ETTR, interruptions, cost and
    energy, each with p10/p50/p90 and the expectation) as a Result. With `sweep`, the run at
    every point of the file's `sweep:` section; with `search`, at every candidate of its `search:`
    section, ranked by its run objective (days, cost_usd, gpu_hours, energy_mwh: p50, least
    first): one row per point (its values, its `error` if it could not run, then the run's
    figures, `days.p50` and the like)."""
    scenario = _scenario(scenario)
    path = _file_of(scenario, "campaign reads its section")
    if not sweep and not search:
        return Result(json.loads(_codesim.campaign(path, scenario._settings, fidelity)))
    study = _codesim.campaign_search if search else _codesim.campaign_sweep
    report = json.loads(study(path, scenario._settings, fidelity))
    return _table([{**dict(zip(report["keys"], p["values"])), "error": p.get("error", ""),
                    **_flat(p.get("campaign"))} for p in report["points"]])


def _flat(report):
    """A report's scalars in one flat row, its objects of scalars as `key.item`; lists left out."""
    row = {}
    for key, value in (report or {}).items():
        if isinstance(value, dict):
            row.update({f"{key}.{k}": v for k, v in value.items() if not isinstance(v, (dict, list))})
        elif not isinstance(value, list):
            row[key] = value
    return row


def compare(*scenarios, fidelity="full", jobs=2):
    """The scenario files side by side (network cost and training throughput): one row per
    scenario."""
    for s in scenarios:
        if isinstance(s, Scenario) and s._settings:
            raise ValueError("compare takes scenario files as they are written; "
                             f"{s!r} has settings a file would have to hold")
    files = [_file_of(s, "compare reads each scenario") if isinstance(s, Scenario) else str(s) for s in scenarios]
    return _table(json.loads(_codesim.compare(files, fidelity, jobs))["scenarios"])


def search(scenario, top=None, jobs=2):
    """The scenario file's `search:` section: every candidate screened by the fast tier, the best
    `top` (default: the section's) simulated in full, ranked: one row per candidate (rank, its
    values, the tier that ranked it, the objective, why it was rejected, then the figures of its
    best run)."""
    scenario = _scenario(scenario)
    report = json.loads(_codesim.search(_file_of(scenario, "search reads its section"), scenario._settings,
                                        top or 0, jobs))
    return _table([{"rank": e["rank"], **e["values"], "tier": e["tier"],
                    "objective": e["objective"], "rejected": e["rejected"],
                    **_figures(e["full"] or e["fast"])} for e in report["ranking"]])
