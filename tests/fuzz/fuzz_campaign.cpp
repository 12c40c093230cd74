// libFuzzer target: scenario YAML text -> its campaign: section -> the run model (failures,
// checkpoints, restarts by Monte Carlo and in expectation) for a fixed 20 s step of 4M tokens,
// the trials capped at 20 and the Monte Carlo's bound lowered to 1e6 events so that each input
// runs in milliseconds. Input errors and refusals (a job that cannot progress, past the bound)
// are expected; anything else is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/campaign/run_model.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/study/campaign.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto s = codesim::config::load_scenario_text(text, "/nonexistent/fuzz/campaign.yaml");
    if (!(s.campaign.tokens > 0)) {
      return 0;
    }
    auto plan = codesim::study::campaign_plan(s, codesim::core::Seconds(20),
                                              codesim::core::Seconds(25), 4.0e6);
    plan.spec.monte_carlo.trials = std::min(plan.spec.monte_carlo.trials, 20);
    plan.spec.max_events = 1e6;
    codesim::campaign::simulate_run(plan.spec);
  } catch (const codesim::core::InputError&) {
  } catch (const codesim::core::KeyedError&) {
  }
  return 0;
}
