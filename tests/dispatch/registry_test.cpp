// The registry: def/impl/fallback, handles that undo (stack semantics), errors that name both
// sites, the state dump, and the §9 registration scenarios of test_dispatch.py.
#include <gtest/gtest.h>

#include "dispatch_test_support.h"
#include "table_format.h"

namespace schemac::dispatch {

using inspect::TableFormat, inspect::format_dump, keys::DispatchKey;

namespace {

using testing::noop_kernel;
using testing::TestRegistry;

KernelFunction kernel() { return KernelFunction::make_from_boxed(&noop_kernel); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DispatchError& e) {
    return e.what();
  }
  return "";
}

OperatorSignature parse(const std::string& text) { return *parse_signature(text); }

TEST(Registry, DefThenFind) {
  Dispatcher d;
  EXPECT_EQ(d.find("test::foo"), nullptr);
  auto handle = d.def("test::foo.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)", "a.cpp:3");
  OperatorEntry* op = d.find("test::foo", "out");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op, d.find("test::foo.out"));
  EXPECT_EQ(op->full_name(), "test::foo.out");
  EXPECT_EQ(op->definition()->schema_text, "test::foo.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)");
  handle.reset();
  EXPECT_EQ(d.find("test::foo.out"), nullptr);
  EXPECT_EQ(d.find_schema("test::foo", "out"), nullptr);
}

TEST(Registry, DuplicateDefNamesBothSites) {
  Dispatcher d;
  auto first = d.def("test::foo(Tensor x) -> Tensor", "first.cpp:10");
  const std::string message = error_of([&] { d.def("test::foo(Tensor x, Tensor y) -> Tensor", "second.cpp:20"); });
  EXPECT_NE(message.find("with the same name and overload name multiple times"), std::string::npos) << message;
  EXPECT_NE(message.find("first.cpp:10"), std::string::npos) << message;
  EXPECT_NE(message.find("second.cpp:20"), std::string::npos) << message;
  // The failed def left the first one in place; a different overload is fine.
  EXPECT_EQ(d.find("test::foo")->definition()->site, "first.cpp:10");
  EXPECT_NO_THROW(d.def("test::foo.other(Tensor x) -> Tensor", "third.cpp:1"));
}

TEST(Registry, DuplicateDefWithOtherAliasKindIsStillAnError) {
  Dispatcher d;
  auto first = d.def("test::foo(Tensor x) -> Tensor", "a.cpp:1", std::nullopt);
  EXPECT_THROW(d.def("test::foo(Tensor x) -> Tensor", "b.cpp:1", AliasAnalysisKind::PURE_FUNCTION), DispatchError);
}

TEST(Registry, BadSchemaIsAnError) {
  Dispatcher d;
  const std::string message = error_of([&] { d.def("test::foo(Tensor x -> Tensor", "a.cpp:1"); });
  EXPECT_NE(message.find("invalid schema"), std::string::npos) << message;
  EXPECT_NE(message.find("a.cpp:1"), std::string::npos) << message;
}

TEST(Registry, ImplBeforeDefAndStackSemantics) {
  TestRegistry r;
  r.impl("CPU", "fn1");
  EXPECT_EQ(r.op().definition(), nullptr);
  r.def();
  r.impl("CPU", "fn2");
  EXPECT_EQ(r.cell("CPU"), "fn2 [kernel]");
  EXPECT_EQ(format_dump(r.op(), TableFormat::Torch),
            "name: test::foo\n"
            "schema: test::foo(Tensor x) -> Tensor\n"
            "debug: registered at test.cpp:1\n"
            "alias analysis kind: FROM_SCHEMA\n"
            "CPU: fn2 :: (none) [ boxed ]\n"
            "CPU (inactive): fn1 :: (none) [ boxed ]\n");
  r.handles.pop_back();  // fn2 goes; fn1 is active again
  EXPECT_EQ(r.cell("CPU"), "fn1 [kernel]");
  EXPECT_NO_THROW(r.dispatcher.check_invariants());
}

TEST(Registry, RemovingAnOlderKernelKeepsTheNewest) {
  TestRegistry r;
  r.def();
  r.impl("CPU", "fn1");
  r.impl("CPU", "fn2");
  r.handles.erase(r.handles.begin() + 1);  // undo fn1 out of order
  EXPECT_EQ(r.cell("CPU"), "fn2 [kernel]");
  EXPECT_EQ(r.op().kernels(DispatchKey::CPU).size(), 1u);
}

// test_def: catch-all is stored as CompositeImplicitAutograd; dump in numeric enum order.
TEST(Registry, TestDefDump) {
  TestRegistry r;
  r.def();
  r.impl("catchall", "fn_catchall");
  r.impl("CPU");
  r.impl("Autograd");
  r.impl("AutogradCPU");
  EXPECT_EQ(format_dump(r.op(), TableFormat::Torch),
            "name: test::foo\n"
            "schema: test::foo(Tensor x) -> Tensor\n"
            "debug: registered at test.cpp:1\n"
            "alias analysis kind: FROM_SCHEMA\n"
            "CPU: fn_CPU :: (none) [ boxed ]\n"
            "AutogradCPU: fn_AutogradCPU :: (none) [ boxed ]\n"
            "Autograd[alias]: fn_Autograd :: (none) [ boxed ]\n"
            "CompositeImplicitAutograd[alias]: fn_catchall :: (none) [ boxed ]\n");
}

// Non-per-backend keys such as FPGA dump before CPU (numeric enum order).
TEST(Registry, DumpOrderIsEnumOrder) {
  TestRegistry r;
  r.def();
  r.impl("CPU");
  r.impl("FPGA");
  const std::string dump = format_dump(r.op(), TableFormat::Torch);
  EXPECT_LT(dump.find("FPGA:"), dump.find("CPU:")) << dump;
}

TEST(Registry, TestDefOnly) {
  TestRegistry r;
  r.def();
  EXPECT_EQ(format_dump(r.op(), TableFormat::Torch),
            "name: test::foo\nschema: test::foo(Tensor x) -> Tensor\ndebug: registered at test.cpp:1\n"
            "alias analysis kind: FROM_SCHEMA\n");
}

TEST(Registry, TestImplOnly) {
  TestRegistry r;
  r.impl("catchall");
  r.impl("CPU");
  r.impl("Autograd");
  r.impl("AutogradCPU");
  const std::string dump = format_dump(r.op(), TableFormat::Torch);
  EXPECT_EQ(dump.rfind("name: test::foo\nschema: (none)\nCPU: fn_CPU", 0), 0u) << dump;
}

// test_def_with_explicit_alias and the default-kind spelling of the newest dump.
TEST(Registry, AliasAnalysisKindLine) {
  struct Case {
    std::optional<AliasAnalysisKind> kind;
    const char* line;
  };
  const Case cases[] = {{AliasAnalysisKind::PURE_FUNCTION, "alias analysis kind: PURE_FUNCTION\n"},
                        {AliasAnalysisKind::FROM_SCHEMA, "alias analysis kind: FROM_SCHEMA\n"},
                        {std::nullopt, "alias analysis kind: CONSERVATIVE (default)\n"}};
  for (const Case& c : cases) {
    Dispatcher d;
    auto h = d.def("test::foo(Tensor x) -> Tensor", "a.cpp:1", c.kind);
    EXPECT_NE(format_dump(*d.find("test::foo"), TableFormat::Torch).find(c.line), std::string::npos) << c.line;
  }
}

// test_def_impl_schema_mismatch, in both orders.
TEST(Registry, InferredSchemaMismatch) {
  Dispatcher d;
  auto def = d.def("test::foo(Tensor x, Tensor y) -> Tensor", "def.cpp:1");
  const std::string message = error_of([&] {
    d.impl("test::foo", DispatchKey::CPU, kernel(), "", "impl.cpp:2", parse("test::foo(Tensor _0) -> Tensor _0"));
  });
  EXPECT_NE(message.find("doesn't match the expected function schema"), std::string::npos) << message;
  EXPECT_NE(message.find("the number of arguments is different, 2 vs 1"), std::string::npos) << message;
  EXPECT_NE(message.find("def.cpp:1"), std::string::npos) << message;
  EXPECT_NE(message.find("impl.cpp:2"), std::string::npos) << message;
  EXPECT_TRUE(d.find("test::foo")->kernels(DispatchKey::CPU).empty());

  Dispatcher d2;
  auto impl = d2.impl("test::bar", DispatchKey::CPU, kernel(), "", "impl.cpp:2", parse("test::bar(Tensor _0) -> Tensor _0"));
  EXPECT_THROW(d2.def("test::bar(Tensor x, Tensor y) -> Tensor", "def.cpp:1"), DispatchError);
  EXPECT_FALSE(d2.find("test::bar")->has_schema());
}

TEST(Registry, InferredSchemaIsDumped) {
  Dispatcher d;
  auto def = d.def("test::foo(Tensor x) -> Tensor", "def.cpp:1", std::nullopt);
  auto impl = d.impl("test::foo", DispatchKey::CPU, kernel(), "", "impl.cpp:7", parse("test::foo(Tensor _0) -> Tensor _0"));
  EXPECT_NE(format_dump(*d.find("test::foo"), TableFormat::Torch)
                .find("CPU: registered at impl.cpp:7 :: test::foo(Tensor _0) -> Tensor _0 [ boxed ]\n"),
            std::string::npos);
}

// test_multiple_fallback
TEST(Registry, MultipleFallbacksForOneKey) {
  Dispatcher d;
  auto first = d.fallback(DispatchKey::XLA, KernelFunction::make_fallthrough(), "", "a.cpp:1");
  const std::string message =
      error_of([&] { d.fallback(DispatchKey::XLA, KernelFunction::make_fallthrough(), "", "b.cpp:2"); });
  EXPECT_NE(message.find("tried to register multiple backend fallbacks for the same dispatch key XLA"), std::string::npos)
      << message;
  EXPECT_NE(message.find("a.cpp:1"), std::string::npos);
  EXPECT_NE(message.find("b.cpp:2"), std::string::npos);
  first.reset();
  EXPECT_NO_THROW(d.fallback(DispatchKey::XLA, KernelFunction::make_fallthrough(), "", "b.cpp:2").release());
}

TEST(Registry, FallbackReachesExistingAndLaterOperators) {
  Dispatcher d;
  auto def = d.def("test::foo(Tensor x) -> Tensor", "a.cpp:1");
  EXPECT_FALSE(d.find("test::foo")->entry(DispatchKey::XLA).kernel.is_valid());
  auto fb = d.fallback(DispatchKey::XLA, kernel(), "xla_fallback", "fb.cpp:3");
  EXPECT_EQ(d.find("test::foo")->entry(DispatchKey::XLA).debug, "xla_fallback");
  auto def2 = d.def("test::bar(Tensor x) -> Tensor", "a.cpp:2");
  EXPECT_EQ(d.find("test::bar")->entry(DispatchKey::XLA).reason, EntryReason::BackendFallback);
  fb.reset();
  EXPECT_FALSE(d.find("test::foo")->entry(DispatchKey::XLA).kernel.is_valid());
  EXPECT_NO_THROW(d.check_invariants());
}

TEST(Registry, RejectedRegistrations) {
  Dispatcher d;
  EXPECT_THROW(d.fallback(DispatchKey::Autograd, kernel(), "", "a.cpp:1"), DispatchError);
  EXPECT_THROW(d.fallback(DispatchKey::Dense, kernel(), "", "a.cpp:1"), DispatchError);
  EXPECT_THROW(d.impl("test::foo", DispatchKey::Dense, kernel(), "", "a.cpp:1"), DispatchError);
  EXPECT_THROW(d.impl("test::foo", DispatchKey::CPU, KernelFunction(), "", "a.cpp:1"), DispatchError);
  EXPECT_THROW(d.impl("", DispatchKey::CPU, kernel(), "", "a.cpp:1"), DispatchError);
  EXPECT_EQ(d.operators().size(), 0u);
}

TEST(Registry, OperatorsAreSortedAndHideEmptyOnes) {
  Dispatcher d;
  auto b = d.def("test::b(Tensor x) -> Tensor", "a.cpp:1");
  auto a = d.impl("test::a", DispatchKey::CPU, kernel(), "", "a.cpp:2");
  {
    auto c = d.def("test::c(Tensor x) -> Tensor", "a.cpp:3");
  }
  std::vector<std::string> names;
  for (const OperatorEntry* op : d.operators()) names.push_back(op->full_name());
  EXPECT_EQ(names, (std::vector<std::string>{"test::a", "test::b"}));
}

TEST(Registry, HandlesMoveAndRelease) {
  Dispatcher d;
  RegistrationHandle moved;
  {
    RegistrationHandle h = d.def("test::foo(Tensor x) -> Tensor", "a.cpp:1");
    moved = std::move(h);
    EXPECT_FALSE(h.active());
  }
  EXPECT_NE(d.find("test::foo"), nullptr);
  moved.release();
  EXPECT_NE(d.find("test::foo"), nullptr);
}

TEST(Registry, SingletonHasDefaultFallbacks) {
  Dispatcher& d = Dispatcher::singleton();
  EXPECT_EQ(&d, &Dispatcher::singleton());
  const TableEntry* backend_select = d.fallback_entry(DispatchKey::BackendSelect);
  ASSERT_NE(backend_select, nullptr);
  EXPECT_TRUE(backend_select->kernel.is_fallthrough());
  EXPECT_FALSE(d.fallback_entry(DispatchKey::Python)->kernel.is_fallthrough());
  EXPECT_EQ(d.fallback_entry(DispatchKey::CPU), nullptr);
  EXPECT_NO_THROW(d.check_invariants());
}

// test_all_invariants
TEST(Registry, InvariantsHoldOnAFreshRuntime) {
  TestRegistry r;
  EXPECT_NO_THROW(r.dispatcher.check_invariants());
}

// test_overwrite_math: two catch-all impls in a fixed order.
TEST(Registry, OverwriteMath) {
  TestRegistry r;
  r.def();
  r.impl("catchall", "fn1");
  r.impl("catchall", "fn2");
  const std::string dump = format_dump(r.op(), TableFormat::Torch);
  EXPECT_NE(dump.find("CompositeImplicitAutograd[alias]: fn2 :: (none) [ boxed ]\n"
                      "CompositeImplicitAutograd[alias] (inactive): fn1 :: (none) [ boxed ]\n"),
            std::string::npos)
      << dump;
  EXPECT_EQ(r.cell("CPU"), "fn2 [math kernel]");
}

}  // namespace
}  // namespace schemac::dispatch
