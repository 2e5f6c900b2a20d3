// The targets `--target` chooses from (target.h).
#include <array>

#include "schemac/codegen/target.h"

namespace schemac::codegen {
namespace {

// The default first.
std::array<const Target*, 2> registered_targets() {
  return {&schemac_runtime_target(), &torch_target()};
}

}  // namespace

const Target* find_target(std::string_view name) {
  for (const Target* target : registered_targets())
    if (target->name() == name) return target;
  return nullptr;
}

std::vector<std::string> target_names() {
  std::vector<std::string> names;
  for (const Target* target : registered_targets()) names.emplace_back(target->name());
  return names;
}

}  // namespace schemac::codegen
