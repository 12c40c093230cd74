// The campaign: section's fields (`codesim campaign`). Defaults without a published source are
// labelled assumed in their doc (docs/model/campaign.md lists every one).
#include <string>

#include "sim/config/schema_field.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/text.hpp"

namespace codesim::config::schema_fields {

void add_campaign_fields(std::vector<FieldSpec>& f) {
  f.push_back(
      field("campaign.tokens", MEMBER(campaign.tokens),
            at_least(with_default("0", "Tokens to train (codesim campaign needs it)."), 0)));
  {
    FieldSpec interval = field(
        "campaign.checkpoint_interval", MEMBER(campaign.checkpoint_interval),
        with_default("auto",
                     "Training between checkpoints, a duration, or auto: Daly's optimum for the "
                     "checkpoint write and the failure rate."));
    interval.type = FieldType::string;
    interval.set = [](Scenario& s, const Value& v) {
      const std::string text = std::get<std::string>(v);
      if (text == "auto") {
        s.campaign.checkpoint_interval = core::Seconds(0);
        return;
      }
      const double seconds = core::parse_quantity(text, core::Dimension::seconds);
      if (!(seconds > 0)) {
        throw core::UnitError(
            "a checkpoint interval must be positive, got " + core::quoted_excerpt(text),
            "a duration such as 2h, or auto");
      }
      s.campaign.checkpoint_interval = core::Seconds(seconds);
    };
    interval.get = [](const Scenario& s) {
      const double t = s.campaign.checkpoint_interval.value;
      return Value(t > 0 ? core::format_quantity(t, core::Dimension::seconds)
                         : std::string("auto"));
    };
    f.push_back(std::move(interval));
  }
  f.push_back(field("campaign.checkpoint_write", MEMBER(campaign.checkpoint_write),
                    at_least(with_default("0s",
                                          "The job's pause per checkpoint; 0: the training "
                                          "state's bytes over campaign.storage_bandwidth (with "
                                          "async_checkpoint: one GPU's share over PCIe)."),
                             0)));
  f.push_back(field("campaign.checkpoint_load", MEMBER(campaign.checkpoint_load),
                    at_least(with_default("0s",
                                          "Loading a checkpoint at a restart; 0: the state's "
                                          "bytes over campaign.storage_bandwidth."),
                             0)));
  f.push_back(
      field("campaign.storage_bandwidth", MEMBER(campaign.storage_bandwidth),
            positive(with_default("2TBps", "Checkpoint storage, sustained (Llama 3's: 2 TB/s)."))));
  f.push_back(field("campaign.checkpoint_bytes_per_param",
                    MEMBER(campaign.checkpoint_bytes_per_param),
                    positive(with_default("14",
                                          "Training state per parameter: BF16 weights, FP32 "
                                          "master weights and two FP32 Adam moments (assumed)."))));
  f.push_back(field("campaign.async_checkpoint", MEMBER(campaign.async_checkpoint),
                    with_default("false",
                                 "The job pauses only to copy its state to host memory; the "
                                 "write to storage overlaps training.")));
  f.push_back(
      field("campaign.detection", MEMBER(campaign.detection),
            at_least(with_default("10min", "From a failure to the job's stop (assumed)."), 0)));
  f.push_back(field("campaign.reschedule", MEMBER(campaign.reschedule),
                    at_least(with_default("10min",
                                          "Restarting on a spare node, or after a software "
                                          "failure (assumed)."),
                             0)));
  f.push_back(field("campaign.repair", MEMBER(campaign.repair),
                    at_least(with_default("4h",
                                          "Repairing a node or link: how long a hardware failure "
                                          "waits without a spare, and a routed-around network "
                                          "fault runs degraded (assumed)."),
                             0)));
  f.push_back(field("campaign.spare_nodes", MEMBER(campaign.spare_nodes),
                    between(with_default("1",
                                         "Hot spare nodes; 0: a hardware failure waits for its "
                                         "repair."),
                            0, 1'000'000)));
  f.push_back(field("campaign.failures", MEMBER(campaign.failures),
                    derived("rate where campaign.node_failure_rate is given, else llama3",
                            "Where the interruptions' rates come from: llama3 (Llama 3's own "
                            "rates per GPU-hour by cause, 3.79 per 1,000 8-GPU node-days) or "
                            "rate (campaign.node_failure_rate in Llama 3's mix; 0: none).")));
  f.back().derive = [](const Scenario& s) {
    return Value(std::string(enum_name(s.where.count("campaign.node_failure_rate") > 0
                                           ? FailureRates::rate
                                           : FailureRates::llama3)));
  };
  f.push_back(field("campaign.node_failure_rate", MEMBER(campaign.node_failure_rate),
                    at_least(with_default("0",
                                          "Interruptions per 1,000 node-days, in Llama 3's mix of "
                                          "causes, with campaign.failures: rate (0: a run without "
                                          "failures)."),
                             0)));
  f.push_back(field("campaign.price_per_gpu_hour", MEMBER(campaign.price_per_gpu_hour),
                    at_least(with_default("2",
                                          "US dollars per GPU-hour (DeepSeek-V3's report "
                                          "assumes $2 for H800 rental)."),
                             0)));
  f.push_back(field("campaign.gpu_power_w", MEMBER(campaign.gpu_power_w),
                    at_least(with_default("0",
                                          "Watts per GPU while the job holds it; 0: from the "
                                          "step's power model (its boards at their governed "
                                          "clocks while training, awake otherwise)."),
                             0)));
  f.push_back(field("campaign.node_power_w", MEMBER(campaign.node_power_w),
                    at_least(with_default("0",
                                          "Watts per node besides its GPUs: host, NICs, its share "
                                          "of the switches; 0: from the step's energy (its "
                                          "network and hosts at hardware.nic_power, "
                                          "switch_power, host_power)."),
                             0)));
  f.push_back(
      field("campaign.pue", MEMBER(campaign.pue),
            between(with_default("1", "Power usage effectiveness; 1: IT energy alone."), 1, 5)));
  f.push_back(field("campaign.trials", MEMBER(campaign.trials),
                    between(with_default("1000", "Monte-Carlo runs."), 1, 10'000'000)));
  f.push_back(field("campaign.seed", MEMBER(campaign.seed),
                    between(with_default("1", "The Monte Carlo's seed."), 0, 2'000'000'000)));
}

}  // namespace codesim::config::schema_fields
