// Result classes: one property per column of the study's schema, the report as a dict, and the
// report's other keys (breakdown_s, busiest_links, energy, ...) read through it.
#include "sim/python/results.hpp"

#include <pybind11/stl.h>

#include <string>

#include "sim/report/columns.hpp"
#include "sim/report/inference_report.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/run_report.hpp"

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

// What a result class shares: its columns as properties, row(), to_dict(), the report's other
// keys as attributes, and a repr of its headline figures.
template <class Result, class Columns, class MakeFrame, class Report>
void add_common(py::class_<Result>& cls, const Columns& columns, MakeFrame frame, Report report) {
  for (const auto& c : columns) {
    cls.def_property_readonly(
        c.name.c_str(), [value = c.value](const Result& r) { return value(r); }, c.label.c_str());
  }
  cls.def_property_readonly(
      "scenario", [](const Result& r) { return r.scenario; }, "the scenario's name");
  cls.def_property_readonly(
      "notes", [](const Result& r) { return json_object(report::notes_json(r.notes)); },
      "what the models folded, fitted, assumed, estimated or left out: [{kind, text}, ...]");
  cls.def(
      "row", [frame](const Result& r) { return frame_row(frame(r), 0); },
      "the result's row of the CLI's CSV (its columns: a DataFrame's), as a dict");
  cls.def(
      "to_dict", [report](const Result& r) { return json_object(report(r)); },
      "the JSON report (`codesim run --format json`) as a dict");
  cls.def(
      "__getattr__",
      [report](const Result& r, const std::string& key) -> py::object {
        const auto j = report(r);
        if (!j.contains(key)) {
          throw py::attribute_error("no figure '" + key + "' in the report");
        }
        return json_object(j.at(key));
      },
      "the report's other keys (to_dict()'s) as attributes");
  // TrainingResult(scenario='small-step', step_time_s=1.234): the first column.
  const std::string name = py::str(cls.attr("__name__"));
  cls.def("__repr__", [name, first = columns.front()](const Result& r) {
    return name + "(scenario=" + std::string(py::repr(py::str(r.scenario))) + ", " + first.name +
           "=" + std::string(py::repr(py::float_(first.value(r)))) + ")";
  });
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
  py::class_<metrics::RunResult> training(
      m, "TrainingResult",
      "A simulated training step. Its figures are attributes named as the columns of the CLI's "
      "CSV (units in the names: step_time_s, memory_gb_per_gpu; each documented); `row()` gives "
      "them as a dict, `to_dict()` the whole JSON report, whose other keys (breakdown_s, "
      "exposed_comm_s, busiest_links, link_tiers, energy, placement, network, variability) read "
      "as attributes too.");
  add_common(training, report::step_columns(), report::run_frame, report::run_json);
  training.def_property_readonly(
      "fidelity", [](const metrics::RunResult& r) { return metrics::fidelity_name(r.fidelity); },
      "'full' (replayed on SimGrid) or 'fast' (critical path)");

  py::class_<metrics::InferenceResult> inference(
      m, "InferenceResult",
      "A simulated prefill or decode step. Its figures are attributes named as the columns of the "
      "CLI's CSV (tpot_ms, tokens_per_s_per_gpu, ...; each documented); `row()` gives them as a "
      "dict, `to_dict()` the whole JSON report, whose other keys (per_layer_us, "
      "memory_gb_per_gpu, energy, ...) read as attributes too.");
  add_common(inference, report::inference_columns(), report::inference_frame,
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
