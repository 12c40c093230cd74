// The fields of the studies beyond one step's shape: serving (`codesim serve`), a training
// campaign (`codesim campaign`) and what varies between a step's GPUs and NICs. Their modules
// declare their keys beside their specs (sim/serve, sim/campaign, sim/variability:
// parameters.hpp); variability.enabled is the scenario's own.
#include "sim/campaign/parameters.hpp"
#include "sim/config/schema_field.hpp"
#include "sim/serve/parameters.hpp"
#include "sim/variability/parameters.hpp"

namespace codesim::config::schema_fields {

void add_study_fields(std::vector<FieldSpec>& f) {
  add_declared(f, "serve.", MEMBER(serve),
               [](auto&& declare) { serve::declare_parameters(declare); });
  add_declared(f, "campaign.", MEMBER(campaign),
               [](auto&& declare) { campaign::declare_parameters(declare); });
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
