// Markdown writers.
#include "sim/report/markdown.hpp"

#include "sim/core/quantity_parse.hpp"
#include "sim/report/columns.hpp"
#include "sim/report/format.hpp"
#include "sim/report/labels.hpp"

namespace codesim::report {
namespace {

// Pipes inside cells would split them.
std::string md_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    out += c == '|' ? std::string("\\|") : std::string(1, c);
  }
  return out;
}

}  // namespace

std::string md_row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const auto& c : cells) {
    out += " " + md_cell(c) + " |";
  }
  return out + "\n";
}

std::string md_rule(std::size_t columns, std::size_t left) {
  std::string out = "|";
  for (std::size_t i = 0; i < columns; ++i) {
    out += i < left ? "---|" : "---:|";
  }
  return out + "\n";
}

std::string run_markdown(const metrics::RunResult& r) {
  std::string out = "## " + r.scenario + "\n\n";
  out += "Step " + fixed(r.step_time.value, 3) + " s, " + fixed(r.tokens_per_day / 1e9, 2) +
         " B tokens/day, " + fixed(r.tflops_causal, 0) + " TFLOPS per GPU causal, MFU " +
         fixed(100 * r.mfu_causal, 1) + "% (" + fixed(100 * r.mfu_noncausal, 1) +
         "% non-causal).\n\n";
  if (r.spread) {
    out += spread_line(r) + ".\n\n";
  }
  std::vector<std::string> header;
  std::vector<std::string> row;
  for (const auto& part : kBreakdownParts) {
    header.push_back(std::string(part.label) + " (s)");
    row.push_back(fixed((r.breakdown.*part.member).value, 3));
  }
  header.emplace_back("step (s)");
  row.push_back(fixed(r.step_time.value, 3));
  out += md_row(header) + md_rule(header.size(), 0) + md_row(row);
  out += "\n" + md_row(link_header()) + md_rule(link_header().size(), 1);
  for (const auto& l : r.busiest_links) {
    out += md_row(link_row(l));
  }
  if (!r.tiers.empty()) {
    out += "\n" + md_row(tier_header()) + md_rule(tier_header().size(), 1);
    for (const auto& t : r.tiers) {
      out += md_row(tier_row(t));
    }
  }
  out += "\nMemory per GPU (first rank): " + fixed(r.memory.total().value / 1e9, 1) + " of " +
         fixed(r.memory.capacity.value / 1e9, 0) + " GB. Network: " + r.network.family + ", " +
         std::to_string(r.network.switches) + " switches, " + fixed(r.network.cost_usd / 1e6, 2) +
         " M$.\n\n";
  for (const auto& n : r.notes) {
    out += "- " + note_line(n) + "\n";
  }
  return out;
}

std::string sweep_markdown(const metrics::SweepResult& s) {
  std::string out = "## " + s.scenario + ": " + std::to_string(s.points.size()) + " points (" +
                    std::string(core::sweep_mode_name(s.mode)) + ")\n\n";
  std::vector<std::string> header{"point"};
  header.insert(header.end(), s.keys.begin(), s.keys.end());
  for (const char* h : {"step (s)", "B tokens/day", "MFU (%)", "network cost (M$)", "error"}) {
    header.push_back(h);
  }
  out += md_row(header) + md_rule(header.size(), 1 + s.keys.size());
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    std::vector<std::string> cells{std::to_string(i)};
    cells.insert(cells.end(), p.values.begin(), p.values.end());
    if (p.result) {
      const auto& r = *p.result;
      cells.push_back(fixed(r.step_time.value, 3));
      cells.push_back(fixed(r.tokens_per_day / 1e9, 1));
      cells.push_back(fixed(100 * r.mfu_causal, 1));
      cells.push_back(fixed(r.network.cost_usd / 1e6, 2));
      cells.push_back("");
    } else {
      cells.insert(cells.end(), 4, "");
      cells.push_back(p.error);
    }
    out += md_row(cells);
  }
  return out;
}

std::string inference_markdown(const metrics::InferenceResult& r) {
  std::string out = "## " + r.scenario + " (" +
                    std::string(metrics::inference_phase_name(r.phase)) + ", " +
                    std::string(metrics::inference_mode_name(r.mode)) + ")\n\n";
  out += std::to_string(r.gpus) + " GPUs, EP" + std::to_string(r.ep) + ", attention TP" +
         std::to_string(r.tp) + ", " + std::to_string(r.micro_batches) + " micro-batches of " +
         std::to_string(r.tokens_per_micro_batch) + " per GPU. Bound by " + r.bound_by + ".\n\n";
  out += md_row({"figure", "value"}) + md_rule(2, 1);
  for (const auto& c : inference_columns()) {
    out += md_row({c.label, core::format_number(c.value(r))});
  }
  out += "\n";
  for (const auto& n : r.notes) {
    out += "- " + note_line(n) + "\n";
  }
  return out;
}

}  // namespace codesim::report
