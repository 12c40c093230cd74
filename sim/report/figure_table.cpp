// Figure / value tables.
#include "sim/report/figure_table.hpp"

#include "sim/core/text.hpp"
#include "sim/report/table.hpp"

namespace codesim::report {

std::string figure_table(const nlohmann::ordered_json& j) {
  Table t({"figure", "value"});
  for (const auto& [key, value] : j.items()) {
    if (value.is_array() && value.size() > 16) {
      std::vector<std::string> head;
      for (std::size_t i = 0; i < 8; ++i) {
        head.push_back(value[i].dump());
      }
      t.add_row({key, "[" + core::join(head, ", ") + ", ... (" + std::to_string(value.size()) +
                          " values)]"});
    } else {
      t.add_row({key, value.is_string() ? value.get<std::string>() : value.dump()});
    }
  }
  return t.render();
}

}  // namespace codesim::report
