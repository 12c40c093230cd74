// `codesim schedule`: build a pipeline schedule, time it with given chunk durations and no
// communication, and print its chart, bubble (against the published formula) and activations.
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/report/format.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"
#include "sim/workload/schedule_chart.hpp"
#include "sim/workload/schedule_timing.hpp"

namespace codesim::cli {
namespace {

using nlohmann::ordered_json;
using report::fixed;
using workload::ChunkKind;
using workload::ScheduleMethod;

ScheduleMethod method_of(const std::string& m) {
  for (const auto& [method, name] : workload::kScheduleMethodNames) {
    if (m == name) {
      return method;
    }
  }
  throw_usage_error("schedule", "unknown method '" + m + "'",
                    "one of: 1f1b, zb1p, dualpipe, dualpipev, interleaved-1f1b", "--method");
}

core::Seconds duration(const std::string& text, const std::string& flag) {
  try {
    return core::parse_as<core::Seconds>(text, core::Dimension::seconds);
  } catch (const core::UnitError& e) {
    throw_usage_error("schedule", e.what(),
                      std::string(core::unit_examples(core::Dimension::seconds)), flag);
  }
}

std::string_view kind_name(ChunkKind k) {
  switch (k) {
    case ChunkKind::forward:
      return "F";
    case ChunkKind::backward:
      return "B";
    case ChunkKind::backward_input:
      return "B_input";
    case ChunkKind::weight:
      return "W";
    case ChunkKind::forward_backward:
      return "F&B";
  }
  return "?";
}

ordered_json work_json(const workload::StageWork& w) {
  return {{"direction", w.direction}, {"stage", w.stage}, {"micro_batch", w.micro_batch}};
}

// Per rank: busy and idle time, peak activations in flight and every chunk with its times.
ordered_json ranks_json(const workload::PipelineSchedule& schedule,
                        const workload::ScheduleTiming& timing) {
  ordered_json ranks = ordered_json::array();
  for (int r = 0; r < schedule.ranks; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    ordered_json chunks = ordered_json::array();
    for (const auto& tc : timing.per_rank[ri]) {
      ordered_json c{{"kind", std::string(kind_name(tc.chunk.kind))},
                     {"label", workload::chunk_label(schedule, tc.chunk)}};
      c.update(work_json(tc.chunk.work));
      if (tc.chunk.kind == ChunkKind::forward_backward) {
        c["backward"] = work_json(tc.chunk.backward);
      }
      c["start_s"] = tc.start.value;
      c["end_s"] = tc.end.value;
      chunks.push_back(std::move(c));
    }
    ranks.push_back({{"rank", r},
                     {"busy_s", timing.busy[ri].value},
                     {"idle_s", timing.idle[ri].value},
                     {"peak_in_flight", timing.peak_in_flight[ri]},
                     {"chunks", std::move(chunks)}});
  }
  return ranks;
}

}  // namespace

void run_schedule(const ScheduleOptions& o, std::ostream& out) {
  const ScheduleMethod method = method_of(o.method);
  const workload::ChunkTimes times{duration(o.f, "--f"), duration(o.b, "--b"), duration(o.w, "--w"),
                                   duration(o.fb, "--fb")};
  if (o.width < 0) {
    throw_usage_error("schedule", "--width cannot be negative", "", "--width");
  }
  workload::PipelineSchedule schedule;
  workload::ScheduleTiming timing;
  try {
    schedule = workload::make_schedule(method, o.pp, o.chunks, o.virtual_stages);
    timing = workload::time_schedule(schedule, times);
  } catch (const workload::ScheduleError& e) {
    throw_usage_error("schedule", e.what());
  }
  const core::Seconds formula = workload::published_bubble(method, o.pp, times);
  const double f = times.forward.value;
  const bool exact = std::abs(times.weight.value - f) <= 1e-12 * f &&
                     std::abs(times.backward.value - 2 * f) <= 1e-12 * f &&
                     times.forward_backward >= times.backward &&
                     times.forward_backward.value <= f + times.backward.value;

  ordered_json j;
  j["schema_version"] = report::kSchemaVersion;
  j["method"] = std::string(workload::schedule_method_name(method));
  j["pp"] = o.pp;
  j["stages"] = schedule.stages;
  j["micro_batches"] = o.chunks;
  j["times_s"] = {{"F", times.forward.value},
                  {"B", times.backward.value},
                  {"W", times.weight.value},
                  {"F&B", times.forward_backward.value}};
  j["makespan_s"] = timing.makespan.value;
  j["bubble"] = timing.bubble.value;
  j["published_bubble"] = formula.value;
  j["formula_assumptions_hold"] = exact;
  j["ranks"] = ranks_json(schedule, timing);
  if (o.format == report::Format::json) {
    out << j.dump(2) << "\n";
    return;
  }
  const double scale = o.width > 0 ? o.width / timing.makespan.value : 4.0 / f;
  auto ms = [](core::Seconds s) { return fixed(s.value * 1e3, 3); };
  out << j["method"].get<std::string>() << ": " << o.pp << " ranks, " << schedule.stages
      << " stages, " << o.chunks << " micro-batches; F " << ms(times.forward) << " ms, B "
      << ms(times.backward) << " ms, W " << ms(times.weight) << " ms, F&B "
      << ms(times.forward_backward) << " ms\n";
  out << "step " << ms(timing.makespan) << " ms; bubble " << ms(timing.bubble)
      << " ms (largest idle time of a rank); published formula " << ms(formula) << " ms"
      << (exact ? "" : " (its assumptions F = W = B/2, B <= F&B <= F + B do not hold here)")
      << "\n\n";
  out << workload::schedule_chart(schedule, timing, scale);
  out << "  F<n> forward, B<n> backward, b<n> its input part, W<n> weight part, F<n>+B<m> "
         "overlapped pair, . idle\n\n";
  using Align = report::Table::Align;
  report::Table t({"rank", "busy (ms)", "idle (ms)", "peak activations in flight"},
                  {Align::right, Align::right, Align::right, Align::right});
  for (int r = 0; r < o.pp; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    t.add_row({std::to_string(r), ms(timing.busy[ri]), ms(timing.idle[ri]),
               std::to_string(timing.peak_in_flight[ri])});
  }
  out << t.render();
}

}  // namespace codesim::cli
