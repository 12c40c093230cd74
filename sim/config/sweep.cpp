// Reading and expanding the `sweep:` section.
#include "sim/config/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/config/schema.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/text.hpp"

namespace codesim::config {
namespace {

using core::Diagnostic;
using core::SourceLocation;

// More points than this is a typo in a range, not a study.
constexpr std::size_t kMaxPoints = 10'000;

class SweepReader {
 public:
  // `prefix`: the key path the section is at ("sweep", or "search.keys", which has no mode).
  SweepReader(const Entry& section, std::string prefix)
      : file_(section.where.file), section_(section), prefix_(std::move(prefix)) {}

  Sweep read() {
    Sweep sweep;
    const YAML::Node& root = section_.node;
    if (!root.IsMap()) {
      problem(section_.where, prefix_,
              with_mode() ? "expected a map: an optional mode, then key paths"
                          : "expected a map of key paths",
              prefix_ + ": {routing.node_limit: [1, 2, 4, 8]}");
      throw core::InputError(problems_);
    }
    for (const auto& kv : root) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
      if (key == "mode" && with_mode()) {
        read_mode(kv.second, sweep);
      } else if (const FieldSpec* f = find_field(key); f != nullptr && key != "include") {
        read_axis(*f, kv.first, kv.second, sweep);
      } else {
        unknown_key(kv.first);
      }
    }
    if (problems_.empty() && sweep.axes.empty()) {
      problem(section_.where, prefix_, "varies no key",
              "add a key path with its values, e.g. routing.node_limit: [1, 2, 4, 8]");
    }
    if (problems_.empty()) {
      expand(sweep);
    }
    if (!problems_.empty()) {
      throw core::InputError(problems_);
    }
    return sweep;
  }

 private:
  SourceLocation at(const YAML::Node& n) const {
    if (n.Mark().line < 0) {
      return section_.where;
    }
    return {file_, n.Mark().line + 1, n.Mark().column + 1};
  }

  void problem(SourceLocation where, std::string key, std::string message, std::string hint = {}) {
    problems_.push_back(
        Diagnostic{std::move(where), std::move(key), std::move(message), std::move(hint)});
  }

  void read_mode(const YAML::Node& n, Sweep& sweep) {
    const std::string text = n.IsScalar() ? n.Scalar() : "";
    if (text == sweep_mode_name(SweepMode::cartesian) || text == sweep_mode_name(SweepMode::zip)) {
      sweep.mode = text == sweep_mode_name(SweepMode::zip) ? SweepMode::zip : SweepMode::cartesian;
      return;
    }
    problem(at(n), prefix_ + ".mode", "unknown sweep mode '" + text + "'",
            "cartesian (every combination) or zip (the i-th values together)");
  }

  void unknown_key(const YAML::Node& key) {
    const std::string name = key.IsScalar() ? key.Scalar() : "";
    std::vector<std::string> keys = field_paths();
    if (with_mode()) {
      keys.insert(keys.begin(), "mode");
    }
    const auto near = core::closest_match(name, keys);
    problem(at(key), prefix_ + "." + name, "unknown key path",
            near.empty() ? "keys here are key paths such as routing.node_limit" +
                               std::string(with_mode() ? ", and mode" : "")
                         : "did you mean '" + near + "'?");
  }

  void read_axis(const FieldSpec& f, const YAML::Node& key, const YAML::Node& values,
                 Sweep& sweep) {
    SweepAxis axis{f.path, {}};
    const std::string where_key = prefix_ + "." + f.path;
    const bool list_field = f.type == FieldType::integer_list || f.type == FieldType::choice_list;
    if (values.IsSequence()) {
      for (const auto& item : values) {
        if (list_field && !item.IsSequence()) {
          problem(at(item), where_key, "each value of a list key is itself a list",
                  "write [[a, b], [c]]");
          return;
        }
        axis.values.push_back(Setting{f.path, item, at(item)});
      }
      if (axis.values.empty()) {
        problem(at(values), where_key, "has no values", "give at least one value: [a, b]");
        return;
      }
    } else if (values.IsMap() && !list_field) {
      if (!read_range(f, values, axis)) {
        return;
      }
    } else {
      problem(at(values.IsNull() ? key : values), where_key,
              "expected a list of values or a range {from, to, step}", "write [a, b, c]");
      return;
    }
    sweep.axes.push_back(std::move(axis));
  }

  // {from, to, step} for numbers and quantities: from, from + step, ... up to `to`.
  bool read_range(const FieldSpec& f, const YAML::Node& range, SweepAxis& axis) {
    const std::string key = prefix_ + "." + f.path;
    const bool quantity = f.type == FieldType::quantity;
    if (f.type != FieldType::integer && f.type != FieldType::real && !quantity) {
      problem(at(range), key, "a range needs a numeric key; this one is " + type_description(f),
              "list the values: [a, b, c]");
      return false;
    }
    double bound[3] = {0, 0, 0};
    const char* names[3] = {"from", "to", "step"};
    for (const auto& kv : range) {
      const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : "";
      if (name != "from" && name != "to" && name != "step") {
        problem(at(kv.first), key + "." + name, "unknown range key", "a range has from, to, step");
        return false;
      }
    }
    for (int i = 0; i < 3; ++i) {
      const YAML::Node n = range[names[i]];
      if (!n.IsDefined() || !n.IsScalar()) {
        problem(at(range), key + "." + names[i], "missing from the range",
                "a range has from, to, step");
        return false;
      }
      try {
        bound[i] = quantity ? core::parse_quantity(n.Scalar(), f.dimension) : number(n.Scalar());
      } catch (const core::UnitError& e) {
        problem(at(n), key + "." + names[i], e.what(), e.hint());
        return false;
      }
    }
    const auto [from, to, step] = bound;
    if (f.type == FieldType::integer &&
        (from != std::floor(from) || to != std::floor(to) || step != std::floor(step))) {
      problem(at(range), key, "an integer range needs integer from, to and step");
      return false;
    }
    if (!(step > 0) || to < from) {
      problem(at(range), key, "a range needs step > 0 and to >= from");
      return false;
    }
    const double count = std::floor((to - from) / step * (1 + 1e-12)) + 1;
    if (count > static_cast<double>(kMaxPoints)) {
      problem(at(range), key, "the range has " + core::format_number(count) + " values");
      return false;
    }
    for (int i = 0; i < static_cast<int>(count); ++i) {
      const double v = from + i * step;
      const std::string text =
          quantity ? core::format_quantity(v, f.dimension) : core::format_number(v);
      axis.values.push_back(Setting{f.path, YAML::Node(text), at(range)});
    }
    return true;
  }

  static double number(const std::string& text) {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) {
      throw core::UnitError("expected a number, got " + core::quoted_excerpt(text), "");
    }
    return v;
  }

  void expand(Sweep& sweep) {
    if (sweep.mode == SweepMode::zip) {
      const std::size_t n = sweep.axes.front().values.size();
      for (const auto& a : sweep.axes) {
        if (a.values.size() != n) {
          problem(section_.where, prefix_ + ".mode",
                  "zip needs one length: " + sweep.axes.front().key + " has " + std::to_string(n) +
                      " values, " + a.key + " has " + std::to_string(a.values.size()),
                  "give every key as many values, or use mode: cartesian");
          return;
        }
      }
      for (std::size_t i = 0; i < n; ++i) {
        std::vector<Setting> point;
        for (const auto& a : sweep.axes) {
          point.push_back(a.values[i]);
        }
        sweep.points.push_back(std::move(point));
      }
      return;
    }
    double total = 1;
    for (const auto& a : sweep.axes) {
      total *= static_cast<double>(a.values.size());
    }
    if (total > static_cast<double>(kMaxPoints)) {
      problem(section_.where, prefix_,
              "the " + std::string(with_mode() ? "sweep" : "search") + " has " +
                  core::format_number(total) + " points, more than " + std::to_string(kMaxPoints),
              "vary fewer keys or give fewer values");
      return;
    }
    std::vector<std::size_t> index(sweep.axes.size(), 0);
    for (std::size_t p = 0; p < static_cast<std::size_t>(total); ++p) {
      std::vector<Setting> point;
      for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
        point.push_back(sweep.axes[a].values[index[a]]);
      }
      sweep.points.push_back(std::move(point));
      for (std::size_t a = sweep.axes.size(); a-- > 0;) {
        if (++index[a] < sweep.axes[a].values.size()) {
          break;
        }
        index[a] = 0;
      }
    }
  }

  bool with_mode() const { return prefix_ == "sweep"; }

  std::string file_;
  const Entry& section_;
  std::string prefix_;
  std::vector<Diagnostic> problems_;
};

}  // namespace

std::optional<Sweep> read_sweep(const FlatScenario& flat) {
  if (!flat.sweep) {
    return std::nullopt;
  }
  return SweepReader(*flat.sweep, "sweep").read();
}

Sweep read_axes(const Entry& section, const std::string& prefix) {
  return SweepReader(section, prefix).read();
}

std::vector<Scenario> load_sweep_points(const FlatScenario& flat, const std::string& path,
                                        const Sweep& sweep) {
  std::vector<Scenario> out;
  std::vector<Diagnostic> problems;
  for (const auto& point : sweep.points) {
    try {
      out.push_back(decode_scenario(flat, path, point));
    } catch (const core::InputError& e) {
      for (const auto& d : e.diagnostics()) {
        // A problem of one value shows once, however many points share it.
        const auto same = [&](const Diagnostic& o) { return o.to_string() == d.to_string(); };
        if (std::none_of(problems.begin(), problems.end(), same)) {
          problems.push_back(d);
        }
      }
    }
  }
  if (!problems.empty()) {
    throw core::InputError(problems);
  }
  return out;
}

}  // namespace codesim::config
