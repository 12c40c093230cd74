// Piece labels as DeepSeek's profile trace writes them.
#include "sim/workload/piece_id.hpp"

#include <array>
#include <utility>

namespace codesim::workload {
namespace {

constexpr std::array kKinds = {
    std::pair{PieceKind::attention, std::string_view("attn")},
    std::pair{PieceKind::mlp, std::string_view("mlp")},
    std::pair{PieceKind::head, std::string_view("head")},
    std::pair{PieceKind::embedding, std::string_view("embed")},
    std::pair{PieceKind::recompute, std::string_view("recompute")},
    std::pair{PieceKind::dispatch, std::string_view("dispatch")},
    std::pair{PieceKind::combine, std::string_view("combine")},
    std::pair{PieceKind::send, std::string_view("send")},
    std::pair{PieceKind::recv, std::string_view("recv")},
    std::pair{PieceKind::optimizer, std::string_view("optimizer")},
    std::pair{PieceKind::dp_reduce_scatter, std::string_view("dp reduce-scatter")},
    std::pair{PieceKind::dp_all_gather, std::string_view("dp all-gather")},
    std::pair{PieceKind::tp_all_gather, std::string_view("tp all-gather")},
    std::pair{PieceKind::tp_reduce_scatter, std::string_view("tp reduce-scatter")},
    std::pair{PieceKind::tp_all_reduce, std::string_view("tp all-reduce")},
    std::pair{PieceKind::cp_all_gather, std::string_view("cp all-gather")},
    std::pair{PieceKind::cp_reduce_scatter, std::string_view("cp reduce-scatter")},
};

constexpr std::array kPasses = {
    std::pair{Pass::forward, 'F'},
    std::pair{Pass::backward, 'B'},
    std::pair{Pass::weight, 'W'},
};

}  // namespace

std::string piece_label(PieceId p) {
  std::string label;
  for (const auto& [kind, name] : kKinds) {
    if (kind == p.kind) {
      label = name;
    }
  }
  for (const auto& [pass, letter] : kPasses) {
    if (pass == p.pass) {
      label += std::string("(") + letter + ")";
    }
  }
  return label;
}

std::optional<PieceId> parse_piece(std::string_view label) {
  Pass pass = Pass::none;
  std::string_view base = label;
  if (label.size() > 3 && label.back() == ')' && label[label.size() - 3] == '(') {
    bool known = false;
    for (const auto& [p, letter] : kPasses) {
      if (label[label.size() - 2] == letter) {
        pass = p;
        known = true;
      }
    }
    if (!known) {
      return std::nullopt;
    }
    base = label.substr(0, label.size() - 3);
  }
  for (const auto& [kind, name] : kKinds) {
    if (name == base) {
      return PieceId{kind, pass};
    }
  }
  return std::nullopt;
}

}  // namespace codesim::workload
