// The Python extension `codesim._codesim`: scenarios loaded and checked here, each simulation run
// in a forked child of the Python process (study/isolated.hpp: SimGrid allows one engine per
// process). A step comes back as its typed result (results.hpp; the child sends it in metrics'
// wire form), a sweep, comparison or search as its table (the CLI's CSV columns, typed cells);
// serving and campaign runs as their JSON reports' text. The Python package (sim/python/codesim)
// wraps them.
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
#include "sim/report/campaign_report.hpp"
#include "sim/report/campaign_sweep_report.hpp"
#include "sim/report/columns.hpp"
#include "sim/report/compare_report.hpp"
#include "sim/report/serve_report.hpp"
#include "sim/study/campaign.hpp"
#include "sim/study/campaign_sweep.hpp"
#include "sim/study/inference.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/point_runs.hpp"
#include "sim/study/serve.hpp"
#include "sim/study/training.hpp"

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

// A scenario as Python holds it: a file (includes relative to it) or a YAML text with the name
// its errors give, and the `key=value` settings applied over it.
config::Scenario load(const std::string& source, bool is_path, const std::string& name,
                      const std::vector<std::string>& settings) {
  const auto parsed = config::parse_settings(settings);
  return is_path ? config::load_scenario(source, parsed)
                 : config::load_scenario_text(source, name, parsed);
}

std::string resolved_yaml(const std::string& source, bool is_path, const std::string& name,
                          const std::vector<std::string>& settings) {
  return config::to_yaml(load(source, is_path, name, settings));
}

// The step (a TrainingResult or an InferenceResult), simulated in a child process.
py::object simulate(const std::string& source, bool is_path, const std::string& name,
                    const std::vector<std::string>& settings, const std::string& fidelity) {
  const config::Scenario s = load(source, is_path, name, settings);  // errors here, in Python
  const metrics::Fidelity tier = fidelity_of(fidelity);
  const bool train = s.workload.kind == config::WorkloadKind::train;
  if (!train && tier == metrics::Fidelity::fast) {
    throw std::invalid_argument(
        "fast is for training steps only (prefill and decode have one tier)");
  }
  const auto outcome =
      study::run_isolated({[&s, train, tier]() -> std::string {
                            if (!train) {
                              return metrics::pack(study::simulate_inference(s));
                            }
                            return metrics::pack(study::run_training(s, {.fidelity = tier}).result);
                          }},
                          1);
  const study::IsolatedOutcome& o = outcome.front();
  if (o.exit_code == 0) {
    return train ? py::cast(metrics::unpack<metrics::RunResult>(o.payload))
                 : py::cast(metrics::unpack<metrics::InferenceResult>(o.payload));
  }
  if (o.exit_code == 2) {
    throw core::InputError(core::Diagnostic{{name, 0, 0}, "", o.error, ""});
  }
  throw std::runtime_error(o.error);
}

// The studies of several points, each point in a forked child (study/point_runs.hpp); their
// tables, as the CLI's CSV files have them (results.csv, compare's CSV, ranking.csv).
py::dict sweep(const std::string& path, const std::vector<std::string>& settings,
               const std::string& fidelity, int jobs) {
  const study::SweepPlan plan = study::plan_sweep(path, config::parse_settings(settings));
  return frame_object(report::sweep_frame(
      study::run_sweep(plan, {.jobs = jobs, .fidelity = fidelity_of(fidelity)})));
}

// A scenario as Python hands it over: source, is_path, name, settings (as load takes them).
using ScenarioSource = std::tuple<std::string, bool, std::string, std::vector<std::string>>;

// Each scenario loaded (refused here, in Python, before any runs), then compared; its file
// column says where it came from: the file or YAML name, and each setting as `--set k=v`.
py::dict compare(const std::vector<ScenarioSource>& sources, const std::string& fidelity,
                 int jobs) {
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
  return frame_object(report::compare_frame(
      study::compare(scenarios, labels, {.jobs = jobs, .fidelity = fidelity_of(fidelity)})));
}

py::dict search(const std::string& path, const std::vector<std::string>& settings, int top,
                int jobs) {
  const study::SearchPlan plan = study::plan_search(path, config::parse_settings(settings));
  return frame_object(
      report::search_frame(study::search(plan, top > 0 ? top : plan.search.top, {.jobs = jobs})));
}

// The serving run of the file's serve: section (its EP rounds in forked children), as JSON text.
std::string serve(const std::string& path, const std::vector<std::string>& settings) {
  return report::serve_json(study::simulate_serving(path, config::parse_settings(settings))).dump();
}

// The training run of the file's campaign: section (its steps in forked children), as JSON text.
std::string campaign(const std::string& path, const std::vector<std::string>& settings,
                     const std::string& fidelity) {
  return report::campaign_json(study::run_campaign(path, config::parse_settings(settings),
                                                   {.fidelity = fidelity_of(fidelity)}))
      .dump();
}

// The training run at every point of the file's sweep: section, as JSON text.
std::string campaign_sweep(const std::string& path, const std::vector<std::string>& settings,
                           const std::string& fidelity) {
  return report::campaign_sweep_json(study::run_campaign_sweep(path,
                                                               config::parse_settings(settings),
                                                               fidelity_of(fidelity)))
      .dump();
}

// Every candidate of the file's search: section run as a campaign, ranked, as JSON text.
std::string campaign_search(const std::string& path, const std::vector<std::string>& settings,
                            const std::string& fidelity) {
  return report::campaign_sweep_json(
             study::search_campaigns(path, config::parse_settings(settings), fidelity_of(fidelity)))
      .dump();
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
        py::arg("settings"), py::arg("fidelity"));
  m.def("sweep", &python::sweep, py::arg("path"), py::arg("settings"), py::arg("fidelity"),
        py::arg("jobs"));
  m.def("serve", &python::serve, py::arg("path"), py::arg("settings"));
  m.def("campaign", &python::campaign, py::arg("path"), py::arg("settings"), py::arg("fidelity"));
  m.def("campaign_sweep", &python::campaign_sweep, py::arg("path"), py::arg("settings"),
        py::arg("fidelity"));
  m.def("campaign_search", &python::campaign_search, py::arg("path"), py::arg("settings"),
        py::arg("fidelity"));
  m.def("compare", &python::compare, py::arg("scenarios"), py::arg("fidelity"), py::arg("jobs"));
  m.def("search", &python::search, py::arg("path"), py::arg("settings"), py::arg("top"),
        py::arg("jobs"));
}
