// The parser's fast path (fast_parser.h) builds exactly the model the PEGTL grammar builds, for
// every schema it reads: the corpus, the extension and edge-case schemas of data/, and random
// mutations of them (where the grammar may fail: then the fast path must have declined).
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fast_parser.h"
#include "schemac/schema/parser.h"

namespace schemac::schema {
namespace {

using detail::ParserPath;

std::vector<std::string> lines_of(const std::string& path, const std::string& prefix) {
  std::ifstream file(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#' || line.rfind(prefix, 0) != 0) continue;
    out.push_back(line.substr(prefix.size()));
  }
  return out;
}
std::vector<std::string> all_inputs() {
  std::vector<std::string> out = lines_of(SCHEMAC_CORPUS_FILE, "- func: ");
  for (const char* file : {"/extension_schemas.txt", "/edge_cases.txt"}) {
    for (std::string& line : lines_of(SCHEMAC_SCHEMA_TEST_DATA + std::string(file), "")) {
      out.push_back(std::move(line));
    }
  }
  return out;
}

// Field by field, with the pointed-to pieces compared by value; `where` names the piece.
void expect_same(const AliasInfo* a, const AliasInfo* b, const std::string& where) {
  ASSERT_EQ(a == nullptr, b == nullptr) << where;
  if (!a) return;
  EXPECT_TRUE(*a == *b) << where;
  EXPECT_EQ(a->range, b->range) << where;
}
void expect_same(const Type& a, const Type& b, const std::string& where) {
  EXPECT_EQ(a.kind, b.kind) << where;
  EXPECT_EQ(a.base, b.base) << where;
  EXPECT_EQ(a.fixed_size, b.fixed_size) << where;
  EXPECT_EQ(a.name, b.name) << where;
  EXPECT_EQ(a.range, b.range) << where;
  EXPECT_EQ(a.item_count, b.item_count) << where;
  expect_same(a.alias, b.alias, where + " alias");
  ASSERT_EQ(a.elem == nullptr, b.elem == nullptr) << where;
  if (a.elem) expect_same(*a.elem, *b.elem, where + " elem");
  for (uint32_t i = 0; i < a.item_count && i < b.item_count; ++i) {
    expect_same(a.items[i], b.items[i], where + " item");
  }
}
void expect_same(const DefaultValue& a, const DefaultValue& b, const std::string& where) {
  EXPECT_EQ(a.kind, b.kind) << where;
  EXPECT_EQ(a.text, b.text) << where;
  EXPECT_EQ(a.range, b.range) << where;
  ASSERT_EQ(a.items.size(), b.items.size()) << where;
  for (size_t i = 0; i < a.items.size(); ++i) expect_same(a.items[i], b.items[i], where + " item");
}
void expect_same(const std::vector<Argument>& a, const std::vector<Argument>& b,
                 const std::string& where) {
  ASSERT_EQ(a.size(), b.size()) << where;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string at = where + " #" + std::to_string(i);
    expect_same(a[i].type, b[i].type, at);
    EXPECT_EQ(a[i].name, b[i].name) << at;
    EXPECT_EQ(a[i].kwarg_only, b[i].kwarg_only) << at;
    EXPECT_EQ(a[i].range, b[i].range) << at;
    EXPECT_EQ(a[i].name_range, b[i].name_range) << at;
    ASSERT_EQ(a[i].default_value == nullptr, b[i].default_value == nullptr) << at;
    if (a[i].default_value) expect_same(*a[i].default_value, *b[i].default_value, at + " default");
  }
}
void expect_same(const FunctionSchema& a, const FunctionSchema& b, const std::string& text) {
  EXPECT_EQ(a.op.name, b.op.name) << text;
  EXPECT_EQ(a.op.overload, b.op.overload) << text;
  EXPECT_EQ(a.op.range, b.op.range) << text;
  expect_same(a.arguments, b.arguments, text + " argument");
  expect_same(a.returns, b.returns, text + " return");
  EXPECT_EQ(a.is_vararg, b.is_vararg) << text;
  EXPECT_EQ(a.is_varret, b.is_varret) << text;
  EXPECT_EQ(a.returns_parenthesized, b.returns_parenthesized) << text;
  EXPECT_EQ(a.trailing_kwarg_marker, b.trailing_kwarg_marker) << text;
  EXPECT_EQ(a.kwarg_markers, b.kwarg_markers) << text;
  EXPECT_EQ(a.kwarg_marker_offset, b.kwarg_marker_offset) << text;
  EXPECT_EQ(a.returns_range, b.returns_range) << text;
  EXPECT_EQ(a.text, b.text) << text;
}

// Whether the fast path read `text`; where it did, its model must be the grammar's.
bool check_one(const std::string& text) {
  ParseResult fast = detail::parse_schema_syntax(text, ParserPath::FastOnly);
  if (!fast.ok()) {
    EXPECT_EQ(fast.error->rule, "fast-path-declined") << text;
    return false;
  }
  ParseResult grammar = detail::parse_schema_syntax(text, ParserPath::Grammar);
  EXPECT_TRUE(grammar.ok()) << "the fast path read a schema the grammar rejects: " << text;
  if (grammar.ok()) expect_same(*fast.schema, *grammar.schema, text);
  return true;
}

TEST(FastParser, BuildsTheGrammarsModelForEveryInput) {
  const std::vector<std::string> inputs = all_inputs();
  ASSERT_GT(inputs.size(), 2590u);
  size_t read = 0;
  for (const std::string& text : inputs) read += check_one(text);
  // Nearly all of the corpus takes the fast path (what the benchmark measures).
  EXPECT_GT(read, 2590u * 98 / 100) << read << " of " << inputs.size();
}

TEST(FastParser, ReadsTheCommonFormsAndDeclinesTheRareOnes) {
  for (const char* text : {
           "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
           "f(Tensor(a!) self, Tensor(b -> *)[] x, int[2] s=[1, -2], float e=1.5e-3) -> ()",
           "f(str s='a b', str? t=\"q\", ScalarType? d=None, int[] z=[]) -> (Tensor a, Tensor b)",
           "f(__torch__.torch.classes.ns.Foo x, SymInt[1]? y=None, t z) -> Tensor(a|b)[]",
           "  f ( Tensor [ 2 ] ? x , * , bool b = True ) -> Tensor  out  ",
       }) {
    EXPECT_TRUE(check_one(text)) << text;
  }
  for (const char* text : {
           "f((int, int) x) -> ()", "f(Dict(str, Tensor) x) -> ()", "f(Tensor! x) -> ()",
           "f(Tensor x, ...) -> ()", "f() -> ...", "aten :: f() -> ()", "f(int x=- 1) -> ()",
           "f(int x=0x10) -> ()", "f(complex x=1j) -> ()", "f(str x='\\n') -> ()",
           "f(str x='''a''') -> ()", "f() -> () # comment", "f(Tensor(*|a) x) -> ()",
           "f(Tensor x) -> Tensor y z", "f(int x=1e) -> ()",
       }) {
    EXPECT_FALSE(check_one(text)) << text;
  }
}

// Schemas too long for the storage's first block: the pieces go on in heap blocks, by both paths.
TEST(FastParser, LongSchemasTakeMoreStorage) {
  for (int count : {50, 100}) {  // the fast path reads up to 64 arguments, the grammar any
    std::string text = "ext::long(";
    for (int i = 0; i < count; ++i) {
      text += (i ? ", " : "") + std::string("Tensor(a") + std::to_string(i) + "!)[] x" +
              std::to_string(i) + "=[1, 2, 3]";
    }
    text += ") -> Tensor";
    EXPECT_EQ(check_one(text), count <= 64);
    ParseResult result = parse_schema_syntax(text);
    ASSERT_TRUE(result.ok());
    ASSERT_EQ(result.schema->arguments.size(), static_cast<size_t>(count));
    const Argument& last = result.schema->arguments.back();
    EXPECT_EQ(last.name, "x" + std::to_string(count - 1));
    EXPECT_EQ(last.default_value->text, "[1,2,3]");
    EXPECT_EQ(last.type.element().alias->before[0], "a" + std::to_string(count - 1));
  }
}

// Random small edits of real schemas: deleted, repeated and inserted characters.
TEST(FastParser, AgreesWithTheGrammarOnMutatedInputs) {
  const std::vector<std::string> inputs = all_inputs();
  std::mt19937 random(20);
  const std::string inserts = " ()[]?!*,.=-'\"|>:#0123456789aeTxj_\t\n";
  size_t read = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = inputs[random() % inputs.size()];
    for (int edits = 1 + static_cast<int>(random() % 3); edits > 0 && !text.empty(); --edits) {
      size_t at = random() % text.size();
      switch (random() % 3) {
        case 0: text.erase(at, 1 + random() % 3); break;
        case 1: text.insert(at, text.substr(at, 1 + random() % 4)); break;
        default: text.insert(at, 1, inserts[random() % inserts.size()]); break;
      }
    }
    read += check_one(text);
    if (HasFailure()) break;
  }
  EXPECT_GT(read, 1000u);
}

}  // namespace
}  // namespace schemac::schema
