// Lint's two rule profiles and which rules each has (docs/lint-rules.md, "Profiles"):
//   in-tree    torchgen's rules, for PyTorch's native_functions.yaml and its forks
//   extension  what TORCH_LIBRARY / torch.library and c10 enforce, as errors, plus out-of-tree
//              best practice (mutation and alias annotations, defaults, names) as warnings
// Operators written with a namespace other than `aten` and operators defined in registration
// code get `extension`; the rest get `in-tree`, unless a profile is forced (--profile).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/rules/rules.h"

namespace schemac::lint {

enum class Profile : uint8_t { in_tree, extension, automatic };

std::string_view profile_name(Profile profile);  // "in-tree", "extension", "automatic"
std::optional<Profile> parse_profile(std::string_view name);

// The profile of an operator in namespace `ns` ("" when none was written) when `requested` is
// asked for: the forced one, else `extension` for any namespace but `aten`.
Profile operator_profile(Profile requested, std::string_view ns);

// What a rule is in each profile (in_tree, extension, extension_severity): the rule registry's
// column (schemac/rules/rule_table.h), beside the rule's id, severity and description.
using RuleProfiles = rules::Profiles;
// The profile data of rule `id`; rules not listed apart are in both profiles alike.
RuleProfiles rule_profiles(std::string_view id);

}  // namespace schemac::lint
