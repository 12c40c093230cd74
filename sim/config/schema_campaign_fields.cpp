// The campaign: section's fields: the keys sim/campaign declares beside its spec
// (campaign/parameters.hpp).
#include "sim/campaign/parameters.hpp"
#include "sim/config/schema_field.hpp"

namespace codesim::config::schema_fields {

void add_campaign_fields(std::vector<FieldSpec>& f) {
  add_declared(f, "campaign.", MEMBER(campaign),
               [](auto&& declare) { campaign::declare_parameters(declare); });
}

}  // namespace codesim::config::schema_fields
