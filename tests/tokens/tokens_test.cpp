// lib/frontend/tokens on its own: the C++ and Python lexers (literals decoded with a map back to
// their source bytes, bracket pairing, preprocessor branches), the call helpers and the text
// predicates the call finders of lib/frontend/sources build on.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schemac/tokens/calls.h"
#include "schemac/tokens/condition_path.h"
#include "schemac/tokens/mapped_text.h"
#include "schemac/tokens/token.h"

namespace schemac::tokens {
namespace {

// The index of the first token spelled `text`.
size_t find_token(const TokenStream& stream, std::string_view text) {
  for (size_t i = 0; i < stream.tokens.size(); ++i)
    if (stream.tokens[i].text == text) return i;
  ADD_FAILURE() << "no token " << text;
  return 0;
}

TEST(CppLexer, DecodesEscapesAndRawStringsAndMapsEveryByteBack) {
  const TokenStream stream = lex_cpp("m.def(\"a\\tb\");\nm.def(R\"x(c)\"d)x\");\n");
  ASSERT_EQ(stream.literals.size(), 2u);
  const MappedText& escaped = stream.literals[0].value;
  EXPECT_EQ(escaped.text(), "a\tb");
  EXPECT_EQ(escaped.position(0), (SourcePosition{1, 8}));
  EXPECT_EQ(escaped.position(1), (SourcePosition{1, 9}));  // the backslash of \t
  EXPECT_EQ(escaped.position(2), (SourcePosition{1, 11}));
  EXPECT_EQ(stream.literals[1].value.text(), "c)\"d");
  EXPECT_TRUE(stream.literals[1].is_static);
}

TEST(CppLexer, PairsBracketsAndRecordsPreprocessorBranches) {
  const TokenStream stream = lex_cpp("#if A\nf(x[1], {2});\n#else\ng();\n#endif\n");
  const size_t open = find_token(stream, "(");
  EXPECT_EQ(stream.tokens[matching_close(stream.tokens, open)].text, ")");
  EXPECT_EQ(matching_open(stream.tokens, matching_close(stream.tokens, open)), open);
  const Token& f = stream.tokens[find_token(stream, "f")];
  const Token& g = stream.tokens[find_token(stream, "g")];
  EXPECT_TRUE(mutually_exclusive(stream.conditions[f.condition], stream.conditions[g.condition]));
  EXPECT_FALSE(mutually_exclusive(stream.conditions[f.condition], stream.conditions[f.condition]));
}

TEST(CppLexer, JoinsAdjacentLiteralsOfOneArgument) {
  const TokenStream stream = lex_cpp("m.def(\"f(Tensor x) \"\n      \"-> Tensor\");\n");
  const size_t open = find_token(stream, "(");
  const std::vector<CallArgument> args = call_arguments(stream.tokens, open, false);
  ASSERT_EQ(args.size(), 1u);
  std::string why_not;
  std::optional<JoinedLiteral> joined = join_cpp_literal(stream, args[0].range, &why_not);
  ASSERT_TRUE(joined.has_value()) << why_not;
  EXPECT_EQ(joined->text.text(), "f(Tensor x) -> Tensor");
  EXPECT_EQ(joined->text.position(12), (SourcePosition{2, 8}));  // '-' on the second line
}

TEST(PythonLexer, KeepsKeywordArgumentsAndMarksFormattedStringsAsNotStatic) {
  const TokenStream stream = lex_python(
      "lib.define('''g(Tensor x)\n-> Tensor''', tags=(t,))\nlib.define(f\"{name}(Tensor x) -> "
      "Tensor\")\n");
  ASSERT_EQ(stream.literals.size(), 2u);
  EXPECT_EQ(stream.literals[0].value.text(), "g(Tensor x)\n-> Tensor");
  EXPECT_TRUE(stream.literals[0].is_static);
  EXPECT_FALSE(stream.literals[1].is_static);
  const std::vector<CallArgument> args =
      call_arguments(stream.tokens, find_token(stream, "("), true);
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[1].keyword, "tags");
  EXPECT_NE(find_argument(args, 5, "tags"), nullptr);
  EXPECT_EQ(find_argument(args, 5, "schema"), nullptr);
}

TEST(Calls, NamesAndSchemaShapes) {
  const TokenStream stream = lex_cpp("torch::Library::def(x);");
  size_t first = 0;
  EXPECT_EQ(name_ending_at(stream.tokens, find_token(stream, "def"), &first),
            "torch::Library::def");
  EXPECT_EQ(first, 0u);
  EXPECT_TRUE(looks_like_schema("myops::scale(Tensor x, float f) -> Tensor"));
  EXPECT_FALSE(looks_like_schema("hello world"));
  EXPECT_TRUE(looks_like_operator_name("myops::scale.out"));
  EXPECT_FALSE(looks_like_operator_name("not an op"));
  EXPECT_EQ(written_namespace("myops::scale(Tensor x) -> Tensor"), "myops");
  EXPECT_EQ(written_namespace("scale(Tensor x) -> Tensor"), "");
  EXPECT_EQ(operator_name_in("myops::scale.out(Tensor x) -> Tensor"), "myops::scale.out");
}

TEST(MappedText, StripKeepsTheMapInStep) {
  MappedText text;
  const char* spelled = "  ab ";
  for (uint32_t i = 0; spelled[i] != 0; ++i) text.push_back(spelled[i], SourcePosition{3, i + 1});
  text.set_end(SourcePosition{3, 6});
  text.strip();
  EXPECT_EQ(text.text(), "ab");
  EXPECT_EQ(text.position(0), (SourcePosition{3, 3}));
  EXPECT_EQ(text.position(1), (SourcePosition{3, 4}));
}

// The token vector is allocated once, from token_bound: it must never count fewer tokens than a
// lexer makes, whatever the text.
TEST(TokenBound, IsAnUpperBoundOfBothLexers) {
  const std::string texts[] = {
      "",
      "TORCH_LIBRARY(ns, m) { m.def(\"f(Tensor x) -> Tensor\"); }\n",
      "x=1.5e+3;y=u8\"a\"sv+L'c'+0x1'000ULL;a::b->c##d",
      "#define A(x) x##x\nA(1)(2)[3]{4}<<>>...\\\n",
      "lib.define(f'{NS}::op(Tensor x) -> Tensor')  # comment\nr'\\'b\"\"\"x\"\"\"",
      "a(),[]->? =!|*xyz0123456789\xc3\xa9\xff\x01$$",
  };
  for (const std::string& text : texts) {
    EXPECT_LE(lex_cpp(text).tokens.size(), token_bound(text)) << text;
    EXPECT_LE(lex_python(text).tokens.size(), token_bound(text)) << text;
  }
}

// A token's spelling views the stream's own copy of the source: the stream outlives the text
// it was lexed from, and copies share it.
TEST(TokenStream, KeepsTheSpellingsItsTokensView) {
  TokenStream copy;
  {
    std::string text = "m.def(x);";
    const TokenStream stream = lex_cpp(text);
    text.assign(text.size(), '?');
    copy = stream;
  }
  ASSERT_EQ(copy.tokens.size(), 7u);
  EXPECT_EQ(copy.tokens[2].text, "def");
  EXPECT_EQ(lex_python(std::string("lib.define")).tokens[2].text, "define");
}

TEST(LineTable, TurnsOffsetsIntoLinesAndColumns) {
  const LineTable lines("ab\ncd\n");
  EXPECT_EQ(lines.position(0), (SourcePosition{1, 1}));
  EXPECT_EQ(lines.position(4), (SourcePosition{2, 2}));
}

}  // namespace
}  // namespace schemac::tokens
