// The schema table itself: every field documented, unique, and its default decodable.
#include "sim/config/schema.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "sim/config/loader.hpp"
#include "sim/config/schema_doc.hpp"

namespace codesim::config {
namespace {

TEST(Schema, FieldsAreUniqueAndDocumented) {
  std::set<std::string> seen;
  for (const auto& f : scenario_schema()) {
    EXPECT_TRUE(seen.insert(f.path).second) << f.path;
    EXPECT_FALSE(f.doc.empty()) << f.path;
    EXPECT_TRUE(f.set && f.get) << f.path;
    if (f.default_kind == DefaultKind::derived) {
      EXPECT_TRUE(static_cast<bool>(f.derive)) << f.path;
    }
    if (f.default_kind == DefaultKind::preset) {
      EXPECT_FALSE(f.preset_source.empty()) << f.path;
    }
  }
}

TEST(Schema, PresetSelectorsComeBeforeTheFieldsTheyFill) {
  // Decoding runs in table order, so an explicit value must come after its preset.
  const auto& all = scenario_schema();
  auto index = [&](const std::string& path) {
    return std::find_if(all.begin(), all.end(), [&](const auto& f) { return f.path == path; }) -
           all.begin();
  };
  for (const auto& f : all) {
    if (f.preset_source == "hardware.gpu") {
      EXPECT_LT(index("hardware.gpu"), index(f.path)) << f.path;
    }
    if (f.preset_source == "model") {
      EXPECT_LT(index("model.config"), index(f.path)) << f.path;
    }
  }
}

TEST(Schema, SectionsAndChildren) {
  EXPECT_TRUE(is_section("workload.precision"));
  EXPECT_FALSE(is_section("workload.seq_len"));
  const auto top = children_of("");
  for (const char* s : {"name", "model", "hardware", "topology", "parallelism", "schedule",
                        "workload", "routing", "inference"}) {
    EXPECT_NE(std::find(top.begin(), top.end(), s), top.end()) << s;
  }
}

TEST(SchemaDoc, OneRowPerField) {
  const auto rows = schema_rows();
  EXPECT_EQ(rows.size(), scenario_schema().size());
  const auto nvlink = std::find_if(
      rows.begin(), rows.end(), [](const auto& r) { return r.key == "hardware.nvlink_bandwidth"; });
  EXPECT_EQ(nvlink->type, "bandwidth");
  EXPECT_EQ(nvlink->unit, "B/s (e.g. 50GBps, 400Gbps, 160 GB/s)");
  EXPECT_EQ(nvlink->default_value, "from hardware.gpu");
}

TEST(Schema, AModulesDeclaredDefaultsAreItsSpecsOwn) {
  // The variability, campaign, serve, parallelism, schedule, workload, software, routing,
  // inference, topology and cost keys are declared beside their modules' specs
  // (<module>/parameters.hpp), each with its default as scenario files spell it ("1h", "2GB",
  // "auto"); the structs hold the same defaults in C++. A scenario that gives none of them,
  // decoded, holds what a default-constructed Scenario does, key by key (the derived defaults
  // included where the file decides them as the struct does: campaign.failures llama3 without a
  // rate given, software.cuda_graphs false for a training step, software.optimizer fused for the
  // fused stack). Serve's keys that default to another key's value (same_as: serve.prefill.nodes is
  // hardware.nodes) hold that key's value.
  const Scenario given = load_scenario(CODESIM_SOURCE_DIR "/tests/scenarios/small-step.yaml");
  const Scenario plain{};
  // The keys of each section declared by its module (and the keys of hardware's declared by
  // sim/workload's step power).
  const std::map<std::string, int> declared = {{"variability", 15},
                                               {"campaign", 19},
                                               {"serve", 23},
                                               {"parallelism", 9},
                                               {"schedule", 3},
                                               {"workload", 11},
                                               {"software", 5},
                                               {"routing", 9},
                                               {"inference", 12},
                                               {"topology", 14},
                                               {"cost", 4},
                                               {"hardware.nic_power", 1},
                                               {"hardware.switch_power", 1},
                                               {"hardware.host_power", 1}};
  std::map<std::string, int> keys;
  for (const FieldSpec& f : scenario_schema()) {
    const std::string section =
        declared.count(f.path) > 0 ? f.path : f.path.substr(0, f.path.find('.'));
    if (declared.count(section) == 0) {
      continue;
    }
    ++keys[section];
    if (f.path == "variability.enabled" || given.where.count(f.path) > 0 ||
        f.default_kind == DefaultKind::preset) {
      continue;  // the scenario's own key, one the file gives (schedule.method), or the model's
    }
    if (f.path == "inference.micro_batches") {
      // Derived from the model: DeepSeek-V3 (an MoE) over ep 16 overlaps 2, the struct's 1 is a
      // dense model's.
      EXPECT_EQ(given.inference.micro_batches, 2);
      EXPECT_EQ(plain.inference.micro_batches, 1);
      continue;
    }
    const bool same_as = f.default_kind == DefaultKind::derived && section == "serve";
    const FieldSpec* other = same_as ? find_field(f.default_text) : nullptr;
    if (same_as) {
      ASSERT_NE(other, nullptr) << f.path << " defaults to " << f.default_text;
    }
    EXPECT_EQ(f.get(given), same_as ? other->get(given) : f.get(plain))
        << f.path << " (default " << f.default_text << ")";
  }
  EXPECT_EQ(keys, declared);
}

}  // namespace
}  // namespace codesim::config
