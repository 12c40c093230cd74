// The registry's table and the family names derived from it.
#include "topologies/family.hpp"

#include <algorithm>
#include <array>

#include "sim/core/text.hpp"

namespace codesim::topologies {

// Each defined in its family's file (family_*.cpp).
extern const FamilyDescriptor kNodeFamily;
extern const FamilyDescriptor kFt2Family;
extern const FamilyDescriptor kFt3Family;
extern const FamilyDescriptor kMrftFamily;
extern const FamilyDescriptor kMpftFamily;
extern const FamilyDescriptor kSlimFlyFamily;
extern const FamilyDescriptor kDragonflyFamily;

std::span<const FamilyDescriptor* const> families() {
  static const std::array<const FamilyDescriptor*, 7> table = {
      &kNodeFamily, &kFt2Family,     &kFt3Family,       &kMrftFamily,
      &kMpftFamily, &kSlimFlyFamily, &kDragonflyFamily,
  };
  return table;
}

bool FamilyDescriptor::reads_parameter(std::string_view parameter) const {
  return std::find(reads.begin(), reads.end(), parameter) != reads.end();
}

const FamilyDescriptor& descriptor(Family f) {
  for (const FamilyDescriptor* d : families()) {
    if (d->family == f) {
      return *d;
    }
  }
  return *families().front();  // unreachable: every Family has a row
}

std::string_view family_name(Family f) {
  return descriptor(f).name;
}

const std::vector<std::pair<Family, std::string_view>>& family_names() {
  static const auto names = [] {
    std::vector<std::pair<Family, std::string_view>> out;
    for (const FamilyDescriptor* d : families()) {
      out.emplace_back(d->family, d->name);
    }
    return out;
  }();
  return names;
}

std::optional<Family> family_from_name(std::string_view name) {
  for (const FamilyDescriptor* d : families()) {
    if (d->name == name || (!d->alias.empty() && d->alias == name)) {
      return d->family;
    }
  }
  return std::nullopt;
}

std::string family_choices() {
  std::string out;
  for (const FamilyDescriptor* d : families()) {
    out += (out.empty() ? "" : ", ") + std::string(d->name);
    if (!d->alias.empty()) {
      out += " (" + std::string(d->alias) + ")";
    }
  }
  return out;
}

std::vector<std::string> family_names_if(const std::function<bool(const FamilyDescriptor&)>& pick) {
  std::vector<std::string> out;
  for (const FamilyDescriptor* d : families()) {
    if (pick(*d)) {
      out.emplace_back(d->name);
    }
  }
  return out;
}

std::string families_reading(std::string_view parameter) {
  return core::join(family_names_if([parameter](const FamilyDescriptor& d) {
                      return d.reads_parameter(parameter);
                    }),
                    ", ");
}

}  // namespace codesim::topologies
