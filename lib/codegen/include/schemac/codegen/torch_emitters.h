// Emitters of the PyTorch target (`schemac gen --target torch`): code that registers the
// operators of a native-functions file with libtorch's dispatcher through torch/library.h.
//   torch_library_emitter.cpp        TORCH_LIBRARY(ns, m) { m.def(schema[, tags]); ... }
//   torch_registrations_emitter.cpp  TORCH_LIBRARY_IMPL(ns, KEY, m) { m.impl(op, TORCH_FN(k)); }
//   torch_declarations_emitter.cpp   the kernels, declared with torchgen's native signatures
//   torch_backend_select_emitter.cpp BackendSelect kernels of factory operators
//   torch_target.cpp                 the target (target.h) that puts them together
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/torch_types.h"
#include "schemac/diagnostics/diagnostic.h"

namespace schemac::gen {

// The name PyTorch's DispatchKey enum gives a key written in a dispatch section: synonyms are
// resolved (DefaultBackend -> CompositeExplicitAutograd, CPUTensorId -> CPU, CatchAll ->
// CompositeImplicitAutograd); other names are PyTorch's already.
std::string torch_key_name(std::string_view key);

// Whether the binding's kernel takes SymInt types (torchgen: its name contains "_symint").
bool is_symint_kernel(const KernelBinding& binding);

// The native signature of `op` for `binding`; call only after check_torch_model found no error.
TorchSignature torch_signature(const GenOperator& op, const KernelBinding& binding);

// Errors for operators that bind kernels but have no torchgen native signature (nothing can be
// written for them).
std::vector<schema::Diagnostic> check_torch_model(const GenModel& model);

// `TORCH_LIBRARY(ns, m) { ... }` defining every operator of `ops` (all of namespace `ns`).
std::string emit_torch_library_block(std::string_view ns, const std::vector<const GenOperator*>& ops);

// `TORCH_LIBRARY_IMPL(ns, KEY, m) { ... }` registering every kernel `ops` bind to `key` (written
// as in the YAML; the block names PyTorch's key), preceded by the wrappers that reorder the
// arguments of kernels whose native order differs from the schema's. "" when none binds `key`.
std::string emit_torch_impl_block(std::string_view ns, std::string_view key,
                                  const std::vector<const GenOperator*>& ops, const GenModel& model);

// `TORCH_LIBRARY_IMPL(ns, BackendSelect, m)` with a kernel per operator of `ops` that needs one
// (GenOperator::needs_backend_select) that computes the key set from its dtype, layout and device
// (c10::computeDispatchKey) and redispatches; "" when there is none.
std::string emit_torch_backend_select(std::string_view ns, const std::vector<const GenOperator*>& ops);

// NativeFunctions.h of the torch target.
std::string emit_torch_declarations(const GenModel& model);

}  // namespace schemac::gen
