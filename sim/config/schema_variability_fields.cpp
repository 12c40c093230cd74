// The variability: section's fields: whether a step runs it (the scenario's), then the keys
// sim/variability declares beside its spec (variability/parameters.hpp).
#include "sim/config/schema_field.hpp"
#include "sim/variability/parameters.hpp"

namespace codesim::config::schema_fields {

void add_variability_fields(std::vector<FieldSpec>& f) {
  f.push_back(
      field("variability.enabled", MEMBER(variability.enabled),
            with_default("false",
                         "Replicas differ: each step's GPUs and NICs run at drawn paces and "
                         "every synchronization waits for its slowest member; step_time_s "
                         "becomes the mean of variability.steps draws. codesim campaign "
                         "turns it on unless the scenario sets it.")));
  add_declared(f, "variability.", MEMBER(variability),
               [](auto&& declare) { variability::declare_parameters(declare); });
}

}  // namespace codesim::config::schema_fields
