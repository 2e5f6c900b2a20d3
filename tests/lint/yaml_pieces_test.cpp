// Reading a file in pieces (YamlLoadOptions) gives exactly the tree and the diagnostics of one
// pass: on the real corpus cut into several pieces, and on small files cut at every item,
// including the ones whose pieces cannot be read alone (then load_yaml reads in one pass).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "schemac/native_functions/yaml_loader.h"

namespace schemac::schema {
namespace {

// The first difference between two trees, as a path, or "" when they are equal.
std::string first_difference(const YamlNode& a, const YamlNode& b, const std::string& path) {
  auto where = [&](const char* what) { return path + ": " + what; };
  if (a.kind != b.kind) return where("kind");
  if (a.style != b.style) return where("style");
  if (a.flow != b.flow) return where("flow");
  if (a.line != b.line || a.column != b.column || a.offset != b.offset) return where("position");
  if (a.value != b.value) return where("value");
  if (a.items.size() != b.items.size()) return where("item count");
  for (size_t i = 0; i < a.items.size(); ++i) {
    std::string d = first_difference(a.items[i], b.items[i], path + "[" + std::to_string(i) + "]");
    if (!d.empty()) return d;
  }
  if (a.entries.size() != b.entries.size()) return where("entry count");
  for (size_t i = 0; i < a.entries.size(); ++i) {
    std::string p = path + "{" + a.entries[i].key.value + "}";
    std::string d = first_difference(a.entries[i].key, b.entries[i].key, p + " key");
    if (d.empty()) d = first_difference(a.entries[i].value, b.entries[i].value, p);
    if (!d.empty()) return d;
  }
  return "";
}

std::string describe(const std::vector<Diagnostic>& diagnostics) {
  std::ostringstream out;
  for (const Diagnostic& d : diagnostics)
    out << d.location.line << ":" << d.location.column << " " << d.rule << " " << d.message << "\n";
  return out.str();
}

void expect_same_load(const std::string& text, const YamlLoadOptions& options) {
  const YamlLoadResult one = load_yaml("f.yaml", text, YamlLoadOptions{.pieces = 1});
  const YamlLoadResult cut = load_yaml("f.yaml", text, options);
  EXPECT_EQ(one.syntax_error, cut.syntax_error);
  EXPECT_EQ(describe(one.diagnostics), describe(cut.diagnostics));
  ASSERT_EQ(one.document.root.has_value(), cut.document.root.has_value());
  if (one.document.root) {
    EXPECT_EQ(first_difference(*one.document.root, *cut.document.root, "root"), "");
  }
}

TEST(YamlPieces, CorpusReadInPiecesIsTheOnePassTree) {
  std::ifstream file(std::string(SCHEMAC_CORPUS_DIR) + "/native_functions.yaml", std::ios::binary);
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string text = buffer.str();
  ASSERT_GT(text.size(), 100000u);
  for (unsigned pieces : {2u, 3u, 7u}) {
    SCOPED_TRACE(pieces);
    expect_same_load(text, YamlLoadOptions{.pieces = pieces, .min_piece_bytes = 1024, .threads = true});
  }
}

// Small files cut at every top-level item, read with and without threads.
TEST(YamlPieces, SmallFilesCutEverywhereGiveTheOnePassResult) {
  const char* cases[] = {
      "- func: a(Tensor x) -> Tensor\n  variants: method\n- func: b() -> ()\n",
      "# comment\n\n- a\n# - not an item\n- b: 1\n  c: [1, 2]\n-\n- ~\n",
      "- func: a\n  tags: x\n  tags: y\n- func: b\n  f: 1\n  f: 2\n",                 // duplicates in two pieces
      "- \"multi\n- line\"\n- x\n",                                                    // a quoted scalar spans a cut
      "- [a,\n- b]\n- c\n",                                                            // a flow sequence spans a cut
      "- &anchor {x: 1}\n- *anchor\n",                                                 // alias to another piece
      "- a\n---\n- b\n",                                                               // two documents
      "- a\n...\n",                                                                    // document end marker
      "- |\n  literal\n  text\n- >\n  folded\n- b\n",                                  // block scalars
      "- a\nkey: value\n- b\n",                                                        // not a sequence throughout
      "key: value\n- a\n",                                                             // top level is a mapping
      "- a\n- b: [x\n- c\n",                                                           // a syntax error
      "-\n-\n-\n",                                                                     // empty items
      "- a\r\n- b\r\n",                                                                // CRLF
      "- a\n-\tb\n- c\n",                                                              // tab after the dash
      "- x: 1\n  y: |\n    - not an item\n- z\n",                                       // dash inside a block scalar
      "- a: 1\n  dangling text\n- b\n- c x: d\n",                                        // a key with no ':' (found by fuzz_yaml_pieces)
      "- : -\n  x\n- x\n- : x\n",                                                     // the same after `- : -` (found by fuzz_yaml_pieces)
  };
  for (const char* text : cases) {
    SCOPED_TRACE(text);
    for (bool threads : {false, true})
      expect_same_load(text, YamlLoadOptions{.pieces = 16, .min_piece_bytes = 1, .threads = threads});
  }
}

}  // namespace
}  // namespace schemac::schema
