// The campaign: section's keys, declared beside the spec they fill (core/parameter.hpp): each
// key's doc, default and range. The defaults are CampaignSpec's own; those without a published
// source are labelled assumed (docs/model/campaign.md lists every one).
#pragma once

#include "sim/campaign/campaign_spec.hpp"
#include "sim/core/parameter.hpp"

namespace codesim::campaign {

// Calls declare(key, accessor, info[, derive]) for every key of CampaignSpec, in the schema's
// order.
template <class Declare>
void declare_parameters(Declare&& declare) {
  using namespace core;
  declare("tokens", MEMBER(tokens),
          at_least(with_default("0", "Tokens to train (codesim campaign needs it)."), 0));
  declare("checkpoint_interval", MEMBER(checkpoint_interval),
          with_default("auto",
                       "Training between checkpoints, a duration, or auto: Daly's optimum for the "
                       "checkpoint write and the failure rate."));
  declare("checkpoint_write", MEMBER(checkpoint_write),
          at_least(with_default("0s",
                                "The job's pause per checkpoint; 0: the training state's bytes "
                                "over campaign.storage_bandwidth (with async_checkpoint: one "
                                "GPU's share over PCIe)."),
                   0));
  declare("checkpoint_load", MEMBER(checkpoint_load),
          at_least(with_default("0s",
                                "Loading a checkpoint at a restart; 0: the state's bytes over "
                                "campaign.storage_bandwidth."),
                   0));
  declare("storage_bandwidth", MEMBER(storage_bandwidth),
          positive(with_default("2TBps", "Checkpoint storage, sustained (Llama 3's: 2 TB/s).")));
  declare("checkpoint_bytes_per_param", MEMBER(checkpoint_bytes_per_param),
          positive(with_default("14",
                                "Training state per parameter: BF16 weights, FP32 master weights "
                                "and two FP32 Adam moments (assumed).")));
  declare("async_checkpoint", MEMBER(async_checkpoint),
          with_default("false",
                       "The job pauses only to copy its state to host memory; the write to "
                       "storage overlaps training."));
  declare("detection", MEMBER(restart.detection),
          at_least(with_default("10min", "From a failure to the job's stop (assumed)."), 0));
  declare("reschedule", MEMBER(restart.reschedule),
          at_least(with_default("10min",
                                "Restarting on a spare node, or after a software failure "
                                "(assumed)."),
                   0));
  declare("repair", MEMBER(restart.repair),
          at_least(with_default("4h",
                                "Repairing a node or link: how long a hardware failure waits "
                                "without a spare, and a routed-around network fault runs degraded "
                                "(assumed)."),
                   0));
  declare("spare_nodes", MEMBER(restart.spare_nodes),
          between(with_default("1", "Hot spare nodes; 0: a hardware failure waits for its repair."),
                  0, 1'000'000));
  declare("failures", MEMBER(failures),
          derived("rate where campaign.node_failure_rate is given, else llama3",
                  "Where the interruptions' rates come from: llama3 (Llama 3's own rates per "
                  "GPU-hour by cause, 3.79 per 1,000 8-GPU node-days) or rate "
                  "(campaign.node_failure_rate in Llama 3's mix; 0: none)."),
          [](const CampaignSpec&, auto given, auto) {
            return given("node_failure_rate") ? FailureRates::rate : FailureRates::llama3;
          });
  declare("node_failure_rate", MEMBER(node_failure_rate),
          at_least(with_default("0",
                                "Interruptions per 1,000 node-days, in Llama 3's mix of causes, "
                                "with campaign.failures: rate (0: a run without failures)."),
                   0));
  declare("price_per_gpu_hour", MEMBER(price_per_gpu_hour),
          at_least(with_default("2",
                                "US dollars per GPU-hour (DeepSeek-V3's report assumes $2 for "
                                "H800 rental)."),
                   0));
  declare("gpu_power_w", MEMBER(gpu_power_w),
          at_least(with_default("0",
                                "Watts per GPU while the job holds it; 0: from the step's power "
                                "model (its boards at their governed clocks while training, awake "
                                "otherwise)."),
                   0));
  declare("node_power_w", MEMBER(node_power_w),
          at_least(with_default("0",
                                "Watts per node besides its GPUs: host, NICs, its share of the "
                                "switches; 0: from the step's energy (its network and hosts at "
                                "hardware.nic_power, switch_power, host_power)."),
                   0));
  declare("pue", MEMBER(pue),
          between(with_default("1", "Power usage effectiveness; 1: IT energy alone."), 1, 5));
  declare("trials", MEMBER(monte_carlo.trials),
          between(with_default("1000", "Monte-Carlo runs."), 1, 10'000'000));
  declare("seed", MEMBER(monte_carlo.seed),
          between(with_default("1", "The Monte Carlo's seed."), 0, 2'000'000'000));
}

}  // namespace codesim::campaign
