// dispatch-inspect's pictures end to end: DOT and Mermaid labels break lines for real, tables fold
// their keys and carry a legend, diffs draw the changes first (and only them with --changed), and
// each picture, rendered by Graphviz (`dot -Tpng`, a test dependency), fits a screen. The DOT text
// of the small test library's pictures is kept in golden/inspect/ (SCHEMAC_UPDATE_GOLDEN=1).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "../common/cli_test_support.h"

namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  const fs::path dir = fs::temp_directory_path() / fmt::format("inspect_picture_test_{}", ::getpid());
  fs::create_directories(dir);
  return dir;
}

// dispatch-inspect ARGS with its standard output in `out`: the exit status.
int draw(const std::string& args, const fs::path& out) {
  const int status = std::system(
      fmt::format("'{}' {} >'{}' 2>/dev/null", DISPATCH_INSPECT, args, out.string()).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// The picture Graphviz renders of the DOT in `dot_file`: its width and height in pixels, from the
// PNG's header; {0, 0} when dot failed.
std::pair<uint32_t, uint32_t> rendered_size(const fs::path& dot_file) {
  const fs::path png = fs::path(dot_file).replace_extension(".png");
  if (std::system(fmt::format("dot -Tpng '{}' -o '{}'", dot_file.string(), png.string()).c_str()) != 0)
    return {0, 0};
  const std::string bytes = schemac::test::read_file(png.string());
  if (bytes.size() < 24 || bytes.compare(12, 4, "IHDR") != 0) return {0, 0};
  auto word = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
  };
  return {word(16), word(20)};
}

// Each key box's height on the page as Graphviz lays it out (`dot -Tplain`: y grows upwards).
std::map<std::string, double> box_heights(const fs::path& dot_file) {
  const fs::path plain = fs::path(dot_file).replace_extension(".plain");
  std::map<std::string, double> out;
  if (std::system(fmt::format("dot -Tplain '{}' -o '{}'", dot_file.string(), plain.string()).c_str()) != 0)
    return out;
  std::istringstream lines(schemac::test::read_file(plain.string()));
  std::string kind, name;
  double x = 0, y = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    if (words >> kind >> name >> x >> y && kind == "node" && name.starts_with("key")) out[name] = y;
  }
  return out;
}

std::string q(const char* path) { return fmt::format("'{}'", path); }

void expect_golden(const std::string& name, const fs::path& file) {
  std::string actual = schemac::test::read_file(file.string());
  const std::string path = std::string(INSPECT_GOLDEN_DIR) + "/" + name;
  if (schemac::test::update_golden()) {
    schemac::test::write_file(path, actual);
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing; run with SCHEMAC_UPDATE_GOLDEN=1 to create it";
  EXPECT_EQ(actual, schemac::test::read_file(path)) << "golden " << name << " differs";
}

const std::string kCppLoad = " --load " + q(INSPECT_CPP_OPS_LIBRARY);

// A chain's boxes hold two lines (the step, then its key set): a DOT line break, never a written
// backslash-n; Mermaid's a <br/>.
TEST(InspectPictures, LabelsBreakLines) {
  const fs::path dir = scratch();
  ASSERT_EQ(draw("resolve inspect_test::twice --tensor cpu --format dot" + kCppLoad, dir / "chain.dot"), 0);
  const std::string dot = schemac::test::read_file((dir / "chain.dot").string());
  EXPECT_EQ(dot.find("\\\\n"), std::string::npos) << dot;
  EXPECT_NE(dot.find("[autograd kernel]\\nDispatchKeySet("), std::string::npos) << dot;
  EXPECT_NE(rendered_size(dir / "chain.dot").first, 0u);
  // Graphviz draws the two lines as two texts.
  ASSERT_EQ(std::system(fmt::format("dot -Tsvg '{}' -o '{}'", (dir / "chain.dot").string(),
                                    (dir / "chain.svg").string()).c_str()), 0);
  const std::string svg = schemac::test::read_file((dir / "chain.svg").string());
  EXPECT_EQ(svg.find("\\n"), std::string::npos);
  EXPECT_NE(svg.find(">DispatchKeySet("), std::string::npos) << svg;
  ASSERT_EQ(draw("resolve inspect_test::twice --tensor cpu --format mermaid" + kCppLoad, dir / "chain.mmd"), 0);
  const std::string mermaid = schemac::test::read_file((dir / "chain.mmd").string());
  EXPECT_EQ(mermaid.find("\\n"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("[autograd kernel]<br/>DispatchKeySet("), std::string::npos) << mermaid;
  expect_golden("cpp-resolve-twice.dot", dir / "chain.dot");
  fs::remove_all(dir);
}

// The small library's table: one box per kernel and reason (the fallthrough keys in one), and the
// legend of the colours used.
TEST(InspectPictures, TableFoldsKeysWithALegend) {
  const fs::path dir = scratch();
  ASSERT_EQ(draw("table inspect_test::twice --format dot" + kCppLoad, dir / "table.dot"), 0);
  const std::string dot = schemac::test::read_file((dir / "table.dot").string());
  for (const char* kernel : {"twice_cpu", "twice_autograd", "twice_inplace_or_view"})
    EXPECT_NE(dot.find(kernel), std::string::npos) << kernel << " is not in the picture";
  EXPECT_NE(dot.find("subgraph cluster_legend"), std::string::npos) << dot;
  EXPECT_NE(dot.find("kernel: registered to the key"), std::string::npos) << dot;
  EXPECT_NE(rendered_size(dir / "table.dot").second, 0u);
  expect_golden("cpp-table-twice.dot", dir / "table.dot");
  ASSERT_EQ(draw("table inspect_test::twice --format mermaid" + kCppLoad, dir / "table.mmd"), 0);
  const std::string mermaid = schemac::test::read_file((dir / "table.mmd").string());
  EXPECT_NE(mermaid.find("subgraph legend [legend]"), std::string::npos) << mermaid;
  fs::remove_all(dir);
}

// diff: the changed keys come first, red; --changed draws only them.
TEST(InspectPictures, DiffDrawsChangesFirst) {
  const fs::path dir = scratch();
  const std::string args = "diff inspect_test::twice" + kCppLoad + " --right-load " + q(INSPECT_OVERRIDE_LIBRARY);
  ASSERT_EQ(draw(args + " --format dot", dir / "diff.dot"), 1);
  const std::string dot = schemac::test::read_file((dir / "diff.dot").string());
  EXPECT_NE(dot.find("key0 [label=\"CPU\", style=filled"), std::string::npos) << dot;
  EXPECT_NE(dot.find("key1 [label=\"Meta\", style=filled"), std::string::npos) << dot;
  EXPECT_NE(dot.find("key2 [label=\"14 keys:"), std::string::npos) << dot;
  // Where Graphviz puts them: both changed boxes above every unchanged one.
  const std::map<std::string, double> y = box_heights(dir / "diff.dot");
  ASSERT_GE(y.size(), 4u);
  for (const auto& [box, at] : y) {
    if (box == "key0" || box == "key1") continue;
    EXPECT_GT(std::min(y.at("key0"), y.at("key1")), at) << box;
  }
  EXPECT_NE(rendered_size(dir / "diff.dot").second, 0u);
  expect_golden("cpp-diff-twice.dot", dir / "diff.dot");
  ASSERT_EQ(draw(args + " --format dot --changed", dir / "changed.dot"), 1);
  const std::string changed_only = schemac::test::read_file((dir / "changed.dot").string());
  EXPECT_NE(changed_only.find("fillcolor=mistyrose"), std::string::npos) << changed_only;
  EXPECT_EQ(changed_only.find("color=gray60];"), std::string::npos) << changed_only;
  EXPECT_NE(changed_only.find("unchanged keys not drawn"), std::string::npos) << changed_only;
  EXPECT_LT(rendered_size(dir / "changed.dot").second, rendered_size(dir / "diff.dot").second);
  ASSERT_EQ(draw(args + " --format mermaid --changed", dir / "changed.mmd"), 1);
  const std::string mermaid = schemac::test::read_file((dir / "changed.mmd").string());
  EXPECT_NE(mermaid.find("class key0 changed"), std::string::npos) << mermaid;
  fs::remove_all(dir);
}

#ifdef INSPECT_KERNELS_LIBRARY
// The pictures of a real operator fit a screen or two, because keys that reach one kernel for one
// reason share a box: lib/runtime/kernels' add.Tensor, and (with libtorch) libtorch's, whose
// table has ~80 runtime keys in 1.13 (1807x1432 px; 5150 px tall with a box per key) and ~140 in
// 2.14 (18 boxes, 1817x1840 px with bookworm's Graphviz, 1957 px tall with sid's fonts). Our
// runtime against libtorch's differs in 51 of 139 keys on 1.13: the whole diff within 2,200 px,
// only the changes within 1,600.
void expect_fits(const std::string& args, const fs::path& dot_file, uint32_t max_height) {
  ASSERT_LE(draw(args, dot_file), 1) << args;
  const auto [width, height] = rendered_size(dot_file);
  EXPECT_GT(height, 0u) << args;
  EXPECT_LE(height, max_height) << args << ": " << width << "x" << height << " px";
  EXPECT_LE(width, 2400u) << args << ": " << width << "x" << height << " px";
}

TEST(InspectPictures, RealTablesFitAScreen) {
  const fs::path dir = scratch();
  const std::string load = " --load " + q(INSPECT_KERNELS_LIBRARY);
  expect_fits("table aten::add.Tensor --format dot" + load, dir / "ours.dot", 1600);
#ifdef INSPECT_HAVE_TORCH
  expect_fits("table aten::add.Tensor --runtime torch --format dot", dir / "torch.dot", 2000);
  expect_fits("table aten::empty.memory_format --runtime torch --format dot", dir / "empty.dot", 1600);
  expect_fits("diff aten::add.Tensor --left-runtime schemac --left-load " + q(INSPECT_KERNELS_LIBRARY) +
                  " --right-runtime torch --format dot",
              dir / "diff.dot", 2200);
  expect_fits("diff aten::add.Tensor --left-runtime schemac --left-load " + q(INSPECT_KERNELS_LIBRARY) +
                  " --right-runtime torch --format dot --changed",
              dir / "changed.dot", 1600);
#endif
  fs::remove_all(dir);
}
#endif

}  // namespace
