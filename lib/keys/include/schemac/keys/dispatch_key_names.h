// The dispatch key names a native-functions `dispatch:` section may use. lib/schema cannot
// depend on lib/dispatch, so the names live here, in one table, taken from the newest
// DispatchKey.h as described in dispatch-semantics.md §1.2.
#pragma once

#include <span>
#include <string_view>

namespace schemac::schema {

enum class DispatchKeyKind : unsigned char {
  functionality,  // a plain runtime key: FPGA, Python, ADInplaceOrView, ...
  backend,        // a per-backend runtime key: CPU, SparseCUDA, AutogradMeta, ...
  alias,          // registration-only: CompositeImplicitAutograd, Autograd, ...
  synonym,        // another spelling of a key above: CatchAll, DefaultBackend, ...
};

struct DispatchKeyName {
  std::string_view name;
  DispatchKeyKind kind;
  std::string_view same_as;  // synonyms only: the key it stands for ("" for CatchAll)
};

// Every name, in DispatchKey enum order (synonyms last).
std::span<const DispatchKeyName> dispatch_key_names();

// The entry for `name` (case-sensitive), or nullptr.
const DispatchKeyName* find_dispatch_key(std::string_view name);

}  // namespace schemac::schema
