// LogFMT encode and decode.
#include "models/kernels/logfmt.hpp"

#include <algorithm>
#include <cmath>

namespace codesim::kernels {

LogFmtTile logfmt_encode(const float* x, int count, int bits) {
  const int levels = (1 << (bits - 1)) - 1;  // nonzero codes 1..levels
  LogFmtTile tile;
  tile.codes.assign(count, 0);
  double lo = INFINITY;
  double hi = -INFINITY;
  for (int i = 0; i < count; ++i) {
    if (x[i] != 0.0f) {
      const double l = std::log(std::fabs(static_cast<double>(x[i])));
      lo = std::min(lo, l);
      hi = std::max(hi, l);
    }
  }
  if (hi == -INFINITY) {
    return tile;  // all zero
  }
  lo = std::max(lo, hi - 32.0 * std::log(2.0));
  const double step = (hi - lo) / (levels - 1);
  tile.min_log = static_cast<float>(lo);
  tile.step = static_cast<float>(step);
  const double min_log = tile.min_log;
  const double stored_step = tile.step;
  auto magnitude = [&](int k) { return std::exp(min_log + stored_step * (k - 1)); };
  for (int i = 0; i < count; ++i) {
    if (x[i] == 0.0f) {
      continue;
    }
    const double a = std::fabs(static_cast<double>(x[i]));
    int k = 0;
    if (stored_step == 0.0) {
      k = 1;
    } else {
      const double position = (std::log(a) - min_log) / stored_step + 1.0;
      const int below = std::clamp(static_cast<int>(std::floor(position)), 0, levels);
      const int above = std::min(below + 1, levels);
      const double v_below = below == 0 ? 0.0 : magnitude(below);
      const double v_above = magnitude(above);
      k = (a - v_below <= v_above - a) ? below : above;
    }
    tile.codes[i] = static_cast<std::uint16_t>(k | (std::signbit(x[i]) ? (1 << (bits - 1)) : 0));
  }
  return tile;
}

std::vector<float> logfmt_decode(const LogFmtTile& tile, int bits) {
  const int sign_bit = 1 << (bits - 1);
  std::vector<float> out(tile.codes.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int k = tile.codes[i] & (sign_bit - 1);
    const double v = k == 0 ? 0.0
                            : std::exp(static_cast<double>(tile.min_log) +
                                       static_cast<double>(tile.step) * (k - 1));
    out[i] = static_cast<float>((tile.codes[i] & sign_bit) ? -v : v);
  }
  return out;
}

std::vector<float> logfmt_roundtrip(const std::vector<float>& x, int bits) {
  std::vector<float> out;
  out.reserve(x.size());
  for (std::size_t i = 0; i < x.size(); i += 128) {
    const int count = static_cast<int>(std::min<std::size_t>(128, x.size() - i));
    const auto decoded = logfmt_decode(logfmt_encode(x.data() + i, count, bits), bits);
    out.insert(out.end(), decoded.begin(), decoded.end());
  }
  return out;
}

double logfmt_bytes(double values, int bits) {
  return values * bits / 8.0 + std::ceil(values / 128.0) * 8.0;
}

}  // namespace codesim::kernels
