// `codesim run SCENARIO`: the simulator's main job. Scenario -> routing plan (reference gate) ->
// step program (schedule, placement, calibrated piece times) -> SimGrid replay -> report.
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <ostream>

#include "models/kernels/batch_routing.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/inference_run.hpp"
#include "sim/cli/network_flags.hpp"
#include "sim/cli/scenario_inputs.hpp"
#include "sim/cli/usage.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/topology_from.hpp"
#include "sim/core/error.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/engine/step_metrics.hpp"
#include "sim/engine/step_replay.hpp"
#include "sim/report/atomic_file.hpp"
#include "sim/report/csv.hpp"
#include "sim/report/format.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/markdown.hpp"
#include "sim/report/run_report.hpp"
#include "sim/workload/chrome_export.hpp"
#include "topologies/properties.hpp"

namespace codesim::cli {
namespace {

using config::Scenario;

workload::ScheduleMethod method_of(config::ScheduleMethod m) {
  switch (m) {
    case config::ScheduleMethod::one_f_one_b:
      return workload::ScheduleMethod::one_f_one_b;
    case config::ScheduleMethod::zb1p:
      return workload::ScheduleMethod::zb1p;
    case config::ScheduleMethod::dualpipe:
      return workload::ScheduleMethod::dualpipe;
    case config::ScheduleMethod::dualpipev:
      return workload::ScheduleMethod::dualpipev;
  }
  return workload::ScheduleMethod::one_f_one_b;
}

}  // namespace

void run_run(const RunOptions& o, std::ostream& out) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<config::Setting> settings;
  for (const auto& a : o.settings) {
    settings.push_back(config::parse_setting(a));
  }
  const Scenario s = config::load_scenario(o.scenario, settings);
  if (s.workload.kind != config::WorkloadKind::train) {
    run_inference(s, o, out);
    return;
  }
  if (s.parallelism.tp != 1) {
    scenario_error(s, "parallelism.tp", "tensor parallelism is not modelled yet", "use tp: 1");
  }
  const auto& pa = s.parallelism;
  const int tokens = s.workload.seq_len * s.schedule.micro_batch_sequences;
  const int per_step = s.workload.global_batch_sequences;
  const int micro_batches = per_step / (pa.dp * s.schedule.micro_batch_sequences);
  if (micro_batches * pa.dp * s.schedule.micro_batch_sequences != per_step) {
    scenario_error(s, "workload.global_batch_sequences",
                   "the global batch (" + std::to_string(per_step) +
                       ") must split into dp x micro-batch sequences = " +
                       std::to_string(pa.dp * s.schedule.micro_batch_sequences) + " per step");
  }
  const int ep = s.model.spec.moe ? pa.ep : 1;

  workload::StepSpec spec{.model = &s.model.spec,
                          .gpu = s.hardware.spec.gpu,
                          .pieces = workload::deepseek_profile(),
                          .method = method_of(s.schedule.method),
                          .pp = pa.pp,
                          .micro_batches = micro_batches,
                          .tokens = tokens,
                          .ep = ep,
                          .dp = pa.dp,
                          .fp8_gemm = s.workload.precision.gemm == config::GemmPrecision::fp8,
                          .comm_sms = s.hardware.comm_sms};
  workload::StepProgram program;
  try {
    program = workload::build_step_program(spec);
  } catch (const workload::ScheduleError& e) {
    scenario_error(s, "schedule.method", e.what());
  } catch (const std::invalid_argument& e) {
    scenario_error(s, "parallelism.pp", e.what());
  }
  const double program_seconds = core::seconds_since(start);
  const engine::StepFacts facts{.model = &s.model.spec,
                                .gpu = s.hardware.spec.gpu,
                                .gpus = s.gpus(),
                                .seq_len = s.workload.seq_len,
                                .sequences_per_step = static_cast<double>(per_step),
                                .tokens_per_micro_batch = tokens,
                                .dp = pa.dp,
                                .ep = ep,
                                .gpus_per_rank_in_ep = ep};
  const metrics::MemoryUse memory = engine::memory_use(program, facts);
  const double fixed_memory = memory.parameters_gb + memory.gradients_gb + memory.optimizer_gb;
  if (fixed_memory > memory.capacity_gb) {
    scenario_error(s, "hardware.hbm_capacity",
                   "the scenario does not fit: parameters, gradients and optimizer state need " +
                       report::fixed(fixed_memory, 1) +
                       " GB per GPU of the first pipeline rank, more than its " +
                       report::fixed(memory.capacity_gb, 0) + " GB",
                   "raise parallelism.pp or parallelism.ep, or use GPUs with more memory");
  }

  if (static_cast<long long>(program.tasks.size()) > o.max_tasks) {
    scenario_error(s, "workload.global_batch_sequences",
                   "the step has " + std::to_string(program.tasks.size()) +
                       " tasks to simulate, over the budget of " + std::to_string(o.max_tasks),
                   "fewer micro-batches per step or more pipeline stages shorten it; or raise "
                   "--max-tasks");
  }

  engine::StepNetwork network{.gpus_per_rank = s.gpus() / pa.pp,
                              .ep = ep,
                              .mode = ep_mode_of(s.routing.dispatch),
                              .payload = ep_payload_of(s),
                              .plan_tokens_per_gpu = s.routing.sample_tokens,
                              .tokens_per_gpu = tokens,
                              .ep_sender_cap = s.hardware.sm_copy_rate * s.hardware.comm_sms};
  const topologies::Topology topology = config::build_topology(s);
  check_platform_budget(s, topology, o.max_memory_mb);
  progress("run", "routing " + std::to_string(ep > 1 ? s.routing.plans : 0) +
                      " micro-batches through the reference gate...");
  const auto routing_start = std::chrono::steady_clock::now();
  if (ep > 1) {
    for (auto& batch : kernels::route_batches(routing_spec(s, s.routing.sample_tokens * ep, ep, 0),
                                              s.routing.plans)) {
      network.plans.push_back(std::move(batch.plan));
    }
  }
  const double routing_seconds = core::seconds_since(routing_start);

  progress("run", "simulating " + std::to_string(program.tasks.size()) + " tasks of " +
                      std::to_string(pa.pp) + " pipeline ranks on SimGrid...");
  const auto sim_start = std::chrono::steady_clock::now();
  engine::Platform platform(topology, config::path_spread(s));
  const engine::StepTimeline timeline = engine::replay_step(platform, program, network);
  const double simulation_seconds = core::seconds_since(sim_start);

  metrics::RunResult r = engine::measure_step(program, timeline, platform, facts);
  r.scenario = s.name;
  const auto net = topologies::measure(topology, s.topology.network, s.cost);
  r.network = {net.family, net.counts.endpoints, net.counts.switches, net.counts.switch_links,
               net.cost.total_usd()};
  for (const auto& st : program.placement) {
    r.placement.push_back(workload::describe(st));
  }
  r.notes.push_back("folded: one data-parallel replica's " + std::to_string(pa.pp) +
                    "-rank pipeline is simulated; its EP all-to-alls run over its EP group of " +
                    std::to_string(ep) + " GPUs, its DP collectives over all " +
                    std::to_string(s.gpus() / pa.pp) +
                    " replicas of each rank; the other replicas' identical traffic, on other "
                    "nodes and planes, is not");
  r.notes.push_back(
      "fitted: compute piece times use GEMM and attention efficiencies and other-kernel times "
      "fitted to DeepSeek's H800 profile trace (sim/workload/piece_model.hpp); the SM copy rate " +
      report::fixed(s.hardware.sm_copy_rate.value / 1e9, 1) + " GB/s is an assumption");
  r.notes.push_back("routing: " + std::to_string(s.routing.plans) +
                    " plans from the reference gate (one balanced bias, different tokens), each "
                    "over " +
                    std::to_string(s.routing.sample_tokens) +
                    " tokens per GPU with bytes scaled to " + std::to_string(tokens) +
                    "; layers and micro-batches take them in turn");
  r.notes.push_back(
      "estimate: activations at 34 x hidden bytes per token and layer (BF16, no "
      "recomputation), an upper bound for DeepSeek-V3");
  if (r.memory.total_gb() > r.memory.capacity_gb) {
    r.notes.push_back("memory: with the activation upper bound the first rank needs " +
                      report::fixed(r.memory.total_gb(), 1) + " GB of " +
                      report::fixed(r.memory.capacity_gb, 0) +
                      " GB; it fits only with recomputation or lower-precision activations");
  }
  if (!o.chrome_trace.empty()) {
    workload::Timeline tl;
    for (const auto& t : timeline.tasks) {
      tl.start_us.push_back(t.start.value * 1e6);
      tl.duration_us.push_back((t.end - t.start).value * 1e6);
    }
    report::write_file_atomically(
        o.chrome_trace, workload::chrome_trace(workload::to_step_trace(program), tl).dump() + "\n");
  }
  auto j = report::run_json(r);
  if (o.bench) {
    j["bench"] = {{"program_seconds", program_seconds},       {"routing_seconds", routing_seconds},
                  {"simulation_seconds", simulation_seconds}, {"tasks", program.tasks.size()},
                  {"transfers", timeline.transfers.size()},   {"peak_rss_MB", peak_rss_mb()}};
  }
  if (!o.report.empty()) {
    report::write_file_atomically(o.report, j.dump(2) + "\n");
  }
  if (o.format == "json") {
    out << j.dump(2) << "\n";
    return;
  }
  if (o.format == "csv") {
    out << report::run_csv(r);
    return;
  }
  if (o.format == "md") {
    out << report::run_markdown(r);
    return;
  }
  if (o.format == "html") {
    out << report::run_html(r, {config::to_yaml(s), "codesim " CODESIM_VERSION});
    return;
  }
  out << report::run_table(r);
  if (o.bench) {
    out << "bench: program " << report::fixed(program_seconds, 2) << " s, routing "
        << report::fixed(routing_seconds, 2) << " s, simulation "
        << report::fixed(simulation_seconds, 2) << " s (" << program.tasks.size() << " tasks, "
        << timeline.transfers.size() << " distinct transfers), peak memory "
        << report::fixed(peak_rss_mb(), 0) << " MB\n";
  }
}

}  // namespace codesim::cli
