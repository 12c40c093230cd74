// Sweep writers.
#include "sim/report/sweep_report.hpp"

#include "sim/report/format.hpp"
#include "sim/report/run_report.hpp"
#include "sim/report/schema_version.hpp"
#include "sim/report/table.hpp"

namespace codesim::report {

nlohmann::ordered_json values_json(const std::vector<std::string>& keys,
                                   const std::vector<std::string>& values) {
  nlohmann::ordered_json out;
  for (std::size_t k = 0; k < keys.size() && k < values.size(); ++k) {
    out[keys[k]] = values[k];
  }
  return out;
}

nlohmann::ordered_json sweep_json(const metrics::SweepResult& s) {
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = s.scenario;
  j["mode"] = core::sweep_mode_name(s.mode);
  j["keys"] = s.keys;
  auto points = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    points.push_back({{"point", i},
                      {"values", values_json(s.keys, p.values)},
                      {"result", p.result ? run_json(*p.result) : nlohmann::ordered_json()},
                      {"error", p.error}});
  }
  j["points"] = points;
  return j;
}

std::string sweep_table(const metrics::SweepResult& s) {
  std::vector<std::string> header{"point"};
  header.insert(header.end(), s.keys.begin(), s.keys.end());
  for (const char* h : {"step (s)", "B tokens/day", "MFU (%)"}) {
    header.push_back(h);
  }
  std::vector<Table::Align> align(header.size(), Table::Align::right);
  Table t(header, align);
  int failed = 0;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    std::vector<std::string> row{std::to_string(i)};
    row.insert(row.end(), p.values.begin(), p.values.end());
    if (p.result) {
      row.push_back(fixed(p.result->step_time.value, 3));
      row.push_back(fixed(p.result->tokens_per_day / 1e9, 1));
      row.push_back(fixed(100 * p.result->mfu_causal, 1));
    } else {
      row.insert(row.end(), 3, "failed");
      ++failed;
    }
    t.add_row(row);
  }
  std::string out = s.scenario + ": " + std::to_string(s.points.size()) + " points (" +
                    std::string(core::sweep_mode_name(s.mode)) + ")\n" + t.render();
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    if (!s.points[i].result) {
      out += "point " + std::to_string(i) + " failed: " + s.points[i].error + "\n";
    }
  }
  return out;
}

}  // namespace codesim::report
