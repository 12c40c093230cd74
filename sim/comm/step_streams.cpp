// Step program -> stream program (tasks, streams, distinct transfers) that either tier replays.
#include "sim/comm/step_streams.hpp"

#include <map>
#include <tuple>

#include "sim/comm/algorithm_choice.hpp"
#include "sim/comm/collective.hpp"
#include "sim/comm/nccl_tuner.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace codesim::comm {
namespace {

using workload::CommKind;
using workload::CommRef;

// Distinct transfers, built once per key.
class Transfers {
 public:
  Transfers(const StepNetwork& n, const topologies::TrafficRouter& r, std::vector<Transfer>& out)
      : n_(n), router_(r), topology_(r.topology()), links_(fold_links(r)), out_(out) {}

  int index(int rank, const CommRef& c) {
    const int plan = plan_of(c);
    const auto key = std::make_tuple(static_cast<int>(c.kind), rank, c.gradient, c.to_rank,
                                     c.bytes.value, c.experts, plan);
    const auto found = index_.find(key);
    if (found != index_.end()) {
      return found->second;
    }
    out_.push_back(build(rank, c, plan));
    const int i = static_cast<int>(out_.size()) - 1;
    index_.emplace(key, i);
    return i;
  }

 private:
  int first_gpu(int rank) const { return rank * n_.shape.gpus_per_rank(); }

  int plan_of(const CommRef& c) const {
    const bool ep = c.kind == CommKind::ep_dispatch || c.kind == CommKind::ep_combine;
    if (!ep || n_.plans.empty()) {
      return -1;
    }
    return (7 * c.layer + c.micro_batch) % static_cast<int>(n_.plans.size());
  }

  Transfer build(int rank, const CommRef& c, int plan) {
    Transfer t{.name = std::string(workload::comm_kind_name(c.kind))};
    switch (c.kind) {
      case CommKind::ep_dispatch:
      case CommKind::ep_combine: {
        std::vector<int> gpus;
        for (int i = 0; i < n_.shape.ep; ++i) {
          gpus.push_back(first_gpu(rank) + i);
        }
        if (plan < 0) {
          throw core::SimulationError("an expert-parallel transfer but no routing plan");
        }
        const EpFlows f =
            ep_flows(n_.plans[static_cast<std::size_t>(plan)], n_.mode, n_.payload, gpus);
        // Forward: dispatch sends FP8 tokens out, combine brings BF16 results back. Backward:
        // combine(B) sends the output gradients out the way dispatch went (FP8, as the profile's
        // casts show), dispatch(B) brings the input gradients back the way combine came (BF16).
        const bool outward = (c.kind == CommKind::ep_dispatch) != c.gradient;
        t.flows = outward ? f.dispatch : f.combine;
        const double scale =
            static_cast<double>(n_.shape.tokens_per_gpu()) / n_.plan_tokens_per_gpu;
        for (auto& flow : t.flows) {
          flow.bytes = flow.bytes * scale;
        }
        t.sender_cap = n_.ep_sender_cap;
        add_ep_costs(t, n_.mode, topology_.node_spec(), n_.ep_sms,
                     outward ? n_.payload.dispatch : n_.payload.combine);
        // The forward's dispatch lays its tokens out; the backward's reuses that handle.
        apply_ep_rates(t, n_.mode, n_.ep_rates, outward, outward && !c.gradient);
        break;
      }
      case CommKind::pp_send:
        t.flows = {topologies::Flow{
            .src = first_gpu(c.from_rank), .dst = first_gpu(c.to_rank), .bytes = c.bytes}};
        t.calls = nccl_calls(topology_.node_spec().comm, true);
        t.chosen_call = static_cast<int>(nccl_p2p_protocol(c.bytes));
        break;
      case CommKind::tp_all_gather:
      case CommKind::tp_reduce_scatter:
      case CommKind::tp_all_reduce: {
        std::vector<int> gpus;
        for (int g = 0; g < n_.shape.tp; ++g) {
          gpus.push_back(first_gpu(rank) + g);
        }
        const auto kind = c.kind == CommKind::tp_all_gather       ? CollectiveKind::all_gather
                          : c.kind == CommKind::tp_reduce_scatter ? CollectiveKind::reduce_scatter
                                                                  : CollectiveKind::all_reduce;
        collective(t, kind, gpus, c.bytes);
        break;
      }
      case CommKind::cp_all_gather:
      case CommKind::cp_reduce_scatter: {
        std::vector<int> gpus;
        for (int g = 0; g < n_.shape.cp; ++g) {
          gpus.push_back(first_gpu(rank) + g * n_.shape.tp);
        }
        collective(t,
                   c.kind == CommKind::cp_all_gather ? CollectiveKind::all_gather
                                                     : CollectiveKind::reduce_scatter,
                   gpus, c.bytes);
        break;
      }
      case CommKind::dp_reduce_scatter:
      case CommKind::dp_all_gather: {
        std::vector<int> gpus;
        // Replicas of this GPU's parameters: every tp-th GPU of the rank, its data- and
        // context-parallel peers (experts: every ep-th).
        const int step = c.experts ? n_.shape.ep : n_.shape.tp;
        for (int g = 0; g < n_.shape.gpus_per_rank(); g += step) {
          gpus.push_back(first_gpu(rank) + g);
        }
        collective(t,
                   c.kind == CommKind::dp_reduce_scatter ? CollectiveKind::reduce_scatter
                                                         : CollectiveKind::all_gather,
                   gpus, c.bytes);
        break;
      }
    }
    return t;
  }

  // A collective of `bytes` over `gpus` by the fastest one-phase algorithm NCCL has for it (ring,
  // tree, nvls), with its costs; nothing for a group of one.
  void collective(Transfer& t, CollectiveKind kind, const std::vector<int>& gpus,
                  core::Bytes bytes) const {
    if (gpus.size() < 2) {
      return;
    }
    CollectiveSpec spec{.kind = kind, .gpus = gpus, .size = bytes};
    spec.algorithm = fastest_algorithm(spec, router_, links_, false);
    const std::string name = t.name;
    t = collective_transfers(spec, topology_, 0).front();
    t.name = name;
  }

  const StepNetwork& n_;
  const topologies::TrafficRouter& router_;
  const topologies::Topology& topology_;
  FoldedLinks links_;
  std::vector<Transfer>& out_;
  std::map<std::tuple<int, int, bool, int, double, bool, int>, int> index_;
};

}  // namespace

StreamProgram step_stream_program(const topologies::TrafficRouter& router,
                                  const workload::StepProgram& program,
                                  const StepNetwork& network) {
  StreamProgram sp;
  Transfers transfers(network, router, sp.transfers);
  const int ranks = program.schedule.ranks;
  sp.streams.resize(static_cast<std::size_t>(ranks) * workload::kStepStreams);
  for (const auto& task : program.tasks) {
    StreamTask st{.duration = task.duration, .deps = task.deps};
    if (task.comm) {
      st.transfer = transfers.index(task.rank, *task.comm);
    }
    sp.streams[static_cast<std::size_t>(task.rank * workload::kStepStreams +
                                        static_cast<int>(task.stream))]
        .push_back(task.id);
    sp.tasks.push_back(std::move(st));
  }
  return sp;
}

StepTimeline step_timeline(StreamProgram sp, std::vector<TaskTiming> tasks) {
  StepTimeline out;
  out.tasks = std::move(tasks);
  for (const auto& t : sp.tasks) {
    out.transfer_of_task.push_back(t.transfer);
  }
  out.transfers = std::move(sp.transfers);
  return out;
}

std::vector<core::Note> replay_notes(const workload::StepProgram& program, const StepNetwork& n) {
  std::vector<core::Note> notes{
      {core::NoteKind::folded,
       "one data-parallel replica's " + std::to_string(program.schedule.ranks) +
           "-rank pipeline is simulated; its EP all-to-alls run over its EP group of " +
           std::to_string(n.shape.ep) + " GPUs, its DP collectives over all " +
           std::to_string(n.shape.gpus_per_rank() / n.shape.tp) + " replicas of each of a rank's " +
           std::to_string(n.shape.tp) +
           " TP GPUs; the other replicas' identical traffic, on other nodes and planes, is not"}};
  if (!n.plans.empty()) {
    notes.push_back({core::NoteKind::method, std::to_string(n.plans.size()) +
                                                 " routing plans, each over " +
                                                 std::to_string(n.plan_tokens_per_gpu) +
                                                 " tokens per GPU with bytes scaled to " +
                                                 std::to_string(n.shape.tokens_per_gpu()) +
                                                 "; layers and micro-batches take them in turn"});
  }
  if (n.ep_sender_cap) {
    notes.push_back(
        {core::NoteKind::assumed, "a GPU sends expert-parallel traffic at most at " +
                                      core::fixed(n.ep_sender_cap->value / 1e9, 1) +
                                      " GB/s (SMs held by communication x the copy rate per SM)"});
  }
  if (n.ep_rates != EpKernelRates{} && n.mode == EpMode::deepep_normal) {
    notes.push_back(
        {core::NoteKind::fitted,
         "DeepEP's internode kernels at the pace the software stack's trace timed them: their "
         "SMs at " +
             core::fixed(n.ep_rates.dispatch, 3) + " (dispatch direction) and " +
             core::fixed(n.ep_rates.combine, 3) +
             " (combine direction) of the copy rates of the model of DeepEP's benchmark, and " +
             core::fixed(n.ep_rates.layout.value * 1e3, 2) +
             " ms of layout and count exchange before each forward dispatch "
             "(models/calibration/README.md)"});
  }
  return notes;
}

}  // namespace codesim::comm
