// Linear partition of layers over stages (dynamic programming over split points).
#include "sim/core/error.hpp"
#include "sim/workload/stage_placement.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

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
    throw core::KeyedError("parallelism.pp",
                           "cannot place " + std::to_string(n) + " layers on " +
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

namespace {

// Whether device d holds stages d and S - 1 - d (DualPipe, DualPipeV): the pipeline folded in two.
bool folded(int stages, const std::vector<std::vector<int>>& stages_of) {
  const int devices = static_cast<int>(stages_of.size());
  if (stages != 2 * devices) {
    return false;
  }
  for (int d = 0; d < devices; ++d) {
    auto own = stages_of[static_cast<std::size_t>(d)];
    std::sort(own.begin(), own.end());
    if (own != std::vector<int>{d, stages - 1 - d}) {
      return false;
    }
  }
  return true;
}

// A folded pipeline's layers with every device's sum at most `t` and every stage's transformer
// layers (the embedding and the head aside) costing at most `stage_bound`, or nothing. Devices are peeled
// from both ends: device d takes stage d from the front of what is left and stage S - 1 - d from
// the back (the first device may keep the embedding and the head alone; the innermost device
// takes the rest). Dynamic programming over the devices: for each front boundary the smallest
// back boundary reachable that leaves a layer per inner stage (leaving less to place is then
// never worse), with the choices kept to rebuild the placement.
std::vector<StageLayers> peel(const RunCost& cost, int layers, int stages, double t,
                              double stage_bound) {
  const int devices = stages / 2;
  const auto n = static_cast<std::size_t>(layers);
  struct Step {
    int j = -1;  // back boundary reached
    int from = -1, a = 0, b = 0;
  };
  std::vector<std::vector<Step>> reach(static_cast<std::size_t>(devices) + 1,
                                       std::vector<Step>(n + 1));
  reach[0][0] = {layers, -1, 0, 0};
  for (int d = 0; d < devices; ++d) {
    const bool outer = d == 0;
    const bool innermost = d == devices - 1;
    const int least = outer ? 0 : 1;
    for (int i = 0; i <= layers; ++i) {
      const int j = reach[static_cast<std::size_t>(d)][static_cast<std::size_t>(i)].j;
      if (j < 0) {
        continue;
      }
      for (int a = least; i + a <= j; ++a) {
        const double front = cost(i, i + a, outer, false);
        if (front > t || cost(i, i + a, false, false) > stage_bound) {
          break;
        }
        for (int b = innermost ? j - i - a : least; b >= least && i + a + b <= j; ++b) {
          if ((j - b) - (i + a) < 2 * (devices - d - 1)) {
            break;  // the devices further in need a layer per stage
          }
          const double back = cost(j - b, j, false, outer);
          if (front + back > t || cost(j - b, j, false, false) > stage_bound) {
            break;
          }
          Step& next = reach[static_cast<std::size_t>(d) + 1][static_cast<std::size_t>(i + a)];
          if (next.j < 0 || j - b < next.j) {
            next = {j - b, i, a, b};
          }
          if (innermost) {
            break;
          }
        }
      }
    }
  }
  // A placement exists when some front boundary meets its back one after the last device.
  int i = -1;
  for (int k = 0; k <= layers; ++k) {
    if (reach[static_cast<std::size_t>(devices)][static_cast<std::size_t>(k)].j == k) {
      i = k;
      break;
    }
  }
  if (i < 0) {
    return {};
  }
  std::vector<StageLayers> out(static_cast<std::size_t>(stages));
  for (int d = devices; d > 0; --d) {
    const Step& s = reach[static_cast<std::size_t>(d)][static_cast<std::size_t>(i)];
    const int front = s.from;
    const int back = s.j + s.b;  // the back boundary before this device
    const bool outer = d == 1;
    out[static_cast<std::size_t>(d - 1)] = StageLayers{front, front + s.a - 1, outer, false};
    out[static_cast<std::size_t>(stages - d)] = StageLayers{s.j, back - 1, false, outer};
    i = front;
  }
  return out;
}

// The smallest bound on the devices' sums a peel meets, then, under it, the smallest bound on
// the stages' layers (a device's two stages even, so that its overlapped F&B pairs interleave
// layers of both): two bisections.
std::vector<StageLayers> peeled_placement(const StageCosts& c, int stages) {
  const RunCost cost(c);
  const int n = static_cast<int>(c.layer.size());
  const double all = cost(0, n, true, true);
  std::vector<StageLayers> best = peel(cost, n, stages, all, all);
  if (best.empty()) {
    return best;
  }
  auto bisect = [&](auto feasible) {
    double low = 0;
    double high = all;
    for (int it = 0; it < 40; ++it) {
      const double mid = (low + high) / 2;
      auto p = feasible(mid);
      if (p.empty()) {
        low = mid;
      } else {
        high = mid;
        best = std::move(p);
      }
    }
    return high;
  };
  const double device = bisect([&](double t) { return peel(cost, n, stages, t, all); });
  bisect([&](double s) { return peel(cost, n, stages, device, s); });
  return best;
}

}  // namespace

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
  // One layer across boundary k (between stages k and k + 1): shift -1 gives stage k's last layer
  // to k + 1, +1 the reverse. The first stage may end with the embedding alone, the last with the
  // head alone. False when the giving stage cannot spare a layer.
  const auto move = [&](std::vector<StageLayers>& p, std::size_t k, int shift) {
    auto& left = p[k];
    auto& right = p[k + 1];
    const bool giver_may_empty = shift < 0 ? k == 0 : k + 2 == p.size();
    if ((shift < 0 ? left.layers() : right.layers()) < (giver_may_empty ? 1 : 2)) {
      return false;
    }
    left.last_layer += shift;
    right.first_layer += shift;
    return true;
  };
  auto best = score(out);
  if (folded(stages, stages_of)) {
    // The linear partition balances stages, not devices: the peel is exact for the devices (and
    // the most even stages under that), so it is kept as it is when it is better.
    auto p = peeled_placement(c, stages);
    if (!p.empty() && score(p) < best) {
      return p;
    }
  }
  const auto better = [&](const std::pair<double, double>& sc) {
    return sc.first < best.first - 1e-12 ||
           (sc.first <= best.first + 1e-12 && sc.second < best.second - 1e-12);
  };
  const std::size_t boundaries = out.size() - 1;
  // Every accepted change lowers the score, so the search ends (a cap guards against rounding
  // loops). Single moves first; when none helps, two moves at once (a layer handed along the
  // pipeline while the busiest device sheds one, as DualPipeV's first device needs).
  for (int round = 0; round < 100'000; ++round) {
    std::vector<StageLayers> chosen;
    for (std::size_t k = 0; k < boundaries; ++k) {
      for (const int shift : {-1, 1}) {
        auto p = out;
        if (move(p, k, shift) && better(score(p))) {
          best = score(p);
          chosen = std::move(p);
        }
      }
    }
    for (std::size_t k = 0; chosen.empty() && k < boundaries; ++k) {
      for (std::size_t j = k + 1; j < boundaries; ++j) {
        for (const int a : {-1, 1}) {
          for (const int b : {-1, 1}) {
            auto p = out;
            if (move(p, k, a) && move(p, j, b) && better(score(p))) {
              best = score(p);
              chosen = std::move(p);
            }
          }
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
  std::string out = s.layers() == 0                  ? std::string()
                    : s.first_layer == s.last_layer ? std::to_string(s.first_layer)
                                                    : std::to_string(s.first_layer) + "-" +
                                                          std::to_string(s.last_layer);
  auto add = [&](const char* part) { out += out.empty() ? part : std::string(" + ") + part; };
  if (s.embedding) {
    add("embedding");
  }
  if (s.head) {
    add("head, MTP");
  }
  return out;
}

}  // namespace codesim::workload
