// Two computed tables compared (report/table_diff.h) and the comparison's renderers
// (report/render_diff.h), on hand-built tables shaped as both runtimes fill them.
#include <gtest/gtest.h>

#include "schemac/inspect/render_diff.h"
#include "schemac/inspect/table_diff.h"

namespace schemac::inspect::report {
namespace {

TableRow entry(std::string key, std::string kernel, Reason reason = Reason::Kernel, std::string site = "ops.cpp:10") {
  return {std::move(key), true, std::move(kernel), std::move(reason), false, std::move(site)};
}
TableRow missing(std::string key) { return {std::move(key), false, "", Reason::Missing, false, ""}; }
TableRow fallthrough(std::string key) {
  return {std::move(key), true, "registered at fallback.cpp:4", Reason::BackendFallback, true, "fallback.cpp:4"};
}

Table ours(std::vector<TableRow> rows) { return {"ns::op", true, std::move(rows)}; }

std::vector<std::string> changed_keys(const TableDiff& diff) {
  std::vector<std::string> keys;
  for (const KeyComparison& k : diff.keys)
    if (k.changed) keys.push_back(k.key);
  return keys;
}

using Keys = std::vector<std::string>;

TEST(TableDiff, ATableEqualsItself) {
  const Table table = ours({entry("CPU", "op_cpu"), fallthrough("AutogradCPU"), missing("CUDA")});
  const TableDiff diff = diff_tables(table, table);
  EXPECT_TRUE(diff.equal());
  EXPECT_EQ(diff.keys_compared, 3u);
  EXPECT_EQ(diff.keys.size(), 2u);  // CUDA is missing on both sides: nothing to show
}

TEST(TableDiff, FindsEveryKindOfChange) {
  const Table before = ours({entry("CPU", "op_cpu"), fallthrough("AutogradCPU"), missing("CUDA"),
                             entry("Meta", "op_meta"), entry("XLA", "op_math", Reason::MathKernel)});
  const Table after = ours({entry("CPU", "op_cpu_fast"), entry("AutogradCPU", "op_autograd", Reason::AutogradKernel),
                            entry("CUDA", "op_cuda"), missing("Meta"), entry("XLA", "op_math", Reason::MathKernel, "moved.cpp:99")});
  const TableDiff diff = diff_tables(before, after);
  // Another kernel, a fallthrough replaced, a new entry, a lost entry; a moved site is no change.
  EXPECT_EQ(changed_keys(diff), (Keys{"CPU", "AutogradCPU", "CUDA", "Meta"}));
  EXPECT_FALSE(diff.keys[2].left.has_value());
  EXPECT_FALSE(diff.keys[3].right.has_value());
  EXPECT_EQ(diff.changed_count(), 4u);
}

TEST(TableDiff, AKeyOnlyOneRuntimeHasCountsAsMissingOnTheOther) {
  const TableDiff diff = diff_tables(ours({entry("CPU", "a")}), ours({entry("CPU", "a"), missing("MTIA"),
                                                                      entry("PrivateUse2", "b")}));
  EXPECT_EQ(changed_keys(diff), Keys{"PrivateUse2"});
  EXPECT_EQ(diff.keys_compared, 3u);
}

TEST(TableDiff, AcrossRuntimesKernelNamesAreNotCompared) {
  Table torch = {"ns::op", false, {entry("CPU", "registered at RegisterCPU.cpp:31"), missing("Meta")}};
  const TableDiff diff = diff_tables(ours({entry("CPU", "op_cpu"), entry("Meta", "op_meta")}), torch);
  EXPECT_FALSE(diff.compares_kernels);
  EXPECT_EQ(changed_keys(diff), Keys{"Meta"});
  torch.rows[0].reason = Reason::DefaultBackendKernel;
  EXPECT_EQ(changed_keys(diff_tables(ours({entry("CPU", "op_cpu")}), torch)), Keys{"CPU"});
}

TEST(TableDiff, AnOperatorOnOneSideOnlyIsAllAdded) {
  const TableDiff diff = diff_tables(Table{"ns::op", true, {}}, ours({entry("CPU", "op_cpu"), missing("CUDA")}));
  EXPECT_EQ(diff.op, "ns::op");
  EXPECT_EQ(changed_keys(diff), Keys{"CPU"});
}

const DiffSource kBefore{"schemac", {"/build/libbase.so"}, true};
const DiffSource kAfter{"schemac", {"/build/libbase.so", "/build/liboverride.so"}, true};

TableDiff two_changes() {
  return diff_tables(ours({entry("CPU", "op_cpu"), fallthrough("AutogradCPU"), entry("Meta", "op_meta")}),
                     ours({entry("CPU", "op_cpu_fast"), entry("AutogradCPU", "op_autograd", Reason::AutogradKernel),
                           entry("Meta", "op_meta")}));
}

TEST(DiffRender, TextListsTheChangedKeysAligned) {
  EXPECT_EQ(diff_text(two_changes(), kBefore, kAfter),
            "--- ns::op: schemac after loading libbase.so\n"
            "+++ ns::op: schemac after loading libbase.so, liboverride.so\n"
            "key          before       reason            after        reason\n"
            "CPU          op_cpu       kernel            op_cpu_fast  kernel\n"
            "AutogradCPU  fallthrough  backend fallback  op_autograd  autograd kernel\n"
            "2 of 3 keys differ\n");
  const TableDiff same = diff_tables(ours({entry("CPU", "a")}), ours({entry("CPU", "a")}));
  EXPECT_EQ(diff_text(same, kBefore, kAfter), "ns::op: equal (1 keys compared)\n");
}

TEST(DiffRender, TextFitsOneHundredColumnsUnlessWide) {
  const std::string long_site = "/very/long/build/directory/of/somebody/aten/src/ATen/RegisterCompositeExplicit.cpp:31";
  const TableDiff diff = diff_tables(ours({entry("CPU", "registered at " + long_site)}),
                                     ours({entry("CPU", "registered at " + long_site + "0", Reason::DefaultBackendKernel)}));
  const std::string text = diff_text(diff, kBefore, kAfter);
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    EXPECT_LE(display_width(std::string_view(text).substr(start, end - start)), 100u) << text;
  // Paths keep their end: the file and line.
  EXPECT_NE(text.find("CPU  …isterCompositeExplicit.cpp:31  kernel  …isterCompositeExplicit.cpp:310  default"),
            std::string::npos)
      << text;
  EXPECT_NE(diff_text(diff, kBefore, kAfter, 0).find(long_site + "0"), std::string::npos);
}

TEST(DiffRender, JsonHasBothSourcesAndTheChanges) {
  const std::string json = json_text(diff_json(two_changes(), kBefore, kAfter));
  EXPECT_EQ(json.rfind(R"({"operator":"ns::op","left":{"runtime":"schemac","libraries":["/build/libbase.so"],)"
                       R"("has_operator":true},"right":{"runtime":"schemac","libraries":["/build/libbase.so",)"
                       R"("/build/liboverride.so"],"has_operator":true},)",
                       0),
            0u)
      << json;
  EXPECT_NE(json.find(R"("compares_kernels":true,"keys_compared":3,"equal":false,"changes":[{"key":"CPU","left":)"
                      R"({"kernel":"op_cpu","reason":"kernel","fallthrough":false,"site":"ops.cpp:10"},"right":)"
                      R"({"kernel":"op_cpu_fast")"),
            std::string::npos)
      << json;
}

TEST(DiffRender, PicturesHighlightTheChangedKeys) {
  const std::string dot = diff_dot(two_changes(), kBefore, kAfter);
  EXPECT_EQ(dot.rfind("digraph table_diff {\n", 0), 0u) << dot;
  EXPECT_NE(dot.find("key0 [label=\"CPU\", style=filled, fillcolor=mistyrose, color=red, penwidth=2];"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("key2 [label=\"Meta\", color=gray60];"), std::string::npos) << dot;  // unchanged: gray
  EXPECT_NE(dot.find("[label=\"before: fallthrough\", color=gray50"), std::string::npos) << dot;
  const std::string mermaid = diff_mermaid(two_changes(), kBefore, kAfter);
  EXPECT_EQ(mermaid.rfind("flowchart LR\n", 0), 0u) << mermaid;
  EXPECT_NE(mermaid.find("  class key0 changed\n"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("  class key1 changed\n"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("  key1 ==>|\"after: autograd kernel\"| k3\n"), std::string::npos) << mermaid;
  EXPECT_EQ(mermaid.find("class key2"), std::string::npos) << mermaid;
}

}  // namespace
}  // namespace schemac::inspect::report
