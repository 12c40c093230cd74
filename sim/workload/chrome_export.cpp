// Timeline -> Chrome trace events.
#include "sim/workload/chrome_export.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace codesim::workload {

namespace {

nlohmann::ordered_json counter(int rank, const char* name, double ts_us, const char* unit,
                               double value) {
  return {{"ph", "C"}, {"name", name}, {"pid", rank}, {"ts", ts_us}, {"args", {{unit, value}}}};
}

// The rank's counter events, from its compute stream's ops (merged where they touch).
void add_power(nlohmann::ordered_json& events, const StepTrace& t, const Timeline& timeline,
               const PowerTrack& p) {
  std::vector<std::pair<double, double>> busy;
  double end = 0;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    end = std::max(end, timeline.start_us[i] + timeline.duration_us[i]);
    if (t.ops[i].rank == p.rank && t.ops[i].stream == 0) {
      busy.emplace_back(timeline.start_us[i], timeline.start_us[i] + timeline.duration_us[i]);
    }
  }
  std::ranges::sort(busy);
  events.push_back(counter(p.rank, "SM clock (MHz)", 0, "MHz", p.clock_mhz));
  events.push_back(counter(p.rank, "board power (W)", 0, "W", p.waiting_w));
  double open_until = -1;
  for (const auto& [from, to] : busy) {
    if (from > open_until) {
      if (open_until >= 0) {
        events.push_back(counter(p.rank, "board power (W)", open_until, "W", p.waiting_w));
      }
      events.push_back(counter(p.rank, "board power (W)", from, "W", p.computing_w));
    }
    open_until = std::max(open_until, to);
  }
  if (open_until >= 0) {
    events.push_back(counter(p.rank, "board power (W)", open_until, "W", p.waiting_w));
  }
  events.push_back(counter(p.rank, "SM clock (MHz)", end, "MHz", p.clock_mhz));
}

}  // namespace

nlohmann::ordered_json chrome_trace(const StepTrace& t, const Timeline& timeline,
                                    const std::vector<PowerTrack>& power,
                                    const std::vector<MemoryTrack>& memory) {
  using nlohmann::ordered_json;
  ordered_json events = ordered_json::array();
  std::set<int> ranks;
  std::set<std::pair<int, int>> streams;
  for (const Op& op : t.ops) {
    ranks.insert(op.rank);
    streams.insert({op.rank, op.stream});
  }
  for (int r : ranks) {
    events.push_back({{"ph", "M"},
                      {"name", "process_name"},
                      {"pid", r},
                      {"tid", 0},
                      {"args", {{"name", "GPU " + std::to_string(r)}}}});
  }
  for (const auto& [r, s] : streams) {
    events.push_back({{"ph", "M"},
                      {"name", "thread_name"},
                      {"pid", r},
                      {"tid", s},
                      {"args", {{"name", "stream " + std::to_string(s)}}}});
  }
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    const Op& op = t.ops[i];
    ordered_json args{{"stream", op.stream},
                      {"id", op.id},
                      {"class", std::string(cost::kernel_class_name(op.op_class))},
                      {"kind", std::string(op_kind_name(op.kind))}};
    if (!op.tags.piece.empty()) {
      args["piece"] = op.tags.piece;
    }
    if (op.tags.layer >= 0) {
      args["layer"] = op.tags.layer;
    }
    if (op.tags.micro_batch >= 0) {
      args["micro_batch"] = op.tags.micro_batch;
    }
    if (op.tags.chunk >= 0) {
      args["chunk"] = op.tags.chunk;
    }
    if (op.sms > 0) {
      args["sms"] = op.sms;
    }
    events.push_back({{"ph", "X"},
                      {"cat", op.op_class == cost::KernelClass::memcpy ? "gpu_memcpy" : "kernel"},
                      {"name", op.name},
                      {"pid", op.rank},
                      {"tid", op.stream},
                      {"ts", timeline.start_us[i]},
                      {"dur", timeline.duration_us[i]},
                      {"args", args}});
  }
  for (const PowerTrack& p : power) {
    add_power(events, t, timeline, p);
  }
  for (const MemoryTrack& m : memory) {
    for (const auto& [ts_us, bytes] : m.points) {
      events.push_back(counter(m.rank, "memory (GB)", ts_us, "GB", bytes / 1e9));
    }
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

}  // namespace codesim::workload
