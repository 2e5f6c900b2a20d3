// Printing key sets, and the named key sets of docs/dispatch-semantics.md §2-3.
#include "schemac/keys/dispatch_key_set.h"

namespace schemac::keys {
namespace {

// Every runtime key of the given per-backend functionalities, for every backend.
constexpr DispatchKeySet all_backends_of(std::initializer_list<DispatchKey> functionalities) {
  DispatchKeySet result = DispatchKeySet::all_backends();
  for (DispatchKey f : functionalities) result = result.add(f);
  return result;
}

constexpr DispatchKeySet kAutocastKeys{DispatchKey::AutocastCPU,  DispatchKey::AutocastMTIA,
                                       DispatchKey::AutocastMAIA, DispatchKey::AutocastXPU,
                                       DispatchKey::AutocastIPU,  DispatchKey::AutocastHPU,
                                       DispatchKey::AutocastXLA,  DispatchKey::AutocastMPS,
                                       DispatchKey::AutocastCUDA, DispatchKey::AutocastPrivateUse1};

constexpr DispatchKeySet kAutogradOtherBackends =
    DispatchKeySet{DispatchKey::FPGA, DispatchKey::Vulkan, DispatchKey::Metal,
                   DispatchKey::CustomRNGKeyId, DispatchKey::MkldnnCPU} |
    all_backends_of({DispatchKey::Sparse, DispatchKey::SparseCsr, DispatchKey::Quantized});

// The "backend set" of CompositeExplicitAutograd: autogradother backends and every dense backend.
constexpr DispatchKeySet kBackendKeys =
    kAutogradOtherBackends | all_backends_of({DispatchKey::Dense});

constexpr DispatchKeySet kAutogradKeys =
    DispatchKeySet{DispatchKey::AutogradOther, DispatchKey::AutogradNestedTensor} |
    all_backends_of({DispatchKey::AutogradFunctionality});

constexpr DispatchKeySet kNestedKeys = DispatchKeySet{DispatchKey::AutogradNestedTensor} |
                                       all_backends_of({DispatchKey::NestedTensor});

// The per-backend keys of the set, with XLA and Lazy removed: as a key set cannot drop a backend
// for one functionality only, build the non-functional set key by key.
DispatchKeySet make_nonfunctional_keyset() {
  DispatchKeySet result;
  for (DispatchKey k : kBackendKeys) {
    const DispatchKey f = to_functionality_key(k);
    if (f == DispatchKey::Sparse) continue;
    const BackendComponent b = to_backend_component(k);
    if (b == BackendComponent::XLABit || b == BackendComponent::LazyBit) continue;
    result = result.add(k);
  }
  return result;
}

}  // namespace

std::string to_string(DispatchKeySet ks) {
  std::string out = "DispatchKeySet(";
  bool first = true;
  for (DispatchKey k : ks) {
    if (!first) out += ", ";
    first = false;
    out += to_string(k);
  }
  return out + ")";
}

DispatchKeySet autocast_keyset() { return kAutocastKeys; }
DispatchKeySet default_included_set() {
  return DispatchKeySet{DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView};
}
DispatchKeySet default_excluded_set() { return kAutocastKeys; }

DispatchKeySet after_autograd_keyset() {
  return DispatchKeySet::full_after(DispatchKey::AutogradOther);
}
DispatchKeySet after_ADInplaceOrView_keyset() {
  return DispatchKeySet::full_after(DispatchKey::ADInplaceOrView);
}
DispatchKeySet after_func_keyset() {
  return DispatchKeySet::full_after(DispatchKey::Functionalize)
      .remove(DispatchKey::ADInplaceOrView);
}

DispatchKeySet autogradother_backends() { return kAutogradOtherBackends; }
DispatchKeySet autograd_keyset() { return kAutogradKeys; }
DispatchKeySet composite_explicit_keyset() { return kBackendKeys; }
DispatchKeySet composite_explicit_nonfunctional_keyset() {
  static const DispatchKeySet set = make_nonfunctional_keyset();
  return set;
}
DispatchKeySet composite_implicit_keyset() {
  return kBackendKeys | kAutogradKeys | kNestedKeys | DispatchKeySet{DispatchKey::Functionalize};
}
DispatchKeySet composite_implicit_nested_keyset() { return kNestedKeys; }
DispatchKeySet functorch_batched_decomposition_keyset() {
  return DispatchKeySet{DispatchKey::FuncTorchBatched};
}

DispatchKeySet alias_runtime_keyset(DispatchKey alias) {
  switch (alias) {
    case DispatchKey::Autograd: return autograd_keyset();
    case DispatchKey::CompositeImplicitAutograd: return composite_implicit_keyset();
    case DispatchKey::FuncTorchBatchedDecomposition:
      return functorch_batched_decomposition_keyset();
    case DispatchKey::CompositeImplicitAutogradNestedTensor:
      return composite_implicit_nested_keyset();
    case DispatchKey::CompositeExplicitAutograd: return composite_explicit_keyset();
    case DispatchKey::CompositeExplicitAutogradNonFunctional:
      return composite_explicit_nonfunctional_keyset();
    default: return DispatchKeySet();
  }
}

DispatchKeySet runtime_keyset_to_refresh(DispatchKey k) {
  if (k == DispatchKey::FuncTorchBatchedDecomposition) return DispatchKeySet();
  if (is_alias_key(k)) return alias_runtime_keyset(k);
  return DispatchKeySet(k);
}

bool is_included_in_alias(DispatchKey k, DispatchKey alias) {
  if (k == DispatchKey::Undefined || !is_runtime_key(k)) return false;
  const DispatchKeySet set = alias_runtime_keyset(alias);
  // A key set answers per-backend membership with shared backend bits, which is wrong for the
  // non-functional set (it holds CPU but not XLA): test that one by iteration.
  if (alias == DispatchKey::CompositeExplicitAutogradNonFunctional) {
    for (DispatchKey member : set)
      if (member == k) return true;
    return false;
  }
  return set.has(k);
}

DispatchKeySet backend_keyset_from_autograd(DispatchKey k) {
  if (k == DispatchKey::AutogradOther) return kAutogradOtherBackends;
  if (k == DispatchKey::AutogradNestedTensor) return all_backends_of({DispatchKey::NestedTensor});
  if (to_functionality_key(k) == DispatchKey::AutogradFunctionality)
    return DispatchKeySet(to_runtime_per_backend_key(DispatchKey::Dense, to_backend_component(k)));
  return DispatchKeySet();
}

DispatchKey autograd_key_of_backend(DispatchKey k) {
  if (!is_backend_dispatch_key(k)) return DispatchKey::Undefined;
  const BackendComponent b = to_backend_component(k);
  if (b == BackendComponent::InvalidBit) return DispatchKey::AutogradOther;
  return to_runtime_per_backend_key(DispatchKey::AutogradFunctionality, b);
}

bool is_backend_dispatch_key(DispatchKey k) {
  if (k == DispatchKey::Undefined || is_alias_key(k) || !is_runtime_key(k)) return false;
  return kBackendKeys.has(k);
}

}  // namespace schemac::keys
