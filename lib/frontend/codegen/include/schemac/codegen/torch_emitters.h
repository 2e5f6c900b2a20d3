// Emitters of the PyTorch target (`schemac gen --target torch`): code that registers the
// operators of a native-functions file with libtorch's dispatcher through torch/library.h.
//   torch_library_emitter.cpp        TORCH_LIBRARY(ns, m) { m.def(schema[, tags]); ... }
//                                    (TORCH_LIBRARY_FRAGMENT in a namespace libtorch defines)
//   torch_registrations_emitter.cpp  TORCH_LIBRARY_IMPL(ns, KEY, m) { m.impl(op, TORCH_FN(k)); },
//                                    boxed kernels through CppFunction::makeFromBoxedFunction
//   torch_declarations_emitter.cpp   the kernels, declared with torchgen's native signatures
//                                    (boxed: void(const c10::OperatorHandle&, torch::jit::Stack*))
//   torch_backend_select_emitter.cpp BackendSelect kernels of factory operators
//   torch_target.cpp                 the target (target.h) that puts them together
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/target.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/kernel_types/torch_types.h"

namespace schemac::codegen {

// The name PyTorch's DispatchKey enum gives a key written in a dispatch section: synonyms are
// resolved (DefaultBackend -> CompositeExplicitAutograd, CPUTensorId -> CPU, CatchAll ->
// CompositeImplicitAutograd); other names are PyTorch's already.
std::string torch_key_name(std::string_view key);

// Whether the binding's kernel takes SymInt types (torchgen: its name contains "_symint").
bool is_symint_kernel(const KernelBinding& binding);

// The native signature of `op` for `binding`, or nullopt when c10 cannot infer the schema from
// any C++ signature (None, Any, type variables, unions, futures, varargs, ...): the kernel is
// then boxed, `void(const c10::OperatorHandle&, torch::jit::Stack*)`.
std::optional<kernel_types::TorchSignature> torch_signature(
    const GenOperator& op, const KernelBinding& binding,
    torch_releases::TorchVersion release = torch_releases::kNewestTorchVersion);

// Whether libtorch itself defines namespace `ns` with TORCH_LIBRARY (aten, prim, quantized, ...):
// an extension adds operators to it with TORCH_LIBRARY_FRAGMENT.
bool is_libtorch_namespace(std::string_view ns);

// Errors for what the torch target cannot write: operators naming a custom class, operators
// written without a namespace when --namespace was not given (the target would otherwise pick one
// for them). Types the release's parser does not read (Dimname from 2.13) are lint's
// schema-release errors, which gen's gate reports for the --torch-version release.
std::vector<diagnostics::Diagnostic> check_torch_model(const GenModel& model,
                                                       const GenOptions& options);

// `TORCH_LIBRARY(ns, m) { ... }` defining every operator of `ops` (all of namespace `ns`), or
// TORCH_LIBRARY_FRAGMENT when libtorch defines `ns` already.
std::string emit_torch_library_block(std::string_view ns,
                                     const std::vector<const GenOperator*>& ops);

// `TORCH_LIBRARY_IMPL(ns, KEY, m) { ... }` registering every kernel `ops` bind to `key` (written
// as in the YAML; the block names PyTorch's key), preceded by the wrappers that reorder the
// arguments of kernels whose native order differs from the schema's; boxed kernels go through
// torch::CppFunction::makeFromBoxedFunction. "" when none binds `key`.
std::string emit_torch_impl_block(
    std::string_view ns, std::string_view key, const std::vector<const GenOperator*>& ops,
    const GenModel& model,
    torch_releases::TorchVersion release = torch_releases::kNewestTorchVersion);

// `TORCH_LIBRARY_IMPL(ns, BackendSelect, m)` with a kernel per operator of `ops` that needs one
// (GenOperator::needs_backend_select) that computes the key set from its dtype, layout and device
// (c10::computeDispatchKey) and redispatches; "" when there is none.
std::string emit_torch_backend_select(
    std::string_view ns, const std::vector<const GenOperator*>& ops,
    torch_releases::TorchVersion release = torch_releases::kNewestTorchVersion);

// NativeFunctions.h of the torch target, with the kernel types `release` checks.
std::string emit_torch_declarations(const GenModel& model, torch_releases::TorchVersion release =
                                                               torch_releases::kNewestTorchVersion);

}  // namespace schemac::codegen
