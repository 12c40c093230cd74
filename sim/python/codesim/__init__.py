"""codesim from Python: load a scenario, change its keys, simulate it.

    import codesim
    s = codesim.load("scenarios/deepseek-v3-h800-mpft.yaml")
    s.set("hardware.nic_bandwidth", "800Gbps")
    r = codesim.simulate(s, fidelity="fast")
    print(r.step_time_s, r.tokens_per_day, r.breakdown_s)

`simulate` returns a typed result: a `TrainingResult` or an `InferenceResult`, whose figures are
attributes named as the columns of the CLI's CSV (`step_time_s`, `tokens_per_day`, `mfu_causal`,
`tpot_ms`, ...: floats, each with its docstring); `r.row()` gives them as a dict, `r.to_dict()` the
whole JSON report, whose other keys (`breakdown_s`, `busiest_links`, `energy`, ...) read as
attributes too. Sweeps, comparisons and searches (`sweep`, `compare`, `search`) return a pandas
DataFrame, one row per point, when pandas is installed (a list of dicts otherwise), with the
columns of the CLI's CSV files (results.csv, compare's CSV, ranking.csv); swept values that are
numbers come back as numbers. `serve` and `campaign` return a `ServeResult` and a
`CampaignResult`, typed the same way (their scalar figures as attributes, `to_dict()` the report).
Each simulation runs in a forked child of the Python process, so several run one after another in
one process. A scenario the model cannot run raises `codesim.ScenarioError` with the file, line,
column and key of each problem.
"""
import itertools
import os

from . import _codesim

__all__ = ["Scenario", "ScenarioError", "TrainingResult", "InferenceResult", "ServeResult",
           "CampaignResult", "load", "simulate", "serve", "campaign", "sweep", "compare", "search"]

TrainingResult = _codesim.TrainingResult
InferenceResult = _codesim.InferenceResult
ServeResult = _codesim.ServeResult
CampaignResult = _codesim.CampaignResult
for _cls in (TrainingResult, InferenceResult, ServeResult, CampaignResult):
    _cls.__module__ = "codesim"

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


def simulate(scenario, fidelity="full", html=None, chrome_trace=None):
    """Simulates one step of `scenario` (training or inference): "full" replays it on SimGrid,
    "fast" times its critical path (training only). `scenario`: a Scenario or a file path.
    Returns a TrainingResult or an InferenceResult. `html`: a path to write the HTML report to
    (`codesim run --format html`); `chrome_trace`: a path for the step's Chrome trace (training
    steps; open it in Perfetto or chrome://tracing)."""
    scenario = _scenario(scenario)
    return _codesim.simulate(scenario._source, scenario._is_path, scenario._name,
                             scenario._settings, fidelity, os.fspath(html or ""),
                             os.fspath(chrome_trace or ""))


def _table(rows):
    """A pandas DataFrame of `rows` (dicts) when pandas is installed, else the list itself."""
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows)


def _number(text):
    """`text` as an int or a float, or None when it is not a plain number ("4min", "auto")."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return None


def _numbers(rows, keys):
    """Turns each column of `keys` whose cells are all text spelling plain numbers (a swept
    value as written: "2", "1e6") into numbers, as pandas.read_csv reads the CLI's CSV."""
    for key in keys:
        cells = [row.get(key) for row in rows]
        if cells and all(isinstance(c, str) and _number(c) is not None for c in cells):
            for row in rows:
                row[key] = _number(row[key])
    return rows


def _frame(frame):
    """A study's table (columns and typed rows, the CLI's CSV schema) as a DataFrame."""
    columns = frame["columns"]
    return _table(_numbers([dict(zip(columns, row)) for row in frame["rows"]], columns))


def _source(scenario):
    """`scenario` as the studies that vary it take it: its file or YAML text, its name, its
    settings."""
    return (scenario._source, scenario._is_path, scenario._name, scenario._settings)


def _point_row(index, scenario, values, fidelity):
    """One in-memory point: the scenario with `values` set, simulated; its row as results.csv
    has it (point, the values, the step columns, error)."""
    row = {"point": index, **values, **dict.fromkeys(_codesim.step_columns()), "error": ""}
    try:
        point = scenario.copy()
        for key, value in values.items():
            point.set(key, value)
        figures = simulate(point, fidelity).row()
        del figures["scenario"]
        row.update(figures)
    except ScenarioError as e:
        row["error"] = str(e)
    return row


def _reporter(progress):
    """What a sweep calls after each point, with the points done, their total and the point's
    row: `progress` itself if callable, a tqdm bar if `progress` is True and tqdm is installed,
    else nothing; and what closes the bar."""
    if callable(progress):
        return progress, lambda: None
    if progress:
        try:
            from tqdm import tqdm
        except ImportError:
            return None, lambda: None
        bars = []

        def advance(done, total, row):
            if not bars:
                bars.append(tqdm(total=total, unit="point"))
            bars[0].update(1)

        return advance, lambda: bars and bars[0].close()
    return None, lambda: None


def sweep(scenario, points=None, fidelity="full", jobs=2, progress=None):
    """A table of runs, one row per point, with the columns of the CLI's results.csv: point, the
    swept values, the step's figures (step_time_s, tokens_per_day, ...: empty where the point
    could not run), error.

    Without `points`, every point of the scenario's `sweep:` section (with the scenario's
    settings), simulated in forked children, `jobs` at a time. With `points`, a dict of key ->
    list of values (Python values or unit strings, as `Scenario.set` takes them), every
    combination of them over the scenario, file or YAML text, one after another (each in a forked
    child; `jobs` unused): `sweep(s, {"routing.node_limit": [1, 2, 4]})`. Either way `progress` (a
    callable taking the points done, their total and the point's row, or True for a tqdm bar)
    hears of each point as it ends, and Ctrl-C stops the children and raises KeyboardInterrupt.
    Swept numbers come back as numbers."""
    scenario = _scenario(scenario)
    if points is not None:
        keys = list(points)
        combos = list(itertools.product(*(list(points[k]) for k in keys)))
        report, close = _reporter(progress)
        rows = []
        try:
            for i, combo in enumerate(combos):
                rows.append(_point_row(i, scenario, dict(zip(keys, combo)), fidelity))
                if report:
                    report(i + 1, len(combos), rows[-1])
        finally:
            close()
        return _table(rows)
    report, close = _reporter(progress)
    try:
        return _frame(_codesim.sweep(_source(scenario), fidelity, jobs, report))
    finally:
        close()


def serve(scenario):
    """The scenario's `serve:` section (file or YAML text, with its settings): requests through its
    prefill and decode instances; the report (TTFT, TPOT and latency percentiles, throughput,
    SLO attainment, notes) as a ServeResult."""
    scenario = _scenario(scenario)
    return _codesim.serve(_source(scenario))


def campaign(scenario, fidelity="fast", sweep=False, search=False):
    """The scenario's `campaign:` section (file or YAML text, with its settings): its training run
    under failures and checkpoints; the report (days, GPU-hours, ETTR, interruptions, cost and
    energy, each with p10/p50/p90 and the expectation) as a CampaignResult. With `sweep`, the run at
    every point of its `sweep:` section; with `search`, at every candidate of its `search:`
    section, ranked by its run objective (days, cost_usd, gpu_hours, energy_mwh: p50, least
    first): one row per point, the columns of the CLI's `--format csv` (point or rank, the
    varied keys, the run's figures: `days_p50`, `cost_usd_expected` and the like, then `error`,
    why a point could not run)."""
    scenario = _scenario(scenario)
    if not sweep and not search:
        return _codesim.campaign(_source(scenario), fidelity)
    study = _codesim.campaign_search if search else _codesim.campaign_sweep
    return _frame(study(_source(scenario), fidelity))


def compare(*scenarios, fidelity="full", jobs=2):
    """The scenarios (Scenarios, set or not, or file paths) side by side, network cost and
    training throughput: one row per scenario, with the columns of `codesim compare --format csv`
    (name, file, endpoints, switches, links, cost_usd, ..., step_time_s, tokens_per_day,
    mfu_causal); `file` names a set scenario's settings too ("x.yaml --set key=value")."""
    scenarios = [_scenario(s) for s in scenarios]
    return _frame(_codesim.compare([_source(s) for s in scenarios], fidelity, jobs))


def search(scenario, top=None, jobs=2):
    """The scenario's `search:` section (file or YAML text, with its settings): every candidate
    screened by the fast tier, the best `top` (default: the section's) simulated in full, ranked:
    one row per candidate with the columns of the CLI's ranking.csv (rank, its values, base, the tier that ranked it,
    step_time_s, tokens_per_day, mfu_causal, memory_gb, network_usd, objective,
    fast_step_time_s, and why it was rejected)."""
    scenario = _scenario(scenario)
    return _frame(_codesim.search(_source(scenario), top or 0, jobs))
