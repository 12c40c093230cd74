// A small scanner that follows JSON nesting and strings.
#include "sim/workload/json_locate.hpp"

namespace codesim::workload {

std::vector<std::size_t> array_element_offsets(std::string_view text, std::string_view key) {
  std::size_t pos = 0;
  if (!key.empty()) {
    const std::string quoted = "\"" + std::string(key) + "\"";
    pos = text.find(quoted);
    if (pos == std::string_view::npos) {
      return {};
    }
    pos += quoted.size();
  }
  pos = text.find('[', pos);
  if (pos == std::string_view::npos) {
    return {};
  }
  std::vector<std::size_t> offsets;
  int depth = 0;
  bool in_string = false;
  bool expect_element = true;
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    }
    if (depth == 0 && expect_element && c != ']') {
      offsets.push_back(i);
      expect_element = false;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth == 0) {
        break;
      }
      --depth;
    } else if (c == ',' && depth == 0) {
      expect_element = true;
    }
  }
  return offsets;
}

}  // namespace codesim::workload
