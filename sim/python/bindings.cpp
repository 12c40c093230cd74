// The Python extension `codesim._codesim`: scenarios loaded and checked here, each simulation run
// in a forked child of the Python process (study/isolated.hpp: SimGrid allows one engine per
// process). A step comes back as its typed result (results.hpp; the child sends it in metrics'
// wire form), a sweep, comparison or search as its table (the CLI's CSV columns, typed cells);
// serving and campaign runs as their typed results, their sweeps as their JSON reports' text. The
// Python package (sim/python/codesim) wraps them.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <tuple>
#include <vector>

#include "sim/config/dump.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/metrics/result_record.hpp"
#include "sim/python/results.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/campaign_report.hpp"
#include "sim/report/campaign_sweep_report.hpp"
#include "sim/report/columns.hpp"
#include "sim/report/compare_report.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/inference_report.hpp"
#include "sim/report/serve_report.hpp"
#include "sim/study/campaign.hpp"
#include "sim/study/campaign_sweep.hpp"
#include "sim/study/inference.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/point_runs.hpp"
#include "sim/study/serve.hpp"
#include "sim/study/training.hpp"
#include "sim/workload/chrome_export.hpp"

namespace py = pybind11;

namespace codesim::python {
namespace {

metrics::Fidelity fidelity_of(const std::string& fidelity) {
  const auto tier = metrics::fidelity_from_name(fidelity);
  if (!tier) {
    throw std::invalid_argument("fidelity must be 'full' or 'fast', got '" + fidelity + "'");
  }
  return *tier;
}

// Python's Ctrl-C: its handler only sets a flag; running the handlers turns it into a pending
// KeyboardInterrupt (the bindings hold the GIL throughout). run_isolated then kills the children
// and throws study::Stopped, which the module's translator leaves as that KeyboardInterrupt.
bool interrupted() {
  return PyErr_CheckSignals() != 0;
}

// A scenario as Python holds it: a file (includes relative to it) or a YAML text with the name
// its errors give, and the `key=value` settings applied over it: source, is_path, name, settings.
using PySource = std::tuple<std::string, bool, std::string, std::vector<std::string>>;

// That scenario as config takes it (the studies that vary it take it so).
config::ScenarioSource source_of(const PySource& py_source) {
  const auto& [source, is_path, name, settings] = py_source;
  return {.path = is_path ? source : name,
          .text = is_path ? std::nullopt : std::optional<std::string>(source),
          .settings = config::parse_settings(settings)};
}

config::Scenario load(const std::string& source, bool is_path, const std::string& name,
                      const std::vector<std::string>& settings) {
  return config::load_scenario(source_of({source, is_path, name, settings}));
}

std::string resolved_yaml(const std::string& source, bool is_path, const std::string& name,
                          const std::vector<std::string>& settings) {
  return config::to_yaml(load(source, is_path, name, settings));
}

// The training step, its Chrome trace written to `chrome_trace` unless empty (`codesim run
// --chrome-trace`), in metrics' wire form. Runs in the child (the trace stays there).
std::string training_step(const config::Scenario& s, metrics::Fidelity tier,
                          const std::string& chrome_trace) {
  const study::TrainingRun run =
      study::run_training(s, {.fidelity = tier, .keep_trace = !chrome_trace.empty()});
  if (!chrome_trace.empty()) {
    report::write_file_atomically(
        chrome_trace,
        workload::chrome_trace(run.trace, run.timeline, run.power, run.memory).dump() + "\n");
  }
  return metrics::pack(run.result);
}

// The step (a TrainingResult or an InferenceResult), simulated in a child process; its HTML
// report written to `html` and its Chrome trace to `chrome_trace` where they are not empty.
py::object simulate(const std::string& source, bool is_path, const std::string& name,
                    const std::vector<std::string>& settings, const std::string& fidelity,
                    const std::string& html, const std::string& chrome_trace) {
  const config::Scenario s = load(source, is_path, name, settings);  // errors here, in Python
  const metrics::Fidelity tier = fidelity_of(fidelity);
  const bool train = s.workload.kind == config::WorkloadKind::train;
  if (!train && tier == metrics::Fidelity::fast) {
    throw std::invalid_argument(
        "fast is for training steps only (prefill and decode have one tier)");
  }
  if (!train && !chrome_trace.empty()) {
    throw std::invalid_argument("a Chrome trace is written for training steps only");
  }
  const auto outcome =
      study::run_isolated({[&]() -> std::string {
                            return train ? training_step(s, tier, chrome_trace)
                                         : metrics::pack(study::simulate_inference(s));
                          }},
                          1, {}, interrupted);
  const study::IsolatedOutcome& o = outcome.front();
  if (o.exit_code == 0) {
    const report::PageFooter footer{config::to_yaml(s), "codesim " CODESIM_VERSION};
    if (train) {
      auto r = metrics::unpack<metrics::RunResult>(o.payload);
      if (!html.empty()) {
        report::write_file_atomically(html, report::run_html(r, footer));
      }
      return py::cast(std::move(r));
    }
    auto r = metrics::unpack<metrics::InferenceResult>(o.payload);
    if (!html.empty()) {
      report::write_file_atomically(html, report::inference_html(r, footer));
    }
    return py::cast(std::move(r));
  }
  if (o.exit_code == 2) {
    throw core::InputError(core::Diagnostic{{name, 0, 0}, "", o.error, ""});
  }
  throw std::runtime_error(o.error);
}

// The studies of several points, each point in a forked child (study/point_runs.hpp); their
// tables, as the CLI's CSV files have them (results.csv, compare's CSV, ranking.csv).
// `progress` (None or a callable) hears (points done, points, the point's row) as each ends.
py::dict sweep(const PySource& scenario, const std::string& fidelity, int jobs,
               const py::object& progress) {
  const study::SweepPlan plan = study::plan_sweep(source_of(scenario));
  const report::Frame heading{report::sweep_columns(study::sweep_result(plan, {}).keys), {}};
  std::size_t done = 0;
  const auto heard = [&](const study::PointOutcome& p) {
    ++done;
    if (!progress.is_none()) {
      report::Frame one = heading;
      one.rows.push_back(report::sweep_row(p.index, {p.values, p.result, p.error}));
      progress(done, plan.points.size(), frame_row(one, 0));
    }
  };
  return frame_object(report::sweep_frame(study::run_sweep(
      plan,
      {.jobs = jobs, .fidelity = fidelity_of(fidelity), .on_done = heard, .stop = interrupted})));
}

// Each scenario loaded (refused here, in Python, before any runs), then compared; its file
// column says where it came from: the file or YAML name, and each setting as `--set k=v`.
py::dict compare(const std::vector<PySource>& sources, const std::string& fidelity, int jobs) {
  std::vector<config::Scenario> scenarios;
  std::vector<std::string> labels;
  for (const auto& [source, is_path, name, settings] : sources) {
    scenarios.push_back(load(source, is_path, name, settings));
    std::string label = name;
    for (const std::string& s : settings) {
      label += " --set " + s;
    }
    labels.push_back(label);
  }
  return frame_object(report::compare_frame(study::compare(
      scenarios, labels, {.jobs = jobs, .fidelity = fidelity_of(fidelity), .stop = interrupted})));
}

py::dict search(const PySource& scenario, int top, int jobs) {
  const study::SearchPlan plan = study::plan_search(source_of(scenario));
  return frame_object(report::search_frame(
      study::search(plan, top > 0 ? top : plan.search.top, {.jobs = jobs, .stop = interrupted})));
}

// The serving run of the scenario's serve: section (its EP rounds in forked children): a
// ServeResult.
metrics::ServeResult serve(const PySource& scenario) {
  return study::simulate_serving(source_of(scenario));
}

// The training run of the scenario's campaign: section (its steps in forked children): a
// CampaignResult.
metrics::CampaignResult campaign(const PySource& scenario, const std::string& fidelity) {
  return study::run_campaign(source_of(scenario), {.fidelity = fidelity_of(fidelity)});
}

// The training run at every point of the scenario's sweep: section, as its frame.
py::dict campaign_sweep(const PySource& scenario, const std::string& fidelity) {
  return frame_object(report::campaign_sweep_frame(
      study::run_campaign_sweep(source_of(scenario), fidelity_of(fidelity))));
}

// Every candidate of the scenario's search: section run as a campaign, ranked, as its frame.
py::dict campaign_search(const PySource& scenario, const std::string& fidelity) {
  return frame_object(report::campaign_sweep_frame(
      study::search_campaigns(source_of(scenario), fidelity_of(fidelity))));
}

}  // namespace
}  // namespace codesim::python

PYBIND11_MODULE(_codesim, m) {
  using namespace codesim;
  m.doc() = "codesim's C++ library: scenarios and simulations (use the codesim package)";
  static py::exception<core::InputError> scenario_error(m, "ScenarioError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) {
        std::rethrow_exception(p);
      }
    } catch (const study::Stopped&) {
      if (PyErr_Occurred() == nullptr) {  // interrupted() left KeyboardInterrupt pending
        PyErr_SetNone(PyExc_KeyboardInterrupt);
      }
    } catch (const core::InputError& e) {
      py::list diagnostics;
      for (const core::Diagnostic& d : e.diagnostics()) {
        py::dict one;
        one["file"] = d.where.file;
        one["line"] = d.where.line;
        one["column"] = d.where.column;
        one["key"] = d.key_path;
        one["message"] = d.message;
        one["hint"] = d.hint;
        diagnostics.append(one);
      }
      py::object error = py::handle(scenario_error.ptr())(e.what());  // an instance of the type
      error.attr("diagnostics") = diagnostics;
      PyErr_SetObject(scenario_error.ptr(), error.ptr());
    }
  });
  python::bind_results(m);
  m.def("step_columns", [] {
    std::vector<std::string> names;
    for (const auto& c : report::step_columns()) {
      names.push_back(c.name);
    }
    return names;
  });
  m.def("resolved_yaml", &python::resolved_yaml, py::arg("source"), py::arg("is_path"),
        py::arg("name"), py::arg("settings"));
  m.def("simulate", &python::simulate, py::arg("source"), py::arg("is_path"), py::arg("name"),
        py::arg("settings"), py::arg("fidelity"), py::arg("html"), py::arg("chrome_trace"));
  m.def("sweep", &python::sweep, py::arg("scenario"), py::arg("fidelity"), py::arg("jobs"),
        py::arg("progress"));
  m.def("serve", &python::serve, py::arg("scenario"));
  m.def("campaign", &python::campaign, py::arg("scenario"), py::arg("fidelity"));
  m.def("campaign_sweep", &python::campaign_sweep, py::arg("scenario"), py::arg("fidelity"));
  m.def("campaign_search", &python::campaign_search, py::arg("scenario"), py::arg("fidelity"));
  m.def("compare", &python::compare, py::arg("scenarios"), py::arg("fidelity"), py::arg("jobs"));
  m.def("search", &python::search, py::arg("scenario"), py::arg("top"), py::arg("jobs"));
}
