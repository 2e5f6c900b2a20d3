#include "schemac/tokens/condition_path.h"

namespace schemac::tokens {

bool mutually_exclusive(const ConditionPath& a, const ConditionPath& b) {
  for (const auto& [group, branch] : a) {
    for (const auto& [other_group, other_branch] : b) {
      if (group == other_group && branch != other_branch) return true;
    }
  }
  return false;
}

}  // namespace schemac::tokens
