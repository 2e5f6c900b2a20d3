// Dispatch keys: the backends (BackendComponent) and the keys (DispatchKey) of the newest PyTorch
// key layout (docs/dispatch-semantics.md §1.2): 16 backends, 48 functionality values, 6 per-backend
// functionalities, 138 runtime table slots, 6 alias keys.
//
// ## How the enum is laid out
// DispatchKey values come in blocks, in this order:
//   1. Undefined (0), which is never stored as a bit in a key set.
//   2. Functionality keys, up to EndOfFunctionalityKeys. Each has one bit in a DispatchKeySet.
//      Six of them (Dense, Quantized, Sparse, SparseCsr, NestedTensor, AutogradFunctionality) are
//      "per-backend": they are never runtime keys themselves.
//   3. Per-backend runtime keys: one block per per-backend functionality, each bracketed by a
//      StartOf<F>Backends marker and ending with EndOf<F>Backends = <prefix>Meta. CPU is
//      Dense x CPUBit, AutogradCUDA is AutogradFunctionality x CUDABit, and so on.
//   4. Alias keys (registration only), StartOfAliasKeys..EndOfAliasKeys.
//   5. Synonyms (CatchAll = Undefined, DefaultBackend = CompositeExplicitAutograd, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace schemac::keys {

// X-macro lists, laid out by hand (clang-format cannot parse them).
// clang-format off
// Backends in bit order, lowest priority first. Meta is last: it has the highest backend priority.
#define SCHEMAC_FORALL_BACKENDS(X) \
  X(CPU) X(CUDA) X(HIP) X(XLA) X(MPS) X(IPU) X(XPU) X(HPU) X(VE) X(Lazy) X(MTIA) X(MAIA) \
  X(PrivateUse1) X(PrivateUse2) X(PrivateUse3) X(Meta)

// Per-backend functionalities, as (functionality key, runtime key prefix), in enum order.
#define SCHEMAC_FORALL_PER_BACKEND_FUNCTIONALITIES(X) \
  X(Dense, ) X(Quantized, Quantized) X(Sparse, Sparse) X(SparseCsr, SparseCsr) \
  X(NestedTensor, NestedTensor) X(AutogradFunctionality, Autograd)

enum class BackendComponent : uint8_t {
  InvalidBit = 0,
#define SCHEMAC_BACKEND_BIT(name) name##Bit,
  SCHEMAC_FORALL_BACKENDS(SCHEMAC_BACKEND_BIT)
#undef SCHEMAC_BACKEND_BIT
  EndOfBackendKeys = MetaBit,
};

inline constexpr uint8_t kNumBackends = static_cast<uint8_t>(BackendComponent::EndOfBackendKeys);

#define SCHEMAC_PER_BACKEND_BLOCK(functionality, prefix)                                  \
  StartOf##functionality##Backends,                                                      \
  SCHEMAC_FORALL_BACKENDS_WITH_PREFIX(prefix) EndOf##functionality##Backends = prefix##Meta,
#define SCHEMAC_FORALL_BACKENDS_WITH_PREFIX(prefix)                                        \
  prefix##CPU, prefix##CUDA, prefix##HIP, prefix##XLA, prefix##MPS, prefix##IPU, prefix##XPU, \
  prefix##HPU, prefix##VE, prefix##Lazy, prefix##MTIA, prefix##MAIA, prefix##PrivateUse1,   \
  prefix##PrivateUse2, prefix##PrivateUse3, prefix##Meta,
// clang-format on

enum class DispatchKey : uint16_t {
  Undefined = 0,
  CatchAll = Undefined,

  // Functionality keys, lowest priority first. Per-backend ones are marked (*).
  Dense,  // (*)
  FPGA,
  Vulkan,
  Metal,
  Quantized,  // (*)
  CustomRNGKeyId,
  MkldnnCPU,
  Sparse,        // (*)
  SparseCsr,     // (*)
  NestedTensor,  // (*)
  BackendSelect,
  Python,
  Fake,
  FuncTorchDynamicLayerBackMode,
  Functionalize,
  Named,
  Conjugate,
  Negative,
  ZeroTensor,
  ADInplaceOrView,
  AutogradOther,
  AutogradFunctionality,  // (*)
  AutogradNestedTensor,
  Tracer,
  AutocastCPU,
  AutocastMTIA,
  AutocastMAIA,
  AutocastXPU,
  AutocastIPU,
  AutocastHPU,
  AutocastXLA,
  AutocastMPS,
  AutocastCUDA,
  AutocastPrivateUse1,
  FuncTorchBatched,
  BatchedNestedTensor,
  FuncTorchVmapMode,
  Batched,
  VmapMode,
  FuncTorchGradWrapper,
  DeferredInit,
  PythonTLSSnapshot,
  FuncTorchDynamicLayerFrontMode,
  TESTING_ONLY_GenericWrapper,
  TESTING_ONLY_GenericMode,
  PreDispatch,
  PythonDispatcher,
  EndOfFunctionalityKeys,

  // Per-backend runtime keys.
  SCHEMAC_PER_BACKEND_BLOCK(Dense, ) SCHEMAC_PER_BACKEND_BLOCK(Quantized, Quantized)
      SCHEMAC_PER_BACKEND_BLOCK(Sparse, Sparse) SCHEMAC_PER_BACKEND_BLOCK(SparseCsr, SparseCsr)
          SCHEMAC_PER_BACKEND_BLOCK(NestedTensor, NestedTensor)
              SCHEMAC_PER_BACKEND_BLOCK(AutogradFunctionality, Autograd) EndOfRuntimeBackendKeys =
                  EndOfAutogradFunctionalityBackends,

  // Alias keys: registration only, never in a runtime key set.
  Autograd,
  CompositeImplicitAutograd,
  FuncTorchBatchedDecomposition,
  CompositeImplicitAutogradNestedTensor,
  CompositeExplicitAutograd,
  CompositeExplicitAutogradNonFunctional,
  StartOfAliasKeys = Autograd,
  EndOfAliasKeys = CompositeExplicitAutogradNonFunctional,

  // Synonyms kept for old spellings.
  CPUTensorId = CPU,
  CUDATensorId = CUDA,
  DefaultBackend = CompositeExplicitAutograd,
  PrivateUse1_PreAutograd = AutogradPrivateUse1,
  PrivateUse2_PreAutograd = AutogradPrivateUse2,
  PrivateUse3_PreAutograd = AutogradPrivateUse3,
  Autocast = AutocastCUDA,
};

#undef SCHEMAC_PER_BACKEND_BLOCK
#undef SCHEMAC_FORALL_BACKENDS_WITH_PREFIX

// ## Counts
inline constexpr uint16_t kNumFunctionalityKeys =
    static_cast<uint16_t>(DispatchKey::EndOfFunctionalityKeys);  // 48, Undefined included
inline constexpr uint16_t kNumPerBackendFunctionalities = 6;
// Slot 0 is Undefined; each per-backend functionality takes kNumBackends slots.
inline constexpr uint16_t kNumRuntimeEntries =
    kNumFunctionalityKeys + kNumPerBackendFunctionalities * (kNumBackends - 1);  // 138
static_assert(kNumBackends == 16);
static_assert(kNumFunctionalityKeys == 48);
static_assert(kNumRuntimeEntries == 138);
static_assert(kNumBackends + kNumFunctionalityKeys - 1 <= 64, "a key set must fit in 64 bits");

// ## Classification
constexpr bool is_alias_key(DispatchKey k) {
  return k >= DispatchKey::StartOfAliasKeys && k <= DispatchKey::EndOfAliasKeys;
}

constexpr bool is_per_backend_functionality_key(DispatchKey k) {
  return k == DispatchKey::Dense || k == DispatchKey::Quantized || k == DispatchKey::Sparse ||
         k == DispatchKey::SparseCsr || k == DispatchKey::NestedTensor ||
         k == DispatchKey::AutogradFunctionality;
}

// One of the StartOf<F>Backends markers: not a key at all.
constexpr bool is_start_marker(DispatchKey k) {
  return k == DispatchKey::StartOfDenseBackends || k == DispatchKey::StartOfQuantizedBackends ||
         k == DispatchKey::StartOfSparseBackends || k == DispatchKey::StartOfSparseCsrBackends ||
         k == DispatchKey::StartOfNestedTensorBackends ||
         k == DispatchKey::StartOfAutogradFunctionalityBackends;
}

// A per-backend runtime key such as CPU, SparseCsrMeta or AutogradXLA.
constexpr bool is_per_backend_runtime_key(DispatchKey k) {
  return k > DispatchKey::EndOfFunctionalityKeys && k <= DispatchKey::EndOfRuntimeBackendKeys &&
         !is_start_marker(k);
}

// A key that can sit in a computed table: Undefined, a plain functionality key, or a per-backend
// runtime key. Per-backend functionalities, markers and aliases are not.
constexpr bool is_runtime_key(DispatchKey k) {
  if (k == DispatchKey::Undefined) return true;
  if (k < DispatchKey::EndOfFunctionalityKeys) return !is_per_backend_functionality_key(k);
  return is_per_backend_runtime_key(k);
}

// Any value that names a real key (runtime, functionality or alias).
constexpr bool is_valid_key(DispatchKey k) {
  return k <= DispatchKey::EndOfAliasKeys && k != DispatchKey::EndOfFunctionalityKeys &&
         !is_start_marker(k);
}

// ## Decomposing per-backend keys
// The functionality of a key: CPU -> Dense, AutogradCUDA -> AutogradFunctionality, FPGA -> FPGA.
// Aliases and markers map to Undefined.
constexpr DispatchKey to_functionality_key(DispatchKey k) {
  if (k <= DispatchKey::EndOfFunctionalityKeys) return k;
  if (k > DispatchKey::EndOfRuntimeBackendKeys || is_start_marker(k)) return DispatchKey::Undefined;
#define SCHEMAC_BLOCK_FUNCTIONALITY(functionality, prefix) \
  if (k <= DispatchKey::EndOf##functionality##Backends) return DispatchKey::functionality;
  SCHEMAC_FORALL_PER_BACKEND_FUNCTIONALITIES(SCHEMAC_BLOCK_FUNCTIONALITY)
#undef SCHEMAC_BLOCK_FUNCTIONALITY
  return DispatchKey::Undefined;
}

// The backend of a per-backend runtime key (CPU -> CPUBit, QuantizedMeta -> MetaBit);
// InvalidBit for every other key.
constexpr BackendComponent to_backend_component(DispatchKey k) {
  if (!is_per_backend_runtime_key(k)) return BackendComponent::InvalidBit;
#define SCHEMAC_BLOCK_BACKEND(functionality, prefix)    \
  if (k <= DispatchKey::EndOf##functionality##Backends) \
    return static_cast<BackendComponent>(               \
        static_cast<uint16_t>(k) -                      \
        static_cast<uint16_t>(DispatchKey::StartOf##functionality##Backends));
  SCHEMAC_FORALL_PER_BACKEND_FUNCTIONALITIES(SCHEMAC_BLOCK_BACKEND)
#undef SCHEMAC_BLOCK_BACKEND
  return BackendComponent::InvalidBit;
}

// The runtime key for (per-backend functionality, backend): (Sparse, CUDABit) -> SparseCUDA.
// Undefined when the functionality is not per-backend or the backend is InvalidBit.
constexpr DispatchKey to_runtime_per_backend_key(DispatchKey functionality, BackendComponent b) {
  if (b == BackendComponent::InvalidBit || b > BackendComponent::EndOfBackendKeys)
    return DispatchKey::Undefined;
#define SCHEMAC_BLOCK_COMPOSE(fn, prefix)                                                       \
  if (functionality == DispatchKey::fn)                                                         \
    return static_cast<DispatchKey>(static_cast<uint16_t>(DispatchKey::StartOf##fn##Backends) + \
                                    static_cast<uint16_t>(b));
  SCHEMAC_FORALL_PER_BACKEND_FUNCTIONALITIES(SCHEMAC_BLOCK_COMPOSE)
#undef SCHEMAC_BLOCK_COMPOSE
  return DispatchKey::Undefined;
}

// ## Table slots
// Slot 0 is Undefined; then each functionality in enum order, one slot each, kNumBackends slots
// for a per-backend one (backends in bit order). Slot order is also key-set iteration order.
namespace detail {
struct FunctionalityOffsets {
  uint16_t offset[kNumFunctionalityKeys] = {};
};
constexpr FunctionalityOffsets compute_functionality_offsets() {
  FunctionalityOffsets result;
  uint16_t next = 0;
  for (uint16_t f = 0; f < kNumFunctionalityKeys; ++f) {
    result.offset[f] = next;
    next += is_per_backend_functionality_key(static_cast<DispatchKey>(f)) ? kNumBackends : 1;
  }
  return result;
}
inline constexpr FunctionalityOffsets kFunctionalityOffsets = compute_functionality_offsets();
}  // namespace detail

// The first table slot of a functionality key.
constexpr uint16_t functionality_offset(DispatchKey functionality) {
  return detail::kFunctionalityOffsets.offset[static_cast<uint16_t>(functionality)];
}

// The table slot of a runtime key, or -1 for keys that have none (aliases, markers, per-backend
// functionalities).
constexpr int table_index(DispatchKey k) {
  if (!is_runtime_key(k)) return -1;
  if (k < DispatchKey::EndOfFunctionalityKeys) return functionality_offset(k);
  return functionality_offset(to_functionality_key(k)) + static_cast<int>(to_backend_component(k)) -
         1;
}

// The runtime key held in a table slot (the inverse of table_index); Undefined when out of range.
DispatchKey runtime_key_for_slot(int slot);

// ## Names
// The canonical name: "CPU", "AutogradXLA", "CompositeImplicitAutograd", "Undefined".
// Unknown values print as "UNKNOWN_KEY(<n>)".
std::string_view to_string(DispatchKey k);
std::string_view to_string(BackendComponent b);  // "CPUBit", ..., "InvalidBit"
// The backend's plain name: "CPU", "Meta"; "" for InvalidBit.
std::string_view backend_name(BackendComponent b);

// Parses a canonical key name or a synonym (CatchAll, CPUTensorId, CUDATensorId, DefaultBackend,
// Autocast, PrivateUseN_PreAutograd, EndOf<F>Backends). Case-sensitive, as PyTorch's is.
std::optional<DispatchKey> parse_dispatch_key(std::string_view name);
// Parses "CPU" or "CPUBit".
std::optional<BackendComponent> parse_backend_component(std::string_view name);

// The closest canonical key name to `name` (edit distance), for "did you mean" notes; "" if none
// is close.
std::string suggest_dispatch_key(std::string_view name);

}  // namespace schemac::keys
