// The variability: section's keys, declared beside the spec they fill (core/parameter.hpp): each
// key's doc, default and range. The defaults are VariabilitySpec's own; those without a published
// source are labelled assumed (docs/model/variability.md lists every one).
#pragma once

#include <string>

#include "models/calibration/variability.hpp"
#include "sim/core/parameter.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/variability/variability_spec.hpp"

namespace codesim::variability {

// <part>_slow.rate, .duration and .slowdown of the FailSlow that `slow` returns.
template <class Declare, class Access>
void declare_fail_slow(Declare& declare, const std::string& part, Access slow,
                       const std::string& slowdown, const std::string& slowdown_doc) {
  using namespace core;
  const std::string key = part + "_slow";
  declare(
      key + ".rate", [slow](auto& v) -> auto& { return slow(v).per_1000_part_days; },
      at_least(with_default("0.5", "Fail-slow episodes per 1,000 " + part +
                                       "-days (assumed: no published rate)."),
               0));
  declare(
      key + ".duration", [slow](auto& v) -> auto& { return slow(v).duration; },
      positive(with_default("1h",
                            "Mean fail-slow episode (FALCON, arXiv 2410.12588: "
                            "tens of seconds to about 10 hours; 1 h assumed).")));
  declare(
      key + ".slowdown", [slow](auto& v) -> auto& { return slow(v).slowdown; },
      between(with_default(slowdown, slowdown_doc), 1, 1000));
}

// Calls declare(key, accessor, info) for every key of VariabilitySpec, in the schema's order.
template <class Declare>
void declare_parameters(Declare&& declare) {
  using namespace core;
  declare("steps", MEMBER(steps),
          between(with_default("20", "Steps drawn, each with its own draws."), 1, 100'000));
  declare("seed", MEMBER(seed), between(with_default("1", "The draws' seed."), 0, 2'000'000'000));
  declare("gpu_cv", MEMBER(gpu_cv),
          between(with_default(format_number(calibration::variability::gpu_cv),
                               "Coefficient of variation of a GPU's pace (its compute time's "
                               "multiplier, lognormal of mean 1) over each block of "
                               "variability.gpu_pace_interval: measured on an H200 under its "
                               "power cap, a step-like CUDA graph replayed for a minute "
                               "(docs/model/variability.md)."),
                  0, 1));
  declare("gpu_cv_by_duty", MEMBER(cv_by_duty),
          with_default("true",
                       "variability.gpu_cv is a GPU's spread computing flat out; each GPU's is "
                       "scaled by its busy fraction of the step as the H200's spread fell with "
                       "idle gaps (x0.54 at 80% busy, x0.11 at 50%; docs/model/variability.md). "
                       "false: every GPU at gpu_cv."));
  declare(
      "gpu_pace_interval", MEMBER(gpu_pace_interval),
      at_least(with_default(format_number(calibration::variability::gpu_pace_interval_ms) + "ms",
                            "How long a GPU's pace holds before an independent one follows; "
                            "0: one pace for the whole step. Fitted to how the H200's spread "
                            "shrinks over longer windows (docs/model/variability.md)."),
               0));
  declare("nic_cv", MEMBER(nic_cv),
          between(with_default("0.01",
                               "Coefficient of variation of a NIC's transfer time per step "
                               "(lognormal, mean 1; assumed)."),
                  0, 1));
  declare_fail_slow(declare, "gpu", MEMBER(gpu_slow), "1.5",
                    "A slow GPU's compute time multiplier (assumed: throttled clocks).");
  declare_fail_slow(declare, "link", MEMBER(link_slow), "2",
                    "A slow link's transfer time multiplier (assumed: a link retrained at half "
                    "rate).");
  declare("simulated_units", MEMBER(simulated_units),
          between(with_default("0",
                               "Units (the GPUs TP, CP and EP bind across the pipeline) replayed "
                               "per step: n the n slowest by their draws (order statistics); 0 "
                               "every one while their replay fits variability.replay_memory, else "
                               "as many as fit."),
                  0, 10'000'000));
  declare("replay_memory", MEMBER(replay_memory),
          positive(with_default("2GB",
                                "Memory for the replay of every replica's task end times (tasks "
                                "x GPUs replayed per rank x 8 B).")));
}

}  // namespace codesim::variability
