// Breakdown, exposed communication, link use and memory of a replayed step.
#include "sim/engine/step_metrics.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "models/llm/analytics.hpp"
#include "sim/engine/expert_parallel.hpp"
#include "sim/workload/schedule.hpp"

namespace codesim::engine {
namespace {

using workload::ChunkKind;
using workload::CommKind;

struct Interval {
  double a = 0;
  double b = 0;
};

// Length of `x` not covered by the sorted, disjoint `cover`.
double uncovered(const Interval& x, const std::vector<Interval>& cover) {
  double left = x.b - x.a;
  for (const auto& c : cover) {
    const double lo = std::max(x.a, c.a);
    const double hi = std::min(x.b, c.b);
    if (hi > lo) {
      left -= hi - lo;
    }
  }
  return std::max(0.0, left);
}

std::vector<Interval> merged(std::vector<Interval> v) {
  std::sort(v.begin(), v.end(), [](const Interval& x, const Interval& y) { return x.a < y.a; });
  std::vector<Interval> out;
  for (const auto& i : v) {
    if (i.b <= i.a) {
      continue;
    }
    if (!out.empty() && i.a <= out.back().b) {
      out.back().b = std::max(out.back().b, i.b);
    } else {
      out.push_back(i);
    }
  }
  return out;
}

std::string comm_group(CommKind k) {
  switch (k) {
    case CommKind::ep_dispatch:
    case CommKind::ep_combine:
      return "EP";
    case CommKind::pp_send:
      return "PP";
    default:
      return "DP";
  }
}

metrics::Breakdown breakdown(const workload::StepProgram& p, const StepTimeline& t,
                             double step_time) {
  std::map<int, Interval> chunks;
  std::map<int, ChunkKind> kinds;
  double last_chunk_end = 0;
  std::vector<Interval> tail;
  for (const auto& task : p.tasks) {
    if (task.rank != 0) {
      continue;
    }
    const auto& tt = t.tasks[static_cast<std::size_t>(task.id)];
    if (task.chunk < 0) {
      tail.push_back({tt.start.value, tt.end.value});
      continue;
    }
    auto [it, fresh] = chunks.emplace(task.chunk, Interval{tt.start.value, tt.end.value});
    if (!fresh) {
      it->second.a = std::min(it->second.a, tt.start.value);
      it->second.b = std::max(it->second.b, tt.end.value);
    }
    kinds[task.chunk] = task.chunk_kind;
    last_chunk_end = std::max(last_chunk_end, tt.end.value);
  }
  metrics::Breakdown out;
  for (auto it = chunks.begin(); it != chunks.end(); ++it) {
    const auto next = std::next(it);
    const double end = next == chunks.end() ? it->second.b : std::min(it->second.b, next->second.a);
    const core::Seconds span(std::max(0.0, end - it->second.a));
    switch (kinds[it->first]) {
      case ChunkKind::forward:
        out.forward += span;
        break;
      case ChunkKind::backward:
      case ChunkKind::backward_input:
        out.backward += span;
        break;
      case ChunkKind::weight:
        out.weight += span;
        break;
      case ChunkKind::forward_backward:
        out.forward_backward += span;
        break;
    }
  }
  for (const auto& i : merged(tail)) {
    out.optimizer += core::Seconds(std::max(0.0, i.b - std::max(i.a, last_chunk_end)));
  }
  out.bubble = core::Seconds(step_time) -
               (out.forward + out.backward + out.weight + out.forward_backward + out.optimizer);
  return out;
}

}  // namespace

double activation_bytes_per_token_layer(const llm::LlmSpec& m) {
  return 34.0 * m.hidden;
}

metrics::MemoryUse memory_use(const workload::StepProgram& p, const StepFacts& f) {
  double params = 0;
  double shard = 0;
  double layers = 0;
  for (const int st : p.schedule.stages_of(0)) {
    const double dense = p.stage_dense_params[static_cast<std::size_t>(st)];
    const double experts = p.stage_expert_params[static_cast<std::size_t>(st)];
    params += dense + experts;
    shard += dense / f.dp + experts / std::max(1, f.dp / f.ep);
    layers = std::max<double>(layers, p.placement[static_cast<std::size_t>(st)].layers());
  }
  metrics::MemoryUse m;
  m.parameters_gb = params * 2 / 1e9;
  m.optimizer_gb = shard * (4 + 2 + 2) / 1e9;
  m.gradients_gb = params * 4 / 1e9;
  m.capacity_gb = f.gpu.hbm_capacity.value / 1e9;
  m.peak_in_flight = workload::peak_in_flight(p.schedule).front();
  m.activations_gb = m.peak_in_flight * layers * f.tokens_per_micro_batch *
                     activation_bytes_per_token_layer(*f.model) / 1e9;
  return m;
}

metrics::RunResult measure_step(const workload::StepProgram& p, const StepTimeline& t,
                                const Platform& platform, const StepFacts& f) {
  metrics::RunResult r;
  double step = 0;
  for (const auto& tt : t.tasks) {
    step = std::max(step, tt.end.value);
  }
  r.step_time = core::Seconds(step);
  r.breakdown = breakdown(p, t, step);
  r.tokens_per_step = f.sequences_per_step * f.seq_len;
  r.tokens_per_day = r.tokens_per_step / step * 86400.0;
  const auto a = llm::analyze(*f.model, f.seq_len);
  r.tflops_causal = a.training_flops_per_token.value * r.tokens_per_step / step / f.gpus / 1e12;
  r.tflops_noncausal =
      a.training_flops_per_token_noncausal.value * r.tokens_per_step / step / f.gpus / 1e12;
  r.mfu_causal = r.tflops_causal * 1e12 / f.gpu.bf16_peak.value;
  r.mfu_noncausal = r.tflops_noncausal * 1e12 / f.gpu.bf16_peak.value;

  // Exposed communication on the first rank: its communication time its compute does not cover.
  std::vector<Interval> compute;
  std::map<std::string, std::vector<Interval>> comm;
  for (const auto& task : p.tasks) {
    if (task.rank != 0) {
      continue;
    }
    const auto& tt = t.tasks[static_cast<std::size_t>(task.id)];
    if (task.stream == workload::StepStream::compute) {
      compute.push_back({tt.start.value, tt.end.value});
    } else if (task.comm) {
      comm[comm_group(task.comm->kind)].push_back({tt.start.value, tt.end.value});
    }
  }
  const auto covered = merged(compute);
  for (const auto& i : covered) {
    r.compute_busy += core::Seconds(i.b - i.a);
  }
  for (const char* k : {"EP", "PP", "DP"}) {
    double exposed = 0;
    for (const auto& i : merged(comm[k])) {
      exposed += uncovered(i, covered);
    }
    r.exposed_comm[k] = core::Seconds(exposed);
  }

  // Overlapped pairs between two plain MoE stages.
  {
    auto plain = [&](int stage) {
      const auto& sl = p.placement[static_cast<std::size_t>(stage)];
      return !sl.embedding && !sl.head && f.model->is_moe_layer(sl.first_layer);
    };
    std::map<std::pair<int, int>, Interval> pairs;
    for (const auto& task : p.tasks) {
      if (task.chunk < 0 || task.chunk_kind != ChunkKind::forward_backward) {
        continue;
      }
      const auto& chunk =
          p.schedule
              .per_rank[static_cast<std::size_t>(task.rank)][static_cast<std::size_t>(task.chunk)];
      if (!plain(chunk.work.stage) || !plain(chunk.backward.stage)) {
        continue;
      }
      const auto& tt = t.tasks[static_cast<std::size_t>(task.id)];
      // The pair begins when its first real piece starts (not while it waits for its inputs).
      const bool waiting = task.piece == "recv(F)" || task.piece == "recv(B)";
      auto [it, fresh] = pairs.emplace(std::make_pair(task.rank, task.chunk),
                                       Interval{waiting ? 1e300 : tt.start.value, tt.end.value});
      if (!fresh) {
        if (!waiting) {
          it->second.a = std::min(it->second.a, tt.start.value);
        }
        it->second.b = std::max(it->second.b, tt.end.value);
      }
    }
    std::vector<double> spans;
    for (const auto& [k, i] : pairs) {
      spans.push_back(i.b - i.a);
    }
    if (!spans.empty()) {
      std::nth_element(spans.begin(), spans.begin() + static_cast<long>(spans.size() / 2),
                       spans.end());
      r.median_pair = core::Seconds(spans[spans.size() / 2]);
    }
    r.pairs_measured = static_cast<int>(spans.size());
  }

  // Bytes per directed link over the step (every task runs its transfer once per repeat).
  const auto& router = platform.router();
  const auto& topo = platform.topology();
  std::vector<int> runs(t.transfers.size(), 0);
  for (const int i : t.transfer_of_task) {
    if (i >= 0) {
      ++runs[static_cast<std::size_t>(i)];
    }
  }
  topologies::LinkLoads step_loads;
  step_loads.bytes.assign(2 * topo.links().size(), core::Bytes(0));
  for (std::size_t i = 0; i < t.transfers.size(); ++i) {
    const auto loads = router.loads(t.transfers[i].flows);
    for (std::size_t d = 0; d < step_loads.bytes.size(); ++d) {
      step_loads.bytes[d] += loads.bytes[d] * runs[i] * t.transfers[i].repeat;
    }
  }
  // IB bytes the first rank's EP group sends into the network (GPU -> NIC over PCIe).
  std::vector<int> group(static_cast<std::size_t>(f.gpus_per_rank_in_ep));
  std::iota(group.begin(), group.end(), 0);
  core::Bytes sent;
  for (const auto& g : sent_per_gpu(router, step_loads, group)) {
    sent += g.rdma;
  }
  r.ib_bytes_per_gpu = group.empty() ? core::Bytes(0) : sent / static_cast<double>(group.size());
  std::vector<std::pair<double, int>> use;
  for (std::size_t d = 0; d < step_loads.bytes.size(); ++d) {
    const double bytes = step_loads.bytes[d].value;
    if (bytes > 0) {
      const auto& link = topo.link(topo.links()[d / 2]);
      use.emplace_back(bytes / (link.bandwidth.value * step), static_cast<int>(d));
    }
  }
  std::sort(use.begin(), use.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  for (std::size_t i = 0; i < std::min<std::size_t>(5, use.size()); ++i) {
    const int d = use[i].second;
    r.busiest_links.push_back(
        {router.describe(d), step_loads.bytes[static_cast<std::size_t>(d)], use[i].first});
  }

  r.memory = memory_use(p, f);
  return r;
}

}  // namespace codesim::engine
