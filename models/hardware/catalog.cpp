// The hardware presets. Figures are vendor datasheet values (dense, no sparsity) and DeepSeek's
// published measurements (docs/model/hardware.md); where no achievable figure is
// published the nominal one is used and the comment says so.
#include "models/hardware/catalog.hpp"

#include <span>
#include <utility>

#include "models/calibration/deepep_kernels.hpp"
#include "models/calibration/nccl.hpp"
#include "models/calibration/power_h100.hpp"
#include "models/calibration/power_h200.hpp"
#include "sim/core/named.hpp"

namespace codesim::hardware {
namespace {

using namespace core::literals;

// ConnectX-7 400 Gb/s InfiniBand; latencies measured by DeepSeek (ISCA 2025, Table 5). Bulk
// transfers are taken at the line rate (no measurement); small messages (DeepEP's low-latency
// kernels) reach about 40 GB/s (DeepSeek's figure, docs/model/hardware.md).
constexpr NicSpec kConnectX7{.bandwidth = 400_Gbps,
                             .nominal_bandwidth = 400_Gbps,
                             .small_message_efficiency = 0.8,
                             .latency_same_leaf = 2.8_us,
                             .latency_cross_leaf = 3.7_us};

// HDR InfiniBand (ConnectX-6, 200 Gb/s), as A100 clusters were built. Its latencies and its
// small-message fraction are not measured here: the ConnectX-7 figures are assumed.
constexpr NicSpec kConnectX6{.bandwidth = 200_Gbps,
                             .nominal_bandwidth = 200_Gbps,
                             .small_message_efficiency = 0.8,
                             .latency_same_leaf = kConnectX7.latency_same_leaf,
                             .latency_cross_leaf = kConnectX7.latency_cross_leaf};

// NVLink end-to-end latency of a small message, measured by DeepSeek on H800; no other GPU's
// figure is published, so every preset uses it until calibrated.
constexpr core::Seconds kNvlinkLatency = 3.33_us;

// A measured GPU's power (tools/calibration/fit_power.py on models/calibration/<gpu>/power/, the
// H200's on 2026-12-04, the H100's on 2026-12-05; every number in models/calibration/README.md):
// its limit, idle power, power with clocks up and SMs idle, top SM clock; per kind of work the
// watts above that of the measured kernel flat out at the top clock, that kernel's rate there
// over this GPU's peak (BF16 and FP8 GEMMs 8192^3 over their tensor peaks; causal attention 2 x
// 32 x 4096 x 128 over the BF16 peak; RMSNorm, SiLU x mul, copy over HBM bandwidth), the
// clock-bound fraction of its time, the energy exponent.
// The lowest clock: NVML's lowest supported graphics clock (345 MHz idle on the H200) is not a
// governor's floor; none of the runs went below 1245 MHz: 1000 MHz is taken as the floor. The
// window: every GEMM-heavy case of h200_power.json reached the cap 0.04-0.12 s after 3 s idle,
// and 10 ms gaps between 14 ms bursts did not let the clock recover (h200_clock.json; the same on
// the H100): 0.08 s.
using Fit = std::span<const std::pair<std::string_view, double>>;

// The fit's constant named `kind` + `field` ("tensor_bf16" + "_rate"; kind empty for the board's).
constexpr double fitted(Fit fit, std::string_view kind, std::string_view field) {
  for (const auto& [key, value] : fit) {
    if (key.size() == kind.size() + field.size() && key.starts_with(kind) && key.ends_with(field)) {
      return value;
    }
  }
  throw "fit_power.json lacks a constant";  // a compile-time error in a constant expression
}

constexpr ActivityPower fitted_activity(Fit fit, std::string_view kind, double peak) {
  return {.dynamic_w = fitted(fit, kind, "_dynamic_w"),
          .reference_fraction = fitted(fit, kind, "_rate") / peak,
          .clock_bound = fitted(fit, kind, "_clock_bound"),
          .energy_exponent = fitted(fit, kind, "_energy_exponent")};
}

// Hopper SXM (H800, H100, H200): 132 SMs, 989 / 1979 dense BF16 / FP8 TFLOPS; 700 W (H100 SXM5
// and H200 SXM datasheets; the H800 SXM5 is the H100's board), up to 1980 MHz. Its power is the
// fit measured on the board `measured_on`, its rates taken over this GPU's peaks (the fit's rates
// are in TFLOP/s and TB/s).
constexpr GpuSpec hopper(core::Bytes hbm, core::BytesPerSecond hbm_bandwidth,
                         std::string_view measured_on, Fit fit) {
  GpuSpec gpu{.sms = 132,
              .bf16_peak = 989_TFLOPS,
              .fp8_peak = 1979_TFLOPS,
              .hbm_capacity = hbm,
              .hbm_bandwidth = hbm_bandwidth,
              .architecture = Architecture::hopper};
  const double bf16 = gpu.bf16_peak.value / 1e12;
  const double hbm_tbps = hbm_bandwidth.value / 1e12;
  gpu.power = {.limit_w = 700,
               .tdp_w = 700,
               .idle_w = fitted(fit, "", "idle_w"),
               .awake_w = fitted(fit, "", "awake_w"),
               .max_clock_mhz = fitted(fit, "", "max_clock_mhz"),
               .min_clock_mhz = 1000,
               .window_s = 0.08,
               .measured_on = measured_on,
               .activity = {fitted_activity(fit, "tensor_bf16", bf16),
                            fitted_activity(fit, "tensor_fp8", gpu.fp8_peak.value / 1e12),
                            fitted_activity(fit, "attention", bf16),
                            fitted_activity(fit, "sm_memory", hbm_tbps),
                            fitted_activity(fit, "sm_memory_elementwise", hbm_tbps),
                            fitted_activity(fit, "copy", hbm_tbps)}};
  return gpu;
}

// H100 SXM5 and H200 SXM (NVIDIA datasheets): HBM3 80 GB at 3.35 TB/s, HBM3e 141 GB at 4.8 TB/s.
constexpr GpuSpec kH100 = hopper(80_GB, 3.35_TBps, "h100", calibration::power_h100::all);
constexpr GpuSpec kH200 = hopper(141_GB, kH200HbmBandwidth, "h200", calibration::power_h200::all);

// Another board's power, carried from the H200's: its TDP (the vendor's datasheet) and top clock,
// every wattage scaled by its TDP over the H200's 700 W (assumed: the same work draws the same
// fraction of the board's budget), the clock responses kept.
constexpr PowerSpec carried_power(double tdp_w, double max_clock_mhz) {
  PowerSpec p = kH200.power;
  const double k = tdp_w / kH200.power.tdp_w;
  p.limit_w = p.tdp_w = tdp_w;
  p.carried = true;
  p.idle_w *= k;
  p.awake_w *= k;
  for (ActivityPower& a : p.activity) {
    a.dynamic_w *= k;
  }
  p.max_clock_mhz = max_clock_mhz;
  p.min_clock_mhz = max_clock_mhz * kH200.power.min_clock_mhz / kH200.power.max_clock_mhz;
  return p;
}

// NVLink 4 between two H200s: 366 GB/s per direction of the 450 nominal, fitted with NCCL's
// costs (tools/calibration/fit_nccl.py on models/calibration/h200x2/nccl_algos.json; a 4 GiB
// send moves 372).
namespace nccl_fit = calibration::nccl;
constexpr double kNvlinkAchievableFraction = nccl_fit::nvlink_bandwidth_gbps / 450.0;

// NVLink 4 (H100, H200, 450 nominal): 366 GB/s, the measured figure. Other generations have
// none: the same fraction of their nominal bandwidth is assumed.
constexpr ScaleUpSpec nvlink(core::BytesPerSecond nominal, int domain_gpus) {
  return {.bandwidth = nominal * kNvlinkAchievableFraction,
          .nominal_bandwidth = nominal,
          .latency = kNvlinkLatency,
          .domain_gpus = domain_gpus};
}

// NCCL 2.28 on 2 H200 (tools/calibration/fit_nccl.py): the protocols' per-call costs (LL128's
// are not identified, NCCL never ran it there: Simple's are taken), the collectives' rates per
// channel (24 channels on an H200) and grouped point-to-point's link efficiency, fitted to 4 KiB
// - 4 GiB (a third held out), NCCL's protocol choice taken from its tuner. DeepEP
// (tools/calibration/fit_deepep_kernels.py, one published H800 row per term): the internode
// normal kernels' forwarding rate per SM to their EP16 dispatch (43 GB/s in DeepEP's accounting
// with 24 SMs, 12 of them forwarding), the low-latency kernels' rate against the NIC's
// small-message one to their pure-RDMA EP8 dispatch (163 us), and the NVLink variant's cost per
// message its SMs copy to a GPU of their node to its EP8 dispatch (77 us); the other rows are
// predictions (sim/engine/README.md). Not fitted, 0: the normal kernels' call (their EP8 row,
// 153 GB/s over NVLink, leaves no room for one) and the low-latency kernels' (their rate absorbs
// it). Taken for every preset: the same libraries, and no other GPU was measured.
constexpr CommCosts kNcclHopper{
    .protocols = {NcclProtocol{.efficiency = 0.5,
                               .collective_call = core::microseconds(nccl_fit::coll_call_ll_us),
                               .p2p_call = core::microseconds(nccl_fit::p2p_call_ll_us)},
                  NcclProtocol{.efficiency = 120.0 / 128,
                               .collective_call = core::microseconds(nccl_fit::coll_call_simple_us),
                               .p2p_call = core::microseconds(nccl_fit::p2p_call_simple_us)},
                  NcclProtocol{.efficiency = 1,
                               .collective_call = core::microseconds(nccl_fit::coll_call_simple_us),
                               .p2p_call = core::microseconds(nccl_fit::p2p_call_simple_us)}},
    .ep_call = 0_us,
    .ep_low_latency_call = 0_us,
    .ep_low_latency_nvlink_message =
        core::microseconds(calibration::deepep_kernels::ep_low_latency_nvlink_message_us),
    .ep_forward_rate_per_sm =
        core::gigabytes_per_second(calibration::deepep_kernels::ep_forward_rate_per_sm_gbps),
    .ep_low_latency_rate = calibration::deepep_kernels::ep_low_latency_rate,
    .all_gather_per_channel = core::gigabytes_per_second(nccl_fit::all_gather_per_channel_gbps),
    .reduce_scatter_per_channel =
        core::gigabytes_per_second(nccl_fit::reduce_scatter_per_channel_gbps),
    .ring_all_reduce_per_channel =
        core::gigabytes_per_second(nccl_fit::ring_all_reduce_per_channel_gbps),
    .tree_all_reduce_per_channel =
        core::gigabytes_per_second(nccl_fit::tree_all_reduce_per_channel_gbps),
    // Not measurable here (NVLink multicast is off on the lent machines): the ring's at its 24
    // channels on an H200 (24 x 13.5 / 366) is assumed.
    .nvls_all_reduce = 0.885,
    .all_to_all = nccl_fit::all_to_all_efficiency,
    .nvls = true};

CommCosts without_nvls(CommCosts c) {
  c.nvls = false;
  return c;
}

// PCIe Gen5 x16 (Gen4 for A100): line rate, taken as achievable (no measurement).
HardwareSpec node(std::string name, GpuSpec gpu, ScaleUpSpec scale_up, NicSpec nic = kConnectX7,
                  core::BytesPerSecond pcie = 64_GBps, CommCosts comm = kNcclHopper) {
  return {.name = std::move(name),
          .gpu = gpu,
          .scale_up = scale_up,
          .nic = nic,
          .pcie_bandwidth = pcie,
          .pcie_nominal_bandwidth = pcie,
          .comm = comm,
          .gpus_per_node = scale_up.domain_gpus};
}

std::vector<HardwareSpec> presets() {
  return {
      // 200 GB/s nominal per direction; 160 GB/s achievable (DeepSeek, ISCA 2025 §4). Its power
      // is the H100's, measured: the same board, die, HBM3 and 700 W.
      node("h800", kH100,
           {.bandwidth = 160_GBps,
            .nominal_bandwidth = 200_GBps,
            .latency = kNvlinkLatency,
            .domain_gpus = 8}),
      // NVLink 4: 900 GB/s bidirectional = 450 per direction (nominal; NVIDIA datasheets).
      node("h100", kH100, nvlink(450_GBps, 8)),
      node("h200", kH200, nvlink(450_GBps, 8)),
      // A100-SXM4-80GB (NVIDIA A100 datasheet): 108 SMs, 312 TFLOPS dense BF16, no FP8 tensor
      // cores, 2039 GB/s HBM2e, 400 W, up to 1410 MHz; NVLink 3 600 GB/s bidirectional = 300 per
      // direction (nominal);
      // PCIe Gen4 x16 to its HDR NIC (32 GB/s per direction).
      node("a100",
           {.sms = 108,
            .bf16_peak = 312_TFLOPS,
            .fp8_peak = core::FlopsPerSecond(0),
            .hbm_capacity = 80_GB,
            .hbm_bandwidth = 2.039_TBps,
            .architecture = Architecture::ampere,
            .power = carried_power(400, 1410)},
           nvlink(300_GBps, 8), kConnectX6, 32_GBps, without_nvls(kNcclHopper)),
      // B200 in HGX B200 (NVIDIA datasheet): 2.25 / 4.5 PFLOPS dense BF16 / FP8, 192 GB HBM3e at
      // 8 TB/s, 148 SMs (two dies), 1000 W; NVLink 5 1.8 TB/s bidirectional = 900 per
      // direction. Its top clock is not published: Hopper's 1980 MHz is taken (the clock model
      // works in fractions of it).
      node("b200",
           {.sms = 148,
            .bf16_peak = 2250_TFLOPS,
            .fp8_peak = 4500_TFLOPS,
            .hbm_capacity = 192_GB,
            .hbm_bandwidth = 8.0_TBps,
            .architecture = Architecture::blackwell,
            .power = carried_power(1000, 1980)},
           nvlink(900_GBps, 8)),
      // GB200 in an NVL72 rack (NVIDIA GB200 NVL72 datasheet, per GPU): 2.5 / 5 PFLOPS dense
      // BF16 / FP8, 186 GB HBM3e at 8 TB/s, 1200 W per GPU; one NVLink domain of 72 GPUs.
      node("gb200",
           {.sms = 148,
            .bf16_peak = 2500_TFLOPS,
            .fp8_peak = 5000_TFLOPS,
            .hbm_capacity = 186_GB,
            .hbm_bandwidth = 8.0_TBps,
            .architecture = Architecture::blackwell,
            .power = carried_power(1200, 1980)},
           nvlink(900_GBps, 72)),
  };
}

}  // namespace

std::optional<HardwareSpec> find_preset(std::string_view name) {
  return core::find_named(presets(), name);
}

CommCosts measured_library_costs() {
  return without_nvls(kNcclHopper);
}

std::vector<std::string> preset_names() {
  return core::names_of(presets());
}

}  // namespace codesim::hardware
