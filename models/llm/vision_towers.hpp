// Parameters of the vision towers some configs carry beside their text model (Llama 4's, Gemma 3's
// SigLIP), counted from their configs because publishers count them in a model's total. codesim
// does not simulate them.
#pragma once

#include "models/llm/config_reader.hpp"

namespace codesim::llm {

// Llama 4's vision encoder (vision_config), its pixel-shuffle adapter and its projector to the
// text model's `text_hidden` channels.
double llama4_vision_params(ConfigReader& vision, int text_hidden);

// Gemma 3's SigLIP encoder (vision_config) and its projector to `text_hidden` channels.
double siglip_vision_params(ConfigReader& vision, int text_hidden);

}  // namespace codesim::llm
