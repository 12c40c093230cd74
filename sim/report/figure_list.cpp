#include "sim/report/figure_list.hpp"

#include "sim/report/csv.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/labels.hpp"
#include "sim/report/markdown.hpp"

namespace codesim::report {

std::string figure_list_table(const std::string& title, const FigureList& figures,
                              const std::vector<core::Note>& notes) {
  std::string out = title + "\n";
  for (const auto& [label, value] : figures) {
    out += label + ": " + value + "\n";
  }
  for (const auto& n : notes) {
    out += "note: " + note_line(n) + "\n";
  }
  return out;
}

std::string figure_list_csv(const FigureList& figures) {
  std::string out = csv_row({"figure", "value"});
  for (const auto& [label, value] : figures) {
    out += csv_row({label, value});
  }
  return out;
}

std::string figure_list_markdown(const std::string& title, const FigureList& figures,
                                 const std::vector<core::Note>& notes) {
  std::string out = "# " + title + "\n\n" + md_row({"figure", "value"}) + md_rule(2, 1);
  for (const auto& [label, value] : figures) {
    out += md_row({label, value});
  }
  out += "\n";
  for (const auto& n : notes) {
    out += "- " + note_line(n) + "\n";
  }
  return out;
}

std::string figure_list_html(const FigureList& figures) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [label, value] : figures) {
    rows.push_back({label, value});
  }
  return "<h2>Figures</h2>\n" + html_table({"figure", "value"}, rows);
}

}  // namespace codesim::report
