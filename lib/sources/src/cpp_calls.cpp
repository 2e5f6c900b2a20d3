// Finding registration calls in C++ tokens. A TORCH_LIBRARY-family macro followed by a braced
// body is a block whose first argument names the namespace; inside (and outside) blocks,
// `<receiver>.def(...)` and `<receiver>->def(...)` with a schema-shaped literal are definitions,
// `.impl("name", ...)` implementations. pybind11's `m.def("name", &fn, "doc")` outside a block
// has no schema shape and is left alone, and so is a custom class's `class_<T>(...).def(...)`.
#include <map>
#include <string>

#include "scan_internal.h"
#include "schemac/tokens/calls.h"

namespace schemac::sources {

using tokens::JoinedLiteral, tokens::SourcePosition, tokens::Token, tokens::TokenKind,
    tokens::TokenStream, tokens::is_punct, tokens::operator_name_in;

namespace {

struct LibraryBlock {
  size_t begin = 0;  // the '{'
  size_t end = 0;    // the matching '}'
  std::string ns;    // "" when a macro or unknown
  SourcePosition position;
  bool is_impl = false;
  std::string key;  // TORCH_LIBRARY_IMPL's dispatch key; "" when none or a macro
  SourcePosition key_position;
};

// `#define NAME value` with one identifier as the value: TORCH_LIBRARY(NAME, m) can be resolved.
std::map<std::string, std::string> object_like_macros(const std::vector<Token>& tokens) {
  std::map<std::string, std::string> macros;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const Token& name = tokens[i];
    if (name.stream == 0 || (i > 0 && tokens[i - 1].stream == name.stream)) continue;
    bool single_value = tokens[i + 1].stream == name.stream &&
                        tokens[i + 1].kind == TokenKind::identifier &&
                        (i + 2 == tokens.size() || tokens[i + 2].stream != name.stream);
    if (name.kind == TokenKind::identifier && single_value) macros[name.text] = tokens[i + 1].text;
  }
  return macros;
}

std::vector<LibraryBlock> library_blocks(const std::vector<Token>& tokens) {
  std::map<std::string, std::string> macros = object_like_macros(tokens);
  std::vector<LibraryBlock> blocks;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const Token& macro = tokens[i];
    if (macro.kind != TokenKind::identifier ||
        macro.text.find("TORCH_LIBRARY") == std::string::npos || !is_punct(tokens[i + 1], "(")) {
      continue;
    }
    size_t close = 0;
    std::vector<tokens::CallArgument> arguments =
        tokens::call_arguments(tokens, i + 1, false, &close);
    if (close + 1 >= tokens.size() || !is_punct(tokens[close + 1], "{")) continue;
    LibraryBlock block;
    block.begin = close + 1;
    block.end = tokens::matching_close(tokens, close + 1);
    block.position = macro.position;
    block.is_impl = macro.text.find("IMPL") != std::string::npos;
    if (!arguments.empty() && arguments[0].range.end == arguments[0].range.begin + 1 &&
        tokens[arguments[0].range.begin].kind == TokenKind::identifier) {
      std::string name = tokens[arguments[0].range.begin].text;
      auto defined = macros.find(name);
      block.ns =
          tokens::namespace_from_identifier(defined != macros.end() ? defined->second : name);
    }
    if (block.is_impl && arguments.size() >= 2 &&
        arguments[1].range.end == arguments[1].range.begin + 1 &&
        tokens[arguments[1].range.begin].kind == TokenKind::identifier) {
      const Token& key = tokens[arguments[1].range.begin];
      auto defined = macros.find(key.text);
      block.key = defined != macros.end() ? defined->second : key.text;
      block.key_position = key.position;
    }
    blocks.push_back(std::move(block));
  }
  return blocks;
}

const LibraryBlock* enclosing_block(const std::vector<LibraryBlock>& blocks, size_t index) {
  const LibraryBlock* inner = nullptr;
  for (const LibraryBlock& block : blocks) {
    if (block.begin < index && index < block.end && (!inner || block.begin > inner->begin)) {
      inner = &block;
    }
  }
  return inner;
}

class CppCallFinder {
 public:
  CppCallFinder(const TokenStream& stream, ScanResult& out)
      : stream_(stream), tokens_(stream.tokens), blocks_(library_blocks(tokens_)), out_(out) {}

  void run() {
    for (const LibraryBlock& block : blocks_) {
      if (!block.key.empty()) out_.keys.push_back({block.key_position, block.key, false});
    }
    for (size_t i = 1; i + 1 < tokens_.size(); ++i) {
      const Token& method = tokens_[i];
      if (method.kind != TokenKind::identifier || !is_punct(tokens_[i + 1], "(") ||
          !(is_punct(tokens_[i - 1], ".") || is_punct(tokens_[i - 1], "->"))) {
        continue;
      }
      // `torch::class_<T>("ns", "Name").def("method", ...)`: a custom class's method, no operator.
      if (i >= 2 && (is_punct(tokens_[i - 2], ")") || is_punct(tokens_[i - 2], ">"))) continue;
      if (method.text == "def" || method.text == "impl") registration_call(i);
    }
  }

 private:
  // `.def(...)` or `.impl(...)`, the method name at `method`: its first argument should be a
  // literal string (a schema or an operator name).
  void registration_call(size_t method) {
    std::vector<tokens::CallArgument> arguments =
        tokens::call_arguments(tokens_, method + 1, false);
    if (arguments.empty()) return;
    const LibraryBlock* block = enclosing_block(blocks_, method);
    std::string why_not;
    std::optional<JoinedLiteral> literal =
        tokens::join_cpp_literal(stream_, arguments[0].range, &why_not);
    if (tokens_[method].text == "def") {
      definition(method, block, std::move(literal), tokens_[arguments[0].range.begin], why_not);
    } else {
      implementation(method, block, literal,
                     arguments.size() >= 2 ? kernel_name(arguments.back().range) : "");
    }
  }

  void definition(size_t method, const LibraryBlock* block, std::optional<JoinedLiteral> literal,
                  const Token& first, const std::string& why_not) {
    if (!literal) {
      // Outside a TORCH_LIBRARY block a .def(...) is as likely pybind11's; list only ours.
      bool wrapped =
          first.text == "TORCH_SELECTIVE_SCHEMA" || first.text == "torch" || first.text == "c10";
      if (block || wrapped) out_.skipped.push_back({first.position, "m.def(...): " + why_not});
      return;
    }
    if (tokens::looks_like_schema(literal->text.text())) {
      FoundSchema found;
      found.position = literal->position;
      found.text = std::move(literal->text);
      found.call = "def";
      found.condition = condition(method);
      if (block) {
        found.library_namespace = block->ns;
        found.library_position = block->position;
      }
      out_.schemas.push_back(std::move(found));
    } else if (block && tokens::looks_like_operator_name(literal->text.text())) {
      out_.named_definitions.push_back(
          named_operator(literal->position, operator_name_in(literal->text.text()), block->ns,
                         block->position, condition(method)));
      out_.skipped.push_back(
          {literal->position, "m.def(\"" + operator_name_in(literal->text.text()) +
                                  "\", fn): the schema is inferred from the function"});
    } else if (block) {
      out_.skipped.push_back({literal->position, "m.def(...): the string is not a schema"});
    }
  }

  void implementation(size_t method, const LibraryBlock* block,
                      const std::optional<JoinedLiteral>& literal, std::string kernel) {
    if (!literal || !tokens::looks_like_operator_name(literal->text.text())) return;
    std::string name = operator_name_in(literal->text.text());
    if (!block && name.find("::") == std::string::npos) return;
    NamedOperator impl =
        named_operator(literal->position, name, block ? block->ns : "",
                       block ? block->position : SourcePosition{}, condition(method));
    impl.dispatch_key = block ? block->key : "";
    impl.kernel = std::move(kernel);
    out_.implementations.push_back(std::move(impl));
  }

  // The function a kernel argument names: `fn`, `&ns::fn`, `TORCH_FN(ns::fn)`; "" otherwise
  // (a lambda, a template, a call).
  std::string kernel_name(tokens::TokenRange range) const {
    if (range.end - range.begin >= 3 && tokens::is_identifier(tokens_[range.begin], "TORCH_FN") &&
        is_punct(tokens_[range.begin + 1], "(") &&
        tokens::matching_close(tokens_, range.begin + 1) == range.end - 1) {
      range = {range.begin + 2, range.end - 1};
    }
    if (!range.empty() && is_punct(tokens_[range.begin], "&")) ++range.begin;
    std::string name;
    for (size_t i = range.begin; i < range.end; ++i) {
      bool want_name = (i - range.begin) % 2 == 0;
      if (want_name ? tokens_[i].kind != TokenKind::identifier : !is_punct(tokens_[i], "::"))
        return "";
      name += tokens_[i].text;
    }
    return range.empty() || (range.end - range.begin) % 2 == 0 ? "" : name;
  }

  const tokens::ConditionPath& condition(size_t index) const {
    return stream_.conditions[tokens_[index].condition];
  }

  const TokenStream& stream_;
  const std::vector<Token>& tokens_;
  std::vector<LibraryBlock> blocks_;
  ScanResult& out_;
};

}  // namespace

void find_cpp_registrations(const TokenStream& stream, ScanResult& out) {
  CppCallFinder(stream, out).run();
}

}  // namespace schemac::sources
