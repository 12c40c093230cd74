// Text table rendering.
#include "sim/report/table.hpp"

#include <algorithm>

namespace codesim::report {

Table::Table(std::vector<std::string> header, std::vector<Align> align)
    : header_(std::move(header)), align_(std::move(align)) {
  align_.resize(header_.size(), Align::left);
}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string Table::render() const {
  std::vector<std::size_t> width(header_.size());
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  };
  measure(header_);
  std::for_each(rows_.begin(), rows_.end(), measure);
  auto line = [&](const std::vector<std::string>& row) {
    std::string out;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(width[i] - row[i].size(), ' ');
      const bool last = i + 1 == row.size();
      if (align_[i] == Align::right) {
        out += pad + row[i];
      } else {
        out += row[i] + (last ? "" : pad);
      }
      if (!last) {
        out += "  ";
      }
    }
    return out + "\n";
  };
  std::string out = line(header_);
  std::vector<std::string> rule;
  for (auto w : width) {
    rule.emplace_back(w, '-');
  }
  out += line(rule);
  for (const auto& r : rows_) {
    out += line(r);
  }
  return out;
}

}  // namespace codesim::report
