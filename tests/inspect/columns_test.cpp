// Text tables that fit 100 columns (report/columns.h) and the computed table's text in its
// narrow and --wide forms (report::table_text).
#include <algorithm>

#include <gtest/gtest.h>

#include "schemac/inspect/columns.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect::report {
namespace {

size_t widest_line(const std::string& text) {
  size_t widest = 0;
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    widest = std::max(widest, display_width(std::string_view(text).substr(start, end - start)));
  return widest;
}

TEST(Columns, ElideKeepsANameStartAndAPathEnd) {
  EXPECT_EQ(elide("twice_inplace_or_view", 10, Elide::End), "twice_inp…");
  EXPECT_EQ(elide("lib/runtime/dispatch/src/fallbacks.cpp:29", 20, Elide::Start), "…/fallbacks.cpp:29");
  EXPECT_EQ(elide("a_very_long_file_name.cpp:3", 12, Elide::Start), "…_name.cpp:3");
  EXPECT_EQ(elide("short", 10, Elide::End), "short");
  EXPECT_EQ(elide("keep whole", 3, Elide::Never), "keep whole");
  EXPECT_EQ(display_width("…/x"), 3u);
}

TEST(Columns, AlignedColumnsGiveWayWidestFirst) {
  const std::vector<std::vector<std::string>> rows = {
      {"key", "kernel", "site"}, {"CPU", "op_cpu", std::string(80, 'p') + "/file.cpp:1"}};
  const std::string fitted = aligned_columns(rows, {Elide::Never, Elide::End, Elide::Start}, 40);
  EXPECT_EQ(fitted,
            "key  kernel  site\n"
            "CPU  op_cpu  …/file.cpp:1\n");
  EXPECT_EQ(aligned_width(rows), 3 + 2 + 6 + 2 + 91u);
  EXPECT_EQ(widest_line(aligned_columns(rows, {Elide::Never, Elide::End, Elide::Start}, 0)), 104u);
}

Table long_sites() {
  const std::string fallbacks = "/home/someone/src/schemac/lib/runtime/dispatch/src/dispatch_default_fallbacks.cpp";
  return {"ns::op",
          true,
          {{"CPU", true, "op_cpu", Reason::Kernel, false, "/home/someone/src/schemac/ext/ops.cpp:3"},
           {"FuncTorchDynamicLayerBackMode", true, "registered at " + fallbacks + ":31", Reason::BackendFallback,
            false, fallbacks + ":31"},
           {"AutogradCPU", true, "registered at " + fallbacks + ":41", Reason::BackendFallback, true,
            fallbacks + ":41"}}};
}

TEST(TableText, AWideTableIsNarrowedToOneHundredColumns) {
  EXPECT_EQ(table_text(long_sites()),
            "ns::op\n"
            "key                            kernel       reason            site\n"
            "CPU                            op_cpu       kernel            ops.cpp:3\n"
            "FuncTorchDynamicLayerBackMode  (unnamed)    backend fallback  dispatch_default_fallbacks.cpp:31\n"
            "AutogradCPU                    fallthrough  backend fallback  dispatch_default_fallbacks.cpp:41\n");
  const std::string wide = table_text(long_sites(), 0);
  EXPECT_GT(widest_line(wide), 100u);
  EXPECT_NE(wide.find("backend fallback (fallthrough)  /home/someone/"), std::string::npos) << wide;
  Table torch = long_sites();
  torch.kernel_names = false;
  EXPECT_LE(widest_line(table_text(torch)), 100u);
  EXPECT_NE(table_text(torch).find("backend fallback (fallthrough)  dispatch_default_fallbacks.cpp:41\n"),
            std::string::npos);
}

}  // namespace
}  // namespace schemac::inspect::report
