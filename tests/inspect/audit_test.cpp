// The rules of `dispatch-inspect audit` (report/audit.h) over hand-built report models, shaped as
// both runtimes fill them, and their renderers.
#include <gtest/gtest.h>

#include "schemac/audit/audit.h"
#include "schemac/inspect/render.h"
#include "schemac/inspect/wire.h"

namespace schemac::audit {
namespace {

using namespace inspect::report;

TableRow kernel(std::string key, Reason reason = Reason::Kernel, std::string site = "ops.cpp:10") {
  return {std::move(key), true, "registered at " + site, std::move(reason), false, std::move(site)};
}
TableRow fallthrough(std::string key, Reason reason = Reason::BackendFallback) {
  return {std::move(key), true, "autograd_fallthrough", std::move(reason), true, "fallback.cpp:41"};
}
TableRow missing(std::string key) { return {std::move(key), false, "", Reason::Missing, false, ""}; }

OperatorState op(std::string schema, std::vector<TableRow> rows, std::vector<DumpKernel> kernels = {}) {
  OperatorState state;
  state.summary = {"ns::op", true, std::move(schema), "schema.cpp:3", {}};
  state.table = {"ns::op", true, std::move(rows)};
  state.dump.name = "ns::op";
  state.dump.kernels = std::move(kernels);
  return state;
}

std::vector<std::string> rules(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.emplace_back(f.rule.name());
  return out;
}

constexpr const char* kTensorOp = "ns::op(Tensor self, float factor) -> Tensor";
using Rules = std::vector<std::string>;

TEST(Audit, AutogradFallthroughOnABackendWithAKernel) {
  const auto found = audit_operator(op(kTensorOp, {kernel("CPU"), fallthrough("AutogradCPU"), kernel("Meta"),
                                                   kernel("AutogradMeta", Reason::AutogradKernel)}));
  ASSERT_EQ(rules(found), Rules{"autograd-fallthrough"});
  EXPECT_EQ(found[0].op, "ns::op");
  EXPECT_EQ(found[0].site, "ops.cpp:10");  // the CPU kernel registered without autograd
  EXPECT_EQ(found[0].message,
            "AutogradCPU falls through (CPU has kernel): no autograd kernel runs");
}

TEST(Audit, AutogradMissingCountsAndAFallthroughOnTheOperatorIsBlamed) {
  auto direct = fallthrough("AutogradCPU", Reason::Kernel);
  direct.site = "ext.cpp:7";
  const auto found = audit_operator(op(kTensorOp, {kernel("CPU"), direct, kernel("Meta"), missing("AutogradMeta")}));
  ASSERT_EQ(rules(found), Rules{"autograd-fallthrough"});
  EXPECT_EQ(found[0].site, "ext.cpp:7");
  EXPECT_NE(found[0].message.find("AutogradMeta has no kernel (Meta has kernel)"), std::string::npos);
}

// What of a table would fail a call the operator needs: the Autograd key of a backend with a
// kernel, Meta beside a backend kernel, ambiguous entries; never a backend it has no kernel for
// (XLA here) or a fallthrough.
TEST(Audit, FailingEntriesAreTheNeededOnes) {
  const auto keys = [](const std::vector<FailingEntry>& entries) {
    std::vector<std::string> out;
    for (const FailingEntry& e : entries) out.push_back(e.key);
    return out;
  };
  const OperatorState cpu_only =
      op(kTensorOp, {kernel("CPU"), missing("XLA"), missing("Meta"), missing("AutogradCPU"),
                     missing("AutogradXLA"), missing("AutogradMeta")});
  const std::vector<FailingEntry> found = failing_entries(cpu_only);
  EXPECT_EQ(keys(found), (Rules{"AutogradCPU", "Meta"}));
  EXPECT_EQ(found[0].why, "a CPU tensor's call fails here (CPU has a kernel, AutogradCPU none)");
  EXPECT_EQ(found[1].why.rfind("meta tensors, FakeTensor and torch.compile fail here (CPU", 0), 0u);
  EXPECT_TRUE(failing_entries(op(kTensorOp, {kernel("CPU"), fallthrough("AutogradCPU"),
                                             kernel("Meta"), missing("AutogradMeta")}))
                  .size() == 1);
  EXPECT_EQ(keys(failing_entries(op(kTensorOp, {kernel("AutogradOther",
                                                       Reason::AmbiguousAutogradOther)}))),
            Rules{"AutogradOther"});
  // A factory (no tensor argument) needs no autograd key or Meta entry.
  EXPECT_TRUE(failing_entries(op("ns::op(int[] size) -> Tensor", {kernel("CPU"), missing("Meta")}))
                  .empty());
}

TEST(Audit, CleanWhenAutogradAndMetaAreCovered) {
  EXPECT_TRUE(audit_operator(op(kTensorOp, {kernel("CPU"), kernel("AutogradCPU", Reason::AutogradKernel),
                                            kernel("Meta", Reason::MathKernel), kernel("AutogradMeta", Reason::MathKernel)}))
                  .empty());
  // A backend without a kernel needs nothing, and a fallthrough backend kernel is no kernel.
  EXPECT_TRUE(audit_operator(op(kTensorOp, {missing("CPU"), missing("AutogradCPU"), fallthrough("CUDA"),
                                            missing("AutogradCUDA")}))
                  .empty());
}

TEST(Audit, OperatorsWithoutTensorArgumentsNeedNoAutogradNorMeta) {
  EXPECT_TRUE(audit_operator(op("ns::op(int n) -> Tensor", {kernel("CPU"), fallthrough("AutogradCPU")})).empty());
  // The returned Tensor does not count; a Tensor list or optional does.
  EXPECT_EQ(rules(audit_operator(op("ns::op(Tensor[] xs) -> int", {kernel("CPU"), missing("AutogradCPU"),
                                                                     kernel("Meta"),
                                                                     kernel("AutogradMeta", Reason::AutogradKernel)}))),
            Rules{"autograd-fallthrough"});
}

TEST(Audit, MissingMetaUnlessACompositeCoversIt) {
  const auto found =
      audit_operator(op(kTensorOp, {kernel("CPU"), kernel("AutogradCPU", Reason::AutogradKernel), missing("Meta")}));
  ASSERT_EQ(rules(found), Rules{"missing-meta"});
  EXPECT_EQ(found[0].site, "schema.cpp:3");
  EXPECT_EQ(found[0].message, "kernels for CPU but none for Meta: register a Meta (fake) kernel");
  EXPECT_TRUE(audit_operator(op(kTensorOp, {kernel("CPU"), kernel("AutogradCPU", Reason::AutogradKernel),
                                            kernel("Meta", Reason::DefaultBackendKernel),
                                            kernel("AutogradMeta", Reason::AutogradKernel)}))
                  .empty());
}

TEST(Audit, CompositeImplicitTogetherWithBackendKernels) {
  std::vector<DumpKernel> kernels = {
      {"CPU", false, true, "registered at cpu.cpp:4", "cpu.cpp:4", false, "", ""},
      {"CompositeImplicitAutograd", true, true, "registered at math.cpp:9", "math.cpp:9", false, "", ""}};
  const std::vector<TableRow> rows = {kernel("CPU", Reason::Kernel, "cpu.cpp:4"),
                                      kernel("AutogradCPU", Reason::MathKernel, "math.cpp:9"),
                                      kernel("Meta", Reason::MathKernel, "math.cpp:9"),
                                      kernel("AutogradMeta", Reason::MathKernel, "math.cpp:9")};
  const auto found = audit_operator(op(kTensorOp, rows, kernels));
  ASSERT_EQ(rules(found), Rules{"composite-implicit-with-backend"});
  EXPECT_EQ(found[0].site, "math.cpp:9");
  EXPECT_EQ(found[0].message, "a CompositeImplicitAutograd kernel and kernels for CPU");
  // Next to a shadowed (inactive) backend kernel, it is what the key is for; the shadowed kernel
  // is unreachable.
  kernels[0].active = false;
  EXPECT_EQ(rules(audit_operator(op(kTensorOp, rows, kernels))), Rules{"unreachable-kernel"});
}

TEST(Audit, AmbiguousEntry) {
  const TableRow ambiguous{"AutogradOther", true, "ambiguous_autogradother", Reason::AmbiguousAutogradOther, false, ""};
  const auto found = audit_operator(op("ns::op(int n) -> int", {kernel("CPU"), ambiguous}));
  ASSERT_EQ(rules(found), Rules{"ambiguous-kernel"});
  EXPECT_EQ(found[0].message, "AutogradOther is ambiguous (ambiguous autogradother)");
}

TEST(Audit, ManyBackendsAreNamedBriefly) {
  std::vector<TableRow> rows;
  for (const char* backend : {"CPU", "CUDA", "XPU", "MPS", "Meta"}) {
    rows.push_back(kernel(backend, Reason::DefaultBackendKernel));
    rows.push_back(missing(std::string("Autograd") + backend));
  }
  const auto found = audit_operator(op(kTensorOp, rows));
  ASSERT_EQ(rules(found), Rules{"autograd-fallthrough"});
  EXPECT_NE(found[0].message.find("(XPU has default backend kernel) and 2 more Autograd keys"), std::string::npos);
}

// The audit's rules are the rule table's audit family, in its order: one vocabulary with lint's
// (schemac help RULE explains them; docs/dispatch-inspect.md documents them).
TEST(Audit, ItsRulesAreTheRuleTablesAuditFamily) {
  Rules table, audit;
  for (const schemac::rules::RuleDef& rule : schemac::rules::family_rules(schemac::rules::Family::audit))
    table.emplace_back(rule.id);
  for (const AuditRule& rule : audit_rules()) audit.emplace_back(rule.rule.name());
  EXPECT_EQ(audit, table);
  EXPECT_EQ(table.size(), 5u);
}

TEST(Audit, TextAndJson) {
  const std::vector<Finding> findings = audit_library(
      {{op(kTensorOp, {kernel("CPU"), fallthrough("AutogradCPU"), kernel("Meta"), kernel("AutogradMeta")})}});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(audit_text(findings, 1),
            "ops.cpp:10: warning: ns::op: AutogradCPU falls through (CPU has kernel): no autograd kernel runs "
            "[autograd-fallthrough]\n"
            "  why: " + std::string(audit_rule(schemac::rules::autograd_fallthrough).why) + "\n"
            "1 finding in 1 operator\n");
  const Json json = audit_json(findings, 1);
  EXPECT_EQ(json["operators"], 1);
  EXPECT_EQ(json["findings"][0]["rule"], "autograd-fallthrough");
  EXPECT_EQ(json["findings"][0]["site"], "ops.cpp:10");
  EXPECT_EQ(audit_text({}, 2), "0 findings in 2 operators\n");
}

// dispatch-inspect-torch hands the library over as JSON: every member survives the trip.
TEST(Audit, LibraryCrossesTheWire) {
  Response sent;
  const DumpKernel cpu{"CPU", false, true, "d", "cpu.cpp:4", true, "(Tensor _0) -> Tensor _0", "boxed "};
  sent.library.operators.push_back(op(kTensorOp, {kernel("CPU"), fallthrough("AutogradCPU")}, {cpu}));
  Response received;
  ASSERT_TRUE(from_wire(to_wire(sent).dump(), received));
  ASSERT_EQ(received.library.operators.size(), 1u);
  EXPECT_EQ(to_wire(received), to_wire(sent));
  EXPECT_EQ(rules(audit_library(received.library)), Rules({"autograd-fallthrough", "missing-meta"}));
}

// A CompositeImplicitAutograd kernel beside a CompositeExplicitAutograd one fills no entry (rule
// 5 of docs/dispatch-semantics.md §4 stops it), and a shadowed kernel never runs.
TEST(Audit, UnreachableKernels) {
  const DumpKernel cea{"CompositeExplicitAutograd", true, true, "op_default", "ops.cpp:20", false, "", ""};
  const DumpKernel cia{"CompositeImplicitAutograd", true, true, "op_math", "ops.cpp:30", false, "", ""};
  const std::vector<TableRow> rows = {{"CPU", true, "op_default", Reason::DefaultBackendKernel, false, "ops.cpp:20"},
                                      {"Meta", true, "op_default", Reason::DefaultBackendKernel, false, "ops.cpp:20"},
                                      missing("AutogradCPU")};
  auto found = audit_operator(op("ns::op(int n) -> int", rows, {cea, cia}));
  ASSERT_EQ(rules(found), Rules{"unreachable-kernel"});
  EXPECT_EQ(found[0].site, "ops.cpp:30");
  EXPECT_EQ(found[0].message,
            "the CompositeImplicitAutograd kernel op_math fills no entry of the computed table: a "
            "CompositeExplicitAutograd kernel stops math kernels on every key");
  // The math kernel alone fills the same keys: nothing to flag.
  std::vector<TableRow> math = rows;
  for (TableRow& row : math) row = {row.key, true, "op_math", Reason::MathKernel, false, "ops.cpp:30"};
  EXPECT_TRUE(audit_operator(op("ns::op(int n) -> int", math, {cia})).empty());

  // libtorch's shape: two CPU kernels, the newer first; the table shows it as "registered at".
  const DumpKernel newer{"CPU", false, true, "registered at new.cpp:5", "new.cpp:5", false, "", ""};
  const DumpKernel older{"CPU", false, false, "registered at old.cpp:9", "old.cpp:9", false, "", ""};
  found = audit_operator(op("ns::op(int n) -> int", {kernel("CPU", Reason::Kernel, "new.cpp:5")}, {newer, older}));
  ASSERT_EQ(rules(found), Rules{"unreachable-kernel"});
  EXPECT_EQ(found[0].site, "old.cpp:9");
  EXPECT_EQ(found[0].message,
            "the CPU kernel registered at old.cpp:9 is shadowed by a newer registration (registered at new.cpp:5): "
            "it never runs");
  // A fallthrough registered on an alias key is in the table as a fallthrough entry.
  const DumpKernel through{"Autograd", true, true, "fallthrough registered at ext.cpp:3", "", false, "", ""};
  EXPECT_TRUE(audit_operator(op("ns::op(int n) -> int",
                                {{"AutogradCPU", true, "registered at ext.cpp:3", Reason::AutogradKernel, true, "ext.cpp:3"}},
                                {through}))
                  .empty());
}

}  // namespace
}  // namespace schemac::audit
