// Calls through the dispatcher: boxed and unboxed calls with kernels written either way, key
// extraction from Tensor, Tensor?, Tensor[] and Tensor?[] arguments, thread-local sets,
// fallthrough, redispatch below a key, and the errors of a call that finds no kernel.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "schemac/dispatch/boxing.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/library.h"
#include "schemac/dispatch/operator_handle.h"

namespace schemac::dispatch {

using core::Device, core::IValue, core::Scalar, core::ScalarType, core::Tensor, keys::DispatchKey,
    keys::DispatchKeySet;

namespace {

thread_local std::vector<std::string> trace;
Dispatcher* current_dispatcher = nullptr;

Tensor tensor_with_keys(DispatchKeySet keys) {
  Tensor t = Tensor::empty({1});
  t.set_key_set(keys);
  return t;
}
Tensor cpu() { return Tensor::empty({1}); }
Tensor cuda() {
  return tensor_with_keys({DispatchKey::CUDA, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCUDA,
                           DispatchKey::AutocastCUDA});
}
Tensor xla() {
  return tensor_with_keys({DispatchKey::XLA, DispatchKey::ADInplaceOrView, DispatchKey::AutogradXLA});
}

// Kernels written unboxed.
Tensor cpu_first(const Tensor& a, const Tensor&) {
  trace.push_back("cpu");
  return a;
}
Tensor cuda_second(const Tensor&, const Tensor& b) {
  trace.push_back("cuda");
  return b;
}
// A kernel written boxed: returns its second argument.
void boxed_second(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  trace.push_back("boxed " + std::string(to_string(ks.highest_priority_key())) + " " + op.full_name());
  IValue b = core::pop(*stack);
  core::drop(*stack, 1);
  stack->push_back(std::move(b));
}

class CallTest : public ::testing::Test {
 protected:
  CallTest() { register_default_fallbacks(d); }
  void SetUp() override { trace.clear(); }

  RegistrationHandle def(std::string_view schema) { return d.def(schema, "call_test.cpp:1"); }
  RegistrationHandle impl(std::string_view op, std::optional<DispatchKey> key, KernelFunction k,
                          std::string debug = "") {
    return d.impl(op, key, std::move(k), std::move(debug), "call_test.cpp:2");
  }
  OperatorHandle handle(std::string_view name) {
    auto op = OperatorHandle::find(d, name);
    EXPECT_TRUE(op.has_value()) << name;
    return *op;
  }

  Dispatcher d;
};

TEST_F(CallTest, UnboxedKernelCalledUnboxedAndBoxed) {
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  auto r2 = impl("test::pick", DispatchKey::CPU, KernelFunction::make_from_unboxed(&cpu_first));
  const Tensor a = cpu(), b = cpu();
  const auto op = handle("test::pick");
  EXPECT_TRUE(op.typed<Tensor(const Tensor&, const Tensor&)>().call(a, b).is_same(a));
  Stack stack{IValue(a), IValue(b)};
  op.call_boxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].to_tensor().is_same(a));
  EXPECT_EQ(trace, (std::vector<std::string>{"cpu", "cpu"}));
}

TEST_F(CallTest, BoxedKernelCalledBoxedAndUnboxed) {
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  auto r2 = impl("test::pick", DispatchKey::CPU, KernelFunction::make_from_boxed(&boxed_second));
  const Tensor a = cpu(), b = cpu();
  const auto op = handle("test::pick");
  EXPECT_TRUE(op.typed<Tensor(const Tensor&, const Tensor&)>().call(a, b).is_same(b));
  Stack stack{IValue(a), IValue(b)};
  op.call_boxed(&stack);
  EXPECT_TRUE(stack.at(0).to_tensor().is_same(b));
  EXPECT_EQ(trace, (std::vector<std::string>{"boxed CPU test::pick", "boxed CPU test::pick"}));
}

TEST_F(CallTest, LambdaWithCapturesAndASignatureThatDiffersFromTheKernels) {
  auto r1 = def("test::scale(Tensor a, float s) -> Tensor");
  int calls = 0;
  auto r2 = impl("test::scale", DispatchKey::CPU,
                 KernelFunction::make_from_unboxed([&calls](const Tensor& a, double s) {
                   calls += static_cast<int>(s);
                   return a;
                 }));
  const auto op = handle("test::scale");
  const Tensor a = cpu();
  // Same signature as the kernel: the direct path.
  EXPECT_TRUE(op.typed<Tensor(const Tensor&, double)>().call(a, 2.0).is_same(a));
  // A different (by-value) signature still works, through the boxed entry.
  EXPECT_TRUE(op.typed<Tensor(Tensor, double)>().call(a, 3.0).is_same(a));
  EXPECT_EQ(calls, 5);
}

// A boxed kernel for any schema: records its label, pops the arguments, pushes 0.
struct Recorder final : BoxedKernelFunctor {
  explicit Recorder(std::string l) : label(std::move(l)) {}
  void operator()(const OperatorHandle& op, DispatchKeySet, Stack* stack) override {
    trace.push_back(label);
    core::drop(*stack, op.schema().arguments.size());
    stack->push_back(IValue(0));
  }
  std::string label;
};
KernelFunction recorder(std::string label) {
  return KernelFunction::make_from_boxed_functor(std::make_shared<Recorder>(std::move(label)));
}

TEST_F(CallTest, KeyExtractionUsesTheSchemaPositionsOfTensorArguments) {
  struct Case {
    const char* name;
    const char* schema;
    std::function<Stack()> args;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"test::t", "test::t(int x, Tensor a) -> int", [] { return Stack{IValue(1), IValue(cuda())}; }, "cuda"},
      {"test::o", "test::o(Tensor? a, int x) -> int", [] { return Stack{IValue(cuda()), IValue(1)}; }, "cuda"},
      {"test::on", "test::on(Tensor? a, Tensor b) -> int", [] { return Stack{IValue(), IValue(cpu())}; }, "cpu"},
      {"test::l", "test::l(Tensor[] a) -> int",
       [] { return Stack{IValue(std::vector<Tensor>{cpu(), cuda()})}; }, "cuda"},
      {"test::ol", "test::ol(Tensor?[] a) -> int",
       [] { return Stack{IValue(std::vector<std::optional<Tensor>>{std::nullopt, cuda()})}; }, "cuda"},
      {"test::e", "test::e(Tensor[] a) -> int", [] { return Stack{IValue(std::vector<Tensor>{})}; },
       "math"},
      {"test::none", "test::none(int x) -> int", [] { return Stack{IValue(1)}; }, "math"},
      // Only schema positions count: a tensor passed where the schema says int is ignored.
      {"test::n", "test::n(int x, Tensor a) -> int", [] { return Stack{IValue(cuda()), IValue(cpu())}; },
       "cpu"},
      // Values below the arguments on the stack are not looked at.
      {"test::below", "test::below(Tensor a) -> int", [] { return Stack{IValue(cuda()), IValue(cpu())}; },
       "cpu"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.schema);
    trace.clear();
    auto r1 = def(c.schema);
    auto r2 = impl(c.name, DispatchKey::CPU, recorder("cpu"));
    auto r3 = impl(c.name, DispatchKey::CUDA, recorder("cuda"));
    auto r4 = impl(c.name, std::nullopt, recorder("math"));
    Stack stack = c.args();
    const size_t below = stack.size() - handle(c.name).schema().arguments.size();
    handle(c.name).call_boxed(&stack);
    EXPECT_EQ(stack.size(), below + 1);
    EXPECT_EQ(trace, std::vector<std::string>{c.expected});
  }
}

TEST_F(CallTest, UnboxedKeyExtractionLooksAtTensorLikeArgumentsAndGenerators) {
  auto r1 = def("test::u(Tensor? a, Tensor[] b, Tensor?[] c, Generator? g) -> int");
  auto r2 = impl("test::u", DispatchKey::CPU, recorder("cpu"));
  auto r3 = impl("test::u", DispatchKey::CUDA, recorder("cuda"));
  auto r4 = impl("test::u", DispatchKey::CustomRNGKeyId, recorder("rng"));
  auto r5 = impl("test::u", std::nullopt, recorder("math"));
  const auto op = handle("test::u").typed<int64_t(const std::optional<Tensor>&, const std::vector<Tensor>&,
                                                  const std::vector<std::optional<Tensor>>&,
                                                  const std::optional<core::Generator>&)>();
  op.call(std::nullopt, {}, {}, std::nullopt);
  op.call(cpu(), {}, {}, std::nullopt);
  op.call(std::nullopt, {cpu(), cuda()}, {}, std::nullopt);
  op.call(std::nullopt, {}, {std::nullopt, cuda()}, std::nullopt);
  op.call(cpu(), {}, {}, core::Generator::make(1, DispatchKeySet(DispatchKey::CustomRNGKeyId)));
  EXPECT_EQ(trace, (std::vector<std::string>{"math", "cpu", "cuda", "cuda", "rng"}));
}

TEST_F(CallTest, EveryArgumentTypeSurvivesBoxingBothWays) {
  using Result = std::tuple<Tensor, int64_t, double, bool, std::string, Scalar, ScalarType,
                            std::optional<int64_t>, std::vector<int64_t>, std::vector<double>,
                            Device, std::complex<double>, std::vector<std::string>, std::vector<Tensor>>;
  auto r1 = def(
      "test::all(Tensor t, int i, float d, bool b, str s, Scalar sc, ScalarType st, int? oi, "
      "int[] il, float[] dl, Device dev, complex c, str[] sl, Tensor[] tl) -> "
      "(Tensor, int, float, bool, str, Scalar, ScalarType, int?, int[], float[], Device, complex, "
      "str[], Tensor[])");
  // An unboxed kernel that returns its arguments.
  auto echo = [](const Tensor& t, int64_t i, double d, bool b, std::string_view s, const Scalar& sc,
                 ScalarType st, std::optional<int64_t> oi, core::IntArrayRef il, const std::vector<double>& dl,
                 Device dev, std::complex<double> c, const std::vector<std::string>& sl,
                 const std::vector<Tensor>& tl) {
    return Result(t, i, d, b, std::string(s), sc, st, oi, il.vec(), dl, dev, c, sl, tl);
  };
  auto r2 = impl("test::all", DispatchKey::CPU, KernelFunction::make_from_unboxed(echo));
  const Tensor t = cpu();
  const Device dev(core::DeviceType::CUDA, 2);
  const Result expected(t, 7, 0.5, true, "s", Scalar(1.5), ScalarType::Half, std::nullopt,
                        std::vector<int64_t>{1, 2}, std::vector<double>{3.0}, dev,
                        std::complex<double>(1, 2), std::vector<std::string>{"a", "b"},
                        std::vector<Tensor>{t});
  // Boxed call of the unboxed kernel.
  Stack stack;
  core::push(stack, t, 7, 0.5, true, "s", Scalar(1.5), ScalarType::Half, IValue(), std::vector<int64_t>{1, 2},
       std::vector<double>{3.0}, dev, std::complex<double>(1, 2), IValue::list({IValue("a"), IValue("b")}),
       std::vector<Tensor>{t});
  handle("test::all").call_boxed(&stack);
  ASSERT_EQ(stack.size(), 14u);
  EXPECT_TRUE(stack[0].to_tensor().is_same(t));
  EXPECT_EQ(stack[1].to_int(), 7);
  EXPECT_EQ(stack[4].to_string(), "s");
  EXPECT_EQ(stack[5].to_scalar(), Scalar(1.5));
  EXPECT_EQ(stack[6].to_enum<ScalarType>(), ScalarType::Half);
  EXPECT_TRUE(stack[7].is_none());
  EXPECT_EQ(stack[10].to_device(), dev);
  EXPECT_EQ(stack[12].repr(), "['a', 'b']");
  // Unboxed call through a signature that differs from the kernel's, so it goes through boxing
  // on both sides (C++ -> IValue -> the kernel's C++ types -> IValue -> C++).
  const auto typed = handle("test::all").typed<Result(Tensor, int64_t, double, bool, std::string, Scalar,
                                                      ScalarType, std::optional<int64_t>, std::vector<int64_t>,
                                                      std::vector<double>, Device, std::complex<double>,
                                                      std::vector<std::string>, std::vector<Tensor>)>();
  const Result got = typed.call(t, 7, 0.5, true, "s", Scalar(1.5), ScalarType::Half, std::nullopt, {1, 2},
                                {3.0}, dev, {1, 2}, {"a", "b"}, {t});
  EXPECT_TRUE(std::get<0>(got).is_same(t));
  EXPECT_EQ(std::get<1>(got), 7);
  EXPECT_EQ(std::get<2>(got), 0.5);
  EXPECT_EQ(std::get<3>(got), true);
  EXPECT_EQ(std::get<4>(got), "s");
  EXPECT_EQ(std::get<5>(got), Scalar(1.5));
  EXPECT_EQ(std::get<6>(got), ScalarType::Half);
  EXPECT_EQ(std::get<7>(got), std::nullopt);
  EXPECT_EQ(std::get<8>(got), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(std::get<10>(got), dev);
  EXPECT_EQ(std::get<11>(got), std::complex<double>(1, 2));
  EXPECT_EQ(std::get<12>(got), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(std::get<13>(got).at(0).is_same(t));
  (void)expected;
}

TEST_F(CallTest, VoidAndOutArgumentKernels) {
  auto r1 = def("test::fill_(Tensor(a!) self, Scalar v) -> Tensor(a!)");
  auto r2 = def("test::touch(Tensor self) -> ()");
  auto r3 = impl("test::fill_", DispatchKey::CPU,
                 KernelFunction::make_from_unboxed([](Tensor& self, const Scalar&) -> Tensor& {
                   trace.push_back("fill_");
                   return self;
                 }));
  auto r4 = impl("test::touch", DispatchKey::CPU,
                 KernelFunction::make_from_unboxed([](const Tensor&) { trace.push_back("touch"); }));
  Tensor t = cpu();
  Tensor& same = handle("test::fill_").typed<Tensor&(Tensor&, const Scalar&)>().call(t, Scalar(1));
  EXPECT_EQ(&same, &t);
  handle("test::touch").typed<void(const Tensor&)>().call(t);
  Stack stack{IValue(t), IValue(2)};
  handle("test::fill_").call_boxed(&stack);
  EXPECT_TRUE(stack.at(0).to_tensor().is_same(t));
  stack = {IValue(t)};
  handle("test::touch").call_boxed(&stack);
  EXPECT_TRUE(stack.empty());
  EXPECT_EQ(trace, (std::vector<std::string>{"fill_", "touch", "fill_", "touch"}));
}

TEST_F(CallTest, ThreadLocalSetsChangeTheKey) {
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  auto r2 = impl("test::pick", DispatchKey::CPU, KernelFunction::make_from_unboxed(&cpu_first));
  auto r3 = impl("test::pick", DispatchKey::Python, KernelFunction::make_from_boxed(&boxed_second));
  const auto op = handle("test::pick").typed<Tensor(const Tensor&, const Tensor&)>();
  const Tensor a = cpu(), b = cpu();
  op.call(a, b);
  {
    IncludeDispatchKeyGuard python(DispatchKey::Python);
    EXPECT_TRUE(op.call(a, b).is_same(b));
    ExcludeDispatchKeyGuard no_python(DispatchKey::Python);
    EXPECT_TRUE(op.call(a, b).is_same(a));
  }
  op.call(a, b);
  EXPECT_EQ(trace, (std::vector<std::string>{"cpu", "boxed Python test::pick", "cpu", "cpu"}));
}

TEST_F(CallTest, FallthroughKernelsAreSkipped) {
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  auto r2 = impl("test::pick", DispatchKey::CPU, KernelFunction::make_from_unboxed(&cpu_first));
  auto r3 = impl("test::pick", DispatchKey::Python, KernelFunction::make_fallthrough());
  IncludeDispatchKeyGuard python(DispatchKey::Python);
  // BackendSelect and ADInplaceOrView (TLS defaults) and AutogradCPU are fallthrough fallbacks,
  // and Python is a fallthrough kernel: the call lands on CPU.
  handle("test::pick").typed<Tensor(const Tensor&, const Tensor&)>().call(cpu(), cpu());
  Stack stack{IValue(cpu()), IValue(cpu())};
  handle("test::pick").call_boxed(&stack);
  EXPECT_EQ(trace, (std::vector<std::string>{"cpu", "cpu"}));
  // Called directly, a fallthrough kernel goes on with the next key below its own.
  stack = {IValue(cpu()), IValue(cpu())};
  KernelFunction::make_fallthrough().call_boxed(handle("test::pick"), DispatchKeySet{DispatchKey::Python, DispatchKey::CPU},
                                               &stack);
  EXPECT_EQ(trace.back(), "cpu");
  EXPECT_THROW(KernelFunction::make_fallthrough().call_boxed(handle("test::pick"), DispatchKeySet(), &stack),
               DispatchError);
}

// The two-level chain: an Autograd kernel that redispatches below itself to the backend.
Tensor autograd_pick(DispatchKeySet ks, const Tensor& a, const Tensor& b) {
  trace.push_back("autograd");
  static const auto op = OperatorHandle::find(*current_dispatcher, "test::pick")
                             ->typed<Tensor(const Tensor&, const Tensor&)>();
  return op.redispatch(ks & keys_below(DispatchKey::AutogradOther), a, b);
}

TEST_F(CallTest, RedispatchBelowAKeyReachesTheBackend) {
  current_dispatcher = &d;
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  auto r2 = impl("test::pick", DispatchKey::CPU, KernelFunction::make_from_unboxed(&cpu_first));
  auto r3 = impl("test::pick", DispatchKey::CUDA, KernelFunction::make_from_unboxed(&cuda_second));
  auto r4 = impl("test::pick", DispatchKey::Autograd, KernelFunction::make_from_unboxed(&autograd_pick));
  const auto op = handle("test::pick").typed<Tensor(const Tensor&, const Tensor&)>();
  op.call(cpu(), cpu());
  op.call(cuda(), cuda());
  // Boxed: the autograd kernel is unboxed and redispatches unboxed.
  Stack stack{IValue(cpu()), IValue(cpu())};
  handle("test::pick").call_boxed(&stack);
  // The same chain with a guard instead of an explicit key set.
  {
    ExcludeDispatchKeyGuard no_autograd(DispatchKeySet{DispatchKey::AutogradCPU});
    op.call(cpu(), cpu());
  }
  EXPECT_EQ(trace, (std::vector<std::string>{"autograd", "cpu", "autograd", "cuda", "autograd", "cpu", "cpu"}));
}

TEST_F(CallTest, BoxedRedispatch) {
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  auto r2 = impl("test::pick", DispatchKey::CPU, KernelFunction::make_from_unboxed(&cpu_first));
  auto r3 = impl("test::pick", DispatchKey::Python, KernelFunction::make_from_boxed(&boxed_second));
  Stack stack{IValue(cpu()), IValue(cpu())};
  const DispatchKeySet ks{DispatchKey::Python, DispatchKey::CPU};
  handle("test::pick").redispatch_boxed(ks, &stack);
  stack = {IValue(cpu()), IValue(cpu())};
  handle("test::pick").redispatch_boxed(ks & keys_below(DispatchKey::Python), &stack);
  EXPECT_EQ(trace, (std::vector<std::string>{"boxed Python test::pick", "cpu"}));
}

std::string call_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const DispatchError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_F(CallTest, MissingKernelErrorNamesOperatorKeyAndKeysWithKernels) {
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  auto r2 = impl("test::pick", DispatchKey::CPU, KernelFunction::make_from_unboxed(&cpu_first));
  auto r3 = impl("test::pick", DispatchKey::Python, KernelFunction::make_from_boxed(&boxed_second));
  const auto op = handle("test::pick").typed<Tensor(const Tensor&, const Tensor&)>();
  EXPECT_EQ(call_error([&] { op.call(xla(), xla()); }),
            "Could not run 'test::pick' with arguments from the 'XLA' backend. 'test::pick' is only "
            "available for these backends: [Python, CPU].");
  EXPECT_EQ(call_error([&] {
              Stack s{IValue(cuda()), IValue(cuda())};
              handle("test::pick").call_boxed(&s);
            }),
            "Could not run 'test::pick' with arguments from the 'CUDA' backend. 'test::pick' is only "
            "available for these backends: [Python, CPU].");
  EXPECT_EQ(call_error([&] { op.call(Tensor(), Tensor()); }).substr(0, 62),
            "There were no tensor arguments to this function (e.g., you pas");
  EXPECT_NE(call_error([&] { op.call(Tensor(), Tensor()); }).find("schema test::pick"), std::string::npos);
}

TEST_F(CallTest, AmbiguousAutogradOtherRaises) {
  auto r1 = def("test::q(Tensor a) -> Tensor");
  auto r2 = impl("test::q", std::nullopt, recorder("math"));
  auto r3 = impl("test::q", DispatchKey::QuantizedCPU, recorder("quantized"));
  const Tensor q = tensor_with_keys({DispatchKey::QuantizedCPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradOther});
  Stack s{IValue(q)};
  const std::string error = call_error([&] { handle("test::q").call_boxed(&s); });
  EXPECT_NE(error.find("operator 'test::q' is ambiguous on the AutogradOther key"), std::string::npos) << error;
  {
    ExcludeDispatchKeyGuard below(DispatchKey::AutogradOther);
    Stack s2{IValue(q)};
    handle("test::q").call_boxed(&s2);
  }
  EXPECT_EQ(trace, std::vector<std::string>{"quantized"});
}

TEST_F(CallTest, TypedChecksTheSignatureAgainstTheSchema) {
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  EXPECT_NE(call_error([&] { handle("test::pick").typed<Tensor(const Tensor&)>(); })
                .find("has 1 arguments but the schema of 'test::pick' has 2"),
            std::string::npos);
  EXPECT_NE(call_error([&] { handle("test::pick").typed<void(const Tensor&, const Tensor&)>(); })
                .find("has 0 returns but the schema of 'test::pick' has 1"),
            std::string::npos);
  EXPECT_EQ(call_error([&] { handle("test::pick").typed<Tensor(const Tensor&, const Tensor&)>(); }),
            "(no error)");
}

TEST_F(CallTest, ShortStackIsAnErrorNotACrash) {
  auto r1 = def("test::pick(Tensor a, Tensor b) -> Tensor");
  auto r2 = impl("test::pick", DispatchKey::CPU, KernelFunction::make_from_unboxed(&cpu_first));
  Stack stack{IValue(cpu())};
  EXPECT_THROW(handle("test::pick").call_boxed(&stack), core::IValueError);
  stack = {IValue(cpu()), IValue(3)};
  EXPECT_THROW(handle("test::pick").call_boxed(&stack), core::IValueError);  // 3 is not a Tensor
}

TEST(KernelFunction, Kinds) {
  EXPECT_FALSE(KernelFunction().is_valid());
  EXPECT_TRUE(KernelFunction::make_fallthrough().is_fallthrough());
  EXPECT_TRUE(KernelFunction::make_fallthrough().is_valid());
  EXPECT_TRUE(KernelFunction::make_ambiguous_autogradother().is_ambiguous_autogradother());
  EXPECT_FALSE(KernelFunction::make_from_boxed(&boxed_second).has_unboxed());
  EXPECT_FALSE(KernelFunction::make_from_boxed(nullptr).is_valid());
  const KernelFunction k = KernelFunction::make_from_unboxed(&cpu_first);
  EXPECT_TRUE(k.has_unboxed());
  EXPECT_EQ(*k.unboxed_signature(), typeid(Tensor(const Tensor&, const Tensor&)));
  const KernelFunction with_keys = KernelFunction::make_from_unboxed(&autograd_pick);
  EXPECT_EQ(*with_keys.unboxed_signature(), typeid(Tensor(const Tensor&, const Tensor&)));
}

}  // namespace
}  // namespace schemac::dispatch

// ## The C++ registration API (library.h)
namespace schemac::dispatch {

using core::Tensor;

namespace {

Tensor lib_cpu(const Tensor& a) {
  trace.push_back("lib cpu");
  return a;
}

}  // namespace
}  // namespace schemac::dispatch

SCHEMAC_LIBRARY(calltest_lib, m) {
  m.def("ident(Tensor a) -> Tensor");
  m.def("twice(Tensor a) -> Tensor", [](const schemac::core::Tensor& a) { return a; });
}

SCHEMAC_LIBRARY_IMPL(calltest_lib, CPU, m) { m.impl("ident", &schemac::dispatch::lib_cpu); }

// A block that fails part-way: its first registration is undone and loading goes on.
SCHEMAC_LIBRARY_FRAGMENT(calltest_lib, m) {
  m.def("partial(Tensor a) -> Tensor");
  m.def("ident(Tensor a) -> Tensor");  // a second definition: an error
}

namespace schemac::dispatch {

using core::Tensor, keys::DispatchKey;

namespace {

TEST(Library, MacroBlocksRegisterAtLoadTime) {
  trace.clear();
  const auto ident = OperatorHandle::find("calltest_lib::ident");
  ASSERT_TRUE(ident.has_value());
  const Tensor t = Tensor::empty({1});
  EXPECT_TRUE(ident->typed<Tensor(const Tensor&)>().call(t).is_same(t));
  EXPECT_EQ(trace, std::vector<std::string>{"lib cpu"});
  // The catch-all kernel of twice() serves CPU tensors through CompositeImplicitAutograd.
  EXPECT_TRUE(OperatorHandle::find("calltest_lib::twice")->typed<Tensor(const Tensor&)>().call(t).is_same(t));
  // The failed fragment left nothing behind.
  EXPECT_FALSE(OperatorHandle::find("calltest_lib::partial").has_value());
  // Registrations record the block's file:line.
  EXPECT_NE(ident->entry().kernels(DispatchKey::CPU).front().site.find("call_test.cpp:"), std::string::npos);
}

std::string library_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const DispatchError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Library, UndoesItsRegistrationsNewestFirstWhenDestroyed) {
  Dispatcher d;
  {
    Library defs(Library::Kind::Def, "lt", std::nullopt, "file.cpp", 10, d);
    defs.def("f(Tensor a) -> Tensor");
    EXPECT_NE(d.find("lt::f"), nullptr);
    {
      Library cpu(Library::Kind::Impl, "lt", DispatchKey::CPU, "file.cpp", 20, d);
      cpu.impl("f", &lib_cpu);
      cpu.impl("lt::f", &lib_cpu, "second");
      EXPECT_EQ(d.find("lt::f")->kernels(DispatchKey::CPU).size(), 2u);
      EXPECT_EQ(d.find("lt::f")->kernels(DispatchKey::CPU).front().debug, "second");
      EXPECT_EQ(cpu.num_registrations(), 2u);
    }
    EXPECT_TRUE(d.find("lt::f")->kernels(DispatchKey::CPU).empty());
  }
  EXPECT_EQ(d.find("lt::f"), nullptr);
}

TEST(Library, Errors) {
  Dispatcher d;
  Library defs(Library::Kind::Def, "lt", std::nullopt, "a.cpp", 1, d);
  EXPECT_EQ(library_error([&] { Library again(Library::Kind::Def, "lt", std::nullopt, "b.cpp", 2, d); }),
            "only one SCHEMAC_LIBRARY block may define the namespace 'lt': one is at a.cpp:1 and another at "
            "b.cpp:2; use SCHEMAC_LIBRARY_FRAGMENT for more definitions");
  EXPECT_EQ(library_error([&] { defs.def("other::f(Tensor a) -> Tensor"); }),
            "the namespace 'other' of operator 'other::f' does not match the namespace 'lt' of the library at a.cpp:1");
  Library cpu(Library::Kind::Impl, "lt", DispatchKey::CPU, "c.cpp", 3, d);
  EXPECT_EQ(library_error([&] { cpu.def("g(Tensor a) -> Tensor"); }),
            "def('g(Tensor a) -> Tensor') in the SCHEMAC_LIBRARY_IMPL block at c.cpp:3: operators are defined in "
            "SCHEMAC_LIBRARY or SCHEMAC_LIBRARY_FRAGMENT blocks");
  EXPECT_EQ(library_error([&] { cpu.impl("f", DispatchKey::CUDA, &lib_cpu); }),
            "impl('f') for key CUDA in the library for key CPU at c.cpp:3");
  EXPECT_EQ(library_error([&] { cpu.fallback(KernelFunction::make_fallthrough()); }),
            "fallback() at c.cpp:3 applies to every namespace: register it in SCHEMAC_LIBRARY_IMPL(_, CPU, m), not "
            "in namespace 'lt'");
  // A C++ kernel whose argument count differs from the schema (test_def_impl_schema_mismatch).
  defs.def("two(Tensor x, Tensor y) -> Tensor");
  EXPECT_EQ(library_error([&] { cpu.impl("two", &lib_cpu); }),
            "inferred operator schema for a C++ kernel function doesn't match the expected function schema of "
            "'lt::two': the number of arguments is different, 2 vs 1\n  expected schema: lt::two(Tensor x, Tensor y) "
            "-> Tensor\n    registered at a.cpp:1\n  kernel registered at c.cpp:3");
  EXPECT_NE(library_error([&] { cpu.impl("two", [](const Tensor&, const Tensor&) {}); })
                .find("the number of returns is different, 1 vs 0"),
            std::string::npos);
  EXPECT_EQ(library_error([&] { cpu.impl("two", [](keys::DispatchKeySet, const Tensor& a, const Tensor&) { return a; }); }),
            "(no error)");
  Library any(Library::Kind::Impl, "_", DispatchKey::Python, "d.cpp", 4, d);
  EXPECT_EQ(library_error([&] { any.fallback(KernelFunction::make_fallthrough()); }), "(no error)");
  EXPECT_TRUE(d.fallback_entry(DispatchKey::Python) != nullptr);
  EXPECT_EQ(library_error([&] { any.impl("f", &lib_cpu); }),
            "operator name 'f' at d.cpp:4 needs a namespace: the library is for any namespace ('_')");
  // After the first Def library goes away, the namespace can be defined again.
  {
    Dispatcher d2;
    { Library once(Library::Kind::Def, "again", std::nullopt, "e.cpp", 5, d2); }
    EXPECT_EQ(library_error([&] { Library twice(Library::Kind::Def, "again", std::nullopt, "e.cpp", 6, d2); }),
              "(no error)");
  }
}

}  // namespace
}  // namespace schemac::dispatch
