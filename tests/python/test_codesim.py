"""The Python package as a user calls it (tools/test-python.sh installs it, then runs these)."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import codesim

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SMALL = os.path.join(ROOT, "tests", "scenarios", "small-step.yaml")
BINARY = os.path.join(ROOT, "build", "sim", "cli", "codesim")


def cli_report(path, *flags):
    """What `codesim run` prints as JSON for the same scenario."""
    out = subprocess.run([BINARY, "run", path, "--format", "json", *flags], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def cli_csv(*args):
    """What the CLI writes as CSV (`codesim run ... --format csv`): its header and rows."""
    out = subprocess.run([BINARY, *args, "--format", "csv"], check=True, capture_output=True,
                         text=True).stdout
    lines = out.splitlines()
    return lines[0].split(","), [line.split(",") for line in lines[1:]]


def test_simulate_returns_the_cli_reports_figures():
    result = codesim.simulate(codesim.load(SMALL), fidelity="fast")
    expected = cli_report(SMALL, "--fidelity", "fast")
    assert isinstance(result, codesim.TrainingResult)
    assert result.fidelity == "fast"
    assert result.step_time_s == expected["step_time_s"]
    assert result.breakdown_s == expected["breakdown_s"]  # the report's other keys
    assert result.to_dict() == expected
    with pytest.raises(AttributeError, match="no figure 'step_time' in the report"):
        result.step_time


def test_results_are_typed_with_the_csv_columns():
    # The figures are the CLI's CSV columns, typed (floats equal to the CSV's digits, which are
    # exact: shortest round trip) and documented by the column's label.
    result = codesim.simulate(codesim.load(SMALL), fidelity="fast")
    header, rows = cli_csv("run", SMALL, "--fidelity", "fast")
    row = result.row()
    assert list(row) == header
    assert row["scenario"] == rows[0][0] == result.scenario
    assert [row[c] for c in header[1:]] == [float(v) for v in rows[0][1:]]
    assert isinstance(result.mfu_causal, float)
    assert codesim.TrainingResult.step_time_s.__doc__ == "step time (s)"
    assert codesim.TrainingResult.__module__ == "codesim"
    assert repr(result).startswith("TrainingResult(scenario='small-step', step_time_s=")
    assert result.notes and set(result.notes[0]) == {"kind", "text"}


def test_every_study_takes_a_path_as_well():
    # A path (str or pathlib) is loaded as codesim.load would; anything else is a TypeError.
    import pathlib
    by_path = codesim.simulate(pathlib.Path(SMALL), fidelity="fast")
    assert by_path.to_dict() == codesim.simulate(codesim.load(SMALL), fidelity="fast").to_dict()
    with pytest.raises(TypeError, match="a scenario is a codesim.Scenario or a file path, not int"):
        codesim.simulate(3)


def test_the_error_is_named_as_the_package_exports_it():
    assert codesim.ScenarioError.__module__ == "codesim"
    assert codesim.ScenarioError.__name__ == "ScenarioError"
    assert issubclass(codesim.ScenarioError, ValueError)


def test_serve_refuses_a_scenario_without_a_serve_section():
    with pytest.raises(codesim.ScenarioError, match="the scenario has no serve: section"):
        codesim.serve(os.path.join(ROOT, "scenarios", "llama3.1-8b-decode-h200.yaml"))


def test_several_full_simulations_in_one_process():
    # SimGrid allows one engine per process: each simulation runs in a forked child.
    scenario = codesim.load(SMALL)
    first = codesim.simulate(scenario)
    second = codesim.simulate(scenario.set("routing.node_limit", 2))
    assert first.fidelity == second.fidelity == "full"
    assert first.step_time_s == cli_report(SMALL)["step_time_s"]
    assert second.step_time_s != first.step_time_s


def test_set_takes_units_and_python_values():
    scenario = codesim.load(SMALL).set("hardware.nic_bandwidth", "800Gbps").set(
        "parallelism.sp", True)
    resolved = scenario.resolved()
    assert "nic_bandwidth: 100GBps" in resolved
    assert "sp: true" in resolved


def test_scenario_errors_carry_file_line_column_and_key():
    with pytest.raises(codesim.ScenarioError) as caught:
        codesim.Scenario.from_yaml("model: {preset: deepseek-v3}\nhardware: {nodes: 0}\n",
                                   name="mine.yaml")
    assert caught.value.diagnostics == [
        {"file": "mine.yaml", "line": 2, "column": 19, "key": "hardware.nodes",
         "message": "must be at least 1, got 0", "hint": ""}]
    assert str(caught.value) == "mine.yaml:2:19: error: hardware.nodes: must be at least 1, got 0"


def test_a_refused_setting_leaves_the_scenario_as_it_was():
    scenario = codesim.load(SMALL)
    with pytest.raises(codesim.ScenarioError) as caught:
        scenario.set("hardware.nodes", 0)
    assert caught.value.diagnostics[0]["key"] == "hardware.nodes"
    assert scenario.resolved() == codesim.load(SMALL).resolved()


def test_inference_steps():
    bound = os.path.join(ROOT, "scenarios", "deepseek-v3-decode-bound-ib.yaml")
    result = codesim.simulate(codesim.load(bound))
    assert isinstance(result, codesim.InferenceResult)
    assert result.phase == "decode" and result.mode == "bound"
    assert result.tpot_ms == pytest.approx(14.75712, rel=1e-9)
    assert result.row()["tpot_ms"] == result.tpot_ms
    assert codesim.InferenceResult.tpot_ms.__doc__ == "TPOT (ms)"
    with pytest.raises(ValueError, match="fast is for training steps only"):
        codesim.simulate(codesim.load(bound), fidelity="fast")


def test_serve_returns_the_cli_report():
    path = os.path.join(ROOT, "scenarios", "llama3.1-8b-serve-h200.yaml")
    scenario = codesim.load(path).set("serve.arrivals.requests", 40)
    result = codesim.serve(scenario)
    out = subprocess.run([BINARY, "serve", path, "--set", "serve.arrivals.requests=40",
                          "--format", "json"], check=True, capture_output=True, text=True).stdout
    assert result.to_dict() == json.loads(out)
    assert isinstance(result, codesim.ServeResult)
    assert result.requests == 40  # typed and documented
    assert codesim.ServeResult.goodput.__doc__ == "requests per second meeting both SLO targets"
    assert result.ttft_ms["p90"] >= result.ttft_ms["p50"]  # the report's other keys
    # The same scenario as YAML text (its include found from `name`) serves alike.
    text = codesim.Scenario.from_yaml(open(path).read(), name=path)
    assert codesim.serve(text.set("serve.arrivals.requests", 40)).to_dict() == result.to_dict()


def test_campaign_returns_the_cli_report():
    scenario = codesim.load(SMALL).set("campaign.tokens", 2e10).set("campaign.trials", 200)
    result = codesim.campaign(scenario)
    out = subprocess.run([BINARY, "campaign", SMALL, "--set", "campaign.tokens=2e10", "--set",
                          "campaign.trials=200", "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    assert result.to_dict() == json.loads(out)
    assert isinstance(result, codesim.CampaignResult)
    assert result.step_time_s == result.to_dict()["step_time_s"]
    assert result.days["p90"] >= result.days["p10"]


def test_campaign_sweep_is_a_table_of_its_points():
    # small-campaign-sweep.yaml: 2 failure rates x 6 checkpoint intervals; the rate of 1e6 per
    # 1,000 node-days cannot progress at any interval, and those rows say so.
    rows = codesim.campaign(codesim.load(os.path.join(ROOT, "tests", "scenarios",
                                                      "small-campaign-sweep.yaml")), sweep=True)
    rows = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert len(rows) == 12
    refused = [r for r in rows if r["campaign.node_failure_rate"] == 1e6]  # numbers, not text
    assert all("cannot progress" in r["error"] for r in refused)
    ran = [r for r in rows if r["campaign.node_failure_rate"] == 500]
    assert min(ran, key=lambda r: r["days_expected"])["campaign.checkpoint_interval"] == "auto"
    # One schema: the columns of `codesim campaign --sweep --format csv`.
    header, _ = cli_csv("campaign", os.path.join(ROOT, "tests", "scenarios",
                                                 "small-campaign-sweep.yaml"), "--sweep")
    assert list(rows[0].keys()) == header


def test_campaign_search_ranks_by_the_run_objective():
    rows = codesim.campaign(codesim.load(os.path.join(ROOT, "tests", "scenarios",
                                                      "small-campaign-search.yaml")), search=True)
    rows = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    days = [r["days_p50"] for r in rows]
    assert days == sorted(days)
    assert (rows[0]["campaign.checkpoint_interval"], rows[0]["campaign.spare_nodes"]) == ("auto", 1)


def test_sweep_is_a_table_of_its_points():
    # small-sweep.yaml: node_limit [1, 2] x schedule [dualpipe, 1f1b], cartesian: 4 points; the
    # same figures as the sweep the golden test records (fast tier here: quicker, same points).
    heard = []
    table = codesim.sweep(codesim.load(os.path.join(ROOT, "tests", "scenarios", "small-sweep.yaml")),
                          fidelity="fast", progress=lambda done, total, row: heard.append(
                              (done, total, row["point"], row["step_time_s"])))
    assert list(table["point"]) == [0, 1, 2, 3]
    # Each point heard as it ended (in any order), with its row as the table has it.
    assert [(done, total) for done, total, _, _ in heard] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert sorted((p, t) for _, _, p, t in heard) == list(zip(table["point"], table["step_time_s"]))
    assert sorted(zip(table["routing.node_limit"], table["schedule.method"])) == [
        (1, "1f1b"), (1, "dualpipe"), (2, "1f1b"), (2, "dualpipe")]
    assert table["routing.node_limit"].dtype.kind == "i"  # numbers, not text
    assert (table["step_time_s"] > 0).all()
    # results.csv's columns: point, the swept keys, a run's CSV columns (less its name), error.
    header, _ = cli_csv("run", SMALL, "--fidelity", "fast")
    assert list(table.columns) == ["point", "routing.node_limit", "schedule.method",
                                   *header[1:], "error"]


def test_sweep_over_values_given_in_python():
    # The same two node limits as small-sweep.yaml, given in Python over the plain step (a YAML
    # text scenario too): the same step times as the file's sweep; a value the schema refuses is
    # that point's error, the others run.
    small = os.path.join(ROOT, "tests", "scenarios", "small-step.yaml")
    from_file = codesim.sweep(codesim.load(os.path.join(ROOT, "tests", "scenarios",
                                                        "small-sweep.yaml")), fidelity="fast")
    scenario = codesim.Scenario.from_yaml(open(small).read(), name=small)
    table = codesim.sweep(scenario, {"routing.node_limit": [1, 2], "schedule.method": ["dualpipe"]},
                          fidelity="fast")
    assert list(table["point"]) == [0, 1]
    assert list(table.columns) == list(from_file.columns)  # one schema, results.csv's
    assert list(table["routing.node_limit"]) == [1, 2]
    expected = from_file[from_file["schedule.method"] == "dualpipe"].sort_values("routing.node_limit")
    assert list(table["step_time_s"]) == pytest.approx(list(expected["step_time_s"]), rel=1e-12)
    assert scenario._settings == []  # the points' settings stay on their copies
    heard = []
    refused = codesim.sweep(scenario, {"routing.node_limit": [2, -1]}, fidelity="fast",
                            progress=lambda done, total, row: heard.append((done, total, row["error"])))
    assert refused["error"][0] == ""
    assert "routing.node_limit" in refused["error"][1]
    assert [(done, total) for done, total, _ in heard] == [(1, 2), (2, 2)]
    assert heard[1][2] == refused["error"][1]


def test_compare_and_search_are_tables():
    small = os.path.join(ROOT, "tests", "scenarios", "small-step.yaml")
    mrft = os.path.join(ROOT, "tests", "scenarios", "small-step-mrft.yaml")
    both = codesim.compare(small, codesim.load(mrft), fidelity="fast")
    assert list(both["name"]) == ["small-step", "small-step-mrft"]
    # A scenario changed in Python compares too; its file column names the change.
    changed = codesim.compare(small, codesim.load(small).set("routing.node_limit", 2),
                              fidelity="fast")
    assert list(changed["file"]) == [small, small + " --set routing.node_limit=2"]
    assert changed["step_time_s"][1] != changed["step_time_s"][0]
    assert changed["switches"].dtype.kind == "i"  # counts are ints
    search = os.path.join(ROOT, "tests", "scenarios", "small-search.yaml")
    ranking = codesim.search(codesim.load(search), top=1)
    assert list(ranking["rank"]) == list(range(1, len(ranking) + 1))
    assert list(ranking["tier"]).count("full") == 1  # the best one, simulated in full
    assert any(ranking["rejected"] != "")  # pp 3 does not divide the GPUs
    # The file's text searches as the file does (its includes found from `name`).
    from_text = codesim.search(codesim.Scenario.from_yaml(open(search).read(), name=search), top=1)
    assert from_text.equals(ranking)
    with pytest.raises(codesim.ScenarioError, match="the scenario has no sweep: section"):
        codesim.sweep(codesim.Scenario.from_yaml(open(small).read(), name=small))


def test_ctrl_c_stops_a_sweep_and_its_children():
    # A sweep of full DeepSeek-V3 steps (about 20 s); SIGINT to the Python process, as Ctrl-C sends
    # it, once the sweep has started: KeyboardInterrupt at once, not when the points are done.
    # 'ready' is printed inside the try, so a slow machine cannot deliver the signal before it.
    # Python's own SIGINT handler is installed whatever the test was started under (a shell's
    # background job starts with SIGINT ignored, and Python then keeps ignoring it).
    code = ("import codesim, signal, sys\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            f"s = codesim.load({os.path.join(ROOT, 'scenarios', 'whatif-node-limit.yaml')!r})\n"
            "try:\n"
            "    print('ready', flush=True)\n"
            "    codesim.sweep(s, jobs=2)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "ready\n"
    time.sleep(2)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert out == "interrupted\n", err
    assert child.returncode == 0


def test_the_html_report_and_the_chrome_trace_from_python(tmp_path):
    # The same files `codesim run --format html` and `--chrome-trace` write.
    html, trace = tmp_path / "step.html", tmp_path / "trace.json"
    codesim.simulate(SMALL, fidelity="fast", html=html, chrome_trace=str(trace))
    cli_trace = tmp_path / "cli-trace.json"
    cli_html = subprocess.run([BINARY, "run", SMALL, "--fidelity", "fast", "--format", "html",
                               "--chrome-trace", str(cli_trace)], check=True, capture_output=True,
                              text=True).stdout
    assert html.read_text() == cli_html
    assert json.loads(trace.read_text()) == json.loads(cli_trace.read_text())
    decode = os.path.join(ROOT, "scenarios", "deepseek-v3-decode-bound-ib.yaml")
    with pytest.raises(ValueError, match="a Chrome trace is written for training steps only"):
        codesim.simulate(decode, chrome_trace=str(trace))
