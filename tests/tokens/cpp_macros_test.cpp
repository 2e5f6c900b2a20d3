// Build macros as the preprocessor takes them: -D forms, expansion with # and ##, arguments
// expanded before substitution, a macro not expanding inside itself, and #if decided only on
// known names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schemac/tokens/cpp_macros.h"
#include "schemac/tokens/token.h"

namespace schemac::tokens {
namespace {

std::string expanded(std::string_view text, const MacroTable& table) {
  std::string out;
  for (const PpToken& t : expand_macros(pp_tokenize(text), table)) {
    if (!out.empty()) out += ' ';
    out += t.unknown ? "?" + t.text : t.text;
  }
  return out;
}

MacroTable with(std::initializer_list<std::string_view> specs) {
  MacroTable table = builtin_macros();
  for (std::string_view spec : specs) EXPECT_EQ(table.define_from_text(spec), "") << spec;
  return table;
}

TEST(CppMacros, CommandLineForms) {
  MacroTable table;
  EXPECT_EQ(table.define_from_text("A"), "");
  EXPECT_EQ(table.define_from_text("B=_C"), "");
  EXPECT_EQ(table.define_from_text("F(x,y)=x##y"), "");
  EXPECT_EQ(table.define_from_text("E="), "");
  EXPECT_NE(table.define_from_text("=1"), "");
  EXPECT_NE(table.define_from_text("G(x"), "");
  EXPECT_NE(table.define_from_text("H(x)"), "");
  EXPECT_EQ(expanded("A B F(a, b) E", table), "1 _C ab");
}

TEST(CppMacros, VllmLayoutExpandsThroughConcat) {
  // vLLM: TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME, _cache_ops), cache_ops).
  MacroTable table = with({"TORCH_EXTENSION_NAME=_C"});
  EXPECT_EQ(
      expanded("TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME, _cache_ops), cache_ops)", table),
      "?TORCH_LIBRARY ( _C_cache_ops , cache_ops )");
  // Pasting without the CONCAT indirection pastes the name, not its value.
  table.define_from_text("P(a,b)=a##b");
  EXPECT_EQ(expanded("P(TORCH_EXTENSION_NAME, _x)", table), "TORCH_EXTENSION_NAME_x");
}

TEST(CppMacros, UndefinedBuildMacrosMakeUnknownNames) {
  MacroTable table = builtin_macros();
  EXPECT_EQ(expanded("CONCAT(TORCH_EXTENSION_NAME, _cache_ops)", table),
            "?TORCH_EXTENSION_NAME_cache_ops");
  EXPECT_EQ(expanded("CONCAT(myops, _x)", table), "myops_x");
}

TEST(CppMacros, NoInfiniteExpansionAndStringify) {
  MacroTable table = with({"SELF=SELF+1", "S(x)=#x", "A=B", "B=A"});
  EXPECT_EQ(expanded("SELF", table), "SELF + 1");  // defined: not unknown, just not expanded again
  EXPECT_EQ(expanded("S(a  b)", table), "\"a b\"");
  EXPECT_EQ(expanded("A", table), "A");
}

// A chain of macros that each double the last carries every token of the innermost body up
// through every level. The budget pays for that carrying, so the work of a chain stays within the
// budget whatever its depth: a 2^10-token chain ten levels deep spends more than 10 * 2^10.
TEST(CppMacros, CarryingTokensOutOfNestedExpansionsIsPaidFromTheBudget) {
  MacroTable table;
  std::string chain = "A0=x";
  EXPECT_EQ(table.define_from_text(chain), "");
  for (int i = 1; i <= 10; ++i) {
    std::string previous = "A" + std::to_string(i - 1);
    EXPECT_EQ(table.define_from_text("A" + std::to_string(i) + "=" + previous + " " + previous),
              "");
  }
  ExpansionBudget budget;
  std::vector<PpToken> out = expand_macros(pp_tokenize("A10"), table, {}, &budget);
  EXPECT_FALSE(budget.exhausted);
  EXPECT_EQ(out.size(), size_t{1} << 10);
  EXPECT_GT(ExpansionBudget::kTokens - budget.tokens_left, size_t{10} << 10);
}

TEST(CppConditions, DecidedOnlyOnKnownNames) {
  MacroTable table = with({"USE_CUDA", "ARCH=900", "ZERO=0"});
  table.undefine("USE_ROCM");
  EXPECT_EQ(evaluate_condition("defined(USE_CUDA)", table), true);
  EXPECT_EQ(evaluate_condition("defined USE_ROCM", table), false);
  EXPECT_EQ(evaluate_condition("!defined(USE_ROCM) && ARCH >= 890 && ARCH < 1000", table), true);
  EXPECT_EQ(evaluate_condition("ZERO", table), false);
  EXPECT_EQ(evaluate_condition("0", table), false);
  EXPECT_EQ(evaluate_condition("1 ? ARCH : 0", table), true);
  // Names nobody defined decide nothing, unless the other side of && / || does.
  EXPECT_EQ(evaluate_condition("defined(OTHER)", table), std::nullopt);
  EXPECT_EQ(evaluate_condition("OTHER_VERSION >= 2", table), std::nullopt);
  EXPECT_EQ(evaluate_condition("defined(OTHER) && ZERO", table), false);
  EXPECT_EQ(evaluate_condition("defined(OTHER) || USE_CUDA", table), true);
  EXPECT_EQ(evaluate_condition("HAS(x)", table), std::nullopt);
  EXPECT_EQ(evaluate_condition("(1", table), std::nullopt);
}

std::vector<std::string> identifiers(const TokenStream& stream) {
  std::vector<std::string> out;
  for (const Token& t : stream.tokens) {
    if (t.kind == TokenKind::identifier && t.stream == 0) out.emplace_back(t.text);
  }
  return out;
}

TEST(CppConditions, TheLexerLeavesOutBranchesDecidedFalse) {
  const char* text =
      "#ifdef USE_ROCM\nrocm\n#else\nnot_rocm\n#endif\n"
      "#ifdef UNKNOWN\nmaybe\n#else\nmaybe_not\n#endif\n"
      "#if 0\nnever\n#elif defined(USE_ROCM)\nrocm2\n#else\nfallback\n#endif\n"
      "#define LOCAL 1\n#if LOCAL\nlocal\n#endif\n#undef LOCAL\n#ifdef LOCAL\ngone\n#endif\n";
  MacroTable undefined;
  undefined.undefine("USE_ROCM");
  EXPECT_EQ(identifiers(lex_cpp(text, &undefined)),
            (std::vector<std::string>{"not_rocm", "maybe", "maybe_not", "fallback", "local"}));
  MacroTable rocm = with({"USE_ROCM"});
  EXPECT_EQ(identifiers(lex_cpp(text, &rocm)),
            (std::vector<std::string>{"rocm", "maybe", "maybe_not", "rocm2", "local"}));
  // Nothing given: only what the file itself decides.
  EXPECT_EQ(identifiers(lex_cpp(text)),
            (std::vector<std::string>{"rocm", "not_rocm", "maybe", "maybe_not", "rocm2", "fallback",
                                      "local"}));
}

}  // namespace
}  // namespace schemac::tokens
