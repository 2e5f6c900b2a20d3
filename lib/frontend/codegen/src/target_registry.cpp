// The targets `--target` chooses from (target.h): every one a src/*_target.cpp file registers
// with SCHEMAC_TARGET, in the list lib/frontend/codegen/CMakeLists.txt generates from those lines
// (registered_targets.inc), sorted by name.
#include <algorithm>
#include <stdexcept>

#include "schemac/codegen/target.h"

namespace schemac::codegen {

#undef SCHEMAC_TARGET
#define SCHEMAC_TARGET(function, declared_name, fixed_files) const Target& function();
#include "registered_targets.inc"
#undef SCHEMAC_TARGET

namespace {

struct Registered {
  const Target* target;
  std::string_view fixed_files;  // space-separated
};

const std::vector<Registered>& registered_targets() {
  static const std::vector<Registered> targets = [] {
    std::vector<Registered> out;
#define SCHEMAC_TARGET(function, declared_name, fixed_files)                      \
  if (function().name() != declared_name)                                         \
    throw std::logic_error("SCHEMAC_TARGET(" #function ") names another target"); \
  out.push_back({&function(), fixed_files});
#include "registered_targets.inc"
#undef SCHEMAC_TARGET
    std::sort(out.begin(), out.end(), [](const Registered& a, const Registered& b) {
      return a.target->name() < b.target->name();
    });
    return out;
  }();
  return targets;
}

}  // namespace

const Target* find_target(std::string_view name) {
  for (const Registered& registered : registered_targets())
    if (registered.target->name() == name) return registered.target;
  return nullptr;
}

std::vector<std::string> target_names() {
  std::vector<std::string> names;
  for (const Registered& registered : registered_targets())
    names.emplace_back(registered.target->name());
  return names;
}

std::string targets_help() {
  const std::vector<Registered>& targets = registered_targets();
  std::string help;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (i > 0) help += i + 1 == targets.size() ? " or " : ", ";
    help += std::string(targets[i].target->name()) + " (" +
            std::string(targets[i].target->description()) + ")";
  }
  return help;
}

std::vector<std::string> fixed_outputs(std::string_view target_name) {
  std::vector<std::string> files;
  for (const Registered& registered : registered_targets()) {
    if (registered.target->name() != target_name) continue;
    std::string_view rest = registered.fixed_files;
    while (!rest.empty()) {
      const size_t space = rest.find(' ');
      if (space != 0) files.emplace_back(rest.substr(0, space));
      rest = space == std::string_view::npos ? "" : rest.substr(space + 1);
    }
  }
  return files;
}

}  // namespace schemac::codegen
