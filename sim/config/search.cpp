// Reading the `search:` section.
#include "sim/config/search.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "sim/core/text.hpp"

namespace codesim::config {
namespace {

using core::Diagnostic;
using core::SourceLocation;

SourceLocation at(const Entry& section, const YAML::Node& n) {
  if (n.Mark().line < 0) {
    return section.where;
  }
  return {section.where.file, n.Mark().line + 1, n.Mark().column + 1};
}

// A finite number, or nothing.
std::optional<double> number(const YAML::Node& n) {
  if (!n.IsScalar()) {
    return std::nullopt;
  }
  try {
    std::size_t used = 0;
    const double v = std::stod(n.Scalar(), &used);
    if (used == n.Scalar().size() && std::isfinite(v)) {
      return v;
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

constexpr SearchObjective kObjectives[] = {
    SearchObjective::tokens_per_day, SearchObjective::tokens_per_day_per_usd,
    SearchObjective::days,           SearchObjective::cost_usd,
    SearchObjective::gpu_hours,      SearchObjective::energy_mwh};

std::string_view search_objective_name(SearchObjective o) {
  switch (o) {
    case SearchObjective::tokens_per_day:
      return "tokens_per_day";
    case SearchObjective::tokens_per_day_per_usd:
      return "tokens_per_day_per_usd";
    case SearchObjective::days:
      return "days";
    case SearchObjective::cost_usd:
      return "cost_usd";
    case SearchObjective::gpu_hours:
      return "gpu_hours";
    case SearchObjective::energy_mwh:
      return "energy_mwh";
  }
  return "tokens_per_day";
}

bool is_campaign_objective(SearchObjective o) {
  return o != SearchObjective::tokens_per_day && o != SearchObjective::tokens_per_day_per_usd;
}

std::optional<Search> read_search(const FlatScenario& flat) {
  if (!flat.search) {
    return std::nullopt;
  }
  const Entry& section = *flat.search;
  std::vector<Diagnostic> problems;
  auto problem = [&](SourceLocation where, std::string key, std::string message,
                     std::string hint = {}) {
    problems.push_back({std::move(where), std::move(key), std::move(message), std::move(hint)});
  };
  Search search;
  if (!section.node.IsMap()) {
    problem(section.where, "search", "expected a map: keys, and optionally objective, top, "
                                     "max_network_usd",
            "search: {keys: {parallelism.pp: [8, 16]}}");
    throw core::InputError(problems);
  }
  std::optional<Entry> keys;
  for (const auto& kv : section.node) {
    const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : "";
    const YAML::Node& v = kv.second;
    if (name == "keys") {
      keys = Entry{v, at(section, v.IsNull() ? kv.first : v)};
    } else if (name == "objective") {
      const std::string text = v.IsScalar() ? v.Scalar() : "";
      const auto* found =
          std::find_if(std::begin(kObjectives), std::end(kObjectives),
                       [&](SearchObjective o) { return search_objective_name(o) == text; });
      if (found != std::end(kObjectives)) {
        search.objective = *found;
      } else {
        problem(at(section, v), "search.objective", "unknown objective '" + text + "'",
                "tokens_per_day or tokens_per_day_per_usd (codesim search); days, cost_usd, "
                "gpu_hours or energy_mwh (codesim campaign --search)");
      }
    } else if (name == "max_network_usd") {
      const auto usd = number(v);
      if (!usd || *usd <= 0) {
        problem(at(section, v), "search.max_network_usd", "expected a positive number of dollars",
                "max_network_usd: 2.0e7");
      } else {
        search.max_network_usd = *usd;
      }
    } else if (name == "top") {
      const auto top = number(v);
      if (!top || *top < 1 || *top != std::floor(*top) || *top > 1000) {
        problem(at(section, v), "search.top", "expected a whole number from 1 to 1000",
                "top: 10");
      } else {
        search.top = static_cast<int>(*top);
      }
    } else {
      const auto near =
          core::closest_match(name, std::vector<std::string>{"keys", "objective", "max_network_usd", "top"});
      problem(at(section, kv.first), "search." + name, "unknown key",
              near.empty() ? "keys here: keys, objective, max_network_usd, top"
                           : "did you mean '" + near + "'?");
    }
  }
  if (!keys) {
    problem(section.where, "search.keys", "missing: the key paths to vary, with their candidates",
            "keys: {parallelism.pp: [8, 16]}");
  }
  if (!problems.empty()) {
    throw core::InputError(problems);
  }
  search.candidates = read_axes(*keys, "search.keys");
  return search;
}

}  // namespace codesim::config
