// Training studies: one step of a scenario, synthesized from its model, parallelism and schedule,
// routed by the reference gate and replayed on the SimGrid platform.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/kernels/batch_routing.hpp"
#include "sim/config/scenario.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/study/budget.hpp"
#include "sim/workload/chrome_export.hpp"
#include "sim/workload/step_trace.hpp"
#include "sim/workload/timeline.hpp"

namespace codesim::study {

// Where the time of a study went (codesim run --bench).
struct TrainingBench {
  core::Seconds program;      // building the step program
  core::Seconds routing;      // the reference gate's routing plans
  core::Seconds governor;     // the power governor: a fast replay at the top clock, re-pricing
  core::Seconds simulation;   // platform and replay on SimGrid
  core::Seconds variability;  // every replica's drawn steps (variability on)
  long long tasks = 0;
  long long transfers = 0;  // distinct transfers routed
  // Transfer runs that stayed out of SimGrid's solver, entered it when another began on their
  // links, or ran in it throughout (engine::Platform::Counts; 0 in the fast tier).
  long long solo = 0;
  long long interrupted = 0;
  long long solved = 0;
  // The symmetry found: classes of twin switches (one distance table each) among the switches;
  // the link and GPU bounds of the transfers and those SimGrid solved (0 in the fast tier).
  int switch_classes = 0;
  int switches = 0;
  long long bounds = 0;
  long long bounds_kept = 0;
  // The process's memory at the end of each phase, in order (MB): what it holds then (the
  // structures kept), and its peak so far (what the phase's own work reached).
  struct PhaseMemory {
    double held_mb = 0;
    double peak_mb = 0;
  };
  struct Memory {
    PhaseMemory check;        // the balanced program that checks the fit
    PhaseMemory topology;     // the cluster's graph
    PhaseMemory routing;      // the reference gate's plans
    PhaseMemory program;      // the step program
    PhaseMemory governor;     // the power governor's fast replay at the top clock (a power model)
    PhaseMemory simulation;   // routes, flows and the replay (SimGrid's platform in full)
    PhaseMemory variability;  // every replica's drawn steps
  } memory;
};

struct TrainingRun {
  metrics::RunResult result;
  TrainingBench bench;
  // The step program as a trace and its simulated times (Chrome trace export); empty unless asked.
  workload::StepTrace trace;
  workload::Timeline timeline;
  std::vector<workload::PowerTrack> power;    // per rank, with a power model
  std::vector<workload::MemoryTrack> memory;  // per rank
};

// Routing plans already made, by everything that decides them (model gate, EP, node limit,
// tokens, skew, balance, seed, batches): a search routes each distinct setting once.
struct RoutingCache {
  std::map<std::string, std::vector<kernels::RoutedBatch>> batches;
};

struct TrainingOptions {
  Budget budget;
  metrics::Fidelity fidelity = metrics::Fidelity::full;
  RoutingCache* routing_cache = nullptr;  // optional; not owned
  bool keep_trace = false;
  // Told what the study is doing, before each long part (a terminal's progress line); may be
  // empty.
  std::function<void(const std::string&)> progress;
};

// Throws core::InputError (located at the scenario key) for a scenario the model cannot run or
// that exceeds the budget, core::SimulationError when the replay fails.
TrainingRun run_training(const config::Scenario& s, const TrainingOptions& options);

// The step's figures alone.
metrics::RunResult simulate_training(const config::Scenario& s, const Budget& budget = {});

}  // namespace codesim::study
