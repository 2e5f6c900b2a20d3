// Which rules each profile has. Every rule is in both profiles with its catalogue severity
// except those listed here, each decided by what TORCH_LIBRARY / torch.library and c10 accept
// (torch._C.parse_schema and Library.define): what they accept is at most a warning out of tree,
// and torchgen's code-generation rules do not apply there at all.
#include "schemac/lint/rule_profiles.h"

#include <algorithm>
#include <array>

namespace schemac::lint {
namespace {

struct ProfileRow {
  std::string_view id;
  RuleProfiles profiles;
};

constexpr RuleProfiles kInTreeOnly{true, false, std::nullopt};
constexpr RuleProfiles kExtensionWarning{true, true, diagnostics::Severity::warning};

// Sorted by id.
constexpr auto kRows = std::to_array<ProfileRow>({
    {"autogen-group", kInTreeOnly},  // torchgen's generated variants
    {"autogen-name", kInTreeOnly},
    {"cia-kernel-name", kInTreeOnly},  // torchgen's naming of a lone composite kernel
    {"cia-redundant", kInTreeOnly},
    {"composite-conflict", kExtensionWarning},  // c10 registers both; one kernel is dead
    {"const-ref-out", kInTreeOnly},             // torchgen's C++ signatures
    {"delegate-dispatch", kInTreeOnly},         // structured kernels are torchgen's
    {"factory-dispatch", kInTreeOnly},          // torchgen's decomposition rule
    {"foreach-device-check", kInTreeOnly},
    {"func-not-canonical", kInTreeOnly},   // c10 reads any spacing; gen prints the canonical text
    {"group-no-functional", kInTreeOnly},  // torchgen's grouping of variants
    {"group-no-out", kInTreeOnly},
    {"group-out-alone", kInTreeOnly},
    {"inplace-self", kExtensionWarning},  // c10 takes it; functionalization may not
    {"inplace-view-tag", kInTreeOnly},
    {"mutable-return", kInTreeOnly},        // c10 takes any; alias-* check the sets
    {"out-annotation", kExtensionWarning},  // c10 takes it; functionalization may not
    {"out-method", kInTreeOnly},            // torchgen's Python binding of methods
    {"out-position", kInTreeOnly},          // torchgen's out= section
    {"out-return", kInTreeOnly},       // torchgen's out= returns; `-> ()` is common out of tree
    {"out-suffix-name", kInTreeOnly},  // torchgen's C++ names of out= overloads
    {"precomputed-structured", kInTreeOnly},
    {"structured-delegate", kInTreeOnly},
    {"structured-inherits", kInTreeOnly},
    {"structured-kind", kInTreeOnly},
    {"ufunc-dispatch", kInTreeOnly},
    {"ufunc-structured", kInTreeOnly},
    // torchgen's dispatch_keys; TORCH_LIBRARY_IMPL takes every key (PrivateUse1, AutogradCPU)
    {"unsupported-dispatch-key", kInTreeOnly},
});

}  // namespace

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
  auto it =
      std::lower_bound(kRows.begin(), kRows.end(), id,
                       [](const ProfileRow& row, std::string_view key) { return row.id < key; });
  return it != kRows.end() && it->id == id ? it->profiles : RuleProfiles{};
}

}  // namespace schemac::lint
