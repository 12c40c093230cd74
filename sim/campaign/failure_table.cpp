#include "sim/campaign/failure_table.hpp"

namespace codesim::campaign {
namespace {

constexpr double kGpuHours = 16384.0 * 54 * 24;  // Llama 3's snapshot

}  // namespace

std::vector<FailureCause> llama3_failure_table() {
  // Table 5's 419 unexpected interruptions: faulty GPU 148, GPU SRAM 19, GPU system processor
  // 17, silent data corruption 6, GPU thermal interface/sensor 6 -> GPU 196; HBM3 72; software
  // bug 54, NCCL watchdog 7, dependency 2 -> software 63; network switch/cable 35; NIC 7; host
  // maintenance 32, SSD 3, power supply 3, chassis 2, IO expansion board 2, CPU 2, system memory
  // 2 -> host 46.
  return {{"GPU", 196 / kGpuHours, false},     {"HBM", 72 / kGpuHours, false},
          {"software", 63 / kGpuHours, false}, {"network switch or cable", 35 / kGpuHours, true},
          {"NIC", 7 / kGpuHours, true},        {"host", 46 / kGpuHours, false}};
}

std::vector<FailureCause> scaled_failure_table(double per_1000_node_days, int gpus_per_node) {
  auto table = llama3_failure_table();
  double total = 0;
  for (const auto& c : table) {
    total += c.per_gpu_hour;
  }
  const double wanted = per_1000_node_days / 1000.0 / 24.0 / gpus_per_node;
  for (auto& c : table) {
    c.per_gpu_hour *= wanted / total;
  }
  return table;
}

}  // namespace codesim::campaign
