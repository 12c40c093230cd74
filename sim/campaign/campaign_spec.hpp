// A training campaign as a scenario's campaign: section gives it: the tokens to train, the
// checkpoint policy, how the job comes back after a failure, where the failure rates come from,
// power and price, and the Monte Carlo's draws. The defaults are the scenario's (parameters.hpp
// declares each key with its doc; config's tests check the two agree); those without a published
// source are labelled assumed there and in docs/model/campaign.md.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "sim/core/units.hpp"

namespace codesim::campaign {

// Where the interruptions' rates come from: Llama 3's table per GPU-hour by cause, or
// node_failure_rate in Llama 3's mix of causes.
enum class FailureRates { llama3, rate };
inline constexpr std::array kFailureRatesNames = {
    std::pair{FailureRates::llama3, std::string_view("llama3")},
    std::pair{FailureRates::rate, std::string_view("rate")}};
// How scenario files spell it (core/parameter.hpp).
constexpr const auto& spellings(FailureRates) {
  return kFailureRatesNames;
}

// Training between checkpoints: a duration, or 0 for Daly's optimum ("auto" in scenario files).
struct CheckpointInterval {
  core::Seconds every;
  bool automatic() const { return every.value <= 0; }
  // "auto" or a positive duration ("2h"); throws core::UnitError for anything else.
  static CheckpointInterval parse(const std::string& text);
  std::string text() const;
  bool operator==(const CheckpointInterval&) const = default;
};

// How the job comes back after a failure that stops it: detection, then a spare node (or, with
// none left, the repair), then the checkpoint's load.
struct Restart {
  core::Seconds detection{600};    // from a failure to the job's stop (assumed)
  core::Seconds reschedule{600};   // onto a spare node, or a software restart (assumed)
  core::Seconds repair{4 * 3600};  // a node's or link's repair (assumed)
  int spare_nodes = 1;             // 0: a hardware failure waits for its repair
};

struct MonteCarlo {
  int trials = 1000;
  int seed = 1;
};

struct CampaignSpec {
  double tokens = 0;  // to train; a campaign needs it
  CheckpointInterval checkpoint_interval;
  core::Seconds checkpoint_write;  // the job's pause per checkpoint; 0: from the state's bytes
  core::Seconds checkpoint_load;   // 0: from the state's bytes
  core::BytesPerSecond storage_bandwidth{2e12};  // Llama 3's checkpoint storage
  double checkpoint_bytes_per_param = 14;        // BF16 weights, FP32 master and Adam moments
  bool async_checkpoint = false;                 // pause only to copy the state to host memory
  Restart restart;
  FailureRates failures = FailureRates::llama3;
  double node_failure_rate = 0;  // per 1,000 node-days, in Llama 3's mix (failures: rate)
  double price_per_gpu_hour = 2;
  double gpu_power_w = 0;   // 0: from the step's power model
  double node_power_w = 0;  // 0: from the step's energy
  double pue = 1;
  MonteCarlo monte_carlo;
};

}  // namespace codesim::campaign
