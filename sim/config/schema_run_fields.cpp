// The scenario fields of what runs: parallelism, schedule, workload, routing, inference and
// software, which sim/workload declares beside its specs (workload/parameters.hpp).
#include "sim/config/schema_field.hpp"
#include "sim/workload/parameters.hpp"

namespace codesim::config::schema_fields {

void add_run_fields(std::vector<FieldSpec>& f) {
  // --- parallelism
  add_declared(f, "parallelism.", MEMBER(parallelism),
               [](auto&& declare) { workload::declare_parallelism_parameters(declare); });

  // --- schedule
  add_declared(f, "schedule.", MEMBER(schedule),
               [](auto&& declare) { workload::declare_schedule_parameters(declare); });

  // --- workload
  add_declared(f, "workload.", MEMBER(workload),
               [](auto&& declare) { workload::declare_workload_parameters(declare); });

  // --- routing
  add_declared(f, "routing.", MEMBER(routing),
               [](auto&& declare) { workload::declare_routing_parameters(declare); });

  // --- inference
  add_declared(f, "inference.", MEMBER(inference),
               [](auto&& declare) { workload::declare_inference_parameters(declare); });

  // --- software (its vocabulary multiple pads the model's when the scenario is decoded)
  add_declared(f, "software.", MEMBER(software),
               [](auto&& declare) { workload::declare_software_parameters(declare); });
}

}  // namespace codesim::config::schema_fields
