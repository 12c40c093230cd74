// Table 3 instances: k = 64; Slim Fly q = 28, p = 21; Dragonfly a = 32, h = 16, p = 16, 511 groups.
// q = 28 is not a prime power, so no MMS graph exists for it: its counts come from the closed
// forms ((3q - delta)/2 router links, delta = 0), as the paper's must have.
#include "topologies/paper_instances.hpp"

#include "sim/core/named.hpp"

namespace codesim::topologies {

const std::vector<PaperInstance>& paper_instances() {
  static const std::vector<PaperInstance> instances = {
      {"ft2", {.family = Family::ft2, .radix = 64}, 256, 2'048, 96, 2'048, 9, 4.39},
      {"mpft",
       {.family = Family::mpft, .radix = 64, .planes = 8},
       2'048,
       16'384,
       768,
       16'384,
       72,
       4.39},
      {"ft3", {.family = Family::ft3, .radix = 64}, 8'192, 65'536, 5'120, 131'072, 491, 7.5},
      {"sf",
       {.family = Family::slimfly, .slimfly_q = 28, .endpoints_per_router = 21},
       4'116,
       32'928,
       1'568,
       32'928,
       146,
       4.4},
      {"df",
       {.family = Family::dragonfly,
        .endpoints_per_router = 16,
        .dragonfly_a = 32,
        .dragonfly_h = 16,
        .dragonfly_groups = 511},
       32'704,
       261'632,
       16'352,
       384'272,
       1'522,
       5.8},
  };
  return instances;
}

std::optional<PaperInstance> find_paper_instance(std::string_view name) {
  return core::find_named(paper_instances(), name);
}

}  // namespace codesim::topologies
