// resolve: the winning key, the fallthrough keys skipped, and the redispatch chain, on a private
// registry with the default fallbacks.
#include <gtest/gtest.h>

#include "schemac/inspect/resolve.h"
#include "schemac_adapter.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/local_dispatch_key_set.h"

namespace schemac::inspect {
namespace {

using keys::DispatchKey;
using keys::DispatchKeySet;
using dispatch::KernelFunction;

void noop(const dispatch::OperatorHandle&, DispatchKeySet, dispatch::Stack*) {}

struct Registry {
  Registry() {
    dispatch::register_default_fallbacks(d);
    handles.push_back(d.def("test::op(Tensor self) -> Tensor", "test.cpp:0"));
  }
  void impl(std::optional<DispatchKey> key, const std::string& name) {
    handles.push_back(d.impl("test::op", key, KernelFunction::make_from_boxed(&noop), name, "test.cpp:1"));
  }
  const dispatch::OperatorEntry& op() { return *d.find("test::op"); }
  dispatch::Dispatcher d;
  std::vector<dispatch::RegistrationHandle> handles;
};

std::string chain_of(const report::Resolution& r) {
  std::string out;
  for (const report::ResolveStep& s : r.chain) {
    if (!out.empty()) out += " -> ";
    out += s.key + "=" + (s.has_kernel ? s.kernel : "-");
  }
  return out;
}

KeySet keys(const char* text) {
  KeySet ks;
  std::string error;
  EXPECT_TRUE(parse_key_list(schemac_runtime(), text, ks, error)) << error;
  return ks;
}

// The chain of a call with `keys` under a fresh thread's sets (and `excluded` more).
report::Resolution resolve_on(const dispatch::OperatorEntry& op, KeySet keys, KeySet excluded = {}) {
  const Runtime& rt = schemac_runtime();
  return resolve(rt, table_of(op, {true, {}}),
                 {keys, rt.default_included(), rt.default_excluded() | excluded, true, "cpu"});
}

struct ChainCase {
  std::vector<std::pair<std::optional<DispatchKey>, std::string>> kernels;
  const char* keys;
  const char* chain;
};

TEST(Resolve, ChainsFollowTheTable) {
  const DispatchKey CPU = DispatchKey::CPU, Autograd = DispatchKey::Autograd,
                    ADInplaceOrView = DispatchKey::ADInplaceOrView, Math = DispatchKey::CompositeImplicitAutograd;
  const ChainCase cases[] = {
      // Autograd kernel, fallthrough ADInplaceOrView, CPU kernel.
      {{{CPU, "cpu"}, {Autograd, "autograd"}}, "CPU,ADInplaceOrView,AutogradCPU", "AutogradCPU=autograd -> CPU=cpu"},
      // The layering of PyTorch: AutogradCPU -> ADInplaceOrView -> CPU.
      {{{CPU, "cpu"}, {Autograd, "autograd"}, {ADInplaceOrView, "view"}},
       "CPU,ADInplaceOrView,AutogradCPU",
       "AutogradCPU=autograd -> ADInplaceOrView=view -> CPU=cpu"},
      // Only a CPU kernel: every autograd key falls through.
      {{{CPU, "cpu"}}, "CPU,AutogradCPU,AutocastCPU", "CPU=cpu"},
      // A math kernel decomposes: the chain stops there.
      {{{Math, "math"}}, "CUDA,AutogradCUDA", "AutogradCUDA=math"},
      // No kernel for the backend: the call fails at CUDA.
      {{{CPU, "cpu"}}, "CUDA,AutogradCUDA", "CUDA=-"},
      // No tensor arguments: Undefined.
      {{{CPU, "cpu"}}, "", "Undefined=-"},
  };
  for (const ChainCase& c : cases) {
    Registry r;
    for (const auto& [key, name] : c.kernels) r.impl(key, name);
    const report::Resolution res = resolve_on(r.op(), keys(c.keys));
    EXPECT_EQ(chain_of(res), c.chain) << c.keys;
  }
}

TEST(Resolve, ReportsSkippedFallthroughKeysAndTls) {
  Registry r;
  r.impl(DispatchKey::CPU, "cpu");
  const report::Resolution res = resolve_on(r.op(), keys("CPU,AutogradCPU"));
  EXPECT_EQ(res.key_set, "DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)");
  EXPECT_EQ(res.skipped, (std::vector<std::string>{"BackendSelect", "ADInplaceOrView", "AutogradCPU"}));
  // Excluding CPU leaves nothing with a kernel.
  const report::Resolution none = resolve_on(r.op(), keys("CPU"), keys("CPU"));
  EXPECT_EQ(none.chain.back().reason, report::Reason::Missing);
  EXPECT_FALSE(none.chain.back().has_kernel);
}

TEST(Resolve, KeyListErrors) {
  const Runtime& rt = schemac_runtime();
  KeySet ks;
  std::string error;
  EXPECT_FALSE(parse_key_list(rt, "CPU,AutogradCPX", ks, error));
  EXPECT_NE(error.find("unknown dispatch key 'AutogradCPX'"), std::string::npos) << error;
  EXPECT_NE(error.find("did you mean 'AutogradCPU'?"), std::string::npos) << error;
  EXPECT_FALSE(parse_key_list(rt, "Autograd", ks, error));
  EXPECT_NE(error.find("'Autograd' is not a runtime key"), std::string::npos) << error;
  EXPECT_TRUE(parse_key_list(rt, " CPU , AutogradCPU ", ks, error));
  EXPECT_EQ(rt.set_text(ks), "DispatchKeySet(CPU, AutogradCPU)");
}

}  // namespace
}  // namespace schemac::inspect
