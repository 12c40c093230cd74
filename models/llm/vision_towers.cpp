// Vision towers' parameter counts, module by module as Hugging Face transformers builds them
// (checked against its own count of the shipped configs: tests/data/hf_param_counts.json).
#include "models/llm/vision_towers.hpp"

#include <optional>

namespace codesim::llm {
namespace {

// A vision transformer's shape: width, MLP width, blocks, and its image cut into patches.
struct Vit {
  double h, i, layers, channels, patches, patch_pixels;
};

Vit read_vit(ConfigReader& v) {
  const double patch = v.integer("patch_size", 1, std::nullopt);
  const double image = v.integer("image_size", 1, std::nullopt);
  return {.h = static_cast<double>(v.integer("hidden_size", 1, std::nullopt)),
          .i = static_cast<double>(v.integer("intermediate_size", 1, std::nullopt)),
          .layers = static_cast<double>(v.integer("num_hidden_layers", 1, std::nullopt)),
          .channels = static_cast<double>(v.integer("num_channels", 1, 3)),
          .patches = (image / patch) * (image / patch),
          .patch_pixels = patch * patch};
}

// A pre-norm transformer block with biases everywhere: Q, K, V, O (h x h + h each), the MLP
// (h x i + i, i x h + h) and two LayerNorms (weight and bias).
double vit_block(double h, double i) {
  return 4.0 * (h * h + h) + (h * i + i) + (i * h + h) + 4.0 * h;
}

}  // namespace

double llama4_vision_params(ConfigReader& v, int text_hidden) {
  const Vit t = read_vit(v);
  const double h = t.h;
  const double adapter_in = v.integer("projector_input_dim", 1, std::nullopt);
  const double adapter_out = v.integer("projector_output_dim", 1, std::nullopt);
  const double out = v.integer("vision_output_dim", 1, std::nullopt);
  const double shuffle = v.number("pixel_shuffle_ratio", 0.5);
  const double embed = t.channels * t.patch_pixels * h  // unfolded patches, no bias
                       + h                              // class embedding
                       + (t.patches + 1) * h            // positions
                       + 4.0 * h;                       // LayerNorms before and after
  // Pixel shuffle folds 1 / ratio^2 patches into one: an MLP of that width, no biases.
  const double adapter = h / (shuffle * shuffle) * adapter_in + adapter_in * adapter_out;
  return embed + t.layers * vit_block(h, t.i) + adapter + out * text_hidden;
}

double siglip_vision_params(ConfigReader& v, int text_hidden) {
  const Vit t = read_vit(v);
  const double embed = t.channels * t.patch_pixels * t.h + t.h  // patch convolution with bias
                       + t.patches * t.h                         // positions
                       + 2.0 * t.h;                              // the final LayerNorm
  // Gemma 3's projector: an RMSNorm of the tower's width, then a matrix to the text width.
  return embed + t.layers * vit_block(t.h, t.i) + t.h + t.h * text_hidden;
}

}  // namespace codesim::llm
