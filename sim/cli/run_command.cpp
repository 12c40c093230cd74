// `codesim run SCENARIO`: the simulator's main job. Loads the scenario, asks sim/study for the
// step (training, prefill or decode) and writes the report in the format asked for.
#include <functional>
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/network_flags.hpp"
#include "sim/cli/usage.hpp"
#include "sim/cli/write_report.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/frame.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/inference_report.hpp"
#include "sim/report/markdown.hpp"
#include "sim/report/run_report.hpp"
#include "sim/study/inference.hpp"
#include "sim/study/training.hpp"
#include "sim/workload/chrome_export.hpp"

namespace codesim::cli {
namespace {

using report::Format;

report::PageFooter footer(const config::Scenario& s) {
  return {config::to_yaml(s), "codesim " CODESIM_VERSION};
}

// The phases that ran, in order, by name.
std::vector<std::pair<std::string, study::TrainingBench::PhaseMemory>> phases_of(
    const study::TrainingBench::Memory& m) {
  std::vector<std::pair<std::string, study::TrainingBench::PhaseMemory>> p{
      {"check", m.check},
      {"topology", m.topology},
      {"routing", m.routing},
      {"program", m.program},
      {"governor", m.governor},
      {"simulation", m.simulation},
      {"variability", m.variability}};
  std::erase_if(p, [](const auto& phase) { return phase.second.peak_mb == 0; });  // not run
  return p;
}

nlohmann::ordered_json memory_json(const study::TrainingBench::Memory& m) {
  nlohmann::ordered_json j;
  for (const auto& [name, at] : phases_of(m)) {
    j[name] = {{"held", at.held_mb}, {"peak", at.peak_mb}};
  }
  return j;
}

nlohmann::ordered_json bench_json(const study::TrainingBench& b) {
  return {{"program_seconds", b.program.value},
          {"routing_seconds", b.routing.value},
          {"governor_seconds", b.governor.value},
          {"simulation_seconds", b.simulation.value},
          {"variability_seconds", b.variability.value},
          {"tasks", b.tasks},
          {"transfers", b.transfers},
          {"transfer_runs",
           {{"solo", b.solo}, {"solo_then_solved", b.interrupted}, {"solved", b.solved}}},
          {"symmetry",
           {{"switches", b.switches},
            {"switch_classes", b.switch_classes},
            {"bounds", b.bounds},
            {"bounds_solved", b.bounds_kept}}},
          {"peak_rss_MB", core::peak_resident_mb()},
          {"memory_MB_by_phase", memory_json(b.memory)}};
}

// "check 60 / 66, topology 61 / 66, ...".
std::string memory_line(const study::TrainingBench::Memory& m) {
  std::string line;
  for (const auto& [name, at] : phases_of(m)) {
    line += (line.empty() ? "" : ", ") + name + " " + report::fixed(at.held_mb, 0) + " / " +
            report::fixed(at.peak_mb, 0);
  }
  return line;
}

std::string bench_line(const study::TrainingBench& b) {
  return "bench: program " + report::fixed(b.program.value, 2) + " s, routing " +
         report::fixed(b.routing.value, 2) + " s, power governor " +
         report::fixed(b.governor.value, 2) + " s, simulation " +
         report::fixed(b.simulation.value, 2) + " s (" + std::to_string(b.tasks) + " tasks, " +
         std::to_string(b.transfers) +
         " distinct transfers; transfer runs: " + std::to_string(b.solo) + " solo, " +
         std::to_string(b.interrupted) + " solo then solved, " + std::to_string(b.solved) +
         " solved), symmetry: " + std::to_string(b.switch_classes) + " classes of " +
         std::to_string(b.switches) + " switches, " + std::to_string(b.bounds_kept) + " of " +
         std::to_string(b.bounds) + " link and GPU bounds solved, " +
         (b.variability.value > 0
              ? "replicas at drawn paces " + report::fixed(b.variability.value, 2) + " s, "
              : std::string()) +
         "peak memory " + report::fixed(core::peak_resident_mb(), 0) +
         " MB; held / peak MB after each phase: " + memory_line(b.memory) + "\n";
}

}  // namespace

void run_run(const RunOptions& o, std::ostream& out) {
  const config::Scenario s = config::load_scenario(o.scenario, config::parse_settings(o.settings));
  const study::Budget budget{.max_tasks = o.max_tasks,
                             .max_platform_memory = core::Bytes(o.max_memory_mb * 1e6)};
  if (s.workload.kind != config::WorkloadKind::train) {
    if (!o.chrome_trace.empty()) {
      throw_usage_error("run", "--chrome-trace is written for training steps only", "",
                        "--chrome-trace");
    }
    if (o.fidelity == metrics::Fidelity::fast) {
      throw_usage_error("run", "fast is for training steps only (prefill and decode have one tier)",
                        "", "--fidelity");
    }
    const metrics::InferenceResult r = study::simulate_inference(s, budget);
    write_report(report::inference_json(r),
                 {[&] { return report::frame_csv(report::inference_frame(r)); },
                  [&] { return report::inference_markdown(r); },
                  [&] { return report::inference_html(r, footer(s)); },
                  [&] { return report::inference_table(r); }},
                 o.format, o.report, out);
    return;
  }
  const study::TrainingRun run =
      study::run_training(s, {.budget = budget,
                              .fidelity = o.fidelity,
                              .keep_trace = !o.chrome_trace.empty(),
                              .progress = [](const std::string& line) { progress("run", line); }});
  const metrics::RunResult& r = run.result;
  auto j = report::run_json(r);
  if (o.bench) {
    j["bench"] = bench_json(run.bench);
  }
  write_report(
      j,
      {[&] { return report::frame_csv(report::run_frame(r)); },
       [&] { return report::run_markdown(r); }, [&] { return report::run_html(r, footer(s)); },
       [&] { return report::run_table(r) + (o.bench ? bench_line(run.bench) : ""); }},
      o.format, o.report, out);
  if (!o.chrome_trace.empty()) {
    report::write_file_atomically(
        o.chrome_trace,
        workload::chrome_trace(run.trace, run.timeline, run.power, run.memory).dump() + "\n");
  }
}

}  // namespace codesim::cli
