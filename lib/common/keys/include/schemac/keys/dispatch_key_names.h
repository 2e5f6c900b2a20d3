// The dispatch key names a native-functions `dispatch:` section may use, for the front end (lint,
// compat, gen), which must not depend on the runtime. The table is made from the runtime's own
// names (dispatch_key.h: to_string, key_synonyms), so every name is written once, in
// lib/common/keys; docs/dispatch-semantics.md §1.2 lists them.
//
// Declared in schemac::dispatch (the runtime library that carries lib/common/keys exports them) and
// used from schemac::schema.
#pragma once

#include <span>
#include <string_view>

#include "schemac/keys/dispatch_key.h"

namespace schemac::keys {

// The other spellings users write for keys: CatchAll (Undefined: no key), CPUTensorId,
// CUDATensorId, DefaultBackend, PrivateUseN_PreAutograd, Autocast. parse_dispatch_key reads them.
struct KeySynonym {
  std::string_view name;
  DispatchKey key;
};
std::span<const KeySynonym> key_synonyms();

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

// Every name that can be registered to: the plain functionality keys in enum order, then the
// per-backend runtime keys block by block, then the aliases, then the synonyms. Not listed:
// Undefined, the per-backend functionalities themselves (Dense, Quantized, ...: they never run) and
// markers.
std::span<const DispatchKeyName> dispatch_key_names();

// The entry for `name` (case-sensitive), or nullptr.
const DispatchKeyName* find_dispatch_key(std::string_view name);

// The composite keys: a kernel registered to one is a decomposition that other keys' backends
// use. CompositeImplicitAutograd, CompositeExplicitAutograd and
// CompositeExplicitAutogradNonFunctional serve every backend; CompositeImplicitAutogradNestedTensor
// serves only the nested-tensor ones. Names are canonical (resolve synonyms first).
bool is_composite_key(std::string_view name);
bool is_every_backend_composite_key(std::string_view name);

}  // namespace schemac::keys
