// StepTrace <-> JSON.
#include "sim/workload/step_trace_json.hpp"

#include "sim/core/error.hpp"
#include "sim/workload/json_locate.hpp"

namespace codesim::workload {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kFormat = "codesim-steptrace";

OpKind kind_from(const std::string& s, bool& ok) {
  for (auto k : {OpKind::compute, OpKind::collective, OpKind::send, OpKind::recv}) {
    if (op_kind_name(k) == s) {
      return k;
    }
  }
  ok = false;
  return OpKind::compute;
}

// Reads one op, collecting problems under its key path.
class OpReader {
 public:
  OpReader(const json& j, std::string path, core::SourceLocation where,
           std::vector<core::Diagnostic>& problems)
      : j_(j), path_(std::move(path)), where_(std::move(where)), problems_(problems) {}

  template <class T>
  T get(const char* key, T fallback, bool required) {
    if (!j_.contains(key) || j_.at(key).is_null()) {
      if (required) {
        fail(key, "missing");
      }
      return fallback;
    }
    const json& v = j_.at(key);
    try {
      if constexpr (std::is_same_v<T, int>) {
        if (!v.is_number_integer()) {
          throw std::invalid_argument("integer");
        }
      } else if constexpr (std::is_same_v<T, double>) {
        if (!v.is_number()) {
          throw std::invalid_argument("number");
        }
      } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string()) {
          throw std::invalid_argument("string");
        }
      }
      return v.get<T>();
    } catch (const std::exception& e) {
      const std::string what = e.what();
      fail(key, "expected " + std::string(what == "integer" ? "an " : "a ") + what + ", got " +
                    v.dump());
      return fallback;
    }
  }

  void fail(const std::string& key, const std::string& message) {
    problems_.push_back(core::Diagnostic{where_, path_ + "." + key, message, ""});
  }

 private:
  const json& j_;
  std::string path_;
  core::SourceLocation where_;
  std::vector<core::Diagnostic>& problems_;
};

}  // namespace

ordered_json to_json(const StepTrace& t) {
  ordered_json ops = ordered_json::array();
  for (const Op& op : t.ops) {
    ordered_json o{{"id", op.id},
                   {"rank", op.rank},
                   {"stream", op.stream},
                   {"kind", std::string(op_kind_name(op.kind))},
                   {"name", op.name},
                   {"class", std::string(cost::kernel_class_name(op.op_class))},
                   {"dtype", std::string(cost::dtype_name(op.dtype))},
                   {"flops", op.flops},
                   {"bytes", op.bytes},
                   {"sms", op.sms}};
    if (op.measured_us) {
      o["measured_us"] = *op.measured_us;
    }
    if (op.start_us) {
      o["start_us"] = *op.start_us;
    }
    o["deps"] = op.deps;
    if (op.kind == OpKind::send || op.kind == OpKind::recv) {
      o["peer"] = op.peer;
      o["tag"] = op.tag;
    }
    ordered_json tags = ordered_json::object();
    if (!op.tags.piece.empty()) {
      tags["piece"] = op.tags.piece;
    }
    if (op.tags.phase != 0) {
      tags["phase"] = std::string(1, op.tags.phase);
    }
    for (const auto& [key, value] :
         {std::pair{"micro_batch", op.tags.micro_batch}, std::pair{"chunk", op.tags.chunk},
          std::pair{"layer", op.tags.layer}}) {
      if (value >= 0) {
        tags[key] = value;
      }
    }
    o["tags"] = tags;
    ops.push_back(o);
  }
  return {
      {"format", kFormat}, {"version", StepTrace::kVersion}, {"source", t.source}, {"ops", ops}};
}

namespace {

// The document's format, version and ops array; throws core::InputError at the file's start.
void check_header(const json& doc, const std::string& file) {
  auto whole = [&](const std::string& key, const std::string& message) {
    return core::InputError(core::Diagnostic{{file, 1, 1}, key, message, ""});
  };
  if (!doc.is_object() || !doc.contains("format") || !doc["format"].is_string() ||
      doc["format"] != kFormat) {
    throw whole("format", "not a codesim StepTrace (expected \"format\": \"codesim-steptrace\")");
  }
  if (!doc.contains("version") || !doc["version"].is_number_integer() ||
      doc["version"] != StepTrace::kVersion) {
    throw whole("version", "unsupported version " +
                               (doc.contains("version") ? doc["version"].dump() : "(none)") +
                               "; this codesim reads version " +
                               std::to_string(StepTrace::kVersion));
  }
  if (!doc.contains("ops") || !doc["ops"].is_array()) {
    throw whole("ops", "expected an array of ops");
  }
}

void read_deps(const json& j, OpReader& r, Op& op) {
  if (!j.contains("deps")) {
    return;
  }
  if (!j["deps"].is_array()) {
    r.fail("deps", "expected an array of op ids");
    return;
  }
  for (const auto& d : j["deps"]) {
    if (d.is_number_integer()) {
      op.deps.push_back(d.get<int>());
    } else {
      r.fail("deps", "expected op ids, got " + d.dump());
    }
  }
}

void read_tags(const json& j, OpReader& r, const std::string& path,
               const core::SourceLocation& where, std::vector<core::Diagnostic>& problems, Op& op) {
  if (!j.contains("tags")) {
    return;
  }
  if (!j["tags"].is_object()) {
    r.fail("tags", "expected an object");
    return;
  }
  OpReader tags(j["tags"], path + ".tags", where, problems);
  op.tags.piece = tags.get<std::string>("piece", "", false);
  const std::string phase = tags.get<std::string>("phase", "", false);
  if (phase.size() > 1 || (phase.size() == 1 && phase != "F" && phase != "B" && phase != "W")) {
    tags.fail("phase", "expected \"F\", \"B\" or \"W\", got \"" + phase + "\"");
  }
  op.tags.phase = phase.empty() ? 0 : phase[0];
  op.tags.micro_batch = tags.get<int>("micro_batch", -1, false);
  op.tags.chunk = tags.get<int>("chunk", -1, false);
  op.tags.layer = tags.get<int>("layer", -1, false);
}

// One op; its problems go to `problems`, located at `where`.
Op read_op(const json& j, const std::string& path, const core::SourceLocation& where,
           std::vector<core::Diagnostic>& problems) {
  OpReader r(j, path, where, problems);
  Op op;
  op.id = r.get<int>("id", 0, true);
  op.rank = r.get<int>("rank", 0, true);
  op.stream = r.get<int>("stream", 0, true);
  bool ok = true;
  op.kind = kind_from(r.get<std::string>("kind", "compute", true), ok);
  if (!ok) {
    r.fail("kind",
           "unknown kind " + j["kind"].dump() + "; expected compute, collective, send or recv");
  }
  op.name = r.get<std::string>("name", "", false);
  const std::string cls = r.get<std::string>("class", "elementwise", false);
  if (const auto c = cost::kernel_class_from(cls)) {
    op.op_class = *c;
  } else {
    r.fail("class", "unknown kernel class \"" + cls + "\"");
  }
  const std::string dtype = r.get<std::string>("dtype", "bf16", false);
  if (const auto d = cost::dtype_from(dtype)) {
    op.dtype = *d;
  } else {
    r.fail("dtype", "unknown dtype \"" + dtype + "\"");
  }
  op.flops = r.get<double>("flops", 0.0, false);
  op.bytes = r.get<double>("bytes", 0.0, false);
  op.sms = r.get<int>("sms", 0, false);
  if (j.contains("measured_us")) {
    op.measured_us = r.get<double>("measured_us", 0.0, false);
    if (*op.measured_us < 0) {
      r.fail("measured_us", "must not be negative");
    }
  }
  if (j.contains("start_us")) {
    op.start_us = r.get<double>("start_us", 0.0, false);
  }
  read_deps(j, r, op);
  op.peer = r.get<int>("peer", -1, op.kind == OpKind::send || op.kind == OpKind::recv);
  op.tag = r.get<int>("tag", -1, false);
  read_tags(j, r, path, where, problems, op);
  return op;
}

}  // namespace

StepTrace parse_step_trace(std::string_view text, const std::string& file) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw core::InputError(core::json_syntax_error(text, e.byte, e.what(), file));
  } catch (const json::exception& e) {  // e.g. a number too large for a double
    throw core::InputError(core::json_syntax_error(text, 0, e.what(), file));
  }
  check_header(doc, file);
  StepTrace t;
  t.source =
      doc.contains("source") && doc["source"].is_string() ? doc["source"].get<std::string>() : "";
  const auto offsets = array_element_offsets(text, "ops");
  std::vector<core::Diagnostic> problems;
  for (std::size_t i = 0; i < doc["ops"].size(); ++i) {
    const json& j = doc["ops"][i];
    const std::string path = "ops[" + std::to_string(i) + "]";
    const core::SourceLocation where = i < offsets.size()
                                           ? core::location_of_offset(text, offsets[i], file)
                                           : core::SourceLocation{file, 0, 0};
    if (!j.is_object()) {
      problems.push_back({where, path, "expected an object", ""});
      continue;
    }
    t.ops.push_back(read_op(j, path, where, problems));
  }
  if (problems.empty()) {
    for (const auto& p : validate(t)) {
      problems.push_back({{file, 0, 0}, "ops", p, ""});
    }
  }
  if (!problems.empty()) {
    throw core::InputError(std::move(problems));
  }
  return t;
}

}  // namespace codesim::workload
