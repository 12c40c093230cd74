// Minifloat conversion, tile quantization and the FP8 GEMM emulation.
#include "models/kernels/fp8.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace codesim::kernels {

std::uint8_t encode(float x, const MinifloatFormat& f) {
  const int mantissa_mask = (1 << f.mantissa_bits) - 1;
  const int exponent_max = (1 << f.exponent_bits) - 1;
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  if (std::isnan(x)) {
    return static_cast<std::uint8_t>(0x7F);  // E4M3: S.1111.111; E5M2: a NaN (S.11111.11)
  }
  double a = std::fabs(static_cast<double>(x));
  if (std::isinf(x) && f.has_infinity) {
    return static_cast<std::uint8_t>(sign | (exponent_max << f.mantissa_bits));
  }
  const int min_exponent = 1 - f.bias;  // of normal numbers
  int e = 0;
  std::frexp(a, &e);
  e = std::max(e - 1, min_exponent);  // a = m x 2^e, 1 <= m < 2 (or subnormal)
  const double quantum = std::ldexp(1.0, e - f.mantissa_bits);
  a = std::nearbyint(a / quantum) * quantum;  // round to nearest even
  if (a > f.max_finite || std::isinf(x)) {
    a = f.max_finite;  // satfinite
  }
  if (a == 0.0) {
    return sign;
  }
  std::frexp(a, &e);
  e -= 1;
  if (e < min_exponent) {  // subnormal: exponent field 0
    const int m = static_cast<int>(a / std::ldexp(1.0, min_exponent - f.mantissa_bits));
    return static_cast<std::uint8_t>(sign | m);
  }
  const int m = static_cast<int>((a / std::ldexp(1.0, e) - 1.0) * (1 << f.mantissa_bits));
  return static_cast<std::uint8_t>(sign | ((e + f.bias) << f.mantissa_bits) | (m & mantissa_mask));
}

float decode(std::uint8_t code, const MinifloatFormat& f) {
  const int mantissa_mask = (1 << f.mantissa_bits) - 1;
  const int exponent_max = (1 << f.exponent_bits) - 1;
  const double sign = (code & 0x80) ? -1.0 : 1.0;
  const int exponent = (code & 0x7F) >> f.mantissa_bits;
  const int mantissa = code & mantissa_mask;
  if (f.has_infinity && exponent == exponent_max) {
    return mantissa == 0 ? static_cast<float>(sign * INFINITY) : NAN;
  }
  if (!f.has_infinity && exponent == exponent_max && mantissa == mantissa_mask) {
    return NAN;
  }
  if (exponent == 0) {
    return static_cast<float>(sign * std::ldexp(mantissa, 1 - f.bias - f.mantissa_bits));
  }
  return static_cast<float>(
      sign *
      std::ldexp(1.0 + static_cast<double>(mantissa) / (1 << f.mantissa_bits), exponent - f.bias));
}

float round_to_bf16(float x) {
  if (std::isnan(x)) {
    return x;
  }
  auto bits = std::bit_cast<std::uint32_t>(x);
  bits += 0x7FFFU + ((bits >> 16) & 1U);
  return std::bit_cast<float>(bits & 0xFFFF0000U);
}

Fp8Tensor quantize(const RowMatrixXf& x, int tile_rows, int tile_cols) {
  Fp8Tensor t;
  t.rows = static_cast<int>(x.rows());
  t.cols = static_cast<int>(x.cols());
  t.tile_rows = tile_rows;
  t.tile_cols = tile_cols;
  const int row_tiles = (t.rows + tile_rows - 1) / tile_rows;
  const int col_tiles = (t.cols + tile_cols - 1) / tile_cols;
  t.scales.resize(static_cast<std::size_t>(row_tiles) * col_tiles);
  t.codes.resize(static_cast<std::size_t>(t.rows) * t.cols);
  for (int i = 0; i < row_tiles; ++i) {
    for (int j = 0; j < col_tiles; ++j) {
      const int r0 = i * tile_rows;
      const int c0 = j * tile_cols;
      const auto block =
          x.block(r0, c0, std::min(tile_rows, t.rows - r0), std::min(tile_cols, t.cols - c0));
      const float amax = block.cwiseAbs().maxCoeff();
      const float scale = amax > 0 ? amax / 448.0f : 1.0f;
      t.scales[static_cast<std::size_t>(i) * col_tiles + j] = scale;
      for (int r = 0; r < block.rows(); ++r) {
        for (int c = 0; c < block.cols(); ++c) {
          t.codes[static_cast<std::size_t>(r0 + r) * t.cols + c0 + c] =
              encode(block(r, c) / scale, kE4M3);
        }
      }
    }
  }
  return t;
}

RowMatrixXf dequantize(const Fp8Tensor& t) {
  RowMatrixXf x(t.rows, t.cols);
  for (int r = 0; r < t.rows; ++r) {
    for (int c = 0; c < t.cols; ++c) {
      x(r, c) = t.value(r, c);
    }
  }
  return x;
}

RowMatrixXf fp8_gemm(const Fp8Tensor& a, const Fp8Tensor& b, const AccumulatorSpec& acc) {
  const int m = a.rows;
  const int k = a.cols;
  const int n = b.cols;
  const RowMatrixXf av = dequantize(a);
  const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor> bv = dequantize(b);
  RowMatrixXf c(m, n);
  std::vector<double> products(acc.chunk);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float fp32 = 0.0f;
      double tensor_core = 0.0;
      for (int k0 = 0; k0 < k; k0 += acc.chunk) {
        const int len = std::min(acc.chunk, k - k0);
        int e_max = std::numeric_limits<int>::min();
        if (tensor_core != 0.0) {
          e_max = std::ilogb(tensor_core);
        }
        for (int q = 0; q < len; ++q) {
          products[q] = static_cast<double>(av(i, k0 + q)) * static_cast<double>(bv(k0 + q, j));
          if (products[q] != 0.0) {
            e_max = std::max(e_max, std::ilogb(products[q]));
          }
        }
        if (e_max != std::numeric_limits<int>::min()) {
          const double grid = std::ldexp(1.0, e_max - acc.mantissa_bits);
          double sum = std::trunc(tensor_core / grid);
          for (int q = 0; q < len; ++q) {
            sum += std::trunc(products[q] / grid);
          }
          tensor_core = sum * grid;
        }
        const int done = k0 + len;
        if (acc.promotion_interval > 0 && (done % acc.promotion_interval == 0 || done == k)) {
          fp32 += static_cast<float>(tensor_core);
          tensor_core = 0.0;
        }
      }
      c(i, j) = fp32 + static_cast<float>(tensor_core);
    }
  }
  return c;
}

std::vector<float> round_per_tile(const std::vector<float>& x, const MinifloatFormat& f, int tile) {
  std::vector<float> out(x.size());
  for (std::size_t t = 0; t < x.size(); t += static_cast<std::size_t>(tile)) {
    const std::size_t end = std::min(x.size(), t + static_cast<std::size_t>(tile));
    float amax = 0;
    for (std::size_t i = t; i < end; ++i) {
      amax = std::max(amax, std::fabs(x[i]));
    }
    const float scale = amax > 0 ? amax / static_cast<float>(f.max_finite) : 1.0f;
    for (std::size_t i = t; i < end; ++i) {
      out[i] = round_to(x[i] / scale, f) * scale;
    }
  }
  return out;
}

double relative_rms_error(const std::vector<float>& x, const std::vector<float>& y) {
  double num = 0;
  double den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = static_cast<double>(y[i]) - x[i];
    num += d * d;
    den += static_cast<double>(x[i]) * x[i];
  }
  return std::sqrt(num / den);
}

double relative_error(const RowMatrixXf& c, const Eigen::MatrixXd& reference) {
  return (c.cast<double>() - reference).norm() / reference.norm();
}

}  // namespace codesim::kernels
