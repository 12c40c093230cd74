// Kineto trace reading: events, B/E pairing, launch correlation, piece tags, dependencies.
#include "sim/workload/chrome_import.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/workload/json_locate.hpp"
#include "sim/workload/kernel_names.hpp"

namespace codesim::workload {
namespace {

using nlohmann::json;

// Phases of the Chrome trace event format.
const std::set<std::string> kKnownPhases = {"X", "B", "E", "i", "I", "M", "s", "t", "f", "C", "b",
                                            "n", "e", "P", "N", "O", "D", "R", "S", "T", "p", "F"};

struct Span {
  std::string name;
  std::string category;
  double ts = 0;
  double dur = 0;
  long long pid = 0;
  long long tid = 0;
  const json* args = nullptr;
  std::size_t index = 0;  // in traceEvents
};

class Importer {
 public:
  Importer(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  StepTrace run() {
    const json doc = parse();
    const json* events = &doc;
    std::string events_key;
    if (doc.is_object()) {
      if (!doc.contains("traceEvents")) {
        fail_whole("traceEvents", "not a Chrome trace: no traceEvents");
      }
      events = &doc["traceEvents"];
      events_key = "traceEvents";
    }
    if (!events->is_array()) {
      fail_whole(events_key.empty() ? "" : events_key, "expected an array of trace events");
    }
    offsets_ = array_element_offsets(text_, events_key);
    collect(*events);
    if (!problems_.empty()) {
      throw core::InputError(std::move(problems_));
    }
    if (kernels_.empty()) {
      fail_whole(events_key, "no GPU kernels in the trace (events with cat \"kernel\")");
    }
    return build();
  }

 private:
  json parse() {
    try {
      return json::parse(text_);
    } catch (const json::parse_error& e) {
      throw core::InputError(core::json_syntax_error(text_, e.byte, e.what(), file_));
    } catch (const json::exception& e) {  // e.g. a number too large for a double
      throw core::InputError(core::json_syntax_error(text_, 0, e.what(), file_));
    }
  }

  [[noreturn]] void fail_whole(const std::string& key, const std::string& message) {
    throw core::InputError(core::Diagnostic{{file_, 1, 1}, key, message, ""});
  }

  core::SourceLocation where(std::size_t i) const {
    return i < offsets_.size() ? core::location_of_offset(text_, offsets_[i], file_)
                               : core::SourceLocation{file_, 0, 0};
  }

  void problem(std::size_t i, const std::string& key, const std::string& message) {
    problems_.push_back(
        core::Diagnostic{where(i), "traceEvents[" + std::to_string(i) + "]" + key, message, ""});
  }

  // A numeric field, or a problem.
  bool number(const json& e, std::size_t i, const char* key, double& out) {
    if (!e.contains(key)) {
      problem(i, std::string(".") + key, "missing");
      return false;
    }
    if (!e[key].is_number()) {
      problem(i, std::string(".") + key, "expected a number, got " + e[key].dump());
      return false;
    }
    out = e[key].get<double>();
    return true;
  }

  static long long id_of(const json& e, const char* key) {
    if (!e.contains(key)) {
      return 0;
    }
    if (e[key].is_number_integer()) {
      return e[key].get<long long>();
    }
    if (e[key].is_string()) {
      return static_cast<long long>(std::hash<std::string>{}(e[key].get<std::string>()));
    }
    return 0;
  }

  void collect(const json& events) {
    std::map<std::pair<long long, long long>, std::vector<std::pair<Span, std::size_t>>> open;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const json& e = events[i];
      if (!e.is_object()) {
        problem(i, "", "expected an event object, got " + e.dump().substr(0, 40));
        continue;
      }
      if (!e.contains("ph") || !e["ph"].is_string()) {
        problem(i, ".ph", "missing or not a string");
        continue;
      }
      const std::string ph = e["ph"].get<std::string>();
      if (!kKnownPhases.contains(ph)) {
        problem(i, ".ph", "unknown phase \"" + ph + "\"");
        continue;
      }
      if (ph != "X" && ph != "B" && ph != "E") {
        continue;  // metadata, instants, flows, counters: not needed
      }
      Span s;
      s.index = i;
      s.name = e.contains("name") && e["name"].is_string() ? e["name"].get<std::string>() : "";
      s.category = e.contains("cat") && e["cat"].is_string() ? e["cat"].get<std::string>() : "";
      s.pid = id_of(e, "pid");
      s.tid = id_of(e, "tid");
      s.args = e.contains("args") && e["args"].is_object() ? &e["args"] : nullptr;
      if (!number(e, i, "ts", s.ts)) {
        continue;
      }
      const auto key = std::make_pair(s.pid, s.tid);
      if (ph == "B") {
        open[key].emplace_back(s, i);
        continue;
      }
      if (ph == "E") {
        auto& stack = open[key];
        if (stack.empty()) {
          problem(i, "",
                  "end event (ph \"E\") without a begin on pid " + std::to_string(s.pid) +
                      ", tid " + std::to_string(s.tid));
          continue;
        }
        Span begin = stack.back().first;
        stack.pop_back();
        begin.dur = s.ts - begin.ts;
        if (begin.dur < 0) {
          problem(i, ".ts", "ends before it begins");
          continue;
        }
        add(begin);
        continue;
      }
      if (!number(e, i, "dur", s.dur)) {
        continue;
      }
      if (s.dur < 0) {
        problem(i, ".dur", "must not be negative, got " + e["dur"].dump());
        continue;
      }
      add(s);
    }
    for (const auto& [key, stack] : open) {
      for (const auto& [span, i] : stack) {
        problem(i, "", "begin event \"" + span.name + "\" (ph \"B\") has no end");
      }
    }
  }

  void add(const Span& s) {
    if (s.category == "kernel" || s.category == "gpu_memcpy" || s.category == "gpu_memset") {
      // memcpy and memset run on streams too: they become ops of class memcpy.
      long long stream = 0;
      if (s.args != nullptr && s.args->contains("stream") &&
          (*s.args)["stream"].is_number_integer()) {
        stream = (*s.args)["stream"].get<long long>();
      } else if (s.args != nullptr && s.args->contains("stream")) {
        problem(s.index, ".args.stream", "expected an integer, got " + (*s.args)["stream"].dump());
        return;
      } else {
        problem(s.index, ".args.stream", "kernel \"" + s.name.substr(0, 40) + "\" has no stream");
        return;
      }
      kernels_.push_back({s, stream});
    } else if (s.category == "cuda_runtime" || s.category == "cuda_driver") {
      if (s.args != nullptr && s.args->contains("correlation") &&
          (*s.args)["correlation"].is_number_integer()) {
        launches_[(*s.args)["correlation"].get<long long>()] = s;
      }
    } else if (s.category == "user_annotation") {
      annotations_.push_back(s);
    }
  }

  static char phase_of(const std::string& name) {
    if (name.size() >= 3 && name[name.size() - 3] == '(' && name.back() == ')') {
      const char p = name[name.size() - 2];
      if (p == 'F' || p == 'B' || p == 'W') {
        return p;
      }
    }
    return 0;
  }

  // The innermost piece annotation of the launching process that contains `ts`: backward kernels
  // are launched from autograd's thread, while the annotations sit on the main thread.
  const Span* piece_at(long long pid, double ts) const {
    const Span* best = nullptr;
    for (const Span& a : annotations_) {
      if (a.pid == pid && phase_of(a.name) != 0 && a.ts <= ts && ts <= a.ts + a.dur &&
          (best == nullptr || a.dur < best->dur)) {
        best = &a;
      }
    }
    return best;
  }

  StepTrace build() {
    std::stable_sort(kernels_.begin(), kernels_.end(),
                     [](const auto& a, const auto& b) { return a.first.ts < b.first.ts; });
    const double t0 = kernels_.front().first.ts;
    StepTrace t;
    t.source = file_;
    // Piece instances in program (annotation start) order.
    std::vector<const Span*> pieces;
    for (const Span& a : annotations_) {
      if (phase_of(a.name) != 0) {
        pieces.push_back(&a);
      }
    }
    std::stable_sort(pieces.begin(), pieces.end(),
                     [](const Span* a, const Span* b) { return a->ts < b->ts; });
    std::map<const Span*, int> piece_index;
    std::map<std::string, int> occurrences;
    std::vector<int> layer_of(pieces.size());
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      piece_index[pieces[i]] = static_cast<int>(i);
      layer_of[i] = occurrences[pieces[i]->name]++;
    }
    std::vector<std::vector<int>> piece_ops(pieces.size());
    for (std::size_t i = 0; i < kernels_.size(); ++i) {
      const auto& [s, stream] = kernels_[i];
      KernelKind kind = classify_kernel(s.name, s.category);
      if (s.args != nullptr && s.args->contains("class") && (*s.args)["class"].is_string()) {
        // Written by codesim's own export: the class it had.
        if (const auto c = cost::kernel_class_from((*s.args)["class"].get<std::string>())) {
          kind.op_class = *c;
          kind.kind = *c == cost::KernelClass::communication ? OpKind::collective : OpKind::compute;
        }
      }
      Op op;
      op.id = static_cast<int>(i);
      op.rank = 0;
      op.stream = static_cast<int>(stream);
      op.kind = kind.kind;
      op.name = s.name;
      op.op_class = kind.op_class;
      op.dtype = kind.dtype;
      op.measured_us = s.dur;
      op.start_us = s.ts - t0;
      if (kind.op_class == cost::KernelClass::communication && s.args != nullptr &&
          s.args->contains("grid") && (*s.args)["grid"].is_array()) {
        int blocks = 1;
        for (const auto& g : (*s.args)["grid"]) {
          blocks *= g.is_number_integer() ? g.get<int>() : 1;
        }
        op.sms = blocks;  // DeepEP: one block per SM
      }
      const long long correlation = s.args != nullptr && s.args->contains("correlation") &&
                                            (*s.args)["correlation"].is_number_integer()
                                        ? (*s.args)["correlation"].get<long long>()
                                        : -1;
      if (const auto launch = launches_.find(correlation); launch != launches_.end()) {
        if (const Span* piece = piece_at(launch->second.pid, launch->second.ts)) {
          const int p = piece_index[piece];
          op.tags.piece = piece->name;
          op.tags.phase = phase_of(piece->name);
          op.tags.layer = layer_of[p];
          op.tags.micro_batch = op.tags.phase == 'F' ? 0 : 1;  // an overlapped F&B chunk pair
          piece_ops[p].push_back(op.id);
        }
      }
      t.ops.push_back(std::move(op));
    }
    add_piece_dependencies(t, pieces, piece_ops);
    return t;
  }

  static std::string base_of(const std::string& piece) { return piece.substr(0, piece.size() - 3); }

  void add_piece_dependencies(StepTrace& t, const std::vector<const Span*>& pieces,
                              const std::vector<std::vector<int>>& piece_ops) const {
    int last_forward = -1;
    int last_backward = -1;
    std::map<std::string, int> last_backward_of;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const char phase = phase_of(pieces[i]->name);
      int before = -1;
      if (phase == 'F') {
        before = last_forward;
        last_forward = static_cast<int>(i);
      } else if (phase == 'B') {
        before = last_backward;
        last_backward = static_cast<int>(i);
        last_backward_of[base_of(pieces[i]->name)] = static_cast<int>(i);
      } else {
        const auto it = last_backward_of.find(base_of(pieces[i]->name));
        before = it == last_backward_of.end() ? -1 : it->second;
      }
      if (before < 0 || piece_ops[before].empty() || piece_ops[i].empty()) {
        continue;
      }
      // Last op of the earlier piece on each stream; first op of this piece on each stream.
      std::map<int, int> last_on;
      for (int id : piece_ops[before]) {
        last_on[t.ops[id].stream] = id;
      }
      std::set<int> streams_seen;
      for (int id : piece_ops[i]) {
        Op& op = t.ops[id];
        if (!streams_seen.insert(op.stream).second) {
          continue;
        }
        for (const auto& [stream, dep] : last_on) {
          if (stream != op.stream && dep < id) {
            op.deps.push_back(dep);
          }
        }
      }
    }
  }

  std::string_view text_;
  const std::string& file_;
  std::vector<std::size_t> offsets_;
  std::vector<core::Diagnostic> problems_;
  std::vector<std::pair<Span, long long>> kernels_;
  std::map<long long, Span> launches_;
  std::vector<Span> annotations_;
};

}  // namespace

StepTrace import_chrome_trace(std::string_view text, const std::string& file) {
  return Importer(text, file).run();
}

StepTrace import_chrome_trace_file(const std::string& path, std::uintmax_t max_bytes) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);  // a regular file's only
  if (!ec && size > max_bytes) {
    throw core::InputError(
        core::Diagnostic{{path, 0, 0},
                         "",
                         "the trace is " + std::to_string(size) + " bytes, over the budget of " +
                             std::to_string(max_bytes) + " bytes",
                         "raise the budget (--max-trace-mb) or profile fewer steps"});
  }
  return import_chrome_trace(core::read_input_file(path, "the trace file", max_bytes), path);
}

}  // namespace codesim::workload
