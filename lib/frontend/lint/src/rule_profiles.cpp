// Lint's profiles, and which rules each has: the rule registry's profiles column
// (schemac/rules/rule_table.h). Every rule is in both profiles with its default severity except
// those marked there, each decided by what TORCH_LIBRARY / torch.library and c10 accept
// (torch._C.parse_schema and Library.define): what they accept is at most a warning out of tree,
// and torchgen's code-generation rules do not apply there at all.
#include "schemac/lint/rule_profiles.h"

namespace schemac::lint {

std::string_view profile_name(Profile profile) {
  switch (profile) {
    case Profile::in_tree: return "in-tree";
    case Profile::extension: return "extension";
    case Profile::automatic: return "automatic";
  }
  return "automatic";
}

std::optional<Profile> parse_profile(std::string_view name) {
  for (Profile p : {Profile::in_tree, Profile::extension, Profile::automatic}) {
    if (profile_name(p) == name) return p;
  }
  return std::nullopt;
}

Profile operator_profile(Profile requested, std::string_view ns) {
  if (requested != Profile::automatic) return requested;
  return ns.empty() || ns == "aten" ? Profile::in_tree : Profile::extension;
}

RuleProfiles rule_profiles(std::string_view id) {
  const rules::RuleDef* rule = rules::find_rule(id);
  return rule ? rule->profiles : RuleProfiles{};
}

}  // namespace schemac::lint
