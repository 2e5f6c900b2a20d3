// Dispatch key names: the one table.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "schemac/keys/dispatch_key_names.h"

namespace schemac::schema {

using keys::DispatchKeyKind, keys::find_dispatch_key;

namespace {

TEST(DispatchKeyNames, HoldsEveryRuntimeAliasAndSynonymName) {
  std::set<std::string> names;
  for (const keys::DispatchKeyName& key : keys::dispatch_key_names()) {
    EXPECT_TRUE(names.insert(std::string(key.name)).second) << "twice: " << key.name;
  }
  // 41 functionality keys, 6 per-backend functionalities x 16 backends, 6 aliases, 8 synonyms.
  EXPECT_EQ(names.size(), 41u + 96u + 6u + 8u);
  for (const char* backend : {"CPU", "CUDA", "HIP", "XLA", "MPS", "IPU", "XPU", "HPU", "VE", "Lazy",
                              "MTIA", "MAIA", "PrivateUse1", "PrivateUse2", "PrivateUse3", "Meta"}) {
    for (const char* prefix : {"", "Quantized", "Sparse", "SparseCsr", "NestedTensor", "Autograd"}) {
      std::string key = std::string(prefix) + backend;
      const keys::DispatchKeyName* found = find_dispatch_key(key);
      ASSERT_NE(found, nullptr) << key;
      EXPECT_EQ(found->kind, DispatchKeyKind::backend) << key;
    }
  }
  for (const char* alias : {"Autograd", "CompositeImplicitAutograd", "FuncTorchBatchedDecomposition",
                            "CompositeImplicitAutogradNestedTensor", "CompositeExplicitAutograd",
                            "CompositeExplicitAutogradNonFunctional"}) {
    ASSERT_NE(find_dispatch_key(alias), nullptr) << alias;
    EXPECT_EQ(find_dispatch_key(alias)->kind, DispatchKeyKind::alias) << alias;
  }
  for (const char* key : {"FPGA", "MkldnnCPU", "ZeroTensor", "ADInplaceOrView", "AutogradOther",
                          "AutocastPrivateUse1", "PreDispatch", "PythonDispatcher", "BackendSelect"}) {
    EXPECT_NE(find_dispatch_key(key), nullptr) << key;
  }
  EXPECT_EQ(find_dispatch_key("DefaultBackend")->same_as, "CompositeExplicitAutograd");
  EXPECT_EQ(find_dispatch_key("CatchAll")->kind, DispatchKeyKind::synonym);
  for (const char* not_registrable : {"Undefined", "Dense", "Sparse", "AutogradFunctionality",
                                      "EndOfFunctionalityKeys", "cpu", "ORT", ""}) {
    EXPECT_EQ(find_dispatch_key(not_registrable), nullptr) << not_registrable;
  }
}

}  // namespace
}  // namespace schemac::schema
