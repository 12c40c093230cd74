// A note a model attaches to a result: what it assumed, fitted, folded or left out, written by
// the model that makes the assumption and printed by every report.
#pragma once

#include <string>
#include <string_view>

namespace codesim::core {

enum class NoteKind {
  folded,     // a part simulated stands for identical parts that are not
  fitted,     // a parameter fitted to measurements (kernel- or collective-level), with its source
  assumed,    // a figure taken as given, not measured here
  estimated,  // an approximation or bound standing for something not modelled in detail
  method,     // how a figure was obtained (routing, the model used, the closed form)
  omitted,    // what the model leaves out
  warning,    // a result the user should not take at face value (does not fit, ...)
};

// "folded", "fitted", "assumed", "estimated", "method", "not modelled", "warning".
std::string_view note_kind_name(NoteKind k);

// The kind named `name`, or false.
bool note_kind_of(std::string_view name, NoteKind& kind);

struct Note {
  NoteKind kind = NoteKind::method;
  std::string text;
  bool operator==(const Note&) const = default;
};

}  // namespace codesim::core
