// A plain-text table for terminal output: a header row, aligned columns.
#pragma once

#include <string>
#include <vector>

namespace codesim::report {

class Table {
 public:
  enum class Align { left, right };

  explicit Table(std::vector<std::string> header, std::vector<Align> align = {});
  void add_row(std::vector<std::string> cells);
  // Columns padded to their widest cell, separated by two spaces, a dashed rule under the header.
  std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace codesim::report
