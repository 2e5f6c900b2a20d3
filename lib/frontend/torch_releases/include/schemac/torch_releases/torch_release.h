// What lint checks depends on the PyTorch release whose torchgen will read the file
// (`--torch-version X.Y`, 1.12 through the newest): which rules exist and how severe they are,
// which dispatch keys a `dispatch:` section may name, the built-in tags, and how `tags:` is
// written. docs/releases.md says where each fact comes from.
#pragma once

#include <compare>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/rules/rules.h"

namespace schemac::torch_releases {

struct TorchVersion {
  int major = 0;
  int minor = 0;
  auto operator<=>(const TorchVersion&) const = default;
};
// The default release: the newest lint knows, 2.14 (read from its own torchgen and files).
inline constexpr TorchVersion kNewestTorchVersion{2, 14};

// Every release lint knows, oldest first; the last is the default.
std::span<const TorchVersion> known_torch_versions();
std::string format_torch_version(TorchVersion version);  // "2.9"
// "X.Y" naming a known release, else nullopt.
std::optional<TorchVersion> parse_torch_version(std::string_view text);
// "1.12, 1.13, 2.0, ..." for messages.
std::string known_torch_versions_text();
// Why `text` names no release: "unknown PyTorch release 'X'; known: 1.12, ..."; "" when it does.
std::string unknown_torch_version(std::string_view text);

// The releases a rule applies to: torchgen `since` (first release with the check) up to
// `until` (the last one; nullopt: still checked today). `error_until`: the rule is an error up
// to that release and its catalogue severity after it.
struct RuleRelease {
  std::string_view id;
  TorchVersion since;
  std::optional<TorchVersion> until;
  std::optional<TorchVersion> error_until;
};
// The rules whose releases are limited, sorted by id: a view of the rule registry's release
// column (schemac/rules/rule_table.h). Every other rule applies to every known release.
std::span<const RuleRelease> rule_releases();
const RuleRelease* find_rule_release(std::string_view id);

// `version` as the rule registry counts releases: what rules::decide takes, the one place that
// drops the findings of rules `version`'s torchgen does not have and gives the others their
// severity there.
rules::Release release_of(TorchVersion version);

// The tags of `version`'s tags.yaml, used when no tags file is given or found (static storage).
std::span<const std::string_view> builtin_tags(TorchVersion version = kNewestTorchVersion);

// The keys torchgen's `dispatch_keys` list allows in a native-functions `dispatch:` section.
std::span<const std::string_view> supported_dispatch_keys(TorchVersion version);

// torchgen from 2.1 also counts an argument named like dropout as random (nondeterministic_seeded);
// 1.13 and 2.0 look at the operator's name only.
bool dropout_arguments_are_random(TorchVersion version);

// How many namespaces a kernel name in `dispatch:` may have: `a::b::c::fn` (torchgen's
// NamespaceHelper max_level 3 from 2.0), but `a::b::fn` in 1.13 (max_level 2).
int kernel_namespace_levels(TorchVersion version);

// Forms of the schema language that some releases' parsers read and others do not (PyTorch's
// schema parser, what a library's def() and torch._C.parse_schema take, and torchgen's).
enum class SchemaForm : uint8_t {
  dimname_type,          // the Dimname type (named tensors)
  dtype_name_default,    // a ScalarType default written by dtype name: float16, bfloat16, int8, ...
  device_index_type,     // the DeviceIndex type
  sym_bool_type,         // the SymBool type
  await_type,            // Await(T)
  custom_type_variable,  // a type variable (`t`, any lower-case unknown type) outside aten and prim
};
// The releases whose parser reads a form: from `since` (nullopt: every known release) up to the
// release before `removed_in` (nullopt: still read today).
struct SchemaFormReleases {
  SchemaForm form;
  std::string_view name;  // what messages call it: "the Dimname type"
  std::optional<TorchVersion> since;
  std::optional<TorchVersion> removed_in;
};
const SchemaFormReleases& schema_form_releases(SchemaForm form);
bool reads_schema_form(TorchVersion version, SchemaForm form);

// Whether `version`'s torch.library.custom_op passes its tags= to infer_schema, which then gives
// a torch.Tag.inplace op the return Tensor(aN!) of its first argument and a torch.Tag.out op the
// returns of its keyword-only out arguments (from 2.13, PyTorch #184201 and #184202; read in
// 2.14). Before, tags do not change the schema.
bool custom_op_tags_shape_schema(TorchVersion version);

// torchgen up to 1.13 reads `tags:` as one string that it splits at ", "; from 2.0 it reads a
// list, or one string as a single tag.
bool tags_are_comma_separated(TorchVersion version);

}  // namespace schemac::torch_releases
