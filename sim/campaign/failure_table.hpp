// Interruption rates per cause, from Llama 3's 54-day snapshot on 16,384 H100 GPUs (arXiv
// 2407.21783, Table 5: 419 unexpected interruptions), per GPU-hour; docs/model/campaign.md copies
// the table with its source. A cause either stops the job (restart from the last checkpoint) or,
// where the fabric routes around it, degrades the step until repaired (`degrades`).
#pragma once

#include <string>
#include <vector>

namespace codesim::campaign {

struct FailureCause {
  std::string name;
  double per_gpu_hour = 0;  // interruptions per GPU and hour
  bool network = false;     // a switch, cable, optics or NIC fault: degrades a multi-plane fabric
};

// Llama 3's unexpected interruptions grouped by component, each count / (16,384 GPUs x 54 days x
// 24 h).
std::vector<FailureCause> llama3_failure_table();

// Every cause at one rate: `per_1000_node_days` / 1000 / 24 / `gpus_per_node` per GPU-hour,
// split over the causes in Llama 3's proportions (a cluster's own overall rate, its mix as
// Llama 3's).
std::vector<FailureCause> scaled_failure_table(double per_1000_node_days, int gpus_per_node);

}  // namespace codesim::campaign
