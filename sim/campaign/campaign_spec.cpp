#include "sim/campaign/campaign_spec.hpp"

#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/text.hpp"

namespace codesim::campaign {

CheckpointInterval CheckpointInterval::parse(const std::string& text) {
  if (text == "auto") {
    return {};
  }
  const double seconds = core::parse_quantity(text, core::Dimension::seconds);
  if (!(seconds > 0)) {
    throw core::UnitError(
        "a checkpoint interval must be positive, got " + core::quoted_excerpt(text),
        "a duration such as 2h, or auto");
  }
  return {core::Seconds(seconds)};
}

std::string CheckpointInterval::text() const {
  return automatic() ? std::string("auto")
                     : core::format_quantity(every.value, core::Dimension::seconds);
}

}  // namespace codesim::campaign
