// lib/frontend/yaml, the located YAML loader: positions of nodes and of characters inside scalars, duplicates,
// tabs, syntax errors, empty input.

#include <gtest/gtest.h>

#include "schemac/yaml/yaml_loader.h"

namespace schemac::yaml {
namespace {

TEST(YamlLoader, NodesRememberLineColumnAndOffset) {
  YamlLoadResult r = load_yaml("f.yaml", "- func: a(Tensor x) -> Tensor\n  variants: method\n");
  ASSERT_TRUE(r.diagnostics.empty());
  ASSERT_TRUE(r.document.root && r.document.root->is_sequence());
  const YamlNode& entry = r.document.root->items.at(0);
  ASSERT_TRUE(entry.is_mapping());
  ASSERT_EQ(entry.entries.size(), 2u);
  const auto& [key, value] = entry.entries[1];
  EXPECT_EQ(key.value, "variants");
  EXPECT_EQ(key.line, 2u);
  EXPECT_EQ(key.column, 3u);
  EXPECT_EQ(value.value, "method");
  EXPECT_EQ(value.column, 13u);
  EXPECT_EQ(value.offset, 42u);
  EXPECT_EQ(entry.find("func")->value, "a(Tensor x) -> Tensor");
  EXPECT_EQ(entry.find("nothing"), nullptr);
}

TEST(YamlLoader, KeepsDuplicateKeysAndReportsEach) {
  YamlLoadResult r = load_yaml("f.yaml", "- func: a\n  tags: x\n  tags: y\n  tags: z\n");
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].rule, "duplicate-key");
  EXPECT_EQ(r.diagnostics[0].message, "key 'tags' is defined twice in this mapping");
  EXPECT_EQ(r.diagnostics[0].location.line, 3u);
  ASSERT_EQ(r.diagnostics[0].notes.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].notes[0].location.line, 2u);
  EXPECT_EQ(r.diagnostics[1].location.line, 4u);
  EXPECT_EQ(r.document.root->items[0].entries.size(), 4u);
}

TEST(YamlLoader, TabsInIndentationAreLocatedErrors) {
  YamlLoadResult r = load_yaml("f.yaml", "- func: a\n \tvariants: method\n# \tcomment\n");
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].rule, "yaml-tab");
  EXPECT_EQ(r.diagnostics[0].location.line, 2u);
  EXPECT_EQ(r.diagnostics[0].location.column, 2u);
}

TEST(YamlLoader, SyntaxErrorsCarryTheParsersMark) {
  YamlLoadResult r = load_yaml("f.yaml", "- func: a\n  dispatch: [CPU: x\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "yaml-syntax");
  EXPECT_EQ(r.diagnostics[0].location.file, "f.yaml");
  EXPECT_GE(r.diagnostics[0].location.line, 2u);
  EXPECT_TRUE(r.diagnostics[0].message.starts_with("invalid YAML: ")) << r.diagnostics[0].message;
  EXPECT_FALSE(r.document.root);
}

TEST(YamlLoader, EmptyAndCommentOnlyFilesHaveNoRoot) {
  for (const char* text : {"", "# only a comment\n", "\n\n"}) {
    YamlLoadResult r = load_yaml("f.yaml", text);
    EXPECT_TRUE(r.diagnostics.empty()) << text;
    EXPECT_FALSE(r.document.root) << text;
  }
}

TEST(YamlLoader, NullEntriesAndFlowCollections) {
  YamlLoadResult r = load_yaml("f.yaml", "- \n- {a: 1, b: [x, y]}\n- ~\n");
  ASSERT_TRUE(r.diagnostics.empty());
  const YamlNode& root = *r.document.root;
  ASSERT_EQ(root.items.size(), 3u);
  EXPECT_TRUE(root.items[0].is_null());
  EXPECT_TRUE(root.items[1].is_mapping());
  EXPECT_TRUE(root.items[1].flow);
  EXPECT_EQ(root.items[1].find("b")->items.size(), 2u);
  EXPECT_TRUE(root.items[2].is_null());
}

// Anchors and aliases (seen in hand-written operator YAMLs to share a dispatch table): an alias
// is a copy of the anchored node, which keeps the anchored node's positions.
TEST(YamlLoader, AliasesAreCopiesOfTheAnchoredNode) {
  YamlLoadResult r = load_yaml("f.yaml", "- &a {x: 1}\n- *a\n- k: &v [p, q]\n  l: *v\n");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  const auto& items = r.document.root->items;
  ASSERT_EQ(items.size(), 3u);
  ASSERT_TRUE(items[1].is_mapping());
  EXPECT_EQ(items[1].find("x")->value, "1");
  EXPECT_EQ(items[1].line, 1u);
  ASSERT_TRUE(items[2].find("l")->is_sequence());
  EXPECT_EQ(items[2].find("l")->items.at(1).value, "q");
}

TEST(YamlLoader, AnAliasWithoutItsAnchorIsALocatedError) {
  YamlLoadResult r = load_yaml("f.yaml", "- a\n- *nope\n");
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].rule, "yaml-syntax");
  EXPECT_EQ(r.diagnostics[0].location.line, 2u);
}

// The "billion laughs": ten lines of `aN: &aN [*aM, ...]`, each copying the one before ten times,
// would copy 10^10 nodes. The load stops at the alias that crosses the bound, located (how fast is
// BM_lint_alias_bomb_yaml's figure, bench/lint); the same aliases used a few times are read as
// copies.
std::string laughs(int levels, int width) {
  std::string text = "a0: &a0 [lol]\n";
  for (int level = 1; level <= levels; ++level) {
    text += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int k = 0; k < width; ++k)
      text += (k ? ", *a" : "*a") + std::to_string(level - 1);
    text += "]\n";
  }
  return text;
}

TEST(YamlLoader, AliasesOfAliasesStopAtABound) {
  YamlLoadResult r = load_yaml("laughs.yaml", laughs(10, 10));
  EXPECT_TRUE(r.syntax_error);
  EXPECT_FALSE(r.document.root);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "yaml-alias-limit");
  // a5's third alias of a4 (21111 nodes each) crosses the bound of 100000 copied nodes.
  EXPECT_EQ(r.diagnostics[0].location.line, 6u);
  EXPECT_EQ(r.diagnostics[0].location.column, 20u);
  // A long value counts by its bytes: a 1 MB scalar copied a thousand times stops too.
  YamlLoadResult wide =
      load_yaml("wide.yaml", "a: &a " + std::string(1 << 20, 'x') + "\nb: [" +
                                 [] {
                                   std::string many;
                                   for (int k = 0; k < 1000; ++k) many += k ? ", *a" : "*a";
                                   return many;
                                 }() +
                                 "]\n");
  ASSERT_EQ(wide.diagnostics.size(), 1u);
  EXPECT_EQ(wide.diagnostics[0].rule, "yaml-alias-limit");
  // Three levels of ten: a thousand copies, well within bounds.
  YamlLoadResult small = load_yaml("small.yaml", laughs(3, 10));
  EXPECT_TRUE(small.diagnostics.empty());
  ASSERT_TRUE(small.document.root);
  EXPECT_EQ(small.document.root->find("a3")->items.size(), 10u);
}

// `<<: *base` merges the named mapping's keys (the mapping's own keys win) and is reported,
// because torchgen's loader cannot read it.
TEST(YamlLoader, MergeKeysMergeAndAreReported) {
  YamlLoadResult r = load_yaml("f.yaml", "- &b\n  func: a\n  tags: x\n- <<: *b\n  func: c\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "yaml-merge-key");
  EXPECT_EQ(r.diagnostics[0].location.line, 4u);
  EXPECT_EQ(r.diagnostics[0].location.column, 3u);
  const YamlNode& merged = r.document.root->items.at(1);
  EXPECT_EQ(merged.find("func")->value, "c");
  EXPECT_EQ(merged.find("tags")->value, "x");
  EXPECT_EQ(merged.entries.size(), 2u);
}

// PyYAML's YAML 1.1 booleans, CRLF line ends and a byte-order mark read as YAML says, with
// columns counted from the first character after the mark.
TEST(YamlLoader, CrlfAndByteOrderMark) {
  YamlLoadResult r = load_yaml("f.yaml", "\xEF\xBB\xBF- func: a\r\n  tags: x\r\n");
  ASSERT_TRUE(r.diagnostics.empty());
  const YamlNode& entry = r.document.root->items.at(0);
  EXPECT_EQ(entry.find("func")->value, "a");
  EXPECT_EQ(entry.entries[0].key.line, 1u);
  EXPECT_EQ(entry.entries[0].key.column, 3u);
  EXPECT_EQ(entry.entries[1].value.value, "x");
  EXPECT_EQ(entry.entries[1].value.line, 2u);
  EXPECT_EQ(entry.entries[1].value.column, 9u);
}

TEST(YamlLoader, NonAsciiColumnsCountBytes) {
  YamlLoadResult r = load_yaml("f.yaml", "- f\xC3\xB6o: bar\n");
  ASSERT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(r.document.root->items.at(0).entries[0].value.column, 9u);  // "- föo: " is 8 bytes
}

TEST(YamlLoader, BlockScalarPositions) {
  YamlLoadResult r = load_yaml("f.yaml", "k: >-\n    abc def\n    ghi\n");
  ASSERT_TRUE(r.diagnostics.empty());
  const YamlNode& value = r.document.root->entries.at(0).value;
  EXPECT_EQ(value.value, "abc def ghi");
  EXPECT_EQ(scalar_position(r.document, value, 4), (std::pair<uint32_t, uint32_t>{2, 9}));
  EXPECT_EQ(scalar_position(r.document, value, 8), (std::pair<uint32_t, uint32_t>{3, 5}));
}

TEST(YamlLoader, ScalarStyles) {
  YamlLoadResult r = load_yaml("f.yaml", "- plain\n- 'single'\n- \"double\"\n- |\n  literal\n");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  const auto& items = r.document.root->items;
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].style, ScalarStyle::plain);
  EXPECT_EQ(items[1].style, ScalarStyle::single_quoted);
  EXPECT_EQ(items[2].style, ScalarStyle::double_quoted);
  EXPECT_EQ(items[3].style, ScalarStyle::literal);
}

struct PositionCase {
  const char* yaml;       // one mapping `k: VALUE` on line 1
  size_t index;           // a byte of the decoded value
  uint32_t line, column;  // where that byte is in the file
};

class ScalarPosition : public ::testing::TestWithParam<PositionCase> {};

TEST_P(ScalarPosition, MapsDecodedIndexToFilePosition) {
  const PositionCase& c = GetParam();
  YamlLoadResult r = load_yaml("f.yaml", c.yaml);
  ASSERT_TRUE(r.diagnostics.empty());
  const YamlNode& value = r.document.root->entries.at(0).value;
  auto [line, column] = scalar_position(r.document, value, c.index);
  EXPECT_EQ(line, c.line) << c.yaml;
  EXPECT_EQ(column, c.column) << c.yaml;
}

INSTANTIATE_TEST_SUITE_P(
    Styles, ScalarPosition,
    ::testing::Values(PositionCase{"k: abc(def)", 4, 1, 8},           // plain: direct
                      PositionCase{"k: 'abc'", 0, 1, 5},              // after the quote
                      PositionCase{"k: 'it''s x'", 5, 1, 11},         // '' is one character
                      PositionCase{"k: \"a\\\"b\\\" c\"", 5, 1, 12},  // \" is one character
                      PositionCase{"k: \"\\u00e9x\"", 2, 1, 11},      // é is two bytes
                      PositionCase{"k: abc\n  def", 4, 2, 3},         // a folded plain scalar
                      PositionCase{"k: abc", 3, 1, 7},                // one past the end
                      PositionCase{"k: \"a\\tbc\"", 2, 1, 8},         // \t: text longer than value
                      PositionCase{"k: 'abc'  # note", 2, 1, 7},      // a comment after it
                      PositionCase{"k: &x abc(def)", 4, 1, 11},       // an anchor before it
                      PositionCase{"k: !!str abc(def)", 4, 1, 14},    // a tag before it
                      PositionCase{"k: &x\n  abc(def)", 4, 2, 7}));   // ... on its own line

}  // namespace
}  // namespace schemac::yaml
