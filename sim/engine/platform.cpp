// The SimGrid platform of a topology and the actors that run transfers on it.
#include "sim/engine/platform.hpp"

#include <xbt/log.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <simgrid/s4u.hpp>
#include <string>

#include "sim/comm/link_folding.hpp"
#include "sim/comm/stream_check.hpp"
#include "sim/core/error.hpp"
#include "sim/engine/adjacent_zone.hpp"

namespace sg4 = simgrid::s4u;

namespace codesim::engine {
namespace {

// A transfer ready to run: its nonzero directed-link loads, folded onto SimGrid links.
struct Prepared {
  std::vector<std::pair<int, double>> loads;  // (SimGrid directed link, bytes)
  std::vector<std::pair<int, double>> copy;   // (GPU, seconds of copy work at the cap)
  double wait = 0;                            // fixed cost and latencies, before the bytes move
  double not_before = 0;
  int repeat = 1;
  // What it shares with other transfers (its folded links, and the GPUs whose copy work it
  // has), and how long its bytes take when it shares none of them.
  std::vector<int> resources;
  double alone_time = 0;
  std::vector<int> successors;
  int waiting = 0;  // predecessors not yet ended
  // The parallel task, built at its first run and reused (a step runs each transfer thousands
  // of times): hosts, their copy work, the dense bytes matrix.
  mutable std::vector<sg4::Host*> task_hosts;
  mutable std::vector<double> task_flops;
  mutable std::vector<double> task_bytes;
};

// A transfer that found none of its resources in use when its bytes began to move: it waits
// its time alone instead of loading SimGrid's solver, until a transfer that shares one of its
// resources begins and wakes it.
struct Solo {
  sg4::ConditionVariablePtr wake = sg4::ConditionVariable::create();
  bool interrupted = false;
};

// What a transfer shares with others: its folded links, then its copying GPUs after them.
void list_resources(Prepared& p, const comm::FoldedLinks& links) {
  p.resources.clear();
  for (const auto& [d, bytes] : p.loads) {
    p.resources.push_back(d);
  }
  for (const auto& [gpu, seconds] : p.copy) {
    p.resources.push_back(static_cast<int>(links.ends.size()) + gpu);
  }
}

// A parallel task moves a share r_t of its bytes per second, bounded by every link it loads,
// sum over its users t of r_t x bytes_t <= bandwidth, and every GPU it copies on, sum of r_t x
// seconds_t <= 1 (at speed 1). Two links (or two GPUs) whose users are the same transfers with
// amounts in the same proportions (a collective's ring or tree links, carried by its buckets and
// no one else; every link only one transfer uses) give constraints that are multiples of each
// other: only the tightest can bind. The others are dropped before SimGrid sees them: same rates,
// far fewer hosts and constraints for collectives over many replicas, whose dense bytes matrix
// grows with the square of the vertices they touch.
void keep_binding(std::vector<Prepared>& prepared, const comm::FoldedLinks& links,
                  Platform::Counts& counts) {
  const std::size_t gpu_base = links.ends.size();
  // Per resource: its users and their amounts (bytes on a link, copy seconds on a GPU).
  std::map<int, std::vector<std::pair<std::size_t, double>>> users;
  for (std::size_t t = 0; t < prepared.size(); ++t) {
    for (const auto& [d, bytes] : prepared[t].loads) {
      users[d].emplace_back(t, bytes);
    }
    for (const auto& [gpu, seconds] : prepared[t].copy) {
      users[static_cast<int>(gpu_base) + gpu].emplace_back(t, seconds);
    }
  }
  // Amounts over the first user's, to about 1e-10: links that agree to rounding fall together.
  const auto coarse = [](double x) {
    int exponent = 0;
    const double mantissa = std::frexp(x, &exponent);
    return std::ldexp(std::round(std::ldexp(mantissa, 32)), exponent - 32);
  };
  using Key = std::pair<bool, std::vector<std::pair<std::size_t, double>>>;  // (GPU?, proportions)
  std::map<Key, std::pair<int, double>> tightest;  // per key: (resource, capacity per unit)
  for (const auto& [r, on] : users) {
    Key key{static_cast<std::size_t>(r) >= gpu_base, {}};
    for (const auto& [t, amount] : on) {
      key.second.emplace_back(t, coarse(amount / on.front().second));
    }
    const double capacity =
        (key.first ? 1.0 : links.bandwidth[static_cast<std::size_t>(r)]) / on.front().second;
    const auto [it, inserted] = tightest.try_emplace(std::move(key), r, capacity);
    if (!inserted && capacity < it->second.second) {
      it->second = {r, capacity};
    }
  }
  // Every resource of a transfer is in `users`, whose last key is the highest.
  std::vector<char> binding(users.empty() ? 0 : static_cast<std::size_t>(users.rbegin()->first) + 1,
                            0);
  for (const auto& [key, best] : tightest) {
    binding[static_cast<std::size_t>(best.first)] = 1;
  }
  const auto dropped = [&](int r) { return !binding[static_cast<std::size_t>(r)]; };
  for (Prepared& p : prepared) {
    counts.bounds += static_cast<long long>(p.resources.size());
    std::erase_if(p.loads, [&](const auto& load) { return dropped(load.first); });
    std::erase_if(
        p.copy, [&](const auto& copy) { return dropped(static_cast<int>(gpu_base) + copy.first); });
    list_resources(p, links);
    counts.bounds_kept += static_cast<long long>(p.resources.size());
  }
}

}  // namespace

struct Platform::Impl {
  Impl(const topologies::Topology& t, topologies::Spread spread)
      : topology(t), router(topology, spread) {}

  void build();
  Prepared prepare(const comm::Transfer& t, comm::TransferTiming& timing) const;
  void start(int index);
  // Runs `p` (all its repeats as one phase) in the calling actor.
  void transfer(const Prepared& p);
  // Its parallel task, `share` of its bytes and copy work (the rest moved while it ran solo).
  void execute(const Prepared& p, double share) const;
  void interrupt_solos(const Prepared& p);

  topologies::Topology topology;
  topologies::TrafficRouter router;
  std::unique_ptr<sg4::Engine> engine;
  std::vector<sg4::Host*> hosts;  // per vertex
  static constexpr int kClockHosts = 512;
  std::vector<sg4::Host*> clock_hosts;  // where stream actors live
  comm::FoldedLinks links;      // each folded link is one direction of a SimGrid split-duplex link
  std::vector<int> gpu_vertex;  // per GPU index
  // Transfers now moving bytes, per resource (Prepared::resources), and which of them run solo.
  std::vector<int> busy;
  Platform::Counts counts;
  std::vector<std::vector<Solo*>> solos;
  sg4::MutexPtr solo_mutex;  // created with the engine
  // Per run.
  std::vector<Prepared> prepared;
  std::vector<comm::TransferTiming>* timings = nullptr;
  double origin = 0;
};

void Platform::Impl::build() {
  if (sg4::Engine::is_initialized()) {
    throw core::SimulationError("SimGrid allows one engine per process: a platform exists already");
  }
  xbt_log_control_set("root.thres:critical");
  int argc = 1;
  char program[] = "codesim";
  char* argv[] = {program, nullptr};
  engine = std::make_unique<sg4::Engine>(&argc, argv);
  sg4::Engine::set_config("host/model:ptask_L07");
  auto* routes = AdjacentZone::create("codesim");
  auto* zone = routes->get_iface();
  hosts.resize(topology.vertex_count());
  for (std::size_t v = 0; v < hosts.size(); ++v) {
    // Speed 1: a GPU's copy work is given in seconds at its cap (Prepared::copy).
    hosts[v] = zone->create_host("v" + std::to_string(v), 1.0);
  }
  // Hosts with no links, one per stream actor (up to kClockHosts, then shared): an actor's
  // sleeps are actions on its host's CPU, and all of them on one host made every solver update
  // walk every stream's sleep.
  for (int c = 0; c < kClockHosts; ++c) {
    clock_hosts.push_back(zone->create_host("c" + std::to_string(c), 1.0));
  }
  gpu_vertex.resize(static_cast<std::size_t>(topology.gpus()));
  for (int i = 0; i < topology.gpus(); ++i) {
    gpu_vertex[static_cast<std::size_t>(i)] = static_cast<int>(topology.gpu(i));
  }
  links = comm::fold_links(router);
  busy.assign(links.ends.size() + static_cast<std::size_t>(topology.gpus()), 0);
  solo_mutex = sg4::Mutex::create();
  solos.resize(busy.size());
  for (std::size_t up = 0; up < links.ends.size(); up += 2) {
    const auto [first_vertex, second_vertex] = links.ends[up];
    auto* link = zone->create_split_duplex_link("l" + std::to_string(up / 2), links.bandwidth[up]);
    link->set_latency(0);
    auto* first = hosts[static_cast<std::size_t>(first_vertex)]->get_netpoint();
    auto* second = hosts[static_cast<std::size_t>(second_vertex)]->get_netpoint();
    routes->add_adjacent(first, second, link->get_link_up());
    routes->add_adjacent(second, first, link->get_link_down());
  }
  zone->seal();
}

Prepared Platform::Impl::prepare(const comm::Transfer& t, comm::TransferTiming& timing) const {
  Prepared p;
  comm::FoldedLoads f = comm::fold_loads(t, router, links);
  p.loads = std::move(f.loads);
  p.copy = std::move(f.copy);
  p.wait = f.wait;
  timing.bottleneck = f.bottleneck;
  timing.call = f.call;
  timing.latency = core::Seconds(f.latency);
  timing.wait = core::Seconds(f.wait);
  timing.alone_bandwidth_time = core::Seconds(f.alone);
  p.not_before = t.not_before.value;
  p.repeat = t.repeat;
  p.alone_time = p.repeat * f.alone;
  list_resources(p, links);
  return p;
}

void Platform::Impl::execute(const Prepared& p, double share) const {
  if (p.task_hosts.empty()) {
    // Dense bytes matrix over the vertices the loads touch.
    std::map<int, std::size_t> index;
    for (const auto& [d, bytes] : p.loads) {
      index.emplace(links.ends[static_cast<std::size_t>(d)].first, 0);
      index.emplace(links.ends[static_cast<std::size_t>(d)].second, 0);
    }
    for (const auto& [gpu, seconds] : p.copy) {
      index.emplace(gpu_vertex[static_cast<std::size_t>(gpu)], 0);
    }
    p.task_hosts.reserve(index.size());
    for (auto& [vertex, i] : index) {
      i = p.task_hosts.size();
      p.task_hosts.push_back(hosts[static_cast<std::size_t>(vertex)]);
    }
    const std::size_t n = p.task_hosts.size();
    p.task_bytes.assign(n * n, 0.0);
    p.task_flops.assign(n, 0.0);
    for (const auto& [d, amount] : p.loads) {
      const auto& [from, to] = links.ends[static_cast<std::size_t>(d)];
      p.task_bytes[index[from] * n + index[to]] += amount * p.repeat;
    }
    for (const auto& [gpu, seconds] : p.copy) {
      p.task_flops[index[gpu_vertex[static_cast<std::size_t>(gpu)]]] = seconds * p.repeat;
    }
  }
  if (share >= 1) {
    sg4::this_actor::parallel_execute(p.task_hosts, p.task_flops, p.task_bytes);
    return;
  }
  std::vector<double> flops = p.task_flops;
  std::vector<double> bytes = p.task_bytes;
  for (auto& f : flops) {
    f *= share;
  }
  for (auto& b : bytes) {
    b *= share;
  }
  sg4::this_actor::parallel_execute(p.task_hosts, flops, bytes);
}

void Platform::Impl::interrupt_solos(const Prepared& p) {
  for (const int r : p.resources) {
    for (Solo* s : solos[static_cast<std::size_t>(r)]) {
      if (!s->interrupted) {
        s->interrupted = true;
        s->wake->notify_all();
      }
    }
  }
}

// A ring's steps run as one phase of repeat x the bytes after its wait (fixed cost + repeat x
// the latency): NCCL pipelines them (each chunk moves on as soon as it arrives; nothing
// synchronizes between steps), and one SimGrid task instead of p - 1 keeps a collective over many
// replicas cheap to solve.
//
// A transfer whose links and copying GPUs no other transfer is using when its bytes begin runs
// solo: it waits its time alone (what the parallel task would take by itself) without entering
// SimGrid's solver. If a transfer sharing one of its resources begins meanwhile, the solo one
// is woken at that instant and runs the bytes it has not yet moved as a parallel task, so from
// then on both share the links in the solver exactly as if it had been one all along.
void Platform::Impl::transfer(const Prepared& p) {
  sg4::this_actor::sleep_for(p.wait);
  if (p.loads.empty()) {
    return;
  }
  // Creating the condition variable is a simcall, which lets other actors run: done first, so
  // that nothing runs between looking at the resources and registering as solo on them.
  Solo me;
  bool shared = false;
  for (const int r : p.resources) {
    shared = shared || busy[static_cast<std::size_t>(r)] > 0;
    ++busy[static_cast<std::size_t>(r)];
  }
  double share = 1;
  if (shared) {
    ++counts.solved;
    interrupt_solos(p);
  } else if (p.alone_time > 0) {
    for (const int r : p.resources) {
      solos[static_cast<std::size_t>(r)].push_back(&me);
    }
    const double start = sg4::Engine::get_clock();
    {
      // Locking may let others run too; an interruption meanwhile is seen in the flag.
      std::unique_lock<sg4::Mutex> lock(*solo_mutex);
      while (!me.interrupted &&
             me.wake->wait_until(lock, start + p.alone_time) == std::cv_status::no_timeout) {
      }
    }
    for (const int r : p.resources) {
      auto& on = solos[static_cast<std::size_t>(r)];
      on.erase(std::find(on.begin(), on.end(), &me));
    }
    share = me.interrupted ? 1 - (sg4::Engine::get_clock() - start) / p.alone_time : 0;
    ++(me.interrupted ? counts.interrupted : counts.solo);
  }
  if (share > 1e-12) {
    execute(p, share);
  }
  for (const int r : p.resources) {
    --busy[static_cast<std::size_t>(r)];
  }
}

void Platform::Impl::start(int index) {
  sg4::Actor::create("t" + std::to_string(index), hosts.front(), [this, index] {
    Prepared& p = prepared[static_cast<std::size_t>(index)];
    comm::TransferTiming& timing = (*timings)[static_cast<std::size_t>(index)];
    if (sg4::Engine::get_clock() < origin + p.not_before) {
      sg4::this_actor::sleep_until(origin + p.not_before);
    }
    timing.start = core::Seconds(sg4::Engine::get_clock() - origin);
    transfer(p);
    timing.end = core::Seconds(sg4::Engine::get_clock() - origin);
    p.loads = {};
    p.task_hosts = {};
    p.task_flops = {};
    p.task_bytes = {};
    for (const int s : p.successors) {
      if (--prepared[static_cast<std::size_t>(s)].waiting == 0) {
        start(s);
      }
    }
  });
}

// Per run_streams call: which tasks have ended, and which streams wait for which task.
struct StreamState {
  std::vector<char> done;
  std::vector<std::vector<std::size_t>> waiters;  // per task: streams waiting for it
  std::vector<sg4::ConditionVariablePtr> wake;    // per stream
  sg4::MutexPtr mutex;
  std::vector<Prepared> transfers;
  double origin = 0;
};

Platform::Platform(const topologies::Topology& topology, topologies::Spread spread)
    : impl_(std::make_unique<Impl>(topology, spread)) {
  impl_->build();
}

Platform::~Platform() = default;

std::vector<comm::TaskTiming> Platform::run_streams(const comm::StreamProgram& program) {
  comm::check_stream_program(program);
  const std::size_t count = program.tasks.size();
  StreamState state;
  state.done.assign(count, 0);
  state.waiters.resize(count);
  state.mutex = sg4::Mutex::create();
  for (std::size_t s = 0; s < program.streams.size(); ++s) {
    state.wake.push_back(sg4::ConditionVariable::create());
  }
  std::vector<comm::TransferTiming> unused(program.transfers.size());
  for (std::size_t i = 0; i < program.transfers.size(); ++i) {
    state.transfers.push_back(impl_->prepare(program.transfers[i], unused[i]));
  }
  keep_binding(state.transfers, impl_->links, impl_->counts);
  state.origin = sg4::Engine::get_clock();
  std::vector<comm::TaskTiming> timings(count);
  for (std::size_t s = 0; s < program.streams.size(); ++s) {
    sg4::Actor::create("s" + std::to_string(s), impl_->clock_hosts[s % Impl::kClockHosts], [&, s] {
      for (const int id : program.streams[s]) {
        const comm::StreamTask& task = program.tasks[static_cast<std::size_t>(id)];
        for (const int d : task.deps) {
          std::unique_lock<sg4::Mutex> lock(*state.mutex);
          while (!state.done[static_cast<std::size_t>(d)]) {
            state.waiters[static_cast<std::size_t>(d)].push_back(s);
            state.wake[s]->wait(lock);
          }
        }
        timings[static_cast<std::size_t>(id)].start =
            core::Seconds(sg4::Engine::get_clock() - state.origin);
        if (task.duration.value > 0) {
          sg4::this_actor::sleep_for(task.duration.value);
        }
        if (task.transfer >= 0) {
          impl_->transfer(state.transfers[static_cast<std::size_t>(task.transfer)]);
        }
        timings[static_cast<std::size_t>(id)].end =
            core::Seconds(sg4::Engine::get_clock() - state.origin);
        std::unique_lock<sg4::Mutex> lock(*state.mutex);
        state.done[static_cast<std::size_t>(id)] = 1;
        for (const std::size_t w : state.waiters[static_cast<std::size_t>(id)]) {
          state.wake[w]->notify_all();
        }
        state.waiters[static_cast<std::size_t>(id)].clear();
      }
    });
  }
  impl_->engine->run();
  return timings;
}

core::Bytes Platform::estimated_memory(const topologies::Topology& t) {
  // Fitted to peak RSS of `codesim collective --kind all-reduce --gpus 8 --sizes 1MiB` (the
  // topology, its router and this platform, 2026-12-01, Debian 12): FT3 radix 64 from 1024 to 8192
  // nodes grows 106 KB per node (17.6 vertices, 40 links), MPFT radix 64 from 256 to 2048 nodes
  // 88 KB per node (17.4 vertices, 32 links). Solved for both: about 1 KB per vertex (a SimGrid
  // host, its CPU and netpoint, the topology's adjacency) and 2.25 KB per link (two directions:
  // SimGrid link objects and LMM constraints, the zone's two routes, the router's state).
  constexpr double kPerVertex = 1000;
  constexpr double kPerLink = 2250;
  return core::Bytes(kPerVertex * static_cast<double>(t.vertex_count()) +
                     kPerLink * static_cast<double>(t.links().size()));
}

Platform::Counts Platform::counts() const {
  return impl_->counts;
}

const topologies::Topology& Platform::topology() const {
  return impl_->topology;
}
const topologies::TrafficRouter& Platform::router() const {
  return impl_->router;
}

std::vector<comm::TransferTiming> Platform::run(const std::vector<comm::Transfer>& transfers) {
  const int count = static_cast<int>(transfers.size());
  std::vector<comm::TransferTiming> timings(transfers.size());
  std::vector<Prepared> prepared;
  prepared.reserve(transfers.size());
  for (int i = 0; i < count; ++i) {
    const comm::Transfer& t = transfers[static_cast<std::size_t>(i)];
    if (t.repeat < 1) {
      throw core::SimulationError("transfer '" + t.name + "': repeat must be at least 1");
    }
    if (!(t.efficiency > 0 && t.efficiency <= 1)) {
      throw core::SimulationError("transfer '" + t.name + "': efficiency must be in (0, 1]");
    }
    prepared.push_back(impl_->prepare(t, timings[static_cast<std::size_t>(i)]));
  }
  for (int i = 0; i < count; ++i) {
    for (const int a : transfers[static_cast<std::size_t>(i)].after) {
      if (a < 0 || a >= count || a == i) {
        throw core::SimulationError("transfer '" + transfers[static_cast<std::size_t>(i)].name +
                                    "' waits for transfer " + std::to_string(a) +
                                    ", which does not exist");
      }
      prepared[static_cast<std::size_t>(a)].successors.push_back(i);
      ++prepared[static_cast<std::size_t>(i)].waiting;
    }
  }
  std::vector<std::vector<std::size_t>> next(transfers.size());
  std::vector<int> roots;
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    next[i].assign(prepared[i].successors.begin(), prepared[i].successors.end());
    if (prepared[i].waiting == 0) {
      roots.push_back(static_cast<int>(i));
    }
  }
  if (core::topological_order(next).size() != next.size()) {
    throw core::SimulationError("the transfers' dependencies form a cycle");
  }
  keep_binding(prepared, impl_->links, impl_->counts);
  impl_->prepared = std::move(prepared);
  impl_->timings = &timings;
  impl_->origin = sg4::Engine::get_clock();
  for (const int r : roots) {
    impl_->start(r);
  }
  impl_->engine->run();
  impl_->prepared.clear();
  impl_->timings = nullptr;
  return timings;
}

}  // namespace codesim::engine
