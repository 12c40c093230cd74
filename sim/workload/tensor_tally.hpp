// Tensors of one layer and micro-batch on one GPU, named, as saved_tensors.cpp and
// inference_transient.cpp list them: `per_token` elements of each token, `bytes` each, split over
// the TP group by sequence (with sequence parallelism), by heads or columns (always), or not at
// all; or `rows` rows of a width, already this GPU's own.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/workload/saved_tensors.hpp"

namespace codesim::workload {

inline constexpr double kBf16Bytes = 2;
inline constexpr double kFp32Bytes = 4;
inline constexpr double kIndexBytes = 8;  // int64 indices

class TensorTally {
 public:
  enum class Split { sequence, columns, none };
  TensorTally(double tokens, int tp, bool sequence_parallel)
      : tokens_(tokens), tp_(tp), sequence_parallel_(sequence_parallel) {}
  void add(std::string name, double per_token, double bytes, Split split) {
    double share = 1;
    if (split == Split::columns || (split == Split::sequence && sequence_parallel_)) {
      share = 1.0 / tp_;
    }
    out_.push_back({std::move(name), tokens_ * per_token * bytes * share});
  }
  void add_rows(std::string name, double rows, double width, double bytes) {
    out_.push_back({std::move(name), rows * width * bytes});
  }
  std::vector<SavedTensor> take() { return std::move(out_); }

 private:
  double tokens_;
  int tp_;
  bool sequence_parallel_;
  std::vector<SavedTensor> out_;
};

}  // namespace codesim::workload
