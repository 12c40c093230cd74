// The Hugging Face model families codesim reads, chosen by a config's `model_type` (or, without
// one, the class in `architectures`): one reader each, which knows what the family's keys mean
// for the simulated shapes, and the family's keys known not to change them. Any other key is
// refused, so that a key that changes the shapes is never dropped without a word.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "models/llm/config_reader.hpp"
#include "models/llm/llm_spec.hpp"

namespace codesim::llm {

struct ConfigFamily {
  std::string_view model_type;
  std::string_view architecture;  // its class in `architectures`
  // Reads the shapes from the document (nested objects too) and refuses what it leaves unread.
  void (*read)(ConfigReader& r, LlmSpec& m);
};

std::span<const ConfigFamily> config_families();
const ConfigFamily* find_config_family(std::string_view model_type);
const ConfigFamily* config_family_of_architecture(std::string_view architecture);
// Reads a config of `family`, refusing every key neither read nor known not to change the shapes.
void read_config_family(const ConfigFamily& family, ConfigReader& r, LlmSpec& m);

// "dbrx, deepseek_v2, ...": the model types in alphabetical order.
std::string config_family_names();

}  // namespace codesim::llm
