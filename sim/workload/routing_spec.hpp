// How a step's tokens reach their experts as a scenario's routing: section gives it: the node
// limit, the dispatch kernels, load balancing, and the synthetic tokens the routing plans are
// drawn from. parameters.hpp declares each key with its doc and default (the struct's own; the
// node limit the model's).
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "sim/workload/ep_mode.hpp"

namespace codesim::workload {

// Expert load balancing: none, DeepSeek-V3's auxiliary-loss-free bias, or perfectly even.
enum class Balance { none, bias, perfect };
inline constexpr std::array kBalanceNames = {
    std::pair{Balance::none, std::string_view("none")},
    std::pair{Balance::bias, std::string_view("bias")},
    std::pair{Balance::perfect, std::string_view("perfect")}};
constexpr const auto& spellings(Balance) {
  return kBalanceNames;
}

// Topic skew of the synthetic tokens.
struct TokenSkew {
  double zipf = 0;  // popularity exponent of topic clusters; 0 = uniform
  int topics = 1;
};

struct RoutingSpec {
  int node_limit = 1;  // nodes (expert groups) per token at most; the model's by default
  EpMode dispatch = EpMode::deepep_normal;
  Balance balance = Balance::bias;
  TokenSkew skew;
  int seed = 1;
  int plans = 4;             // routing plans per step
  int sample_tokens = 1024;  // per GPU, per plan
  int balance_steps = 100;
};

}  // namespace codesim::workload
