// Hardware presets against docs/model/hardware.md.
#include "models/hardware/catalog.hpp"

#include <gtest/gtest.h>

namespace codesim::hardware {
namespace {

struct Row {
  const char* name;
  int sms;
  double bf16_tflops, fp8_tflops, hbm_gb, hbm_tbps, nvlink_gbps;
  int domain;
};

TEST(HardwareCatalog, PresetsMatchTheDatasheetTable) {
  // name, SMs, BF16 / FP8 dense TFLOPS, HBM GB, HBM TB/s, NVLink GB/s per direction (line
  // rate), domain.
  const Row rows[] = {
      {"h800", 132, 989, 1979, 80, 3.35, 200, 8},    {"h100", 132, 989, 1979, 80, 3.35, 450, 8},
      {"h200", 132, 989, 1979, 141, 4.8, 450, 8},    {"b200", 148, 2250, 4500, 192, 8.0, 900, 8},
      {"gb200", 148, 2500, 5000, 186, 8.0, 900, 72}, {"a100", 108, 312, 0, 80, 2.039, 300, 8}};
  EXPECT_EQ(preset_names().size(), std::size(rows));
  for (const auto& r : rows) {
    const auto h = find_preset(r.name);
    ASSERT_TRUE(h.has_value()) << r.name;
    EXPECT_EQ(h->gpu.sms, r.sms) << r.name;
    EXPECT_DOUBLE_EQ(h->gpu.bf16_peak.value, r.bf16_tflops * 1e12) << r.name;
    EXPECT_DOUBLE_EQ(h->gpu.fp8_peak.value, r.fp8_tflops * 1e12) << r.name;
    EXPECT_DOUBLE_EQ(h->gpu.hbm_capacity.value, r.hbm_gb * 1e9) << r.name;
    EXPECT_DOUBLE_EQ(h->gpu.hbm_bandwidth.value, r.hbm_tbps * 1e12) << r.name;
    EXPECT_DOUBLE_EQ(h->scale_up.nominal_bandwidth.value, r.nvlink_gbps * 1e9) << r.name;
    EXPECT_EQ(h->scale_up.domain_gpus, r.domain) << r.name;
    EXPECT_EQ(h->gpus_per_node, r.domain) << r.name;
    // 400 Gb/s ConnectX-7; the A100's HDR NICs 200 Gb/s.
    const double nic_gbps = std::string(r.name) == "a100" ? 200 : 400;
    EXPECT_DOUBLE_EQ(h->nic.bandwidth.value, nic_gbps * 1e9 / 8) << r.name;
  }
  // Achievable NVLink: DeepSeek's 160 GB/s on H800; 366 GB/s fitted to NCCL on 2 H200
  // (H100: the same NVLink 4); other generations the same fraction of their line rate.
  EXPECT_DOUBLE_EQ(find_preset("h800")->scale_up.bandwidth.value, 160e9);
  EXPECT_DOUBLE_EQ(find_preset("h200")->scale_up.bandwidth.value, 366e9);
  EXPECT_DOUBLE_EQ(find_preset("h100")->scale_up.bandwidth.value, 366e9);
  EXPECT_DOUBLE_EQ(find_preset("b200")->scale_up.bandwidth.value, 900e9 * 366 / 450);
  EXPECT_DOUBLE_EQ(find_preset("a100")->scale_up.bandwidth.value, 300e9 * 366 / 450);
  EXPECT_FALSE(find_preset("a100")->comm.nvls);  // NVLink SHARP came with Hopper's NVSwitch
  EXPECT_DOUBLE_EQ(find_preset("h800")->nic.small_message_efficiency, 0.8);  // 40 of 50 GB/s
  EXPECT_DOUBLE_EQ(find_preset("a100")->pcie_bandwidth.value, 32e9);  // PCIe Gen4 x16
  EXPECT_FALSE(find_preset("v100").has_value());
}

}  // namespace
}  // namespace codesim::hardware
