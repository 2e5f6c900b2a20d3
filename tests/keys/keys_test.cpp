// DispatchKey, BackendComponent and DispatchKeySet: layout, names, priority, iteration, alias sets.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "schemac/keys/dispatch_key.h"
#include "schemac/keys/dispatch_key_set.h"

namespace schemac::dispatch {

using keys::BackendComponent, keys::DispatchKey, keys::DispatchKeySet, keys::after_func_keyset,
    keys::backend_keyset_from_autograd, keys::is_backend_dispatch_key, keys::kNumRuntimeEntries,
    keys::table_index, keys::to_string;

namespace {

std::vector<std::string> names_of(DispatchKeySet ks) {
  std::vector<std::string> names;
  for (DispatchKey k : ks) names.emplace_back(to_string(k));
  return names;
}

TEST(DispatchKeyLayout, NewestCounts) {
  EXPECT_EQ(keys::kNumBackends, 16);
  EXPECT_EQ(keys::kNumFunctionalityKeys, 48);
  EXPECT_EQ(kNumRuntimeEntries, 138);
  EXPECT_EQ(DispatchKeySet::full().raw() >> 63, 0u);  // 16 backend + 47 functionality bits
}

TEST(DispatchKeyLayout, EveryRuntimeKeyHasItsOwnSlot) {
  std::set<int> slots;
  int runtime_keys = 0;
  for (uint16_t v = 0; v <= static_cast<uint16_t>(DispatchKey::EndOfAliasKeys); ++v) {
    const auto k = static_cast<DispatchKey>(v);
    if (!keys::is_runtime_key(k)) continue;
    ++runtime_keys;
    const int slot = table_index(k);
    ASSERT_GE(slot, 0) << to_string(k);
    ASSERT_LT(slot, kNumRuntimeEntries) << to_string(k);
    EXPECT_TRUE(slots.insert(slot).second) << to_string(k);
    EXPECT_EQ(keys::runtime_key_for_slot(slot), k);
  }
  EXPECT_EQ(runtime_keys, kNumRuntimeEntries);
}

TEST(DispatchKeyLayout, SlotsOfKnownKeys) {
  struct Case {
    DispatchKey key;
    int slot;
  };
  const Case cases[] = {
      {DispatchKey::Undefined, 0},  {DispatchKey::CPU, 1},           {DispatchKey::CUDA, 2},
      {DispatchKey::Meta, 16},      {DispatchKey::FPGA, 17},         {DispatchKey::QuantizedCPU, 20},
      {DispatchKey::PythonDispatcher, 137},
  };
  for (const Case& c : cases) EXPECT_EQ(table_index(c.key), c.slot) << to_string(c.key);
  EXPECT_EQ(table_index(DispatchKey::Autograd), -1);
  EXPECT_EQ(table_index(DispatchKey::Dense), -1);
}

TEST(DispatchKeyLayout, PerBackendDecomposition) {
  struct Case {
    DispatchKey key;
    DispatchKey functionality;
    BackendComponent backend;
  };
  const Case cases[] = {
      {DispatchKey::CPU, DispatchKey::Dense, BackendComponent::CPUBit},
      {DispatchKey::Meta, DispatchKey::Dense, BackendComponent::MetaBit},
      {DispatchKey::SparseCsrMeta, DispatchKey::SparseCsr, BackendComponent::MetaBit},
      {DispatchKey::AutogradMTIA, DispatchKey::AutogradFunctionality, BackendComponent::MTIABit},
      {DispatchKey::NestedTensorXPU, DispatchKey::NestedTensor, BackendComponent::XPUBit},
      {DispatchKey::QuantizedPrivateUse1, DispatchKey::Quantized, BackendComponent::PrivateUse1Bit},
      {DispatchKey::FPGA, DispatchKey::FPGA, BackendComponent::InvalidBit},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(keys::to_functionality_key(c.key), c.functionality) << to_string(c.key);
    EXPECT_EQ(keys::to_backend_component(c.key), c.backend) << to_string(c.key);
    if (c.backend != BackendComponent::InvalidBit) {
      EXPECT_EQ(keys::to_runtime_per_backend_key(c.functionality, c.backend), c.key);
    }
  }
}

TEST(DispatchKeyNames, RoundTripEveryKey) {
  for (uint16_t v = 0; v <= static_cast<uint16_t>(DispatchKey::EndOfAliasKeys); ++v) {
    const auto k = static_cast<DispatchKey>(v);
    if (!keys::is_valid_key(k)) continue;
    const auto parsed = keys::parse_dispatch_key(to_string(k));
    ASSERT_TRUE(parsed) << to_string(k);
    EXPECT_EQ(*parsed, k);
  }
}

TEST(DispatchKeyNames, Table) {
  struct Case {
    const char* name;
    std::optional<DispatchKey> key;
  };
  const Case cases[] = {
      {"CPU", DispatchKey::CPU},
      {"AutogradXLA", DispatchKey::AutogradXLA},
      {"SparseCsrMPS", DispatchKey::SparseCsrMPS},
      {"CompositeImplicitAutograd", DispatchKey::CompositeImplicitAutograd},
      {"FuncTorchBatchedDecomposition", DispatchKey::FuncTorchBatchedDecomposition},
      {"CatchAll", DispatchKey::Undefined},
      {"CPUTensorId", DispatchKey::CPU},
      {"CUDATensorId", DispatchKey::CUDA},
      {"DefaultBackend", DispatchKey::CompositeExplicitAutograd},
      {"Autocast", DispatchKey::AutocastCUDA},
      {"PrivateUse1_PreAutograd", DispatchKey::AutogradPrivateUse1},
      {"EndOfDenseBackends", DispatchKey::Meta},
      {"cpu", std::nullopt},
      {"", std::nullopt},
      {"ORT", std::nullopt},  // removed after 1.13
      {"SparseCsrCPUX", std::nullopt},
  };
  for (const Case& c : cases) EXPECT_EQ(keys::parse_dispatch_key(c.name), c.key) << c.name;
  EXPECT_EQ(to_string(DispatchKey::AutogradPrivateUse1), "AutogradPrivateUse1");
  EXPECT_EQ(to_string(DispatchKey::Undefined), "Undefined");
  EXPECT_EQ(to_string(BackendComponent::MetaBit), "MetaBit");
  EXPECT_EQ(keys::parse_backend_component("MAIA"), BackendComponent::MAIABit);
  EXPECT_EQ(keys::suggest_dispatch_key("AutogradCpu"), "AutogradCPU");
  EXPECT_EQ(keys::suggest_dispatch_key("zzzzzzzzzz"), "");
}

TEST(DispatchKeySet, PerBackendKeysShareBackendBits) {
  const DispatchKeySet ks{DispatchKey::CPU, DispatchKey::AutogradCUDA};
  EXPECT_TRUE(ks.has(DispatchKey::CPU));
  EXPECT_TRUE(ks.has(DispatchKey::AutogradCUDA));
  EXPECT_TRUE(ks.has(DispatchKey::CUDA));         // intended cross-talk
  EXPECT_TRUE(ks.has(DispatchKey::AutogradCPU));  // intended cross-talk
  EXPECT_FALSE(ks.has(DispatchKey::XLA));
  EXPECT_FALSE(ks.has(DispatchKey::SparseCPU));
  EXPECT_TRUE(DispatchKeySet(DispatchKey::Autograd).empty());
  EXPECT_TRUE(DispatchKeySet(DispatchKey::Undefined).empty());
}

TEST(DispatchKeySet, HighestPriorityKey) {
  struct Case {
    DispatchKeySet ks;
    DispatchKey expected;
  };
  const Case cases[] = {
      {{}, DispatchKey::Undefined},
      {{DispatchKey::CPU}, DispatchKey::CPU},
      {{DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView}, DispatchKey::AutogradCPU},
      {{DispatchKey::CPU, DispatchKey::CUDA}, DispatchKey::CUDA},
      {{DispatchKey::CPU, DispatchKey::Meta}, DispatchKey::Meta},  // Meta is the top backend now
      {{DispatchKey::PrivateUse3, DispatchKey::Meta}, DispatchKey::Meta},
      {{DispatchKey::SparseCPU, DispatchKey::QuantizedCUDA}, DispatchKey::SparseCUDA},
      {{DispatchKey::FPGA, DispatchKey::CPU}, DispatchKey::FPGA},
      {{DispatchKey::PythonDispatcher, DispatchKey::CPU}, DispatchKey::PythonDispatcher},
      {{DispatchKey::AutocastCPU, DispatchKey::Tracer}, DispatchKey::AutocastCPU},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.ks.highest_priority_key(), c.expected) << to_string(c.ks);
    EXPECT_EQ(c.ks.dispatch_table_index(), table_index(c.expected)) << to_string(c.ks);
  }
}

TEST(DispatchKeySet, RemovingKeepsBackendBits) {
  const DispatchKeySet ks{DispatchKey::CPU, DispatchKey::AutogradCPU};
  const DispatchKeySet without = ks.remove(DispatchKey::AutogradCPU);
  EXPECT_EQ(without, DispatchKeySet(DispatchKey::CPU));
  EXPECT_EQ(ks - DispatchKeySet(DispatchKey::AutogradCPU), DispatchKeySet(DispatchKey::CPU));
}

TEST(DispatchKeySet, IteratesInPriorityOrder) {
  const DispatchKeySet ks{DispatchKey::AutogradCUDA, DispatchKey::FPGA, DispatchKey::CPU, DispatchKey::CUDA,
                          DispatchKey::PythonDispatcher};
  EXPECT_EQ(names_of(ks), (std::vector<std::string>{"CPU", "CUDA", "FPGA", "AutogradCPU", "AutogradCUDA",
                                                    "PythonDispatcher"}));
  EXPECT_TRUE(names_of(DispatchKeySet()).empty());
  int count = 0;
  int previous = 0;
  for (DispatchKey k : DispatchKeySet::full()) {
    ++count;
    EXPECT_GT(table_index(k), previous) << to_string(k);
    previous = table_index(k);
  }
  EXPECT_EQ(count, kNumRuntimeEntries - 1);  // every slot but Undefined
}

TEST(DispatchKeySet, FullAfter) {
  const DispatchKeySet after = keys::after_autograd_keyset();
  EXPECT_TRUE(after.has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(after.has(DispatchKey::CPU));
  EXPECT_FALSE(after.has(DispatchKey::AutogradOther));
  EXPECT_FALSE(after.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(keys::after_ADInplaceOrView_keyset().has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(keys::after_ADInplaceOrView_keyset().has(DispatchKey::ZeroTensor));
  EXPECT_FALSE(after_func_keyset().has(DispatchKey::Functionalize));
  EXPECT_TRUE(after_func_keyset().has(DispatchKey::FuncTorchDynamicLayerBackMode));
  EXPECT_FALSE(after_func_keyset().has(DispatchKey::ADInplaceOrView));
}

TEST(DispatchKeySet, ThreadLocalDefaults) {
  EXPECT_EQ(names_of(keys::default_included_set()), (std::vector<std::string>{"BackendSelect", "ADInplaceOrView"}));
  EXPECT_EQ(names_of(keys::default_excluded_set()).size(), 10u);
  EXPECT_TRUE(keys::default_excluded_set().has(DispatchKey::AutocastPrivateUse1));
}

TEST(AliasKeys, Membership) {
  struct Case {
    DispatchKey key;
    DispatchKey alias;
    bool included;
  };
  const Case cases[] = {
      {DispatchKey::AutogradCPU, DispatchKey::Autograd, true},
      {DispatchKey::AutogradOther, DispatchKey::Autograd, true},
      {DispatchKey::AutogradNestedTensor, DispatchKey::Autograd, true},
      {DispatchKey::CPU, DispatchKey::Autograd, false},
      {DispatchKey::CPU, DispatchKey::CompositeExplicitAutograd, true},
      {DispatchKey::SparseCsrMeta, DispatchKey::CompositeExplicitAutograd, true},
      {DispatchKey::NestedTensorCPU, DispatchKey::CompositeExplicitAutograd, false},
      {DispatchKey::AutogradCPU, DispatchKey::CompositeExplicitAutograd, false},
      {DispatchKey::XLA, DispatchKey::CompositeExplicitAutogradNonFunctional, false},
      {DispatchKey::Lazy, DispatchKey::CompositeExplicitAutogradNonFunctional, false},
      {DispatchKey::QuantizedXLA, DispatchKey::CompositeExplicitAutogradNonFunctional, false},
      {DispatchKey::SparseCPU, DispatchKey::CompositeExplicitAutogradNonFunctional, false},
      {DispatchKey::CPU, DispatchKey::CompositeExplicitAutogradNonFunctional, true},
      {DispatchKey::SparseCsrCPU, DispatchKey::CompositeExplicitAutogradNonFunctional, true},
      {DispatchKey::Functionalize, DispatchKey::CompositeImplicitAutograd, true},
      {DispatchKey::NestedTensorCPU, DispatchKey::CompositeImplicitAutograd, true},
      {DispatchKey::AutogradXLA, DispatchKey::CompositeImplicitAutograd, true},
      {DispatchKey::Python, DispatchKey::CompositeImplicitAutograd, false},
      {DispatchKey::NestedTensorCUDA, DispatchKey::CompositeImplicitAutogradNestedTensor, true},
      {DispatchKey::AutogradNestedTensor, DispatchKey::CompositeImplicitAutogradNestedTensor, true},
      {DispatchKey::CPU, DispatchKey::CompositeImplicitAutogradNestedTensor, false},
      {DispatchKey::FuncTorchBatched, DispatchKey::FuncTorchBatchedDecomposition, true},
      {DispatchKey::Undefined, DispatchKey::CompositeImplicitAutograd, false},
  };
  for (const Case& c : cases)
    EXPECT_EQ(keys::is_included_in_alias(c.key, c.alias), c.included) << to_string(c.key) << " in " << to_string(c.alias);
}

TEST(AliasKeys, BackendRelations) {
  EXPECT_EQ(backend_keyset_from_autograd(DispatchKey::AutogradCPU), DispatchKeySet(DispatchKey::CPU));
  EXPECT_EQ(backend_keyset_from_autograd(DispatchKey::AutogradOther), keys::autogradother_backends());
  EXPECT_TRUE(backend_keyset_from_autograd(DispatchKey::CPU).empty());
  EXPECT_EQ(keys::autograd_key_of_backend(DispatchKey::XLA), DispatchKey::AutogradXLA);
  EXPECT_EQ(keys::autograd_key_of_backend(DispatchKey::FPGA), DispatchKey::AutogradOther);
  EXPECT_TRUE(is_backend_dispatch_key(DispatchKey::QuantizedCPU));
  EXPECT_FALSE(is_backend_dispatch_key(DispatchKey::NestedTensorCPU));
  EXPECT_FALSE(is_backend_dispatch_key(DispatchKey::Undefined));
  EXPECT_FALSE(is_backend_dispatch_key(DispatchKey::CompositeExplicitAutograd));
  EXPECT_TRUE(keys::runtime_keyset_to_refresh(DispatchKey::FuncTorchBatchedDecomposition).empty());
}

}  // namespace
}  // namespace schemac::dispatch
