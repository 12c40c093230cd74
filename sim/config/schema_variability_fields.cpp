// The variability: section's fields (sim/variability). Defaults without a published source are
// labelled assumed in their doc (docs/model/variability.md lists every one).
#include <string>

#include "models/calibration/variability.hpp"
#include "sim/config/schema_field.hpp"
#include "sim/core/quantity_parse.hpp"

namespace codesim::config::schema_fields {
namespace {

// variability.<part>_slow.rate, .duration and .slowdown, bound through `slow` (a generic accessor
// of the part's variability::FailSlow).
template <class Access>
void add_fail_slow(std::vector<FieldSpec>& f, const std::string& part, Access slow,
                   const std::string& slowdown, const std::string& slowdown_doc) {
  const std::string key = "variability." + part + "_slow";
  f.push_back(field(
      key + ".rate", [slow](auto& s) -> auto& { return slow(s).per_1000_part_days; },
      at_least(with_default("0.5", "Fail-slow episodes per 1,000 " + part +
                                       "-days (assumed: no published rate)."),
               0)));
  f.push_back(field(
      key + ".duration", [slow](auto& s) -> auto& { return slow(s).duration; },
      positive(with_default("1h",
                            "Mean fail-slow episode (FALCON, arXiv 2410.12588: "
                            "tens of seconds to about 10 hours; 1 h assumed)."))));
  f.push_back(field(
      key + ".slowdown", [slow](auto& s) -> auto& { return slow(s).slowdown; },
      between(with_default(slowdown, slowdown_doc), 1, 1000)));
}

}  // namespace

void add_variability_fields(std::vector<FieldSpec>& f) {
  f.push_back(
      field("variability.enabled", MEMBER(variability.enabled),
            with_default("false",
                         "Replicas differ: each step's GPUs and NICs run at drawn paces and "
                         "every synchronization waits for its slowest member; step_time_s "
                         "becomes the mean of variability.steps draws. codesim campaign "
                         "turns it on unless the scenario sets it.")));
  f.push_back(
      field("variability.steps", MEMBER(variability.steps),
            between(with_default("20", "Steps drawn, each with its own draws."), 1, 100'000)));
  f.push_back(field("variability.seed", MEMBER(variability.seed),
                    between(with_default("1", "The draws' seed."), 0, 2'000'000'000)));
  f.push_back(field("variability.gpu_cv", MEMBER(variability.gpu_cv),
                    between(with_default(core::format_number(calibration::variability::gpu_cv),
                                         "Coefficient of variation of a GPU's pace (its compute "
                                         "time's multiplier, lognormal of mean 1) over each "
                                         "block of variability.gpu_pace_interval: measured on an "
                                         "H200 under its power cap, a step-like CUDA graph "
                                         "replayed for a minute (docs/model/variability.md)."),
                            0, 1)));
  f.push_back(field("variability.gpu_cv_by_duty", MEMBER(variability.cv_by_duty),
                    with_default("true",
                                 "variability.gpu_cv is a GPU's spread computing flat out; each "
                                 "GPU's is scaled by its busy fraction of the step as the H200's "
                                 "spread fell with idle gaps (x0.54 at 80% busy, x0.11 at 50%; "
                                 "docs/model/variability.md). false: every GPU at gpu_cv.")));
  f.push_back(field(
      "variability.gpu_pace_interval", MEMBER(variability.gpu_pace_interval),
      at_least(
          with_default(core::format_number(calibration::variability::gpu_pace_interval_ms) + "ms",
                       "How long a GPU's pace holds before an independent "
                       "one follows; 0: one pace for the whole step. Fitted "
                       "to how the H200's spread shrinks over longer windows "
                       "(docs/model/variability.md)."),
          0)));
  f.push_back(field("variability.nic_cv", MEMBER(variability.nic_cv),
                    between(with_default("0.01",
                                         "Coefficient of variation of a NIC's transfer time per "
                                         "step (lognormal, mean 1; assumed)."),
                            0, 1)));
  add_fail_slow(f, "gpu", MEMBER(variability.gpu_slow), "1.5",
                "A slow GPU's compute time multiplier (assumed: throttled clocks).");
  add_fail_slow(f, "link", MEMBER(variability.link_slow), "2",
                "A slow link's transfer time multiplier (assumed: a link retrained at half "
                "rate).");
  f.push_back(field("variability.simulated_units", MEMBER(variability.simulated_units),
                    between(with_default("0",
                                         "Units (the GPUs TP, CP and EP bind across the pipeline) "
                                         "replayed per step: n the n slowest by their draws "
                                         "(order statistics); 0 every one while their replay "
                                         "fits variability.replay_memory, else as many as fit."),
                            0, 10'000'000)));
  f.push_back(field("variability.replay_memory", MEMBER(variability.replay_memory),
                    positive(with_default("2GB",
                                          "Memory for the replay of every replica's task end "
                                          "times (tasks x GPUs replayed per rank x 8 B)."))));
}

}  // namespace codesim::config::schema_fields
