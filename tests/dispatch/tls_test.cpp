// Thread-local include/exclude sets: PyTorch's defaults, the XOR-ed storage, guards that nest
// and restore, and independence between threads.
#include "schemac/dispatch/local_dispatch_key_set.h"

#include <gtest/gtest.h>

#include <thread>

namespace schemac::dispatch {

using keys::DispatchKey, keys::DispatchKeySet, keys::to_string;

namespace {

const std::vector<DispatchKey> kAutocastKeys = {
    DispatchKey::AutocastCPU,        DispatchKey::AutocastMTIA, DispatchKey::AutocastMAIA,
    DispatchKey::AutocastXPU,        DispatchKey::AutocastIPU,  DispatchKey::AutocastHPU,
    DispatchKey::AutocastXLA,        DispatchKey::AutocastMPS,  DispatchKey::AutocastCUDA,
    DispatchKey::AutocastPrivateUse1};

TEST(LocalDispatchKeySet, DefaultsIncludeBackendSelectAndADInplaceOrViewAndExcludeAutocast) {
  const LocalDispatchKeySet tls = tls_local_dispatch_key_set();
  EXPECT_EQ(tls.included,
            (DispatchKeySet{DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView}));
  for (DispatchKey k : kAutocastKeys) {
    SCOPED_TRACE(to_string(k));
    EXPECT_TRUE(tls.excluded.has(k));
    EXPECT_TRUE(tls_is_dispatch_key_excluded(k));
  }
  EXPECT_EQ(tls.excluded, DispatchKeySet::from_raw([] {
              uint64_t raw = 0;
              for (DispatchKey k : kAutocastKeys) raw |= DispatchKeySet(k).raw();
              return raw;
            }()));
  EXPECT_TRUE(tls_is_dispatch_key_included(DispatchKey::BackendSelect));
  EXPECT_FALSE(tls_is_dispatch_key_included(DispatchKey::Python));
}

TEST(LocalDispatchKeySet, ANewThreadStartsWithTheDefaults) {
  IncludeDispatchKeyGuard here(DispatchKey::Python);
  ExcludeDispatchKeyGuard also(DispatchKey::ADInplaceOrView);
  LocalDispatchKeySet seen;
  std::thread([&] { seen = tls_local_dispatch_key_set(); }).join();
  EXPECT_EQ(seen.included, kDefaultIncludedSet);
  EXPECT_EQ(seen.excluded, kDefaultExcludedSet);
  EXPECT_TRUE(tls_is_dispatch_key_included(DispatchKey::Python));
}

TEST(LocalDispatchKeySet, ApplyTlsAddsIncludedAndRemovesExcluded) {
  const DispatchKeySet cpu_tensor{DispatchKey::CPU, DispatchKey::ADInplaceOrView,
                                  DispatchKey::AutogradCPU, DispatchKey::AutocastCPU};
  // Autocast is excluded by default; BackendSelect comes in from the included set.
  EXPECT_EQ(apply_tls(cpu_tensor),
            (DispatchKeySet{DispatchKey::CPU, DispatchKey::ADInplaceOrView,
                            DispatchKey::AutogradCPU, DispatchKey::BackendSelect}));
  {
    ExcludeDispatchKeyGuard no_autograd(DispatchKey::AutogradCPU);
    const DispatchKeySet ks = apply_tls(cpu_tensor);
    EXPECT_FALSE(ks.has(DispatchKey::AutogradCPU));
    EXPECT_TRUE(ks.has(DispatchKey::CPU));  // excluding a key never removes its backend bit
    EXPECT_EQ(ks.highest_priority_key(), DispatchKey::ADInplaceOrView);
  }
  EXPECT_EQ(apply_tls(cpu_tensor).highest_priority_key(), DispatchKey::AutogradCPU);
}

TEST(LocalDispatchKeySet, GuardsNestAndRestoreOnlyWhatTheyAdded) {
  const LocalDispatchKeySet before = tls_local_dispatch_key_set();
  {
    IncludeDispatchKeyGuard outer(DispatchKeySet{DispatchKey::Python, DispatchKey::BackendSelect});
    EXPECT_TRUE(tls_is_dispatch_key_included(DispatchKey::Python));
    {
      IncludeDispatchKeyGuard inner(DispatchKey::Python);  // already there: adds nothing
      EXPECT_TRUE(tls_is_dispatch_key_included(DispatchKey::Python));
    }
    EXPECT_TRUE(tls_is_dispatch_key_included(DispatchKey::Python));
  }
  // BackendSelect was a default; the outer guard did not add it, so it stays.
  EXPECT_TRUE(tls_is_dispatch_key_included(DispatchKey::BackendSelect));
  EXPECT_FALSE(tls_is_dispatch_key_included(DispatchKey::Python));
  {
    ExcludeDispatchKeyGuard a(DispatchKey::AutocastCPU);  // excluded by default already
    ExcludeDispatchKeyGuard b(DispatchKey::Functionalize);
    EXPECT_TRUE(tls_is_dispatch_key_excluded(DispatchKey::Functionalize));
  }
  EXPECT_TRUE(tls_is_dispatch_key_excluded(DispatchKey::AutocastCPU));
  EXPECT_FALSE(tls_is_dispatch_key_excluded(DispatchKey::Functionalize));
  const LocalDispatchKeySet after = tls_local_dispatch_key_set();
  EXPECT_EQ(after.included, before.included);
  EXPECT_EQ(after.excluded, before.excluded);
}

TEST(LocalDispatchKeySet, SettersAndWholeSetReplacement) {
  tls_set_dispatch_key_excluded(DispatchKey::AutocastCUDA, false);  // "enable autocast on CUDA"
  EXPECT_FALSE(tls_is_dispatch_key_excluded(DispatchKey::AutocastCUDA));
  tls_set_dispatch_key_excluded(DispatchKey::AutocastCUDA, true);
  tls_set_dispatch_key_included(DispatchKey::ADInplaceOrView, false);
  EXPECT_FALSE(tls_is_dispatch_key_included(DispatchKey::ADInplaceOrView));
  tls_set_dispatch_key_included(DispatchKey::ADInplaceOrView, true);
  EXPECT_EQ(tls_local_dispatch_key_set().included, kDefaultIncludedSet);

  const LocalDispatchKeySet custom{DispatchKeySet(DispatchKey::Python), DispatchKeySet()};
  set_tls_local_dispatch_key_set(custom);
  EXPECT_EQ(tls_local_dispatch_key_set().included, custom.included);
  EXPECT_EQ(tls_local_dispatch_key_set().excluded, DispatchKeySet());
  set_tls_local_dispatch_key_set({kDefaultIncludedSet, kDefaultExcludedSet});
  EXPECT_EQ(tls_local_dispatch_key_set().excluded, kDefaultExcludedSet);
}

TEST(LocalDispatchKeySet, ForceGuardReplacesBothSetsAndRestoresThem) {
  const IncludeDispatchKeyGuard python(DispatchKey::Python);  // the state before, not the defaults
  const LocalDispatchKeySet before = tls_local_dispatch_key_set();
  {
    const ForceDispatchKeyGuard forced(
        {DispatchKeySet(DispatchKey::Functionalize), DispatchKeySet(DispatchKey::AutogradCPU)});
    EXPECT_EQ(tls_local_dispatch_key_set().included, DispatchKeySet(DispatchKey::Functionalize));
    EXPECT_EQ(apply_tls(DispatchKeySet({DispatchKey::CPU, DispatchKey::AutogradCPU})),
              DispatchKeySet({DispatchKey::CPU, DispatchKey::Functionalize}));
  }
  EXPECT_EQ(tls_local_dispatch_key_set().included, before.included);
  EXPECT_EQ(tls_local_dispatch_key_set().excluded, before.excluded);
}

}  // namespace
}  // namespace schemac::dispatch
