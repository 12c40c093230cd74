// FP8 as DeepSeek-V3 trains with it (docs/model/deepseek-v3.md §4): exact E4M3 / E5M2 conversion,
// 1 x 128 activation tiles and 128 x 128 weight blocks with online scales (max|x| / 448), and an
// emulated FP8 GEMM whose tensor-core accumulator keeps only ~14 bits, optionally promoted to
// FP32 every N_C elements.
#pragma once

#include <cstdint>
#include <vector>

#include "models/kernels/gate.hpp"

namespace codesim::kernels {

// A sign + exponent + mantissa minifloat.
struct MinifloatFormat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  double max_finite;
  bool has_infinity;  // E5M2 yes; E4M3 no (its only specials are NaN)
};

inline constexpr MinifloatFormat kE4M3{4, 3, 7, 448.0, false};
inline constexpr MinifloatFormat kE5M2{5, 2, 15, 57344.0, true};

// Round to nearest even; values beyond the largest finite one saturate to it (satfinite, as
// DeepSeek's kernels convert); subnormals kept; NaN -> the format's NaN code.
std::uint8_t encode(float x, const MinifloatFormat& f);
float decode(std::uint8_t code, const MinifloatFormat& f);
inline float round_to(float x, const MinifloatFormat& f) {
  return decode(encode(x, f), f);
}

// BF16: float rounded to nearest even on its top 16 bits.
float round_to_bf16(float x);

// An FP8 tensor in tiles of tile_rows x tile_cols, one FP32 scale per tile: x ~ decode(code) *
// scale.
struct Fp8Tensor {
  int rows = 0;
  int cols = 0;
  int tile_rows = 1;
  int tile_cols = 128;
  std::vector<std::uint8_t> codes;  // row-major
  std::vector<float> scales;        // row-major over tiles

  float scale(int r, int c) const {
    const int tiles_per_row = (cols + tile_cols - 1) / tile_cols;
    return scales[static_cast<std::size_t>(r / tile_rows) * tiles_per_row + c / tile_cols];
  }
  float value(int r, int c) const {
    return decode(codes[static_cast<std::size_t>(r) * cols + c], kE4M3) * scale(r, c);
  }
};

// E4M3 with scale = max|tile| / 448 (1 for an all-zero tile).
Fp8Tensor quantize(const RowMatrixXf& x, int tile_rows, int tile_cols);
inline Fp8Tensor quantize_activations(const RowMatrixXf& x) {
  return quantize(x, 1, 128);
}
inline Fp8Tensor quantize_weights(const RowMatrixXf& w) {
  return quantize(w, 128, 128);
}
RowMatrixXf dequantize(const Fp8Tensor& t);

struct AccumulatorSpec {
  int mantissa_bits = 13;        // fraction bits the tensor core keeps after aligning products
  int chunk = 32;                // products aligned together (one WGMMA K step)
  int promotion_interval = 128;  // N_C: move partial sums to FP32 this often; 0 = never
};

// C = A B with A (M x K) and B (K x N) in FP8: every group of `chunk` products is aligned to the
// largest exponent among them and the running sum, and truncated to `mantissa_bits` below it.
RowMatrixXf fp8_gemm(const Fp8Tensor& a, const Fp8Tensor& b, const AccumulatorSpec& acc);

// x rounded to format f in tiles of `tile` values, each scaled so its max lands on the format's
// largest finite value (as 1 x 128 activation tiles are).
std::vector<float> round_per_tile(const std::vector<float>& x, const MinifloatFormat& f,
                                  int tile = 128);

// sqrt(sum (y - x)^2 / sum x^2).
double relative_rms_error(const std::vector<float>& x, const std::vector<float>& y);

// ||C - R||_F / ||R||_F.
double relative_error(const RowMatrixXf& c, const Eigen::MatrixXd& reference);

}  // namespace codesim::kernels
