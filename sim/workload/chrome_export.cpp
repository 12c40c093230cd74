// Timeline -> Chrome trace events.
#include "sim/workload/chrome_export.hpp"

#include <set>

namespace codesim::workload {

nlohmann::ordered_json chrome_trace(const StepTrace& t, const Timeline& timeline) {
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
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

}  // namespace codesim::workload
