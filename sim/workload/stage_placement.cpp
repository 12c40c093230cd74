// Linear partition of layers over stages (dynamic programming over split points).
#include "sim/workload/stage_placement.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace codesim::workload {
namespace {

// Cost of a run of layers, with the embedding and the head where they sit, from prefix sums.
class RunCost {
 public:
  explicit RunCost(const StageCosts& c) : c_(c), prefix_(c.layer.size() + 1, 0.0) {
    for (std::size_t i = 0; i < c.layer.size(); ++i) {
      prefix_[i + 1] = prefix_[i] + c.layer[i];
    }
  }
  // Layers [a, b).
  double operator()(int a, int b, bool embedding, bool head) const {
    return prefix_[static_cast<std::size_t>(b)] - prefix_[static_cast<std::size_t>(a)] +
           (embedding ? c_.embedding : 0.0) + (head ? c_.head : 0.0);
  }
  double operator()(const StageLayers& s) const {
    return (*this)(s.first_layer, s.last_layer + 1, s.embedding, s.head);
  }

 private:
  const StageCosts& c_;
  std::vector<double> prefix_;
};

}  // namespace

std::vector<StageLayers> place_layers(const StageCosts& c, int stages) {
  const int n = static_cast<int>(c.layer.size());
  if (stages < 1 || n < stages) {
    throw std::invalid_argument("cannot place " + std::to_string(n) + " layers on " +
                                std::to_string(stages) + " pipeline stages: each needs a layer");
  }
  const RunCost run_cost(c);
  // Cost of stage k holding layers [a, b).
  auto cost = [&](int k, int a, int b) { return run_cost(a, b, k == 0, k == stages - 1); };
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // best[k][i]: the smallest max stage cost placing the first i layers on stages 0..k.
  std::vector<std::vector<double>> best(static_cast<std::size_t>(stages),
                                        std::vector<double>(static_cast<std::size_t>(n) + 1, kInf));
  std::vector<std::vector<int>> split(best.size(),
                                      std::vector<int>(static_cast<std::size_t>(n) + 1, -1));
  for (int i = 1; i <= n; ++i) {
    best[0][static_cast<std::size_t>(i)] = cost(0, 0, i);
    split[0][static_cast<std::size_t>(i)] = 0;
  }
  for (int k = 1; k < stages; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    for (int i = k + 1; i <= n; ++i) {
      for (int j = k; j < i; ++j) {
        const double v = std::max(best[ku - 1][static_cast<std::size_t>(j)], cost(k, j, i));
        if (v < best[ku][static_cast<std::size_t>(i)]) {
          best[ku][static_cast<std::size_t>(i)] = v;
          split[ku][static_cast<std::size_t>(i)] = j;
        }
      }
    }
  }
  std::vector<StageLayers> out(static_cast<std::size_t>(stages));
  int end = n;
  for (int k = stages - 1; k >= 0; --k) {
    const int start = split[static_cast<std::size_t>(k)][static_cast<std::size_t>(end)];
    out[static_cast<std::size_t>(k)] = StageLayers{start, end - 1, k == 0, k == stages - 1};
    end = start;
  }
  return out;
}

std::vector<StageLayers> place_layers(const StageCosts& c, int stages,
                                      const std::vector<std::vector<int>>& stages_of) {
  std::vector<StageLayers> out = place_layers(c, stages);
  const RunCost stage_cost(c);
  // (busiest device's sum, sum of squares of the devices' sums): smaller is better.
  const auto score = [&](const std::vector<StageLayers>& p) {
    double busiest = 0;
    double squares = 0;
    for (const auto& device : stages_of) {
      double sum = 0;
      for (const int st : device) {
        sum += stage_cost(p[static_cast<std::size_t>(st)]);
      }
      busiest = std::max(busiest, sum);
      squares += sum * sum;
    }
    return std::pair{busiest, squares};
  };
  auto best = score(out);
  // Each move shifts one layer across one boundary; every accepted move lowers the score, so the
  // search ends (a cap guards against rounding loops).
  for (int round = 0; round < 100'000; ++round) {
    std::vector<StageLayers> chosen;
    for (std::size_t k = 0; k + 1 < out.size(); ++k) {
      for (const int shift : {-1, 1}) {  // -1: stage k's last layer to k + 1; 1: the reverse
        auto p = out;
        auto& left = p[k];
        auto& right = p[k + 1];
        if ((shift < 0 ? left.layers() : right.layers()) < 2) {
          continue;
        }
        left.last_layer += shift;
        right.first_layer += shift;
        const auto sc = score(p);
        if (sc.first < best.first - 1e-12 ||
            (sc.first <= best.first + 1e-12 && sc.second < best.second - 1e-12)) {
          best = sc;
          chosen = std::move(p);
        }
      }
    }
    if (chosen.empty()) {
      break;
    }
    out = std::move(chosen);
  }
  return out;
}

std::string describe(const StageLayers& s) {
  std::string out = s.first_layer == s.last_layer
                        ? std::to_string(s.first_layer)
                        : std::to_string(s.first_layer) + "-" + std::to_string(s.last_layer);
  if (s.embedding) {
    out += " + embedding";
  }
  if (s.head) {
    out += " + head, MTP";
  }
  return out;
}

}  // namespace codesim::workload
