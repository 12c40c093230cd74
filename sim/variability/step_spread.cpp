#include "sim/variability/step_spread.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/metrics/step_lanes.hpp"
#include "sim/variability/replica_replay.hpp"

namespace codesim::variability {
namespace {

// Each GPU's busy fraction of the identical-replica step: its rank's compute over the step.
std::vector<double> duty_per_gpu(const ReplicaProgram& p, core::Seconds step) {
  std::vector<double> busy(static_cast<std::size_t>(p.shape.pp), 0.0);
  for (const ReplicaTask& t : p.tasks) {
    if (t.compute) {
      busy.at(static_cast<std::size_t>(t.rank)) += t.own;
    }
  }
  const auto per_rank = static_cast<std::size_t>(p.shape.gpus_per_rank());
  std::vector<double> out;
  out.reserve(busy.size() * per_rank);
  for (double b : busy) {
    out.insert(out.end(), per_rank, step.value > 0 ? std::min(1.0, b / step.value) : 1.0);
  }
  return out;
}

}  // namespace

metrics::StepSpread spread_steps(const workload::StepProgram& program,
                                 const comm::StepTimeline& timeline,
                                 const workload::StepShape& shape, int gpus_per_node,
                                 const VariabilitySpec& spec) {
  const ReplicaProgram p = replica_program(program, timeline, shape, gpus_per_node);
  metrics::StepSpread out;
  for (const auto& t : timeline.tasks) {
    out.identical = std::max(out.identical, t.end);
  }
  out.units = unit_count(p);
  out.gpus = shape.pp * shape.gpus_per_rank();
  int wanted = spec.simulated_units;
  if (wanted == 0) {
    // Every unit where their end times fit the memory, else the slowest that fit.
    const double per_unit = static_cast<double>(p.tasks.size()) * p.unit_gpus * sizeof(double);
    const auto fit = static_cast<long long>(spec.replay_memory.value / per_unit);
    wanted = fit >= out.units ? 0 : static_cast<int>(std::max(1LL, fit));
  }
  // Paces for 1.5 x the identical-replica step: a step under the measured spread takes a few
  // percent longer, one with a slow GPU a third; past the horizon the last block's pace holds.
  SpeedDraws draws(spec, out.gpus, 1.5 * out.identical.value, duty_per_gpu(p, out.identical));
  ReplayScratch scratch;
  metrics::ReplayedStep first;  // the first replayed GPU of each rank: its tasks' spans
  std::vector<std::pair<double, double>> weighted;  // (step, weight)
  for (const SlowStratum& stratum : slow_strata(spec, out.gpus)) {
    const double weight = stratum.probability / stratum.steps;
    for (int s = 0; s < stratum.steps; ++s) {
      const StepDraw d = draws.next(stratum);
      const std::vector<int> units = choose_units(p, d, wanted);
      out.units_replayed = static_cast<int>(units.size());
      const double t = replay_step(p, d, units, scratch, &first.tasks);
      const metrics::Breakdown b = metrics::breakdown(
          metrics::pipeline_lanes(metrics::rank_activity(program, first)).front(),
          core::Seconds(t));
      out.breakdown.add(b, weight);
      out.step_times_s.push_back(t);
      out.step_weights.push_back(weight);
      weighted.emplace_back(t, weight);
      out.mean += core::Seconds(t * weight);
      out.slow_gpus += d.slow_gpus * weight;
      out.slow_links += d.slow_links * weight;
    }
  }
  out.steps = static_cast<int>(weighted.size());
  std::sort(weighted.begin(), weighted.end());
  const auto percentile = [&](double q) {
    double below = 0;
    for (const auto& [t, w] : weighted) {
      below += w;
      if (below >= q - 1e-12) {
        return core::Seconds(t);
      }
    }
    return core::Seconds(weighted.back().first);
  };
  out.p10 = percentile(0.10);
  out.p50 = percentile(0.50);
  out.p90 = percentile(0.90);
  return out;
}

}  // namespace codesim::variability
