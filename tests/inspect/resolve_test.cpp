// resolve: the winning key, the fallthrough keys skipped, and the redispatch chain, on a private
// registry with the default fallbacks.
#include <gtest/gtest.h>

#include <array>

#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/inspect/resolve.h"
#include "schemac_adapter.h"

namespace schemac::inspect {
namespace {

using dispatch::KernelFunction;
using keys::DispatchKey;
using keys::DispatchKeySet;

void noop(const dispatch::OperatorHandle&, DispatchKeySet, dispatch::Stack*) {}

struct Registry {
  Registry() {
    dispatch::register_default_fallbacks(d);
    handles.push_back(d.def("test::op(Tensor self) -> Tensor", "test.cpp:0"));
  }
  void impl(std::optional<DispatchKey> key, const std::string& name) {
    handles.push_back(
        d.impl("test::op", key, KernelFunction::make_from_boxed(&noop), name, "test.cpp:1"));
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
report::Resolution resolve_on(const dispatch::OperatorEntry& op, KeySet keys,
                              KeySet excluded = {}) {
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
                    ADInplaceOrView = DispatchKey::ADInplaceOrView,
                    Math = DispatchKey::CompositeImplicitAutograd;
  const ChainCase cases[] = {
      // Autograd kernel, fallthrough ADInplaceOrView, CPU kernel.
      {{{CPU, "cpu"}, {Autograd, "autograd"}},
       "CPU,ADInplaceOrView,AutogradCPU",
       "AutogradCPU=autograd -> CPU=cpu"},
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
  EXPECT_EQ(res.skipped,
            (std::vector<std::string>{"BackendSelect", "ADInplaceOrView", "AutogradCPU"}));
  // Excluding CPU leaves nothing with a kernel.
  const report::Resolution none = resolve_on(r.op(), keys("CPU"), keys("CPU"));
  EXPECT_EQ(none.chain.back().reason, report::Reason::Missing);
  EXPECT_FALSE(none.chain.back().has_kernel);
}

// The model's key set of a call equals the dispatcher's own (apply_tls under the same guards):
// the excluded set takes functionalities away, never a backend bit.
TEST(Resolve, CallKeySetIsTheDispatchersOwn) {
  const Runtime& rt = schemac_runtime();
  const std::vector<std::array<const char*, 3>> cases = {
      {"CPU,AutogradCPU", "", "AutogradCPU"},          {"CPU,AutogradCPU", "", "CPU"},
      {"CUDA,AutogradCUDA", "AutocastCUDA", ""},       {"CPU,AutogradCPU,AutocastCPU", "", ""},
      {"Meta,AutogradMeta", "Python", "AutogradMeta"}, {"", "", "BackendSelect"}};
  for (const auto& [given, include, exclude] : cases) {
    const DispatchKeySet in = DispatchKeySet::from_raw(keys(include).bits);
    const DispatchKeySet out = DispatchKeySet::from_raw(keys(exclude).bits);
    dispatch::IncludeDispatchKeyGuard included(in);
    dispatch::ExcludeDispatchKeyGuard excluded(out);
    const DispatchKeySet dispatched =
        dispatch::apply_tls(DispatchKeySet::from_raw(keys(given).bits));
    const CallKeySet modelled =
        call_key_set(rt, {keys(given), rt.default_included() | keys(include),
                          rt.default_excluded() | keys(exclude), true, "cpu"});
    EXPECT_EQ(rt.set_text(modelled.keys), keys::to_string(dispatched))
        << "keys " << given << ", include " << include << ", exclude " << exclude;
  }
  Registry r;
  r.impl(DispatchKey::CPU, "cpu");
  const report::Resolution res = resolve_on(r.op(), keys("CPU,AutogradCPU"), keys("AutogradCPU"));
  EXPECT_EQ(chain_of(res), "CPU=cpu");
  EXPECT_EQ(res.notes.back(), "dropped by thread-local state: AutogradCPU (the excluded set)");
}

// PyTorch's rules for what each kind of kernel passes on (docs/dispatch-semantics.md §2.4).
TEST(Resolve, ChainsByPyTorchRules) {
  const DispatchKey CPU = DispatchKey::CPU, Autograd = DispatchKey::Autograd;
  const ChainCase cases[] = {
      // A nested tensor that requires grad: one autograd kernel (ks & after_autograd_keyset drops
      // AutogradCPU too), then the NestedTensorCPU kernel, a backend kernel, ends the chain.
      {{{DispatchKey::NestedTensorCPU, "nested"}, {Autograd, "autograd"}},
       "NestedTensorCPU,AutogradNestedTensor,ADInplaceOrView",
       "AutogradNestedTensor=autograd -> NestedTensorCPU=nested"},
      {{{DispatchKey::NestedTensorCPU, "nested"}, {Autograd, "autograd"}},
       "NestedTensorCPU,ADInplaceOrView,AutogradCPU,AutogradNestedTensor",
       "AutogradNestedTensor=autograd -> NestedTensorCPU=nested"},
      // Sparse and quantized kernels compute the result too.
      {{{DispatchKey::SparseCPU, "sparse"}, {Autograd, "autograd"}},
       "SparseCPU,AutogradCPU",
       "AutogradCPU=autograd -> SparseCPU=sparse"},
      {{{DispatchKey::QuantizedCPU, "quantized"}}, "QuantizedCPU", "QuantizedCPU=quantized"},
      // The Python key (below autograd) passes the call on without itself.
      {{{DispatchKey::Python, "python"}, {CPU, "cpu"}, {Autograd, "autograd"}},
       "CPU,AutogradCPU,Python",
       "AutogradCPU=autograd -> Python=python -> CPU=cpu"},
  };
  for (const ChainCase& c : cases) {
    Registry r;
    for (const auto& [key, name] : c.kernels) r.impl(key, name);
    EXPECT_EQ(chain_of(resolve_on(r.op(), keys(c.keys))), c.chain) << c.keys;
  }
}

TEST(Resolve, AutocastPassesOnWithoutItsKey) {
  Registry r;
  r.impl(DispatchKey::AutocastCPU, "autocast");
  r.impl(DispatchKey::Autograd, "autograd");
  r.impl(DispatchKey::CPU, "cpu");
  const Runtime& rt = schemac_runtime();
  const KeySet tensor = keys("CPU,ADInplaceOrView,AutogradCPU,AutocastCPU");
  // Autocast off (the default): AutocastCPU is dropped, and that is said.
  const report::Resolution off = resolve_on(r.op(), tensor);
  EXPECT_EQ(chain_of(off), "AutogradCPU=autograd -> CPU=cpu");
  ASSERT_EQ(off.notes.size(), 2u);
  EXPECT_EQ(off.notes[0], "added by thread-local state: BackendSelect (the included set)");
  EXPECT_EQ(off.notes[1],
            "dropped by thread-local state: AutocastCPU (the excluded set; autocast is off: "
            "--autocast DEVICE turns it on)");
  // torch.autocast('cpu'): AutocastCPU leaves the excluded set.
  const report::Resolution on = resolve(
      rt, table_of(r.op(), {true, {}}),
      {tensor, rt.default_included(), rt.default_excluded() - keys("AutocastCPU"), true, "cpu"});
  EXPECT_EQ(chain_of(on), "AutocastCPU=autocast -> AutogradCPU=autograd -> CPU=cpu");
  EXPECT_EQ(on.chain[1].key_set, "DispatchKeySet(CPU, AutogradCPU)");
}

// A factory operator (no tensor argument): BackendSelect computes the backend from the options'
// device, as torch.empty does; an operator with tensors and a device (_to_copy, which .to calls):
// the options' device with the tensors' keys, below BackendSelect.
TEST(Resolve, BackendSelectUsesTheDevice) {
  dispatch::Dispatcher d;
  dispatch::register_default_fallbacks(d);
  std::vector<dispatch::RegistrationHandle> handles;
  handles.push_back(d.def("test::empty(int[] size, *, Device? device=None) -> Tensor", "t.cpp:0"));
  handles.push_back(d.def("test::to(Tensor self, *, Device? device=None) -> Tensor", "t.cpp:0"));
  for (const char* op : {"test::empty", "test::to"}) {
    for (auto [key, name] : {std::pair{DispatchKey::BackendSelect, "select"},
                             {DispatchKey::CPU, "cpu"},
                             {DispatchKey::Meta, "meta"},
                             {DispatchKey::Autograd, "autograd"}})
      handles.push_back(
          d.impl(op, key, KernelFunction::make_from_boxed(&noop), name, "test.cpp:1"));
  }
  const Runtime& rt = schemac_runtime();
  const report::Table empty = table_of(*d.find("test::empty"), {true, {}});
  Call call{{}, rt.default_included(), rt.default_excluded(), false, ""};
  const report::Resolution cpu = resolve(rt, empty, call);
  EXPECT_EQ(chain_of(cpu), "BackendSelect=select -> CPU=cpu");
  EXPECT_EQ(cpu.chain[1].key_set, "DispatchKeySet(CPU)");
  EXPECT_FALSE(cpu.fails);
  EXPECT_TRUE(cpu.call_notes.empty());
  call.device = "meta";
  EXPECT_EQ(chain_of(resolve(rt, empty, call)), "BackendSelect=select -> Meta=meta");
  // .to('meta') of a CPU tensor runs Meta; .to(float) of a Meta tensor (no device: cpu) too.
  const report::Table to = table_of(*d.find("test::to"), {true, {}});
  const report::Resolution meta =
      resolve(rt, to, {keys("CPU,ADInplaceOrView,AutogradCPU,AutocastCPU"), rt.default_included(),
                       rt.default_excluded(), true, "meta"});
  EXPECT_EQ(chain_of(meta), "AutogradCPU=autograd -> BackendSelect=select -> Meta=meta");
  EXPECT_EQ(meta.chain[2].key_set, "DispatchKeySet(CPU, Meta)");
  EXPECT_EQ(chain_of(resolve(rt, to,
                             {keys("Meta,ADInplaceOrView,AutogradMeta"), rt.default_included(),
                              rt.default_excluded(), true, ""})),
            "AutogradMeta=autograd -> BackendSelect=select -> Meta=meta");
  // Excluding BackendSelect: the tensors' keys choose, and the device is only an argument.
  const report::Resolution unread =
      resolve(rt, to, {keys("CPU,AutogradCPU"), rt.default_included(),
                       rt.default_excluded() | keys("BackendSelect"), true, "meta"});
  EXPECT_EQ(chain_of(unread), "AutogradCPU=autograd -> CPU=cpu");
  ASSERT_EQ(unread.call_notes.size(), 1u);
  EXPECT_EQ(unread.call_notes[0].rfind("--device meta: no BackendSelect kernel", 0), 0u);
}

// InferenceMode: ADInplaceOrView leaves the included set, the autograd keys join the excluded set
// (c10's InferenceMode), and an inference tensor lacks both.
TEST(Resolve, InferenceModeSets) {
  const Runtime& rt = schemac_runtime();
  const InferenceMode inference = inference_mode(rt);
  EXPECT_EQ(rt.set_text(inference.not_included), "DispatchKeySet(ADInplaceOrView)");
  const KeySet cpu_tensor = keys("CPU,ADInplaceOrView,AutogradCPU,AutocastCPU");
  EXPECT_EQ(rt.set_text(rt.with_thread_local(cpu_tensor, {}, inference.excluded)),
            "DispatchKeySet(CPU, ADInplaceOrView, AutocastCPU)");
  EXPECT_EQ(rt.set_text(cpu_tensor - inference.tensor_lacks()), "DispatchKeySet(CPU, AutocastCPU)");
}

// Which calls cannot happen, from the schema.
TEST(Resolve, CallsThatCannotHappen) {
  EXPECT_TRUE(schema_takes_device(
      "aten::_to_copy(Tensor self, *, ScalarType? dtype=None, Device? device=None) -> Tensor"));
  EXPECT_TRUE(schema_takes_device("aten::to.device(Tensor(a) self, Device device) -> Tensor(a)"));
  EXPECT_FALSE(schema_takes_device("aten::add.Tensor(Tensor self, Tensor other) -> Tensor"));
  EXPECT_FALSE(schema_takes_device("ns::op(Dict(str, Device) d, int[2] device=[1, 2]) -> Tensor"));
  EXPECT_FALSE(schema_takes_device(""));
  EXPECT_EQ(call_refusal("ns::f", true, true, true, true), "");
  EXPECT_NE(call_refusal("ns::empty", false, true, true, false).find("takes no tensor argument"),
            std::string::npos);
  EXPECT_NE(call_refusal("ns::add", true, false, true, true).find("takes no Device argument"),
            std::string::npos);
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
  // A did-you-mean names only what a key set takes: Autgrad is nearest Autograd, an alias key.
  EXPECT_FALSE(parse_key_list(rt, "CPU,Autgrad", ks, error));
  EXPECT_EQ(error.find("did you mean 'Autograd'"), std::string::npos) << error;
  EXPECT_FALSE(parse_key_list(rt, "autogradcpu", ks, error));
  EXPECT_NE(error.find("did you mean 'AutogradCPU'?"), std::string::npos) << error;
  EXPECT_TRUE(parse_key_list(rt, " CPU , AutogradCPU ", ks, error));
  EXPECT_EQ(rt.set_text(ks), "DispatchKeySet(CPU, AutogradCPU)");
}

}  // namespace
}  // namespace schemac::inspect
