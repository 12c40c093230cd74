// Scenario -> step program (schedule, placement, calibrated pieces) -> routing plans (reference
// gate) -> SimGrid replay -> RunResult with the notes of every model that made it.
#include "sim/study/training.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "sim/comm/replayed_step.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/topology_from.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/stopwatch.hpp"
#include "sim/core/text.hpp"
#include "sim/engine/step_replay.hpp"
#include "sim/fast/fast_replay.hpp"
#include "sim/metrics/step_energy.hpp"
#include "sim/metrics/step_metrics.hpp"
#include "sim/study/scenario_inputs.hpp"
#include "sim/study/step_routing.hpp"
#include "sim/study/step_shape.hpp"
#include "sim/study/training_tracks.hpp"
#include "sim/variability/step_spread.hpp"
#include "sim/workload/chrome_export.hpp"
#include "sim/workload/optimizer_update.hpp"
#include "sim/workload/piece_costs.hpp"
#include "sim/workload/step_power.hpp"
#include "topologies/properties.hpp"

namespace codesim::study {
namespace {

using config::Scenario;

// The scenario's compute model: its software stack, launched with or without CUDA graphs.
workload::PieceModel compute_model(const Scenario& s) {
  return workload::stack_profile(s.software.stack, {.cuda_graphs = s.software.cuda_graphs});
}

workload::StepProgram step_program(const Scenario& s, const workload::StepShape& shape,
                                   std::vector<double> busiest_expert_rows,
                                   std::vector<double> stage_clock = {}) {
  const auto& pa = s.parallelism;
  if (pa.cp > 1 && s.workload.seq_len % (2 * pa.cp) != 0) {
    config::scenario_error(
        s, "parallelism.cp",
        "context parallelism cuts each sequence into 2 x cp = " + std::to_string(2 * pa.cp) +
            " chunks; " + std::to_string(s.workload.seq_len) + " tokens do not divide",
        "use a cp for which 2 x cp divides workload.seq_len");
  }
  if (pa.tp > 1 && s.hardware.spec.gpus_per_node % pa.tp != 0) {
    config::scenario_error(s, "parallelism.tp",
                           "a TP group of " + std::to_string(pa.tp) + " GPUs does not fit in " +
                               std::to_string(s.hardware.spec.gpus_per_node) + "-GPU nodes",
                           "use a tp that divides hardware.gpus_per_node");
  }
  const workload::StepSpec spec{.model = &s.model.spec,
                                .gpu = s.hardware.spec.gpu,
                                .pieces = compute_model(s),
                                .method = s.schedule.method,
                                .shape = shape,
                                .busiest_expert_rows = std::move(busiest_expert_rows),
                                .fp8_gemm = s.workload.precision.gemm == config::GemmPrecision::fp8,
                                .comm_sms = s.hardware.comm_sms,
                                .optimizer = s.software.optimizer,
                                .stage_clock = std::move(stage_clock)};
  try {
    return workload::build_step_program(spec);
  } catch (const core::KeyedError& e) {
    config::scenario_error(s, e);
  }
}

// Parameters, gradients and optimizer state must fit before anything is simulated; the step must
// fit the task budget.
void check_fit(const Scenario& s, const workload::StepProgram& program,
               const metrics::StepFacts& facts, const Budget& budget) {
  const metrics::MemoryUse memory = metrics::memory_use(program, facts);
  if (memory.fixed() > memory.capacity) {
    config::scenario_error(
        s, "hardware.hbm_capacity",
        "the scenario does not fit: parameters, gradients and optimizer state need " +
            core::fixed(memory.fixed().value / 1e9, 1) +
            " GB per GPU of the first pipeline rank, more than its " +
            core::fixed(memory.capacity.value / 1e9, 0) + " GB",
        "raise parallelism.pp or parallelism.ep, or use GPUs with more memory");
  }
  if (static_cast<long long>(program.tasks.size()) > budget.max_tasks) {
    config::scenario_error(s, "workload.global_batch_sequences",
                           "the step has " + std::to_string(program.tasks.size()) +
                               " tasks to simulate, over the budget of " +
                               std::to_string(budget.max_tasks),
                           "fewer micro-batches per step or more pipeline stages shorten it; or "
                           "raise --max-tasks");
  }
}

comm::StepNetwork step_network(const Scenario& s, const workload::StepShape& shape) {
  return {.shape = shape,
          .mode = s.routing.dispatch,
          .payload = ep_payload_of(s),
          .plan_tokens_per_gpu = s.routing.sample_tokens,
          .ep_sender_cap = s.hardware.sm_copy_rate * s.hardware.comm_sms,
          .ep_sms = s.hardware.comm_sms,
          .ep_rates = training_ep_rates(s)};
}

// The program replayed by the tier asked for (the fast one needs only the routes; the full one
// builds the SimGrid platform), with the replay's counts in `bench`. The fast tier takes `router`
// (its routes cached by the power governor's replay when there was one) and `at_top`, the
// governor's timeline when it held no clock down: the program's fast replay already. The
// replay's time goes to bench.simulation.
metrics::ReplayedStep replay(const topologies::Topology& topology, topologies::Spread spread,
                             const std::optional<topologies::TrafficRouter>& router,
                             std::optional<comm::StepTimeline> at_top,
                             const workload::StepProgram& program, const comm::StepNetwork& network,
                             metrics::Fidelity fidelity, TrainingBench& bench,
                             comm::StepTimeline& timeline) {
  const auto start = std::chrono::steady_clock::now();
  metrics::ReplayedStep out;
  if (fidelity == metrics::Fidelity::fast) {
    bench.switch_classes = router->distances().classes();
    bench.switches = router->distances().switches();
    timeline = at_top ? std::move(*at_top)
                      : codesim::fast::replay_step_analytic(*router, program, network);
    out = comm::replayed_step(timeline, *router, network.shape.ep);
  } else {
    engine::Platform platform(topology, spread);
    timeline = engine::replay_step(platform, program, network);
    const auto counts = platform.counts();
    bench.solo = counts.solo;
    bench.interrupted = counts.interrupted;
    bench.solved = counts.solved;
    bench.bounds = counts.bounds;
    bench.bounds_kept = counts.bounds_kept;
    bench.switch_classes = platform.router().distances().classes();
    bench.switches = platform.router().distances().switches();
    out = comm::replayed_step(timeline, platform.router(), network.shape.ep);
  }
  bench.simulation = core::Seconds(core::seconds_since(start));
  bench.tasks = static_cast<long long>(program.tasks.size());
  bench.transfers = static_cast<long long>(timeline.transfers.size());
  return out;
}

// How the optimizer's update was priced, from the scenario's precision and software.optimizer.
core::Note optimizer_note(const Scenario& s) {
  const workload::TrainingPrecision p = training_shape(s).precision;
  const workload::OptimizerTraffic t = workload::adamw_traffic(s.software.optimizer, p);
  return {core::NoteKind::fitted,
          "optimizer: AdamW as " + std::string(config::enum_name(s.software.optimizer)) +
              " kernels, " + core::fixed(t.bytes_per_param, 0) + " bytes per parameter in " +
              std::to_string(t.passes) + (t.passes == 1 ? " pass" : " passes") + " (" +
              (p.master_weights ? "FP32 master weights, " : "no master weights, ") +
              (p.gradient_bytes == 4 ? "FP32" : "BF16") + " gradients, " +
              (p.moment_bytes == 4 ? "FP32" : "BF16") +
              " moments), at the rates fitted to H200 AdamW runs "
              "(models/calibration/h200/steps/fit_step_extras.json)"};
}

// What every model that made the run assumed, in the report's order: the replay's folding first,
// then the compute model's fits, the replay's other notes, the routing, the activation estimate,
// the tier, and a warning when the step's peak memory does not fit.
void add_notes(metrics::RunResult& r, const Scenario& s, const workload::StepProgram& program,
               const comm::StepNetwork& network, const std::vector<core::Note>& routing_notes) {
  r.notes = comm::replay_notes(program, network);
  const auto compute_notes = workload::piece_model_notes(compute_model(s), s.hardware.spec.gpu);
  r.notes.insert(r.notes.begin() + 1, compute_notes.begin(), compute_notes.end());
  r.notes.push_back(optimizer_note(s));
  if (const double bytes =
          workload::gradient_accumulation_bytes(training_shape(s), s.software.stack);
      bytes > 0) {
    r.notes.push_back(
        {core::NoteKind::assumed,
         "gradient accumulation: each micro-batch adds its weight gradients into the step's "
         "buffer, " +
             core::fixed(bytes, 0) +
             " bytes per weight element at the elementwise rate (the new BF16 gradient read, the "
             "buffer read and written, as Megatron-LM's main_grad and autograd's .grad add them; "
             "not measured: docs/model/software-stacks.md)"});
  }
  if (r.energy) {
    const auto power = workload::power_notes(s.hardware.spec.gpu.power, s.hardware.facility);
    r.notes.insert(r.notes.end(), power.begin(), power.end());
  }
  r.notes.insert(r.notes.end(), routing_notes.begin(), routing_notes.end());
  r.notes.push_back(metrics::activation_note(s.software.stack));
  if (r.fidelity == metrics::Fidelity::fast) {
    r.notes.push_back({core::NoteKind::method,
                       "fast tier: the step's critical path with each transfer timed alone on "
                       "its bottleneck link (no SimGrid, no link sharing between concurrent "
                       "transfers; a link above 100% while in flight is that left-out "
                       "contention)"});
  }
  if (!r.memory.fits()) {
    const core::Bytes over = r.memory.needed() - r.memory.capacity;
    r.notes.push_back(
        {core::NoteKind::warning,
         "the first rank needs " + core::fixed(r.memory.needed().value / 1e9, 1) + " GB of its " +
             core::fixed(r.memory.capacity.value / 1e9, 0) + " GB: over by " +
             core::fixed(over.value / 1e9, 1) + " GB, its activations " +
             core::fixed(r.memory.activations.value / 1e9, 1) +
             " GB at their peak (workload.recompute: full keeps only the layers' inputs)"});
  }
}

// Every replica replayed at its drawn pace for the scenario's steps: step_time becomes their
// mean, the throughput figures follow it, and a note says what was drawn.
void spread_step(metrics::RunResult& r, const Scenario& s, const workload::StepProgram& program,
                 const comm::StepTimeline& timeline, const metrics::StepFacts& facts) {
  try {
    r.spread = variability::spread_steps(program, timeline, facts.shape,
                                         s.hardware.spec.gpus_per_node, s.variability);
  } catch (const core::KeyedError& e) {
    config::scenario_error(s, e);
  }
  r.step_time = r.spread->mean;
  r.breakdown = r.spread->breakdown;
  metrics::throughput(r, facts);
  const auto& v = s.variability;
  const metrics::StepSpread& sp = *r.spread;
  r.notes.push_back(
      {core::NoteKind::method,
       "variability: " + std::to_string(sp.steps) + " steps drawn (seed " + std::to_string(v.seed) +
           "), each replaying " +
           (sp.units_replayed == sp.units
                ? "every one of the " + std::to_string(sp.gpus) + " GPUs"
                : std::to_string(sp.units_replayed) + " of " + std::to_string(sp.units) +
                      " units per rank, the slowest by their draws (order statistics)") +
           " at its drawn pace, each synchronization waiting for its slowest member; the "
           "identical-replica step is " +
           core::fixed(sp.identical.value * 1e3, 1) +
           " ms; the breakdown is the first rank's GPU's in the drawn steps (their weighted mean), "
           "its exposed communication and links the identical step's"});
  r.notes.push_back(
      {core::NoteKind::fitted,
       "each GPU's compute x its pace, a lognormal of mean 1 and cv " +
           core::format_number(v.gpu_cv) +
           (v.cv_by_duty ? " x its share at the GPU's busy fraction of the step (0.54 at 80%, "
                           "0.11 at 50%, measured on an H200 with idle gaps)"
                         : std::string()) +
           " drawn anew every " +
           (v.gpu_pace_interval.value > 0
                ? core::format_number(v.gpu_pace_interval.value * 1e3) + " ms"
                : std::string("step")) +
           " (the defaults, 0.045 every 20 ms, fitted to an H200's run-to-run spread at its power "
           "cap: models/calibration/h200/variability; carried over to this scenario's GPU)"});
  r.notes.push_back(
      {core::NoteKind::assumed,
       "per step, each NIC's transfers x a lognormal of mean 1 and cv " +
           core::format_number(v.nic_cv) + "; fail-slow GPUs " +
           core::format_number(v.gpu_slow.per_1000_part_days) + " and links " +
           core::format_number(v.link_slow.per_1000_part_days) + " per 1,000 part-days lasting " +
           core::fixed(v.gpu_slow.duration.value / 3600, 1) + " and " +
           core::fixed(v.link_slow.duration.value / 3600, 1) + " h, at " +
           core::format_number(v.gpu_slow.slowdown) + "x and " +
           core::format_number(v.link_slow.slowdown) + "x the time (" +
           core::fixed(sp.slow_gpus, 2) + " GPUs and " + core::fixed(sp.slow_links, 2) +
           " links slow per step on average); docs/model/variability.md"});
  r.notes.push_back({core::NoteKind::omitted,
                     "variability: the replicas' transfers keep the folded replica's times "
                     "(contention between replicas' traffic is not re-simulated); draws are "
                     "independent between steps"});
}

// The power governor's outcome: each rank's clock (a fraction of the top one), the program priced
// again at the governed clocks where the limit held one down, else the step's timeline at the top
// clock (the fast tier's, the program unchanged).
struct Governed {
  std::vector<double> clocks;
  std::optional<workload::StepProgram> program;
  std::optional<comm::StepTimeline> at_top;
};

// The power governor: each rank's clock over the step as the fast tier times it at the top
// clock (SimGrid runs once per process); where the limit holds a clock down, the step is
// priced again at the governed clocks. `router` is needed where the GPU has a power limit.
Governed govern(const Scenario& s, const workload::StepShape& shape,
                const std::vector<double>& routing_rows, const workload::StepProgram& program,
                const std::optional<topologies::TrafficRouter>& router,
                const comm::StepNetwork& network) {
  const hardware::PowerSpec& power = s.hardware.spec.gpu.power;
  Governed g{.clocks = std::vector<double>(program.rank_work.size(), 1.0)};
  if (power.limit_w <= 0) {
    return g;  // no power model: every rank at the top clock
  }
  comm::StepTimeline at_top = codesim::fast::replay_step_analytic(*router, program, network);
  core::Seconds step(0);
  std::vector<workload::ComputeSpan> spans;
  for (std::size_t i = 0; i < at_top.tasks.size(); ++i) {
    step = std::max(step, at_top.tasks[i].end);
    const workload::StepTask& task = program.tasks[i];
    if (task.stream == workload::StepStream::compute && !task.comm) {
      spans.push_back({task.rank, at_top.tasks[i].start, at_top.tasks[i].end});
    }
  }
  const workload::StepPower governed = workload::govern_step(
      program.rank_work, workload::short_gaps(spans, shape.pp, step, core::Seconds(power.window_s)),
      program.schedule, power, s.software.stack == workload::SoftwareStack::deepseek);
  if (!governed.power_bound) {
    g.at_top = std::move(at_top);
    return g;
  }
  g.program = step_program(s, shape, routing_rows, governed.stage_clock);
  for (std::size_t i = 0; i < g.clocks.size(); ++i) {
    g.clocks[i] = governed.ranks[i].ratio;
  }
  return g;
}

// Whether every transfer detours through routers of its own choosing (the full tier then shares
// links among all of them at once).
bool spreads_everywhere(topologies::Spread spread) {
  return spread == topologies::Spread::valiant || spread == topologies::Spread::ugal;
}
constexpr const char* kDetourWarning =
    "a detour through every router puts the step's transfers on shared links all at once: the "
    "full tier can take tens of minutes at thousands of GPUs (--fidelity fast: seconds)";

// The process's memory now and at its peak so far, for the bench's phases.
TrainingBench::PhaseMemory phase_memory() {
  return {core::resident_mb(), core::peak_resident_mb()};
}

// A line of progress, where the caller asked for them.
void say(const TrainingOptions& options, const std::string& line) {
  if (options.progress) {
    options.progress(line);
  }
}

// What the memory and throughput figures take from the scenario.
metrics::StepFacts step_facts(const Scenario& s, const workload::StepShape& shape) {
  return {.model = &s.model.spec,
          .gpu = s.hardware.spec.gpu,
          .shape = shape,
          .stack = s.software.stack,
          .optimizer = s.software.optimizer,
          .ep_buffers = ep_buffers_of(s, shape.tokens_per_gpu())};
}

// What run_training hands step_result.
struct Replayed {
  const workload::StepProgram& program;
  const metrics::ReplayedStep& replayed;
  const metrics::StepFacts& facts;
  const topologies::Topology& topology;
  const comm::StepNetwork& network;
  const std::vector<double>& clocks;  // each rank's, a fraction of the top clock
  const std::vector<core::Note>& routing_notes;
};

// The step's report from its replay: the measured figures, the energy and the clock and power
// tracks where the GPU has a power limit, the stages' placement and every model's notes.
metrics::RunResult step_result(const Scenario& s, const Replayed& in, metrics::Fidelity fidelity) {
  metrics::RunResult r = metrics::measure_step(in.program, in.replayed, in.facts);
  r.scenario = s.name;
  r.fidelity = fidelity;
  r.network = network_use(s, in.topology);
  const hardware::PowerSpec& power = s.hardware.spec.gpu.power;
  if (power.limit_w > 0) {
    r.energy = job_step_energy(s, in.program.rank_work, in.clocks, r.step_time, r.network,
                               r.tokens_per_step);
    power_lanes(r, in.program, in.clocks, power);
  }
  for (const auto& st : in.program.placement) {
    r.placement.push_back(workload::describe(st));
  }
  add_notes(r, s, in.program, in.network, in.routing_notes);
  return r;
}

}  // namespace

TrainingRun run_training(const Scenario& s, const TrainingOptions& options) {
  TrainingRun run;
  const auto start = std::chrono::steady_clock::now();
  const workload::StepShape shape = training_shape(s);
  const metrics::StepFacts facts = step_facts(s, shape);
  // Balanced routing first: a scenario that does not fit is refused before anything is routed.
  check_fit(s, step_program(s, shape, {}), facts, options.budget);
  run.bench.program = core::Seconds(core::seconds_since(start));
  auto& memory = run.bench.memory;
  memory.check = phase_memory();

  comm::StepNetwork network = step_network(s, shape);
  const topologies::Topology topology = config::build_topology(s);
  memory.topology = phase_memory();
  const bool fast = options.fidelity == metrics::Fidelity::fast;
  if (!fast) {
    check_platform_budget(s, topology, options.budget);  // the fast tier builds no platform
  }
  say(options, "routing " + std::to_string(shape.ep > 1 ? s.routing.plans : 0) +
                   " micro-batches through the reference gate...");
  const topologies::Spread spread = config::path_spread(s);
  if (!fast && spreads_everywhere(spread)) {
    say(options, kDetourWarning);
  }
  const auto routing_start = std::chrono::steady_clock::now();
  Routing routing = route_step(s, shape, options.routing_cache);
  network.plans = std::move(routing.plans);
  run.bench.routing = core::Seconds(core::seconds_since(routing_start));
  memory.routing = phase_memory();
  // The experts' GEMMs at the busiest GPU's rows (which moves layers between stages a little).
  const std::vector<double> routing_rows = std::move(routing.busiest_rows);
  workload::StepProgram program = step_program(s, shape, routing_rows);
  check_fit(s, program, facts, options.budget);
  memory.program = phase_memory();

  const bool limited = s.hardware.spec.gpu.power.limit_w > 0;
  // One router for the governor's fast replay and the fast tier's: the routes it caches serve both
  // (the full tier routes on its platform).
  std::optional<topologies::TrafficRouter> router;
  if (fast || limited) {
    router.emplace(topology, spread);
  }
  const auto governor_start = std::chrono::steady_clock::now();
  Governed governed = govern(s, shape, routing_rows, program, router, network);
  if (governed.program) {
    program = std::move(*governed.program);
  }
  if (limited) {
    memory.governor = phase_memory();
  }
  run.bench.governor = core::Seconds(core::seconds_since(governor_start));
  say(options, "simulating " + std::to_string(program.tasks.size()) + " tasks of " +
                   std::to_string(s.parallelism.pp) + " pipeline ranks " +
                   (fast ? "on their critical path (fast tier)..." : "on SimGrid..."));
  comm::StepTimeline timeline;
  const metrics::ReplayedStep replayed =
      replay(topology, spread, router, std::move(governed.at_top), program, network,
             options.fidelity, run.bench, timeline);
  memory.simulation = phase_memory();

  metrics::RunResult& r = run.result;
  r = step_result(s, {program, replayed, facts, topology, network, governed.clocks, routing.notes},
                  options.fidelity);
  if (s.variability.enabled) {
    say(options, "replaying every replica for " + std::to_string(s.variability.steps) +
                     " steps of drawn variability...");
    const auto spread_start = std::chrono::steady_clock::now();
    spread_step(r, s, program, timeline, facts);
    run.bench.variability = core::Seconds(core::seconds_since(spread_start));
    memory.variability = phase_memory();
  }
  if (options.keep_trace) {
    keep_trace(run, program, timeline);
  }
  return run;
}

metrics::RunResult simulate_training(const Scenario& s, const Budget& budget) {
  return run_training(s, {.budget = budget}).result;
}

}  // namespace codesim::study
