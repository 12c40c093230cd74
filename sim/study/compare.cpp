// Scenarios loaded up front; the compared figures of one run.
#include "sim/study/compare.hpp"

#include "sim/config/loader.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::study {

std::vector<config::Scenario> load_compared(const std::vector<std::string>& files) {
  std::vector<config::Scenario> out;
  for (const auto& f : files) {
    out.push_back(config::load_scenario(f));
    require_training(out.back(), "comparisons");  // before the next loads
  }
  return out;
}

metrics::ComparedScenario compared(const std::string& file, const metrics::RunResult& r) {
  const auto& n = r.network;
  return {.name = r.scenario,
          .file = file,
          .network = n,
          .cost_per_endpoint_usd =
              n.endpoints > 0 ? n.cost_usd / static_cast<double>(n.endpoints) : 0.0,
          .step_time = r.step_time,
          .tokens_per_day = r.tokens_per_day,
          .mfu_causal = r.mfu_causal,
          .cost_per_tokens_per_day_usd = n.cost_usd / (r.tokens_per_day / 1e9),
          .run = r};
}

}  // namespace codesim::study
