// Result classes: one property per column of the study's schema, the report as a dict, and the
// report's other keys (breakdown_s, busiest_links, energy, ...) read through it.
#include "sim/python/results.hpp"

#include <pybind11/stl.h>

#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/report/campaign_report.hpp"
#include "sim/report/columns.hpp"
#include "sim/report/inference_report.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/run_report.hpp"
#include "sim/report/serve_report.hpp"

namespace py = pybind11;

namespace codesim::python {
namespace {

py::object cell_object(const report::Cell& c) {
  if (const auto* n = std::get_if<long long>(&c)) {
    return py::int_(*n);
  }
  if (const auto* v = std::get_if<double>(&c)) {
    return py::float_(*v);
  }
  if (const auto* t = std::get_if<std::string>(&c)) {
    return py::str(*t);
  }
  return py::none();
}

py::object json_object(const nlohmann::ordered_json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

// A typed figure of a result that has no column schema (serving, campaign): its name (the JSON
// report's key), its doc, its value.
template <class Result>
struct Figure {
  const char* name;
  const char* doc;
  std::function<py::object(const Result&)> value;
};

// What every result class has: scenario, notes, to_dict() (the JSON report), the report's other
// keys as attributes, and a repr naming the first figure.
template <class Result, class Report>
void add_report(py::class_<Result>& cls, Report report, const std::string& first,
                std::type_identity_t<std::function<py::object(const Result&)>> first_value) {
  cls.def_property_readonly(
      "scenario", [](const Result& r) { return r.scenario; }, "the scenario's name");
  cls.def_property_readonly(
      "notes", [](const Result& r) { return json_object(report::notes_json(r.notes)); },
      "what the models folded, fitted, assumed, estimated or left out: [{kind, text}, ...]");
  cls.def(
      "to_dict", [report](const Result& r) { return json_object(report(r)); },
      "the JSON report (the CLI's --format json) as a dict");
  cls.def(
      "__getattr__",
      [report](const Result& r, const std::string& key) -> py::object {
        if (key.starts_with('_')) {  // Python's and IPython's probes: no report key starts so
          throw py::attribute_error(key);
        }
        const auto j = report(r);
        if (!j.contains(key)) {
          throw py::attribute_error("no figure '" + key + "' in the report");
        }
        return json_object(j.at(key));
      },
      "the report's other keys (to_dict()'s) as attributes");
  // TrainingResult(scenario='small-step', step_time_s=1.234): the first figure.
  const std::string name = py::str(cls.attr("__name__"));
  cls.def("__repr__", [name, first, first_value](const Result& r) {
    return name + "(scenario=" + std::string(py::repr(py::str(r.scenario))) + ", " + first + "=" +
           std::string(py::repr(first_value(r))) + ")";
  });
}

// A step result: its columns (report/columns.hpp) as float properties documented by their
// labels, row() the CSV's row.
template <class Result, class Columns, class MakeFrame, class Report>
void add_columns(py::class_<Result>& cls, const Columns& columns, MakeFrame frame, Report report) {
  for (const auto& c : columns) {
    cls.def_property_readonly(
        c.name.c_str(), [value = c.value](const Result& r) { return value(r); }, c.label.c_str());
  }
  cls.def(
      "row", [frame](const Result& r) { return frame_row(frame(r), 0); },
      "the result's row of the CLI's CSV (its columns: a DataFrame's), as a dict");
  const auto& first = columns.front();
  add_report(cls, report, first.name,
             [value = first.value](const Result& r) { return py::object(py::float_(value(r))); });
}

// A run result without a column schema, bound as class `name`: its figures as typed properties.
template <class Result, class Report>
void bind_figures(py::module_& m, const char* name, const char* doc,
                  const std::vector<Figure<Result>>& figures, Report report) {
  py::class_<Result> cls(m, name, doc);
  for (const auto& f : figures) {
    cls.def_property_readonly(f.name, f.value, f.doc);
  }
  add_report(cls, report, figures.front().name, figures.front().value);
}

// A figure read from a member: Figure<R>{"requests", "...", value_of(&R::requests)}.
template <class Result, class T>
std::function<py::object(const Result&)> value_of(T Result::*member) {
  return [member](const Result& r) { return py::cast(r.*member); };
}
template <class Result>
std::function<py::object(const Result&)> seconds_of(core::Seconds Result::*member) {
  return [member](const Result& r) { return py::object(py::float_((r.*member).value)); };
}

void bind_serve(py::module_& m) {
  using R = metrics::ServeResult;
  bind_figures<R>(
      m, "ServeResult",
      "A serving run (codesim serve): requests through prefill and decode instances. Its scalar "
      "figures are typed attributes (each documented); the JSON report's other keys (ttft_ms, "
      "tpot_ms, latency_ms with p50/p90/p99, prefill, decode, slo, energy) read as attributes "
      "too, `to_dict()` gives the whole report.",
      {{"requests", "requests served", value_of(&R::requests)},
       {"arrivals", "the arrival process, in words", value_of(&R::arrivals)},
       {"gpus", "GPUs of the prefill and decode instances together", value_of(&R::gpus)},
       {"decode_kv_tokens", "KV-cache tokens one decode instance holds",
        value_of(&R::decode_kv_tokens)},
       {"horizon_s", "the first arrival to the last request's last token (s)",
        seconds_of(&R::horizon)},
       {"arrival_rate", "requests per second over the horizon", value_of(&R::arrival_rate)},
       {"mean_in_flight", "requests in flight, mean over the horizon",
        value_of(&R::mean_in_flight)},
       {"output_tokens_per_s", "output tokens per second", value_of(&R::output_tokens_per_s)},
       {"output_tokens_per_s_per_gpu", "output tokens per second and GPU",
        value_of(&R::output_tokens_per_s_per_gpu)},
       {"output_tokens_per_s_per_node", "output tokens per second and node",
        value_of(&R::output_tokens_per_s_per_node)},
       {"prompt_tokens_per_s", "prompt tokens per second", value_of(&R::prompt_tokens_per_s)},
       {"mean_decode_batch", "requests per decode step, mean", value_of(&R::mean_decode_batch)},
       {"waited_for_kv", "requests that waited for decode KV-cache room or a slot",
        value_of(&R::waited_for_kv)},
       {"slo_attainment", "share of requests meeting both SLO targets",
        value_of(&R::slo_attainment)},
       {"goodput", "requests per second meeting both SLO targets", value_of(&R::goodput)}},
      report::serve_json);
}

void bind_campaign(py::module_& m) {
  using R = metrics::CampaignResult;
  bind_figures<R>(
      m, "CampaignResult",
      "A training run (codesim campaign) under failures and checkpoints. Its scalar figures are "
      "typed attributes (each documented); the JSON report's other keys (days, gpu_hours, "
      "interruptions, degradations, cost_usd, energy_mwh with p10/p50/p90/mean/expected, "
      "checkpoint, ettr, causes) read as attributes too, `to_dict()` gives the whole report.",
      {{"step_time_s", "the healthy step (s; with variability the mean drawn step)",
        seconds_of(&R::step_time)},
       {"degraded_step_time_s",
        "the step with a plane failed (s); 0 where the fabric cannot "
        "route around it",
        seconds_of(&R::degraded_step_time)},
       {"fidelity", "the steps' simulation tier, 'full' or 'fast'",
        [](const R& r) { return py::object(py::str(metrics::fidelity_name(r.fidelity))); }},
       {"gpus", "GPUs of the job", value_of(&R::gpus)},
       {"nodes", "nodes of the job", value_of(&R::nodes)},
       {"tokens", "tokens to train", value_of(&R::tokens)},
       {"steps", "steps to train", value_of(&R::steps)},
       {"mean_restart_s", "a restart after a failure, mean (s)", seconds_of(&R::mean_restart)},
       {"mtbf_hours", "hours between failures that stop the job", value_of(&R::mtbf_hours)},
       {"trials", "Monte-Carlo runs", value_of(&R::trials)},
       {"ettr_mean", "effective training time ratio, mean over the runs", value_of(&R::ettr_mean)},
       {"ettr_expected", "effective training time ratio, the analytic expectation",
        value_of(&R::ettr_expected)},
       {"checkpoints", "checkpoints written, mean over the runs", value_of(&R::checkpoints)}},
      report::campaign_json);
}

}  // namespace

py::dict frame_row(const report::Frame& f, std::size_t i) {
  py::dict out;
  for (std::size_t k = 0; k < f.columns.size(); ++k) {
    out[py::str(f.columns[k])] = cell_object(f.rows.at(i)[k]);
  }
  return out;
}

py::dict frame_object(const report::Frame& f) {
  py::list rows;
  for (const auto& row : f.rows) {
    py::list cells;
    for (const report::Cell& c : row) {
      cells.append(cell_object(c));
    }
    rows.append(cells);
  }
  py::dict out;
  out["columns"] = f.columns;
  out["rows"] = rows;
  return out;
}

void bind_results(py::module_& m) {
  bind_serve(m);
  bind_campaign(m);
  py::class_<metrics::RunResult> training(
      m, "TrainingResult",
      "A simulated training step. Its figures are attributes named as the columns of the CLI's "
      "CSV (units in the names: step_time_s, memory_gb_per_gpu; each documented); `row()` gives "
      "them as a dict, `to_dict()` the whole JSON report, whose other keys (breakdown_s, "
      "exposed_comm_s, busiest_links, link_tiers, energy, placement, network, variability) read "
      "as attributes too.");
  add_columns(training, report::step_columns(), report::run_frame, report::run_json);
  training.def_property_readonly(
      "fidelity", [](const metrics::RunResult& r) { return metrics::fidelity_name(r.fidelity); },
      "'full' (replayed on SimGrid) or 'fast' (critical path)");

  py::class_<metrics::InferenceResult> inference(
      m, "InferenceResult",
      "A simulated prefill or decode step. Its figures are attributes named as the columns of the "
      "CLI's CSV (tpot_ms, tokens_per_s_per_gpu, ...; each documented); `row()` gives them as a "
      "dict, `to_dict()` the whole JSON report, whose other keys (per_layer_us, "
      "memory_gb_per_gpu, energy, ...) read as attributes too.");
  add_columns(inference, report::inference_columns(), report::inference_frame,
              report::inference_json);
  inference.def_property_readonly(
      "phase",
      [](const metrics::InferenceResult& r) { return metrics::inference_phase_name(r.phase); },
      "'prefill' or 'decode'");
  inference.def_property_readonly(
      "mode",
      [](const metrics::InferenceResult& r) { return metrics::inference_mode_name(r.mode); },
      "'model' (simulated) or 'bound' (the ISCA paper's bound)");
  inference.def_property_readonly(
      "bound_by", [](const metrics::InferenceResult& r) { return r.bound_by; },
      "what limits the step, in words");
}

}  // namespace codesim::python
