// The report page (report/render_html.h) on a hand-built library: its data blob holds every
// operator, row, registration and chain by index into one string table, and nothing in it can end
// the script element or reach outside the page.
#include <gtest/gtest.h>

#include <string>

#include "schemac/inspect/render.h"
#include "schemac/report_page/render_html.h"

namespace schemac::report_page {
namespace {

using namespace inspect::report;

Library sample_library() {
  OperatorState op;
  op.summary = {"myops::scale",
                true,
                "myops::scale(Tensor self, float factor) -> Tensor",
                "ops.cpp:3",
                {"CPU"}};
  op.table = {"myops::scale",
              true,
              {{"Undefined", false, "", Reason::Missing, false, ""},
               {"CPU", true, "scale_cpu", Reason::Kernel, false, "kernels.cpp:10"},
               {"AutogradCPU", true, "fallthrough_kernel", Reason::BackendFallback, true,
                "fallback.cpp:5"}}};
  op.dump = {"myops::scale",
             true,
             op.summary.schema,
             "registered at ops.cpp:3",
             "ops.cpp:3",
             "FROM_SCHEMA",
             {{"CPU", false, true, "scale_cpu", "kernels.cpp:10", true,
               "(Tensor _0, double _1) -> Tensor _0", "boxed unboxed "},
              {"CPU", false, false, "old_cpu", "old.cpp:1", false, "", "boxed "}}};
  op.chains.push_back(
      {"myops::scale",
       "DispatchKeySet(CPU, AutogradCPU)",
       {"AutogradCPU"},
       {{"CPU", "DispatchKeySet(CPU)", true, "scale_cpu", Reason::Kernel, "kernels.cpp:10"}},
       "a backend kernel: it computes the result",
       false});
  OperatorState hostile;
  hostile.summary = {
      "evil::op", true, "evil::op(Tensor x) -> Tensor </script><script>alert(1)</script>", "", {}};
  hostile.table = {"evil::op", true, {{"CPU", true, "<!-- x", Reason::Kernel, false, ""}}};
  return {{op, hostile}};
}

PageInfo sample_page() {
  return {"report: <mine> & \"yours\"", "schemac", "dispatch-inspect 0", {"lib.so"}, page_calls()};
}

// The JSON between the data script's tags, parsed.
Json page_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const size_t begin = html.find(open);
  EXPECT_NE(begin, std::string::npos);
  const size_t end = html.find("</script>", begin);
  return Json::parse(html.substr(begin + open.size(), end - begin - open.size()));
}

TEST(ReportHtml, DataHoldsEveryOperatorByStringIndex) {
  const std::string html = library_html(sample_library(), sample_page());
  const Json data = page_data(html);
  const Json& strings = data["strings"];
  auto text = [&](const Json& index) { return strings.at(index.get<size_t>()).get<std::string>(); };
  ASSERT_EQ(data["operators"].size(), 2u);
  const Json& op = data["operators"][0];
  EXPECT_EQ(op["name"], "myops::scale");
  EXPECT_EQ(text(op["schema"]), "myops::scale(Tensor self, float factor) -> Tensor");
  // The missing Undefined row is left out of the rows; the keys list still has it.
  ASSERT_EQ(op["rows"].size(), 2u);
  EXPECT_EQ(text(op["rows"][1][0]), "AutogradCPU");
  EXPECT_EQ(text(op["rows"][1][2]), "backend fallback");
  EXPECT_EQ(op["rows"][1][4], 1);
  EXPECT_EQ(text(data["keys"][0]), "Undefined");
  EXPECT_EQ(data["keys"].size(), 3u);
  // The inactive registration has flag 2 and no inferred schema.
  EXPECT_EQ(op["regs"][1][5], 2);
  EXPECT_EQ(op["regs"][1][3], -1);
  ASSERT_EQ(op["chains"].size(), 1u);
  EXPECT_EQ(text(op["chains"][0][1][0]), "AutogradCPU");
  EXPECT_EQ(text(op["chains"][0][2][0][2]), "scale_cpu");
  EXPECT_EQ(data["presets"].size(), 4u);
  // Every string once: scale_cpu is a row's kernel, a registration's and a chain step's.
  size_t copies = 0;
  for (const Json& s : strings) copies += s == "scale_cpu";
  EXPECT_EQ(copies, 1u);
}

TEST(ReportHtml, NothingEndsTheScriptOrLeavesThePage) {
  const std::string html = library_html(sample_library(), sample_page());
  EXPECT_EQ(html.find("</script><script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<!-- x"), std::string::npos);
  EXPECT_NE(html.find("<title>report: &lt;mine&gt; &amp; &quot;yours&quot;</title>"),
            std::string::npos);
  for (const char* outside : {"http:", "https:", "<link", "src=", "href=", "url(", "@import"})
    EXPECT_EQ(html.find(outside), std::string::npos) << outside;
  // The hostile schema survives as data.
  EXPECT_EQ(page_data(html)["strings"].at(page_data(html)["operators"][1]["schema"].get<size_t>()),
            "evil::op(Tensor x) -> Tensor </script><script>alert(1)</script>");
}

// What composite kernels call (traced by report on our runtime) and the walk's rules travel as
// data: calls by string index, why unknown, the factory and device flags, masks shared between
// keys, BackendSelect's devices and InferenceMode's sets.
TEST(ReportHtml, CallsFactoryAndWalkRulesAreData) {
  Library library = sample_library();
  library.operators[1].takes_tensors = false;
  library.operators[1].takes_device = true;
  WalkRules& w = library.walk;
  w.keys = {"CPU", "AutogradCPU"};
  w.bits = {"1", "3"};
  w.functionality = {"1", "2"};
  w.mask = {-1, 0};
  w.end = {"a backend kernel: it computes the result", ""};
  w.masks = {"fffd"};
  w.select_key = "CPU";
  w.devices = {"cpu", "meta"};
  w.device_sets = {"1", "8000"};
  w.tensor_sets = {"3", "8002"};
  w.autocast_devices = {"cpu"};
  w.autocast_sets = {"4"};
  w.inference_not_included = "10";
  w.inference_excluded = "20";
  PageInfo page = sample_page();
  page.calls = {{"myops::scale", {"evil::op", "aten::mm"}, ""}, {"evil::op", {}, "no schema"}};
  const Json data = page_data(library_html(library, page));
  const Json& strings = data["strings"];
  auto text = [&](const Json& index) { return strings.at(index.get<size_t>()).get<std::string>(); };
  const Json& scale = data["operators"][0];
  ASSERT_EQ(scale["calls"].size(), 2u);
  EXPECT_EQ(text(scale["calls"][0]), "evil::op");
  EXPECT_EQ(text(scale["calls"][1]), "aten::mm");
  EXPECT_FALSE(scale.contains("factory"));
  EXPECT_FALSE(scale.contains("device"));
  const Json& evil = data["operators"][1];
  EXPECT_EQ(text(evil["calls_unknown"]), "no schema");
  EXPECT_FALSE(evil.contains("calls"));
  EXPECT_EQ(evil["factory"], 1);
  EXPECT_EQ(evil["device"], 1);
  const Json& walk = data["walk"];
  EXPECT_EQ(text(walk["keys"][1]), "AutogradCPU");
  EXPECT_EQ(walk["mask"], Json::array({-1, 0}));
  EXPECT_EQ(walk["masks"], Json::array({"fffd"}));
  EXPECT_EQ(text(walk["end"][0]), "a backend kernel: it computes the result");
  EXPECT_EQ(walk["end"][1], -1);
  EXPECT_EQ(text(walk["select"]), "CPU");
  EXPECT_EQ(walk["devices"], Json::parse(R"([["cpu","1","3"],["meta","8000","8002"]])"));
  EXPECT_EQ(walk["autocast_devices"], Json::parse(R"([["cpu","4"]])"));
  EXPECT_EQ(walk["inference"], Json::array({"10", "20"}));
  // Without operators (or a traced page), neither walk rules nor calls are written.
  const Json empty = page_data(library_html(Library{}, sample_page()));
  EXPECT_TRUE(empty["walk"].empty());
  EXPECT_EQ(empty["calls_note"], "");
}

// The presets are calls as resolve's options give them: a CPU, CUDA and Meta tensor, and a CPU
// tensor made and used under inference mode.
TEST(ReportHtml, PresetsAreTensorsOfEachDeviceAndInferenceMode) {
  const std::vector<PageCall> presets = page_calls();
  ASSERT_EQ(presets.size(), 4u);
  EXPECT_EQ(presets[0].label, "CPU tensor");
  EXPECT_EQ(presets[0].call.tensors, std::vector<std::string>{"cpu"});
  EXPECT_EQ(presets[1].call.tensors, std::vector<std::string>{"cuda"});
  EXPECT_EQ(presets[2].label, "Meta tensor");
  EXPECT_TRUE(presets[3].call.inference_mode);
  EXPECT_EQ(presets[3].call.inference_tensors, std::vector<std::string>{"cpu"});
  const Json data = page_data(library_html(sample_library(), sample_page()));
  EXPECT_EQ(data["presets"][3]["call"]["inference_mode"], true);
}

}  // namespace
}  // namespace schemac::report_page
