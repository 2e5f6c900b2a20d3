// The rules of `dispatch-inspect audit` (report/audit.h) over hand-built report models, shaped as
// both runtimes fill them, and their renderers.
#include <gtest/gtest.h>

#include "report/audit.h"
#include "report/render.h"
#include "report/wire.h"

namespace schemac::inspect::report {
namespace {

TableRow kernel(std::string key, std::string reason = "kernel", std::string site = "ops.cpp:10") {
  return {std::move(key), true, "registered at " + site, std::move(reason), false, std::move(site)};
}
TableRow fallthrough(std::string key, std::string reason = "backend fallback") {
  return {std::move(key), true, "autograd_fallthrough", std::move(reason), true, "fallback.cpp:41"};
}
TableRow missing(std::string key) { return {std::move(key), false, "", "missing", false, ""}; }

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
  for (const Finding& f : findings) out.emplace_back(f.rule);
  return out;
}

constexpr const char* kTensorOp = "ns::op(Tensor self, float factor) -> Tensor";
using Rules = std::vector<std::string>;

TEST(Audit, AutogradFallthroughOnABackendWithAKernel) {
  const auto found = audit_operator(op(kTensorOp, {kernel("CPU"), fallthrough("AutogradCPU"), kernel("Meta"),
                                                   kernel("AutogradMeta", "autograd kernel")}));
  ASSERT_EQ(rules(found), Rules{"autograd-fallthrough"});
  EXPECT_EQ(found[0].op, "ns::op");
  EXPECT_EQ(found[0].site, "ops.cpp:10");  // the CPU kernel registered without autograd
  EXPECT_EQ(found[0].message,
            "AutogradCPU falls through (CPU has kernel): no autograd kernel runs");
}

TEST(Audit, AutogradMissingCountsAndAFallthroughOnTheOperatorIsBlamed) {
  auto direct = fallthrough("AutogradCPU", "kernel");
  direct.site = "ext.cpp:7";
  const auto found = audit_operator(op(kTensorOp, {kernel("CPU"), direct, kernel("Meta"), missing("AutogradMeta")}));
  ASSERT_EQ(rules(found), Rules{"autograd-fallthrough"});
  EXPECT_EQ(found[0].site, "ext.cpp:7");
  EXPECT_NE(found[0].message.find("AutogradMeta has no kernel (Meta has kernel)"), std::string::npos);
}

TEST(Audit, CleanWhenAutogradAndMetaAreCovered) {
  EXPECT_TRUE(audit_operator(op(kTensorOp, {kernel("CPU"), kernel("AutogradCPU", "autograd kernel"),
                                            kernel("Meta", "math kernel"), kernel("AutogradMeta", "math kernel")}))
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
                                                                     kernel("AutogradMeta", "autograd kernel")}))),
            Rules{"autograd-fallthrough"});
}

TEST(Audit, MissingMetaUnlessACompositeCoversIt) {
  const auto found =
      audit_operator(op(kTensorOp, {kernel("CPU"), kernel("AutogradCPU", "autograd kernel"), missing("Meta")}));
  ASSERT_EQ(rules(found), Rules{"missing-meta"});
  EXPECT_EQ(found[0].site, "schema.cpp:3");
  EXPECT_EQ(found[0].message, "kernels for CPU but none for Meta: register a Meta (fake) kernel");
  EXPECT_TRUE(audit_operator(op(kTensorOp, {kernel("CPU"), kernel("AutogradCPU", "autograd kernel"),
                                            kernel("Meta", "default backend kernel"),
                                            kernel("AutogradMeta", "autograd kernel")}))
                  .empty());
}

TEST(Audit, CompositeImplicitTogetherWithBackendKernels) {
  std::vector<DumpKernel> kernels = {{"CPU", false, true, "", "cpu.cpp:4", false, "", ""},
                                     {"CompositeImplicitAutograd", true, true, "", "math.cpp:9", false, "", ""}};
  const std::vector<TableRow> rows = {kernel("CPU"), kernel("AutogradCPU", "math kernel"),
                                      kernel("Meta", "math kernel"),
                                      kernel("AutogradMeta", "math kernel")};
  const auto found = audit_operator(op(kTensorOp, rows, kernels));
  ASSERT_EQ(rules(found), Rules{"composite-implicit-with-backend"});
  EXPECT_EQ(found[0].site, "math.cpp:9");
  EXPECT_EQ(found[0].message, "a CompositeImplicitAutograd kernel and kernels for CPU");
  // Alone, or next to a shadowed (inactive) backend kernel, it is what the key is for.
  kernels[0].active = false;
  EXPECT_TRUE(audit_operator(op(kTensorOp, rows, kernels)).empty());
}

TEST(Audit, AmbiguousEntry) {
  const TableRow ambiguous{"AutogradOther", true, "ambiguous_autogradother", "ambiguous autogradother", false, ""};
  const auto found = audit_operator(op("ns::op(int n) -> int", {kernel("CPU"), ambiguous}));
  ASSERT_EQ(rules(found), Rules{"ambiguous-kernel"});
  EXPECT_EQ(found[0].message, "AutogradOther is ambiguous (ambiguous autogradother)");
}

TEST(Audit, ManyBackendsAreNamedBriefly) {
  std::vector<TableRow> rows;
  for (const char* backend : {"CPU", "CUDA", "XPU", "MPS", "Meta"}) {
    rows.push_back(kernel(backend, "default backend kernel"));
    rows.push_back(missing(std::string("Autograd") + backend));
  }
  const auto found = audit_operator(op(kTensorOp, rows));
  ASSERT_EQ(rules(found), Rules{"autograd-fallthrough"});
  EXPECT_NE(found[0].message.find("(XPU has default backend kernel) and 2 more Autograd keys"), std::string::npos);
}

TEST(Audit, TextAndJson) {
  const std::vector<Finding> findings = audit_library(
      {{op(kTensorOp, {kernel("CPU"), fallthrough("AutogradCPU"), kernel("Meta"), kernel("AutogradMeta")})}});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(audit_text(findings, 1),
            "ops.cpp:10: warning: ns::op: AutogradCPU falls through (CPU has kernel): no autograd kernel runs "
            "[autograd-fallthrough]\n"
            "  why: " + std::string(audit_rule("autograd-fallthrough").why) + "\n"
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

}  // namespace
}  // namespace schemac::inspect::report
