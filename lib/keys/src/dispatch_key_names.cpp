// The one table of dispatch key names (dispatch-semantics.md §1.2, the newest DispatchKey.h).
// Not listed, on purpose: Undefined, the per-backend functionality keys themselves (Dense,
// Quantized, Sparse, SparseCsr, NestedTensor, AutogradFunctionality: they never run and cannot
// be registered to), and the StartOf/EndOf range markers.
#include "schemac/keys/dispatch_key_names.h"

#include <algorithm>
#include <array>

namespace schemac::schema {
namespace {

using K = DispatchKeyKind;

constexpr std::array kDispatchKeyNames = std::to_array<DispatchKeyName>({
    // Functionality keys that are runtime keys themselves, in priority order.
    {"FPGA", K::functionality, ""},
    {"Vulkan", K::functionality, ""},
    {"Metal", K::functionality, ""},
    {"CustomRNGKeyId", K::functionality, ""},
    {"MkldnnCPU", K::functionality, ""},
    {"BackendSelect", K::functionality, ""},
    {"Python", K::functionality, ""},
    {"Fake", K::functionality, ""},
    {"FuncTorchDynamicLayerBackMode", K::functionality, ""},
    {"Functionalize", K::functionality, ""},
    {"Named", K::functionality, ""},
    {"Conjugate", K::functionality, ""},
    {"Negative", K::functionality, ""},
    {"ZeroTensor", K::functionality, ""},
    {"ADInplaceOrView", K::functionality, ""},
    {"AutogradOther", K::functionality, ""},
    {"AutogradNestedTensor", K::functionality, ""},
    {"Tracer", K::functionality, ""},
    {"AutocastCPU", K::functionality, ""},
    {"AutocastMTIA", K::functionality, ""},
    {"AutocastMAIA", K::functionality, ""},
    {"AutocastXPU", K::functionality, ""},
    {"AutocastIPU", K::functionality, ""},
    {"AutocastHPU", K::functionality, ""},
    {"AutocastXLA", K::functionality, ""},
    {"AutocastMPS", K::functionality, ""},
    {"AutocastCUDA", K::functionality, ""},
    {"AutocastPrivateUse1", K::functionality, ""},
    {"FuncTorchBatched", K::functionality, ""},
    {"BatchedNestedTensor", K::functionality, ""},
    {"FuncTorchVmapMode", K::functionality, ""},
    {"Batched", K::functionality, ""},
    {"VmapMode", K::functionality, ""},
    {"FuncTorchGradWrapper", K::functionality, ""},
    {"DeferredInit", K::functionality, ""},
    {"PythonTLSSnapshot", K::functionality, ""},
    {"FuncTorchDynamicLayerFrontMode", K::functionality, ""},
    {"TESTING_ONLY_GenericWrapper", K::functionality, ""},
    {"TESTING_ONLY_GenericMode", K::functionality, ""},
    {"PreDispatch", K::functionality, ""},
    {"PythonDispatcher", K::functionality, ""},
    // Per-backend runtime keys: each per-backend functionality times the 16 backends.
    // Dense
    {"CPU", K::backend, ""},
    {"CUDA", K::backend, ""},
    {"HIP", K::backend, ""},
    {"XLA", K::backend, ""},
    {"MPS", K::backend, ""},
    {"IPU", K::backend, ""},
    {"XPU", K::backend, ""},
    {"HPU", K::backend, ""},
    {"VE", K::backend, ""},
    {"Lazy", K::backend, ""},
    {"MTIA", K::backend, ""},
    {"MAIA", K::backend, ""},
    {"PrivateUse1", K::backend, ""},
    {"PrivateUse2", K::backend, ""},
    {"PrivateUse3", K::backend, ""},
    {"Meta", K::backend, ""},
    // Quantized
    {"QuantizedCPU", K::backend, ""},
    {"QuantizedCUDA", K::backend, ""},
    {"QuantizedHIP", K::backend, ""},
    {"QuantizedXLA", K::backend, ""},
    {"QuantizedMPS", K::backend, ""},
    {"QuantizedIPU", K::backend, ""},
    {"QuantizedXPU", K::backend, ""},
    {"QuantizedHPU", K::backend, ""},
    {"QuantizedVE", K::backend, ""},
    {"QuantizedLazy", K::backend, ""},
    {"QuantizedMTIA", K::backend, ""},
    {"QuantizedMAIA", K::backend, ""},
    {"QuantizedPrivateUse1", K::backend, ""},
    {"QuantizedPrivateUse2", K::backend, ""},
    {"QuantizedPrivateUse3", K::backend, ""},
    {"QuantizedMeta", K::backend, ""},
    // Sparse
    {"SparseCPU", K::backend, ""},
    {"SparseCUDA", K::backend, ""},
    {"SparseHIP", K::backend, ""},
    {"SparseXLA", K::backend, ""},
    {"SparseMPS", K::backend, ""},
    {"SparseIPU", K::backend, ""},
    {"SparseXPU", K::backend, ""},
    {"SparseHPU", K::backend, ""},
    {"SparseVE", K::backend, ""},
    {"SparseLazy", K::backend, ""},
    {"SparseMTIA", K::backend, ""},
    {"SparseMAIA", K::backend, ""},
    {"SparsePrivateUse1", K::backend, ""},
    {"SparsePrivateUse2", K::backend, ""},
    {"SparsePrivateUse3", K::backend, ""},
    {"SparseMeta", K::backend, ""},
    // SparseCsr
    {"SparseCsrCPU", K::backend, ""},
    {"SparseCsrCUDA", K::backend, ""},
    {"SparseCsrHIP", K::backend, ""},
    {"SparseCsrXLA", K::backend, ""},
    {"SparseCsrMPS", K::backend, ""},
    {"SparseCsrIPU", K::backend, ""},
    {"SparseCsrXPU", K::backend, ""},
    {"SparseCsrHPU", K::backend, ""},
    {"SparseCsrVE", K::backend, ""},
    {"SparseCsrLazy", K::backend, ""},
    {"SparseCsrMTIA", K::backend, ""},
    {"SparseCsrMAIA", K::backend, ""},
    {"SparseCsrPrivateUse1", K::backend, ""},
    {"SparseCsrPrivateUse2", K::backend, ""},
    {"SparseCsrPrivateUse3", K::backend, ""},
    {"SparseCsrMeta", K::backend, ""},
    // NestedTensor
    {"NestedTensorCPU", K::backend, ""},
    {"NestedTensorCUDA", K::backend, ""},
    {"NestedTensorHIP", K::backend, ""},
    {"NestedTensorXLA", K::backend, ""},
    {"NestedTensorMPS", K::backend, ""},
    {"NestedTensorIPU", K::backend, ""},
    {"NestedTensorXPU", K::backend, ""},
    {"NestedTensorHPU", K::backend, ""},
    {"NestedTensorVE", K::backend, ""},
    {"NestedTensorLazy", K::backend, ""},
    {"NestedTensorMTIA", K::backend, ""},
    {"NestedTensorMAIA", K::backend, ""},
    {"NestedTensorPrivateUse1", K::backend, ""},
    {"NestedTensorPrivateUse2", K::backend, ""},
    {"NestedTensorPrivateUse3", K::backend, ""},
    {"NestedTensorMeta", K::backend, ""},
    // Autograd
    {"AutogradCPU", K::backend, ""},
    {"AutogradCUDA", K::backend, ""},
    {"AutogradHIP", K::backend, ""},
    {"AutogradXLA", K::backend, ""},
    {"AutogradMPS", K::backend, ""},
    {"AutogradIPU", K::backend, ""},
    {"AutogradXPU", K::backend, ""},
    {"AutogradHPU", K::backend, ""},
    {"AutogradVE", K::backend, ""},
    {"AutogradLazy", K::backend, ""},
    {"AutogradMTIA", K::backend, ""},
    {"AutogradMAIA", K::backend, ""},
    {"AutogradPrivateUse1", K::backend, ""},
    {"AutogradPrivateUse2", K::backend, ""},
    {"AutogradPrivateUse3", K::backend, ""},
    {"AutogradMeta", K::backend, ""},
    // Alias keys (registration only).
    {"Autograd", K::alias, ""},
    {"CompositeImplicitAutograd", K::alias, ""},
    {"FuncTorchBatchedDecomposition", K::alias, ""},
    {"CompositeImplicitAutogradNestedTensor", K::alias, ""},
    {"CompositeExplicitAutograd", K::alias, ""},
    {"CompositeExplicitAutogradNonFunctional", K::alias, ""},
    // Other spellings of the keys above.
    {"CatchAll", K::synonym, ""},
    {"CPUTensorId", K::synonym, "CPU"},
    {"CUDATensorId", K::synonym, "CUDA"},
    {"DefaultBackend", K::synonym, "CompositeExplicitAutograd"},
    {"PrivateUse1_PreAutograd", K::synonym, "AutogradPrivateUse1"},
    {"PrivateUse2_PreAutograd", K::synonym, "AutogradPrivateUse2"},
    {"PrivateUse3_PreAutograd", K::synonym, "AutogradPrivateUse3"},
    {"Autocast", K::synonym, "AutocastCUDA"},
});

}  // namespace

std::span<const DispatchKeyName> dispatch_key_names() { return kDispatchKeyNames; }

const DispatchKeyName* find_dispatch_key(std::string_view name) {
  // The table's entries sorted by name, made once: lint looks up every key of every entry.
  static const auto by_name = [] {
    std::array<const DispatchKeyName*, kDispatchKeyNames.size()> sorted;
    for (size_t i = 0; i < sorted.size(); ++i) sorted[i] = &kDispatchKeyNames[i];
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
    return sorted;
  }();
  auto it = std::lower_bound(by_name.begin(), by_name.end(), name,
                             [](const DispatchKeyName* key, std::string_view n) { return key->name < n; });
  return it != by_name.end() && (*it)->name == name ? *it : nullptr;
}

}  // namespace schemac::schema
