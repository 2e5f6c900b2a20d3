// Names of dispatch keys and backends, and the slot -> key table.
#include "schemac/keys/dispatch_key.h"
#include "schemac/keys/dispatch_key_names.h"
#include "schemac/support/did_you_mean.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace schemac::keys {
namespace {

// One name per enum value 0..EndOfAliasKeys; markers get their marker name.
struct KeyNames {
  std::array<std::string, static_cast<size_t>(DispatchKey::EndOfAliasKeys) + 1> names;
};

const KeyNames& key_names() {
  static const KeyNames table = [] {
    KeyNames t;
    auto set = [&t](DispatchKey k, std::string name) {
      t.names[static_cast<size_t>(k)] = std::move(name);
    };
    set(DispatchKey::Undefined, "Undefined");
// An X-macro list, laid out by hand (clang-format cannot parse it).
// clang-format off
#define SCHEMAC_NAME(k) set(DispatchKey::k, #k);
    SCHEMAC_NAME(Dense) SCHEMAC_NAME(FPGA) SCHEMAC_NAME(Vulkan) SCHEMAC_NAME(Metal)
    SCHEMAC_NAME(Quantized) SCHEMAC_NAME(CustomRNGKeyId) SCHEMAC_NAME(MkldnnCPU)
    SCHEMAC_NAME(Sparse) SCHEMAC_NAME(SparseCsr) SCHEMAC_NAME(NestedTensor)
    SCHEMAC_NAME(BackendSelect) SCHEMAC_NAME(Python) SCHEMAC_NAME(Fake)
    SCHEMAC_NAME(FuncTorchDynamicLayerBackMode) SCHEMAC_NAME(Functionalize) SCHEMAC_NAME(Named)
    SCHEMAC_NAME(Conjugate) SCHEMAC_NAME(Negative) SCHEMAC_NAME(ZeroTensor)
    SCHEMAC_NAME(ADInplaceOrView) SCHEMAC_NAME(AutogradOther) SCHEMAC_NAME(AutogradFunctionality)
    SCHEMAC_NAME(AutogradNestedTensor) SCHEMAC_NAME(Tracer) SCHEMAC_NAME(AutocastCPU)
    SCHEMAC_NAME(AutocastMTIA) SCHEMAC_NAME(AutocastMAIA) SCHEMAC_NAME(AutocastXPU)
    SCHEMAC_NAME(AutocastIPU) SCHEMAC_NAME(AutocastHPU) SCHEMAC_NAME(AutocastXLA)
    SCHEMAC_NAME(AutocastMPS) SCHEMAC_NAME(AutocastCUDA) SCHEMAC_NAME(AutocastPrivateUse1)
    SCHEMAC_NAME(FuncTorchBatched) SCHEMAC_NAME(BatchedNestedTensor) SCHEMAC_NAME(FuncTorchVmapMode)
    SCHEMAC_NAME(Batched) SCHEMAC_NAME(VmapMode) SCHEMAC_NAME(FuncTorchGradWrapper)
    SCHEMAC_NAME(DeferredInit) SCHEMAC_NAME(PythonTLSSnapshot)
    SCHEMAC_NAME(FuncTorchDynamicLayerFrontMode) SCHEMAC_NAME(TESTING_ONLY_GenericWrapper)
    SCHEMAC_NAME(TESTING_ONLY_GenericMode) SCHEMAC_NAME(PreDispatch) SCHEMAC_NAME(PythonDispatcher)
    SCHEMAC_NAME(EndOfFunctionalityKeys)
    SCHEMAC_NAME(Autograd) SCHEMAC_NAME(CompositeImplicitAutograd)
    SCHEMAC_NAME(FuncTorchBatchedDecomposition) SCHEMAC_NAME(CompositeImplicitAutogradNestedTensor)
    SCHEMAC_NAME(CompositeExplicitAutograd) SCHEMAC_NAME(CompositeExplicitAutogradNonFunctional)
#undef SCHEMAC_NAME
// clang-format on
#define SCHEMAC_BLOCK_NAMES(functionality, prefix)                                         \
  set(DispatchKey::StartOf##functionality##Backends, "StartOf" #functionality "Backends"); \
  for (uint8_t b = 1; b <= kNumBackends; ++b) {                                            \
    const auto backend = static_cast<BackendComponent>(b);                                 \
    set(to_runtime_per_backend_key(DispatchKey::functionality, backend),                   \
        std::string(#prefix) + std::string(backend_name(backend)));                        \
  }
                                                            SCHEMAC_FORALL_PER_BACKEND_FUNCTIONALITIES(
                                                                SCHEMAC_BLOCK_NAMES)
#undef SCHEMAC_BLOCK_NAMES
                                                                return t;
  }();
  return table;
}

constexpr std::array<std::string_view, kNumBackends + 1> kBackendNames = {
    "",
#define SCHEMAC_BACKEND_NAME(name) #name,
    SCHEMAC_FORALL_BACKENDS(SCHEMAC_BACKEND_NAME)
#undef SCHEMAC_BACKEND_NAME
};

constexpr std::array<std::string_view, kNumBackends + 1> kBackendBitNames = {
    "InvalidBit",
#define SCHEMAC_BACKEND_BIT_NAME(name) #name "Bit",
    SCHEMAC_FORALL_BACKENDS(SCHEMAC_BACKEND_BIT_NAME)
#undef SCHEMAC_BACKEND_BIT_NAME
};

struct SlotKeys {
  std::array<DispatchKey, kNumRuntimeEntries> keys{};
};

const SlotKeys& slot_keys() {
  static const SlotKeys table = [] {
    SlotKeys t;
    for (uint16_t v = 0; v <= static_cast<uint16_t>(DispatchKey::EndOfRuntimeBackendKeys); ++v) {
      const auto k = static_cast<DispatchKey>(v);
      const int slot = table_index(k);
      if (slot >= 0) t.keys[static_cast<size_t>(slot)] = k;
    }
    return t;
  }();
  return table;
}

}  // namespace

std::span<const KeySynonym> key_synonyms() {
  static constexpr KeySynonym kSynonyms[] = {
      {"CatchAll", DispatchKey::CatchAll},
      {"CPUTensorId", DispatchKey::CPUTensorId},
      {"CUDATensorId", DispatchKey::CUDATensorId},
      {"DefaultBackend", DispatchKey::DefaultBackend},
      {"PrivateUse1_PreAutograd", DispatchKey::PrivateUse1_PreAutograd},
      {"PrivateUse2_PreAutograd", DispatchKey::PrivateUse2_PreAutograd},
      {"PrivateUse3_PreAutograd", DispatchKey::PrivateUse3_PreAutograd},
      {"Autocast", DispatchKey::Autocast},
  };
  return kSynonyms;
}

DispatchKey runtime_key_for_slot(int slot) {
  if (slot < 0 || slot >= kNumRuntimeEntries) return DispatchKey::Undefined;
  return slot_keys().keys[static_cast<size_t>(slot)];
}

std::string_view to_string(DispatchKey k) {
  const auto v = static_cast<size_t>(k);
  const auto& names = key_names().names;
  if (v < names.size() && !names[v].empty()) return names[v];
  static thread_local std::string unknown;
  unknown = "UNKNOWN_KEY(" + std::to_string(v) + ")";
  return unknown;
}

std::string_view to_string(BackendComponent b) {
  const auto v = static_cast<size_t>(b);
  return v < kBackendBitNames.size() ? kBackendBitNames[v]
                                     : std::string_view("UNKNOWN_BACKEND_BIT");
}

std::string_view backend_name(BackendComponent b) {
  const auto v = static_cast<size_t>(b);
  return v < kBackendNames.size() ? kBackendNames[v] : std::string_view();
}

std::optional<DispatchKey> parse_dispatch_key(std::string_view name) {
  const auto& names = key_names().names;
  for (size_t v = 0; v < names.size(); ++v) {
    const auto k = static_cast<DispatchKey>(v);
    if (names[v] == name && is_valid_key(k)) return k;
  }
  for (const KeySynonym& synonym : key_synonyms())
    if (synonym.name == name) return synonym.key;
  static const std::pair<std::string_view, DispatchKey> kMarkers[] = {
      {"EndOfDenseBackends", DispatchKey::EndOfDenseBackends},
      {"EndOfQuantizedBackends", DispatchKey::EndOfQuantizedBackends},
      {"EndOfSparseBackends", DispatchKey::EndOfSparseBackends},
      {"EndOfSparseCsrBackends", DispatchKey::EndOfSparseCsrBackends},
      {"EndOfNestedTensorBackends", DispatchKey::EndOfNestedTensorBackends},
      {"EndOfAutogradFunctionalityBackends", DispatchKey::EndOfAutogradFunctionalityBackends},
      {"EndOfRuntimeBackendKeys", DispatchKey::EndOfRuntimeBackendKeys},
      {"StartOfAliasKeys", DispatchKey::StartOfAliasKeys},
      {"EndOfAliasKeys", DispatchKey::EndOfAliasKeys},
  };
  for (const auto& [marker, key] : kMarkers)
    if (marker == name) return key;
  return std::nullopt;
}

std::optional<BackendComponent> parse_backend_component(std::string_view name) {
  for (size_t v = 1; v < kBackendNames.size(); ++v)
    if (kBackendNames[v] == name || kBackendBitNames[v] == name)
      return static_cast<BackendComponent>(v);
  return std::nullopt;
}

std::string suggest_dispatch_key(std::string_view name) {
  std::vector<std::string_view> known;
  for (size_t v = 0; v < key_names().names.size(); ++v) {
    if (is_valid_key(static_cast<DispatchKey>(v))) known.push_back(key_names().names[v]);
  }
  // Only names within two edits (or a case change).
  const std::vector<std::string> best = support::closest_names(name, known, 2);
  return best.empty() ? "" : best.front();
}

}  // namespace schemac::keys
