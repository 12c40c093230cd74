// Time of a grouped expert GEMM (one product per local expert, as torch._grouped_mm and
// torch._scaled_grouped_mm run them: CUTLASS 3 persistent kernels on Hopper), from the CUTLASS
// configuration each case runs (models/calibration/README.md, "Grouped GEMMs"):
//
//   per group m x n x k: forward rows x N x K, data gradient rows x K x N, weight gradient
//   N x K x rows (K of the product = the group's rows, `group_k`); m_avg = mean m;
//   ping-pong   64 x 128 tiles, one SM each: m_avg <= 128, forward and data gradient;
//   cooperative BF16 128 x 256 tiles in clusters of 2 SMs along M (a 256 x 256 tile per unit);
//               FP8 on 116 of 132 SMs, 256 x 128 per pair of SMs when two of m_avg, n, k reach
//               2048, else 256 x 256 ("wide", k-tile 64); weight gradients always cooperative.
//
// CUTLASS's grouped scheduler rounds each group's tile counts up to the cluster's (BF16 2 x 1,
// FP8 2 x 2, from the kernel names) and runs the padded tiles: M tiles count in pairs (the
// 256-row unit tile), FP8's N tiles too, and FP8 ping-pong's M tiles. Each unit (SM or pair of
// SMs) takes the tiles in launch order round-robin (a persistent grid):
//
//   main     = (compute^p + load^p)^(1/p)
//   compute  = 2 tm tn k / (the unit's share of the dtype peak x e)
//   load     = (tm + tn / mt) k bytes / (the unit's operand rate)   (mt = the group's M tiles:
//              its weight panel comes once from HBM, then from L2)
//   epilogue = tm tn 2 / (the unit's write rate)                    (BF16 output)
//   tile     = main + epilogue; ping-pong: max(main, epilogue), one epilogue left at the end;
//              + odd_k_tiles where the group's K spans an odd number of 64-wide k-tiles
//              (measured on FP8's wide weight gradient only; zero elsewhere)
//   time     = max(busiest unit's tiles, all bytes / (HBM x e_mem)) + setup + fixed cost
//
// e, the rates and p per configuration (the cooperative weight gradients apart), e_mem and setup
// per dtype: fitted to H200 runs (grouped_gemm_params()). The rates are per SM and absolute: the
// loads they pace run at 1.4-8x the HBM bandwidth per SM, from L2, which the Hopper parts share
// (an H800 has an H200's SMs and L2 with less HBM, which only the HBM bound sees); SMs held by
// communication take their units away.
#pragma once

#include "models/cost/kernel_cost.hpp"

namespace codesim::cost {

KernelCost predict_grouped_gemm(const KernelShape& k, const hardware::GpuSpec& gpu, int sms,
                                const CostParams& p);

GroupedGemmParams grouped_gemm_params();

}  // namespace codesim::cost
