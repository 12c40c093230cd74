// The serve: section's fields (`codesim serve`): the keys sim/serve declares beside its spec
// (serve/parameters.hpp).
#include "sim/config/schema_field.hpp"
#include "sim/serve/parameters.hpp"

namespace codesim::config::schema_fields {

void add_serve_fields(std::vector<FieldSpec>& f) {
  add_declared(f, "serve.", MEMBER(serve),
               [](auto&& declare) { serve::declare_parameters(declare); });
}

}  // namespace codesim::config::schema_fields
