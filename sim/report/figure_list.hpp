// A study's figures as (label, value) pairs, and the text formats that print them the same way:
// the terminal, CSV, Markdown and an HTML table (serve and campaign reports).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/core/note.hpp"

namespace codesim::report {

using FigureList = std::vector<std::pair<std::string, std::string>>;

// "title", then "label: value" lines, then "note: ..." lines.
std::string figure_list_table(const std::string& title, const FigureList& figures,
                              const std::vector<core::Note>& notes);
std::string figure_list_csv(const FigureList& figures);
// "# title", a figure/value table, then the notes as a list.
std::string figure_list_markdown(const std::string& title, const FigureList& figures,
                                 const std::vector<core::Note>& notes);
// "<h2>Figures</h2>" and the figure/value table.
std::string figure_list_html(const FigureList& figures);

}  // namespace codesim::report
