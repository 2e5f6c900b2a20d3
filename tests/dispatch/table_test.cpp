// Computed tables: every precedence rule of docs/dispatch-semantics.md §4, the §9 test_dispatch.py
// computed-table scenarios, fallthrough masks and the invariant check.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

#include "dispatch_test_support.h"
#include "table_format.h"

namespace schemac::dispatch {

using inspect::TableFormat, inspect::format_table, keys::DispatchKey, keys::DispatchKeySet;

namespace {

using testing::TestRegistry;

const std::string M = "fn_CompositeImplicitAutograd [math kernel]";
const std::string D = "fn_CompositeExplicitAutograd [default backend kernel]";
const std::string A = "fn_Autograd [autograd kernel]";
const std::string F = "fallthrough [backend fallback]";
const std::string Ambiguous = "ambiguous_autogradother [ambiguous autogradother]";
std::string K(const std::string& key) { return "fn_" + key + " [kernel]"; }

struct Scenario {
  const char* name;
  std::vector<std::string> registrations;
  std::map<std::string, std::string> expected;  // key -> cell
};

// §9: the computed-table tests of test_dispatch.py (checked keys Undefined, CPU, CUDA, XLA and
// the four autograd keys), plus the QuantizedCPU cases they mention.
const Scenario kScenarios[] = {
    {"computed_table", {"CPU", "XLA", "Autograd", "AutogradCPU"},
     {{"Undefined", "-"}, {"CPU", K("CPU")}, {"CUDA", "-"}, {"XLA", K("XLA")}, {"AutogradOther", A},
      {"AutogradCPU", K("AutogradCPU")}, {"AutogradCUDA", A}, {"AutogradXLA", A}}},
    {"computed_table_with_catchall_math", {"CPU", "XLA", "Autograd", "AutogradCPU", "catchall"},
     {{"Undefined", "fn_CatchAll [math kernel]"}, {"CPU", K("CPU")}, {"CUDA", "fn_CatchAll [math kernel]"},
      {"XLA", K("XLA")}, {"AutogradOther", "fn_CatchAll [math kernel]"}, {"AutogradCPU", K("AutogradCPU")},
      {"AutogradCUDA", "fn_CatchAll [math kernel]"}, {"AutogradXLA", A}}},
    {"cpu_math_autogradcpu_fallthrough", {"CPU", "CompositeImplicitAutograd"},
     {{"Undefined", M}, {"CPU", K("CPU")}, {"CUDA", M}, {"XLA", M}, {"AutogradOther", M}, {"AutogradCPU", F},
      {"AutogradCUDA", M}, {"AutogradXLA", M}}},
    {"with_math", {"CompositeImplicitAutograd"},
     {{"Undefined", M}, {"CPU", M}, {"CUDA", M}, {"XLA", M}, {"AutogradOther", M}, {"AutogradCPU", M},
      {"AutogradCUDA", M}, {"AutogradXLA", M}}},
    {"with_autograd", {"Autograd"},
     {{"Undefined", "-"}, {"CPU", "-"}, {"CUDA", "-"}, {"XLA", "-"}, {"AutogradOther", A}, {"AutogradCPU", A},
      {"AutogradCUDA", A}, {"AutogradXLA", A}}},
    {"with_cpu_autograd_math", {"CPU", "Autograd", "CompositeImplicitAutograd"},
     {{"Undefined", M}, {"CPU", K("CPU")}, {"CUDA", M}, {"XLA", M}, {"AutogradOther", M}, {"AutogradCPU", A},
      {"AutogradCUDA", M}, {"AutogradXLA", M}}},
    {"with_ambiguous_autogradother", {"CompositeImplicitAutograd", "QuantizedCPU"},
     {{"Undefined", M}, {"CPU", M}, {"CUDA", M}, {"XLA", M}, {"AutogradOther", Ambiguous},
      {"AutogradCPU", M}, {"AutogradCUDA", M}, {"AutogradXLA", M}, {"QuantizedCPU", K("QuantizedCPU")}}},
    {"with_cpu_defaultbackend", {"CPU", "CompositeExplicitAutograd"},
     {{"Undefined", D}, {"CPU", K("CPU")}, {"CUDA", D}, {"XLA", D}, {"AutogradOther", F}, {"AutogradCPU", F},
      {"AutogradCUDA", F}, {"AutogradXLA", F}}},
    {"with_cpu_autograd_defaultbackend", {"CPU", "Autograd", "CompositeExplicitAutograd"},
     {{"Undefined", D}, {"CPU", K("CPU")}, {"CUDA", D}, {"XLA", D}, {"AutogradOther", A}, {"AutogradCPU", A},
      {"AutogradCUDA", A}, {"AutogradXLA", A}, {"QuantizedCPU", D}}},
    {"with_cpu_autograd_math_defaultbackend", {"CPU", "Autograd", "CompositeImplicitAutograd", "CompositeExplicitAutograd"},
     {{"Undefined", D}, {"CPU", K("CPU")}, {"CUDA", D}, {"XLA", D}, {"AutogradOther", A}, {"AutogradCPU", A},
      {"AutogradCUDA", A}, {"AutogradXLA", A}}},
};

class ComputedTable : public ::testing::TestWithParam<Scenario> {};

TEST_P(ComputedTable, MatchesTestDispatch) {
  TestRegistry r;
  r.def();
  for (const std::string& key : GetParam().registrations) r.impl(key);
  for (const auto& [key, expected] : GetParam().expected) EXPECT_EQ(r.cell(key), expected) << key;
  EXPECT_NO_THROW(r.dispatcher.check_invariants());
}

INSTANTIATE_TEST_SUITE_P(TestDispatch, ComputedTable, ::testing::ValuesIn(kScenarios),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ComputedTableRules, CompositeExplicitNonFunctionalSkipsXlaLazyAndSparse) {
  TestRegistry r;
  r.def();
  r.impl("CompositeExplicitAutogradNonFunctional");
  r.impl("CompositeExplicitAutograd");
  const std::string N = "fn_CompositeExplicitAutogradNonFunctional [default backend kernel]";
  EXPECT_EQ(r.cell("CPU"), N);
  EXPECT_EQ(r.cell("Undefined"), N);
  EXPECT_EQ(r.cell("SparseCsrCPU"), N);
  EXPECT_EQ(r.cell("XLA"), D);
  EXPECT_EQ(r.cell("Lazy"), D);
  EXPECT_EQ(r.cell("SparseCPU"), D);
  EXPECT_EQ(r.cell("QuantizedXLA"), D);
}

TEST(ComputedTableRules, NestedKernelBeatsMathOnNestedKeys) {
  TestRegistry r;
  r.def();
  r.impl("CompositeImplicitAutograd");
  r.impl("CompositeImplicitAutogradNestedTensor");
  const std::string N = "fn_CompositeImplicitAutogradNestedTensor [nested kernel]";
  EXPECT_EQ(r.cell("NestedTensorCPU"), N);
  EXPECT_EQ(r.cell("AutogradNestedTensor"), N);
  EXPECT_EQ(r.cell("CPU"), M);
  EXPECT_EQ(r.cell("Undefined"), M);  // never the nested kernel
}

TEST(ComputedTableRules, NestedBackendKernelIsNotAmbiguousForAutogradOther) {
  TestRegistry r;
  r.def();
  r.impl("CompositeImplicitAutograd");
  r.impl("NestedTensorCPU");
  EXPECT_EQ(r.cell("AutogradOther"), M);
  EXPECT_EQ(r.cell("AutogradNestedTensor"), "fallthrough [backend fallback]");
}

TEST(ComputedTableRules, FpgaAndSparseMakeAutogradOtherAmbiguous) {
  for (const char* backend : {"FPGA", "SparseCPU", "QuantizedCUDA", "SparseCsrMeta"}) {
    TestRegistry r;
    r.def();
    r.impl("CompositeImplicitAutograd");
    r.impl(backend);
    EXPECT_EQ(r.cell("AutogradOther"), Ambiguous) << backend;
    EXPECT_TRUE(r.op().entry(DispatchKey::AutogradOther).kernel.is_ambiguous_autogradother());
  }
}

TEST(ComputedTableRules, CompositeExplicitSuppressesMathEverywhere) {
  TestRegistry r;
  r.def();
  r.impl("CompositeImplicitAutograd");
  r.impl("CompositeExplicitAutograd");
  EXPECT_EQ(r.cell("NestedTensorCPU"), "-");  // missing, as observed on 1.13
  EXPECT_EQ(r.cell("Functionalize"), "[backend fallback]");
  EXPECT_EQ(r.cell("AutogradCPU"), F);
}

TEST(ComputedTableRules, MathFillsFunctionalize) {
  TestRegistry r;
  r.def();
  r.impl("CompositeImplicitAutograd");
  EXPECT_EQ(r.cell("Functionalize"), M);
  EXPECT_EQ(r.cell("Python"), "[backend fallback]");
}

TEST(ComputedTableRules, BatchedDecomposition) {
  TestRegistry r;
  r.def();
  r.impl("FuncTorchBatchedDecomposition");
  EXPECT_EQ(r.cell("FuncTorchBatched"), "fn_FuncTorchBatchedDecomposition [batched kernel]");
  EXPECT_EQ(r.cell("Batched"), "[backend fallback]");
  EXPECT_NO_THROW(r.dispatcher.check_invariants());
}

TEST(ComputedTableRules, MissingWithoutFallbacks) {
  TestRegistry r(/*default_fallbacks=*/false);
  r.def();
  EXPECT_EQ(inspect::format_table(r.op(), TableFormat::Torch), "");
  r.impl("CPU");
  EXPECT_EQ(inspect::format_table(r.op(), TableFormat::Torch), "CPU: fn_CPU [kernel]\n");
}

TEST(ComputedTableRules, DirectFallthroughKernelIsMasked) {
  TestRegistry r;
  r.def();
  r.handles.push_back(r.dispatcher.impl(TestRegistry::kOp, DispatchKey::Tracer, KernelFunction::make_fallthrough(),
                                        "skip_tracer", "test.cpp:9"));
  EXPECT_EQ(r.cell("Tracer"), "fallthrough skip_tracer [kernel]");
  const DispatchKeySet call{DispatchKey::Tracer, DispatchKey::CPU};
  EXPECT_FALSE(r.op().non_fallthrough_keys(call).has(DispatchKey::Tracer));
  EXPECT_TRUE(r.op().non_fallthrough_keys(call).has(DispatchKey::CPU));
}

TEST(FallthroughMasks, PerBackend) {
  TestRegistry r;
  r.def();
  r.impl("AutogradCUDA");
  // AutogradCPU is the fallthrough fallback, AutogradCUDA has a kernel.
  const DispatchKeySet cpu_call{DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView};
  const DispatchKeySet cuda_call{DispatchKey::CUDA, DispatchKey::AutogradCUDA, DispatchKey::ADInplaceOrView};
  const DispatchKeySet cpu_masked = cpu_call & r.op().non_fallthrough_keys(cpu_call);
  const DispatchKeySet cuda_masked = cuda_call & r.op().non_fallthrough_keys(cuda_call);
  EXPECT_EQ(cpu_masked.highest_priority_key(), DispatchKey::CPU);
  EXPECT_EQ(cuda_masked.highest_priority_key(), DispatchKey::AutogradCUDA);
  EXPECT_EQ(r.op().entry_for(cuda_masked).debug, "fn_AutogradCUDA");
  EXPECT_EQ(&r.op().lookup(cpu_masked), &r.op().entry(DispatchKey::CPU).kernel);
}

TEST(FallthroughMasks, FollowRegistrationAndRemoval) {
  TestRegistry r;
  r.def();
  const DispatchKeySet call{DispatchKey::CPU, DispatchKey::AutogradCPU};
  EXPECT_FALSE(r.op().non_fallthrough_keys(call).has(DispatchKey::AutogradCPU));
  r.impl("Autograd");
  EXPECT_TRUE(r.op().non_fallthrough_keys(call).has(DispatchKey::AutogradCPU));
  r.handles.pop_back();
  EXPECT_FALSE(r.op().non_fallthrough_keys(call).has(DispatchKey::AutogradCPU));
  EXPECT_NO_THROW(r.dispatcher.check_invariants());
}

TEST(TableFormat, TorchStyleOrderAndFallbacks) {
  TestRegistry r;
  r.def();
  r.impl("CPU");
  const std::string table = format_table(r.op(), TableFormat::Torch);
  // Undefined first is absent (missing); CPU comes before the functionality keys.
  EXPECT_EQ(table.rfind("CPU: fn_CPU [kernel]\n", 0), 0u) << table;
  EXPECT_NE(table.find("BackendSelect: fallthrough registered at lib/runtime/dispatch/src/dispatch_default_fallbacks.cpp:"),
            std::string::npos);
  EXPECT_NE(table.find("AutogradCPU: fallthrough registered at"), std::string::npos);
  EXPECT_EQ(table.find("\nFPGA:"), std::string::npos);  // FPGA has no fallback: missing, not printed
}

TEST(TableFormat, TextAndJson) {
  TestRegistry r;
  r.def();
  r.impl("CPU");
  const std::string text = format_table(r.op(), TableFormat::Text);
  EXPECT_NE(text.find("CPU "), std::string::npos);
  EXPECT_NE(text.find("test.cpp:2"), std::string::npos);
  inspect::TableOptions all;
  all.all_keys = true;
  EXPECT_NE(format_table(r.op(), TableFormat::Text, all).find("missing"), std::string::npos);
  const std::string json = format_table(r.op(), TableFormat::Json);
  EXPECT_EQ(json.rfind("{\"operator\":\"test::foo\",\"entries\":[{\"key\":\"CPU\",\"kernel\":\"fn_CPU\","
                       "\"reason\":\"kernel\",\"fallthrough\":false,\"site\":\"test.cpp:2\"}",
                       0),
            0u)
      << json;
}

// Kernel names come from registrations: whatever they hold, the JSON stays valid and says it.
TEST(TableFormat, JsonOfAnyKernelNameParses) {
  const std::string hostile = "fn \"q\" \\ \n\t\x01\x7f caf\xc3\xa9 bad\xff";
  TestRegistry r;
  r.def();
  r.impl("CPU", hostile);
  const nlohmann::json table = nlohmann::json::parse(format_table(r.op(), TableFormat::Json));
  EXPECT_EQ(table["entries"][0]["kernel"], "fn \"q\" \\ \n\t\x01\x7f caf\xc3\xa9 bad\xef\xbf\xbd");
  const nlohmann::json dump = nlohmann::json::parse(inspect::format_dump(r.op(), TableFormat::Json));
  EXPECT_EQ(dump["kernels"][0]["debug"], table["entries"][0]["kernel"]);
}

}  // namespace
}  // namespace schemac::dispatch
