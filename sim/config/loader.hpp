// YAML scenario -> typed Scenario: decode every field by the schema, apply defaults and presets,
// check ranges and cross-field rules; every problem is collected before failing.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/scenario.hpp"
#include "sim/config/yaml_source.hpp"
#include "sim/core/error.hpp"

namespace codesim::config {

// A key set from outside the file's own keys: `--set key.path=value`, or one value of a sweep.
// It replaces what the file (or its includes) wrote; errors in it point at `where`.
struct Setting {
  std::string key;  // "hardware.nvlink_bandwidth"
  YAML::Node value;
  core::SourceLocation where;
  std::string text() const;  // the value as one line of YAML: "450GBps", "[a, b]"
};

// Parses "key.path=value" (the value read as YAML) as given on the command line.
Setting parse_setting(const std::string& assignment, const std::string& flag = "--set");

// Each of `assignments` parsed as --set gives it.
std::vector<Setting> parse_settings(const std::vector<std::string>& assignments);

// Where a scenario comes from: a file, or YAML text in memory (its includes resolved against
// `path`'s directory, which also names it), with settings over what it writes. The studies that
// vary a scenario (serve's instances, a campaign's steps, a sweep's points, a search's
// candidates) take this and decode each variant anew, so that its derived defaults follow.
struct ScenarioSource {
  std::string path;
  std::optional<std::string> text;  // none: read `path`
  std::vector<Setting> settings;
  // The same source with `more` settings after its own (theirs win).
  ScenarioSource with(const std::vector<Setting>& more) const;
};

// The source's entries with its settings over them (an unknown key is one of its problems).
FlatScenario read_source(const ScenarioSource& source);

// Throws core::InputError with every problem found.
Scenario load_scenario(const ScenarioSource& source);
Scenario load_scenario(const std::string& path, const std::vector<Setting>& settings = {});

// The same for text in memory (tests, fuzzing); includes resolve against `path`'s directory.
Scenario load_scenario_text(const std::string& text, const std::string& path,
                            const std::vector<Setting>& settings = {});

// Puts `settings` over the entries read from the files; an unknown key path becomes one of
// `flat`'s problems, with a did-you-mean.
void apply_settings(FlatScenario& flat, const std::vector<Setting>& settings);

// Decodes entries already read (config/yaml_source.hpp) with `settings` applied on top.
Scenario decode_scenario(FlatScenario flat, const std::string& path,
                         const std::vector<Setting>& settings = {});

// Throws core::InputError about `key` of the scenario, at the line and column where the file
// (or a --set) wrote it, else at the file.
[[noreturn]] void scenario_error(const Scenario& s, const std::string& key,
                                 const std::string& message, const std::string& hint = {});
// The same for an error a model raised about the key it names.
[[noreturn]] void scenario_error(const Scenario& s, const core::KeyedError& e);

// Cross-field rules over a decoded scenario. `where` gives the location of each key that was
// written in a file (keys left to defaults have none).
std::vector<core::Diagnostic> check_rules(const Scenario& s,
                                          const std::map<std::string, core::SourceLocation>& where);

}  // namespace codesim::config
