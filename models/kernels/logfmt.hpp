// LogFMT-nBit (docs/model/deepseek-v3.md §5), the log-domain format DeepSeek studied for combine.
// Per 1 x 128 tile: min and max of ln|x| (min raised to max - ln 2^32 if lower); code 0 = zero,
// codes 1 .. 2^(n-1) - 1 = exp(min + step (K - 1)), step = (max - min) / (2^(n-1) - 2); a value
// rounds to the nearer of its two neighbouring codes in linear space (unbiased); sign bit apart.
#pragma once

#include <cstdint>
#include <vector>

namespace codesim::kernels {

struct LogFmtTile {
  float min_log = 0;
  float step = 0;
  std::vector<std::uint16_t> codes;  // bit n-1: sign; bits 0..n-2: K
};

LogFmtTile logfmt_encode(const float* x, int count, int bits);
std::vector<float> logfmt_decode(const LogFmtTile& tile, int bits);

// Encodes and decodes x in tiles of 128.
std::vector<float> logfmt_roundtrip(const std::vector<float>& x, int bits);

// Bytes on the wire for `values` values: n bits each plus two FP32 (min, step) per 128.
double logfmt_bytes(double values, int bits);

}  // namespace codesim::kernels
