#include "sim/variability/step_spread.hpp"

#include <algorithm>
#include <numeric>

#include "sim/core/statistics.hpp"
#include "sim/variability/replica_replay.hpp"

namespace codesim::variability {

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
  SpeedDraws draws(spec, out.gpus);
  ReplayScratch scratch;
  for (int s = 0; s < spec.steps; ++s) {
    const StepDraw d = draws.next();
    const std::vector<int> units = choose_units(p, d, spec.simulated_units);
    out.units_replayed = static_cast<int>(units.size());
    out.step_times_s.push_back(replay_step(p, d, units, scratch));
    out.slow_gpus += d.slow_gpus;
    out.slow_links += d.slow_links;
  }
  const auto n = static_cast<double>(spec.steps);
  out.steps = spec.steps;
  out.slow_gpus /= n;
  out.slow_links /= n;
  std::vector<double> sorted = out.step_times_s;
  std::sort(sorted.begin(), sorted.end());
  out.mean = core::Seconds(std::accumulate(sorted.begin(), sorted.end(), 0.0) / n);
  out.p10 = core::Seconds(core::nearest_rank(sorted, 0.10));
  out.p50 = core::Seconds(core::nearest_rank(sorted, 0.50));
  out.p90 = core::Seconds(core::nearest_rank(sorted, 0.90));
  return out;
}

}  // namespace codesim::variability
