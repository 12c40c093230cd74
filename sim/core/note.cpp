// Note kinds and their names.
#include "sim/core/note.hpp"

#include <array>
#include <utility>

#include "sim/core/named.hpp"

namespace codesim::core {
namespace {

constexpr std::array kNames = {
    std::pair{NoteKind::folded, std::string_view("folded")},
    std::pair{NoteKind::fitted, std::string_view("fitted")},
    std::pair{NoteKind::assumed, std::string_view("assumed")},
    std::pair{NoteKind::estimated, std::string_view("estimated")},
    std::pair{NoteKind::method, std::string_view("method")},
    std::pair{NoteKind::omitted, std::string_view("not modelled")},
    std::pair{NoteKind::warning, std::string_view("warning")},
};

}  // namespace

std::string_view note_kind_name(NoteKind k) {
  return core::name_in(kNames, k);
}

bool note_kind_of(std::string_view name, NoteKind& kind) {
  for (const auto& [k, n] : kNames) {
    if (n == name) {
      kind = k;
      return true;
    }
  }
  return false;
}

}  // namespace codesim::core
