// The words and keys every writer uses for the same figures: the breakdown's parts, the
// communication groups, notes. One table, so that a table, a CSV and a page never disagree.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/note.hpp"
#include "sim/metrics/run_result.hpp"

namespace codesim::report {

struct BreakdownPart {
  std::string_view label;   // table header and JSON key: "1F"
  std::string_view column;  // CSV column: "forward_s"
  std::string_view doc;     // for people: "forward chunks"
  core::Seconds metrics::Breakdown::*member;
};

inline constexpr std::array kBreakdownParts = {
    BreakdownPart{"1F", "forward_s", "forward chunks", &metrics::Breakdown::forward},
    BreakdownPart{"1B", "backward_s", "backward chunks", &metrics::Breakdown::backward},
    BreakdownPart{"1W", "weight_s", "weight-gradient chunks", &metrics::Breakdown::weight},
    BreakdownPart{"1F1B", "forward_backward_s", "overlapped forward & backward",
                  &metrics::Breakdown::forward_backward},
    BreakdownPart{"bubble", "bubble_s", "idle", &metrics::Breakdown::bubble},
    BreakdownPart{"opt", "optimizer_s", "optimizer and DP synchronization",
                  &metrics::Breakdown::optimizer},
};

// The busiest links' table, the same in the terminal, Markdown and HTML: header and one row.
std::vector<std::string> link_header();
std::vector<std::string> link_row(const metrics::LinkUse& l);

// The link tiers' table, likewise.
std::vector<std::string> tier_header();
std::vector<std::string> tier_row(const metrics::TierUse& t);

// "fitted: compute piece times ..."
std::string note_line(const core::Note& n);

// {"kind": "fitted", "text": "..."} per note.
nlohmann::ordered_json notes_json(const std::vector<core::Note>& notes);

// The step the lanes of the timeline span: the identical-replica step (with variability,
// step_time and the breakdown are the drawn steps' mean; the lanes stay the identical step's).
core::Seconds timeline_step(const metrics::RunResult& r);

// "step under variability: mean 19.563 s, p10 ... over 20 steps ...", or empty without it.
std::string spread_line(const metrics::RunResult& r);

// Exposed communication of a group, zero when absent.
core::Seconds exposed(const metrics::RunResult& r, metrics::CommGroup g);

}  // namespace codesim::report
