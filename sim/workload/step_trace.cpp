// StepTrace validation.
#include "sim/workload/step_trace.hpp"

#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace codesim::workload {

std::string_view op_kind_name(OpKind k) {
  switch (k) {
    case OpKind::compute:
      return "compute";
    case OpKind::collective:
      return "collective";
    case OpKind::send:
      return "send";
    case OpKind::recv:
      return "recv";
  }
  return "";
}

std::vector<std::string> validate(const StepTrace& t) {
  std::vector<std::string> problems;
  std::unordered_map<int, std::size_t> index;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    if (!index.emplace(t.ops[i].id, i).second) {
      problems.push_back("op id " + std::to_string(t.ops[i].id) + " is used twice");
    }
  }
  // Edges: stream predecessor and explicit dependencies, as indices.
  std::vector<std::vector<std::size_t>> preds(t.ops.size());
  std::map<std::pair<int, int>, std::size_t> last_on_stream;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    const Op& op = t.ops[i];
    const auto key = std::make_pair(op.rank, op.stream);
    if (const auto it = last_on_stream.find(key); it != last_on_stream.end()) {
      preds[i].push_back(it->second);
    }
    last_on_stream[key] = i;
    for (int d : op.deps) {
      const auto it = index.find(d);
      if (it == index.end()) {
        problems.push_back("op " + std::to_string(op.id) + " depends on unknown op " +
                           std::to_string(d));
      } else {
        preds[i].push_back(it->second);
      }
    }
  }
  // Cycle check: iterative DFS colouring.
  std::vector<int> state(t.ops.size(), 0);  // 0 new, 1 on stack, 2 done
  for (std::size_t start = 0; start < t.ops.size() && problems.empty(); ++start) {
    if (state[start] != 0) {
      continue;
    }
    std::vector<std::pair<std::size_t, std::size_t>> stack{{start, 0}};
    state[start] = 1;
    while (!stack.empty() && problems.empty()) {
      auto& [v, next] = stack.back();
      if (next < preds[v].size()) {
        const std::size_t u = preds[v][next++];
        if (state[u] == 1) {
          problems.push_back("dependency cycle through op " + std::to_string(t.ops[u].id) +
                             " and op " + std::to_string(t.ops[v].id));
        } else if (state[u] == 0) {
          state[u] = 1;
          stack.emplace_back(u, 0);
        }
      } else {
        state[v] = 2;
        stack.pop_back();
      }
    }
  }
  // Sends and recvs pair up by (from, to, tag).
  std::map<std::tuple<int, int, int>, int> balance;
  for (const Op& op : t.ops) {
    if (op.kind == OpKind::send) {
      ++balance[{op.rank, op.peer, op.tag}];
    } else if (op.kind == OpKind::recv) {
      --balance[{op.peer, op.rank, op.tag}];
    }
  }
  for (const auto& [key, count] : balance) {
    const auto [from, to, tag] = key;
    if (count != 0) {
      problems.push_back(std::string(count > 0 ? "send" : "recv") + " from rank " +
                         std::to_string(from) + " to rank " + std::to_string(to) + " with tag " +
                         std::to_string(tag) + " has no matching " + (count > 0 ? "recv" : "send"));
    }
  }
  return problems;
}

}  // namespace codesim::workload
