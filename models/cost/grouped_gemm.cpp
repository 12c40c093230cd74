// Grouped expert GEMMs by their CUTLASS configuration (grouped_gemm.hpp).
#include "models/cost/grouped_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/calibration/grouped.hpp"

namespace codesim::cost {
namespace {

// The H200 runs: 132 SMs; FP8's cooperative and ping-pong grids use 116 of them.
constexpr double kReferenceSms = 132;
constexpr double kFp8GridSms = 116;

struct Problem {
  double m, n, k;
};

std::vector<Problem> problems(const KernelShape& s) {
  std::vector<Problem> out;
  if (!s.group_k.empty()) {
    for (double k : s.group_k) {
      if (k > 0) {
        out.push_back({s.m, s.n, k});
      }
    }
  } else if (!s.group_m.empty()) {
    for (double m : s.group_m) {
      if (m > 0) {
        out.push_back({m, s.n, s.k});
      }
    }
  } else {
    out.assign(static_cast<std::size_t>(std::max(1.0, s.batch)), Problem{s.m, s.n, s.k});
  }
  return out;
}

// The configuration a case runs: its terms, tile and units.
struct Config {
  const GroupedTerms* terms = nullptr;
  double tm = 0, tn = 0;
  double sms_per_unit = 1;
  double units = 1;
  bool ping_pong = false;
};

Config config_of(const std::vector<Problem>& ps, bool weight_gradient, bool fp8,
                 const GroupedDtypeTerms& d, int sms) {
  double m = 0, k = 0;
  for (const Problem& p : ps) {
    m += p.m;
    k += p.k;
  }
  m /= static_cast<double>(ps.size());
  k /= static_cast<double>(ps.size());
  const double n = ps.front().n;
  const double grid = fp8 ? sms * kFp8GridSms / kReferenceSms : static_cast<double>(sms);
  if (!weight_gradient && m <= 128) {
    return {&d.ping, 64, 128, 1, std::max(1.0, std::floor(grid)), true};
  }
  const double units = std::max(1.0, std::floor(grid / 2));
  const int large = (m >= 2048) + (n >= 2048) + (k >= 2048);
  if (fp8 && large < 2) {
    return {weight_gradient ? &d.wide_wgrad : &d.wide, 256, 256, 2, units, false};
  }
  const GroupedTerms* t = weight_gradient ? &d.coop_wgrad : &d.coop;
  return {t, 256, fp8 ? 128.0 : 256.0, 2, units, false};
}

double in_pairs(double tiles) {
  return 2 * std::ceil(tiles / 2);
}

// 64-wide k-tiles the group's K spans, odd.
bool spans_odd_k_tiles(double k) {
  return static_cast<long long>(std::ceil(k / 64)) % 2 == 1;
}

}  // namespace

KernelCost predict_grouped_gemm(const KernelShape& k, const hardware::GpuSpec& gpu, int sms,
                                const CostParams& p) {
  const bool fp8 = k.dtype == DType::fp8;
  const GroupedDtypeTerms& d = fp8 ? p.grouped.fp8 : p.grouped.bf16;
  const std::vector<Problem> ps = problems(k);
  KernelCost c;
  c.sms = sms;
  if (ps.empty()) {
    c.time = p.launch_overhead;
    c.bound = "memory";
    return c;
  }
  const Config cfg = config_of(ps, !k.group_k.empty(), fp8, d, sms);
  const GroupedTerms& t = *cfg.terms;
  const double element = dtype_bytes(k.dtype);
  const double peak = (fp8 ? gpu.fp8_peak : gpu.bf16_peak).value;
  const double sm_peak = peak / gpu.sms * (fp8 ? p.fp8_grouped_compute_scale : 1.0);
  const double epilogue = cfg.tm * cfg.tn * 2 / (t.write_rate.value * cfg.sms_per_unit);
  // Tiles dealt round-robin: `whole` rounds every unit runs, plus each unit's share of the
  // partial rounds, kept as a difference array over the units.
  const auto units = static_cast<std::size_t>(cfg.units);
  std::vector<double> diff(units + 1, 0.0);
  double whole = 0, flops = 0, bytes = 0, tiles_total = 0;
  std::size_t start = 0;
  for (const Problem& pr : ps) {
    double mt = std::ceil(pr.m / cfg.tm);
    double nt = std::ceil(pr.n / cfg.tn);
    if (fp8) {  // FP8's 2 x 2 clusters: N tiles (ping-pong's M too) in pairs
      nt = in_pairs(nt);
      mt = cfg.ping_pong ? in_pairs(mt) : mt;
    }
    const auto tiles = static_cast<std::size_t>(mt * nt);
    flops += 2 * pr.m * pr.n * pr.k;
    bytes += (pr.m + pr.n) * pr.k * element + pr.m * pr.n * 2;
    const double compute = 2 * cfg.tm * cfg.tn * pr.k / (sm_peak * cfg.sms_per_unit * t.efficiency);
    const double load =
        (cfg.tm + cfg.tn / mt) * pr.k * element / (t.operand_rate.value * cfg.sms_per_unit);
    const double main = std::pow(std::pow(compute, t.blend) + std::pow(load, t.blend), 1 / t.blend);
    const double tile = (cfg.ping_pong ? std::max(main, epilogue) : main + epilogue) +
                        (spans_odd_k_tiles(pr.k) ? t.odd_k_tiles.value : 0.0);
    whole += static_cast<double>(tiles / units) * tile;
    const std::size_t first = start % units;
    const std::size_t end = first + tiles % units;
    diff[first] += tile;
    diff[std::min(end, units)] -= tile;
    if (end > units) {
      diff[0] += tile;
      diff[end - units] -= tile;
    }
    start += tiles;
    tiles_total += static_cast<double>(tiles);
  }
  double extra = 0, running = 0;
  for (std::size_t j = 0; j < units; ++j) {
    running += diff[j];
    extra = std::max(extra, running);
  }
  const double busiest = whole + extra + (cfg.ping_pong ? epilogue : 0.0);
  const double memory = bytes / (gpu.hbm_bandwidth.value * d.memory_efficiency);
  c.flops = k.flops.value > 0 ? k.flops : core::Flops(flops);
  c.bytes = k.bytes.value > 0 ? k.bytes : core::Bytes(bytes);
  c.waves = tiles_total / cfg.units;
  const bool compute_bound = busiest >= memory;
  c.bound = compute_bound ? "compute" : "memory";
  c.time = core::Seconds(compute_bound ? busiest : memory) + d.setup + p.launch_overhead;
  c.efficiency = compute_bound ? flops / (peak * busiest) : d.memory_efficiency;
  return c;
}

GroupedGemmParams grouped_gemm_params() {
  // Fitted by tools/calibration/fit_grouped.py (its output: models/calibration/h200/moe/
  // fit_grouped.json, embedded as calibration::grouped) to the one-factor sweeps
  // h200_grouped_sweep.json, h200_grouped_shapes.json and (FP8) h200_fp8_wgrad_k.json and the
  // cases of h200_moe_kernels.json not held out: PyTorch 2.11's torch._grouped_mm (BF16) and
  // torch._scaled_grouped_mm (FP8, row-wise scales) on the lent H200, CUDA-graph timed.
  // {e, operand rate per SM, write rate per SM, p, odd k-tiles}. FP8's ping-pong is never bound
  // by its epilogue (the fit's write rate runs away).
  namespace g = calibration::grouped;
  const auto gbps = [](double v) { return core::BytesPerSecond(v * 1e9); };
  const auto us = [](double v) { return core::Seconds(v * 1e-6); };
  const auto kind = [&](double e, double bw, double w, double p) {
    return GroupedTerms{e, gbps(bw), gbps(w), p};
  };
  GroupedTerms fp8_wide_wgrad =
      kind(g::fp8_widew_e, g::fp8_widew_bw_gbps, g::fp8_widew_w_gbps, g::fp8_widew_p);
  fp8_wide_wgrad.odd_k_tiles = us(g::fp8_odd_k_tiles_us);
  return {
      .bf16 = {.ping =
                   kind(g::bf16_ping_e, g::bf16_ping_bw_gbps, g::bf16_ping_w_gbps, g::bf16_ping_p),
               .coop =
                   kind(g::bf16_coop_e, g::bf16_coop_bw_gbps, g::bf16_coop_w_gbps, g::bf16_coop_p),
               .coop_wgrad = kind(g::bf16_coopw_e, g::bf16_coopw_bw_gbps, g::bf16_coopw_w_gbps,
                                  g::bf16_coopw_p),
               .memory_efficiency = g::bf16_memory_efficiency,
               .setup = us(g::bf16_setup_us)},
      .fp8 = {.ping = kind(g::fp8_ping_e, g::fp8_ping_bw_gbps, g::fp8_ping_w_gbps, g::fp8_ping_p),
              .coop = kind(g::fp8_coop_e, g::fp8_coop_bw_gbps, g::fp8_coop_w_gbps, g::fp8_coop_p),
              .coop_wgrad =
                  kind(g::fp8_coopw_e, g::fp8_coopw_bw_gbps, g::fp8_coopw_w_gbps, g::fp8_coopw_p),
              .wide = kind(g::fp8_wide_e, g::fp8_wide_bw_gbps, g::fp8_wide_w_gbps, g::fp8_wide_p),
              .wide_wgrad = fp8_wide_wgrad,
              .memory_efficiency = g::fp8_memory_efficiency,
              .setup = us(g::fp8_setup_us)}};
}

}  // namespace codesim::cost
