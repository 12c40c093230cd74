// Reads a scenario YAML (and the files it includes) into flat key-path entries, rejecting
// unknown keys with a did-you-mean. Later entries (the including file) override earlier ones.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/error.hpp"

namespace codesim::config {

struct Entry {
  YAML::Node node;             // the value as written
  core::SourceLocation where;  // of the value
};

struct FlatScenario {
  std::map<std::string, Entry> entries;  // by key path, e.g. "hardware.nvlink_bandwidth"
  std::optional<Entry> sweep;            // the `sweep:` section as written (config/sweep.hpp)
  std::optional<Entry> search;           // the `search:` section as written (config/search.hpp)
  std::vector<core::Diagnostic> problems;
};

// Reads `path` and its includes. Problems are collected, not thrown.
FlatScenario read_scenario_yaml(const std::string& path);

// Same for YAML text already in memory; includes resolve against `path`'s directory.
FlatScenario read_scenario_text(const std::string& text, const std::string& path);

}  // namespace codesim::config
