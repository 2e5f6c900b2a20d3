// Finding registration calls in C++ tokens. A TORCH_LIBRARY-family macro followed by a braced
// body is a block whose first argument names the namespace; inside (and outside) blocks,
// `<receiver>.def(...)` and `<receiver>->def(...)` with a schema-shaped literal are definitions,
// `.impl("name", ...)` implementations. pybind11's `m.def("name", &fn, "doc")` outside a block
// has no schema shape and is left alone, and so is a custom class's `class_<T>(...).def(...)`.
#include <cctype>
#include <set>
#include <string>

#include "scan_internal.h"
#include "schemac/tokens/calls.h"
#include "schemac/tokens/cpp_macros.h"

namespace schemac::sources {

using tokens::JoinedLiteral, tokens::SourcePosition, tokens::Token, tokens::TokenKind,
    tokens::TokenStream, tokens::is_punct, tokens::operator_name_in;

namespace {

struct LibraryBlock {
  size_t begin = 0;  // the '{'
  size_t end = 0;    // the matching '}'
  std::string ns;    // "" when a macro or unknown
  bool ns_from_macro = false;
  SourcePosition position;
  bool is_impl = false;
  std::string key;  // TORCH_LIBRARY_IMPL's dispatch key; "" when none or unknown
  SourcePosition key_position;
  std::string key_written;  // the key when written as such at key_position (no macro)
};

// libtorch's block macros, which schemac reads itself rather than expanding.
const std::set<std::string, std::less<>>& torch_block_macros() {
  static const std::set<std::string, std::less<>> names = {
      "TORCH_LIBRARY",        "TORCH_LIBRARY_FRAGMENT",        "TORCH_LIBRARY_IMPL",
      "STABLE_TORCH_LIBRARY", "STABLE_TORCH_LIBRARY_FRAGMENT", "STABLE_TORCH_LIBRARY_IMPL"};
  return names;
}

std::vector<tokens::PpToken> pp_tokens(const std::vector<Token>& tokens, tokens::TokenRange range) {
  std::vector<tokens::PpToken> out;
  for (size_t i = range.begin; i < range.end; ++i) {
    out.push_back(tokens::PpToken{tokens[i].kind, std::string(tokens[i].text), false, false});
  }
  return out;
}

// The arguments of `NAME(...)` at the start of `tokens`, split at top-level commas.
std::vector<std::vector<tokens::PpToken>> pp_arguments(const std::vector<tokens::PpToken>& tokens) {
  std::vector<std::vector<tokens::PpToken>> arguments(1);
  int depth = 0;
  for (size_t i = 2; i < tokens.size(); ++i) {
    const tokens::PpToken& t = tokens[i];
    bool open = t.kind == TokenKind::punct && t.text == "(";
    bool close = t.kind == TokenKind::punct && t.text == ")";
    if (close && depth == 0) return arguments;
    depth += open ? 1 : close ? -1 : 0;
    if (depth == 0 && t.kind == TokenKind::punct && t.text == ",") {
      arguments.emplace_back();
    } else {
      arguments.back().push_back(t);
    }
  }
  return {};
}

// One identifier, known (not made of a build macro nobody defined): the name it gives, else "".
std::string single_name(const std::vector<tokens::PpToken>& tokens) {
  if (tokens.size() != 1 || tokens[0].kind != TokenKind::identifier || tokens[0].unknown) return "";
  return tokens[0].text;
}

// The block a TORCH_LIBRARY-family invocation opens, its namespace and key read as the compiler
// reads them: TORCH_LIBRARY stringifies its namespace as written (a macro there is not expanded:
// TORCH_LIBRARY(NS, m) registers "NS"), TORCH_LIBRARY_FRAGMENT and TORCH_LIBRARY_IMPL pass theirs
// through one more macro, which expands them; a wrapper (vLLM's TORCH_LIBRARY_EXPAND) expands its
// arguments before they reach TORCH_LIBRARY.
void read_block_arguments(const std::vector<Token>& tokens, size_t macro, size_t close,
                          const tokens::MacroTable& macros, LibraryBlock& block) {
  std::vector<tokens::PpToken> invocation = pp_tokens(tokens, {macro, close + 1});
  const std::string name(tokens[macro].text);
  bool direct = torch_block_macros().count(name) > 0;
  std::vector<tokens::PpToken> expanded =
      direct ? invocation : tokens::expand_macros(invocation, macros, torch_block_macros());
  bool torch_macro = expanded.size() >= 2 && torch_block_macros().count(expanded[0].text) > 0;
  std::string head = torch_macro ? expanded[0].text : name;
  std::vector<std::vector<tokens::PpToken>> arguments = pp_arguments(expanded);
  if (arguments.empty()) return;
  bool stringified = head == "TORCH_LIBRARY" || head == "STABLE_TORCH_LIBRARY";
  std::vector<tokens::PpToken> ns = arguments[0];
  if (direct && stringified) {
    // As written: a defined macro's name is the namespace; an ALL-CAPS name nobody defined is
    // taken for the build's macro, unknown (TORCH_EXTENSION_NAME).
    if (ns.size() == 1 && ns[0].kind == TokenKind::identifier && !macros.find(ns[0].text)) {
      ns[0].unknown = tokens::namespace_from_identifier(ns[0].text).empty();
    }
  } else if (direct || !torch_macro) {
    ns = tokens::expand_macros(ns, macros);
  }
  block.ns = single_name(ns);
  // A namespace a macro gave (the build's, a #define's): the same macro may name it in files that
  // are never built together.
  block.ns_from_macro = !block.ns.empty() && !(arguments[0].size() == 1 && invocation.size() > 2 &&
                                               invocation[2].text == block.ns);
  block.is_impl = head.find("IMPL") != std::string::npos;
  if (!block.is_impl || arguments.size() < 2) return;
  std::vector<tokens::PpToken> key = arguments[1];
  if (direct || !torch_macro) key = tokens::expand_macros(key, macros);
  if (key.size() != 1 || key[0].kind != TokenKind::identifier) return;
  block.key = key[0].text;
  // Where the key is written: the second argument as the file has it.
  std::vector<tokens::CallArgument> written = tokens::call_arguments(tokens, macro + 1, false);
  block.key_position = tokens[macro].position;
  if (written.size() >= 2 && written[1].range.end == written[1].range.begin + 1) {
    const Token& token = tokens[written[1].range.begin];
    block.key_position = token.position;
    if (token.text == block.key) block.key_written = block.key;
  }
}

std::vector<LibraryBlock> library_blocks(const std::vector<Token>& tokens,
                                         const tokens::MacroTable& macros) {
  std::vector<LibraryBlock> blocks;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const Token& macro = tokens[i];
    if (macro.kind != TokenKind::identifier ||
        macro.text.find("TORCH_LIBRARY") == std::string::npos || !is_punct(tokens[i + 1], "(")) {
      continue;
    }
    size_t close = 0;
    tokens::call_arguments(tokens, i + 1, false, &close);
    if (close + 1 >= tokens.size() || !is_punct(tokens[close + 1], "{")) continue;
    LibraryBlock block;
    block.begin = close + 1;
    block.end = tokens::matching_close(tokens, close + 1);
    block.position = macro.position;
    block.is_impl = macro.text.find("IMPL") != std::string::npos;
    read_block_arguments(tokens, i, close, macros, block);
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
  CppCallFinder(const TokenStream& stream, const tokens::MacroTable& macros, ScanResult& out)
      : stream_(stream),
        tokens_(stream.tokens),
        blocks_(library_blocks(tokens_, macros)),
        out_(out) {}

  void run() {
    for (const LibraryBlock& block : blocks_) {
      if (!block.key.empty())
        out_.keys.push_back({block.key_position, block.key, false, block.key_written});
    }
    for (size_t i = 1; i + 1 < tokens_.size(); ++i) {
      const Token& method = tokens_[i];
      if (tokens::is_identifier(method, "class_") && is_punct(tokens_[i + 1], "<")) {
        custom_class(i);
        continue;
      }
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
      std::optional<KeyUse> key;
      if (arguments.size() >= 3) key = key_argument(arguments[1].range);
      if (key) out_.keys.push_back(*key);
      implementation(method, block, literal,
                     arguments.size() >= 2 ? kernel_name(arguments.back().range) : "",
                     key ? key->name : "");
    }
  }

  // `m.class_<T>("Name")` in a block, or `torch::class_<T>("ns", "Name")` anywhere: a custom class
  // schemas may name as `__torch__.torch.classes.ns.Name`.
  void custom_class(size_t at) {
    size_t i = at + 2;
    for (int depth = 1; i < tokens_.size() && depth > 0; ++i) {
      if (is_punct(tokens_[i], "<")) ++depth;
      if (is_punct(tokens_[i], ">")) --depth;
      if (is_punct(tokens_[i], ";") || is_punct(tokens_[i], "{")) return;
    }
    if (i >= tokens_.size() || !is_punct(tokens_[i], "(")) return;
    std::vector<tokens::CallArgument> arguments = tokens::call_arguments(tokens_, i, false);
    bool member = is_punct(tokens_[at - 1], ".") || is_punct(tokens_[at - 1], "->");
    const LibraryBlock* block = enclosing_block(blocks_, at);
    std::string why_not;
    CustomClass found;
    found.condition = condition(at);
    if (member && block && arguments.size() == 1) {
      found.library_namespace = block->ns;
    } else if (!member && arguments.size() == 2) {
      std::optional<JoinedLiteral> ns =
          tokens::join_cpp_literal(stream_, arguments[0].range, &why_not);
      if (!ns) return;
      found.library_namespace = ns->text.text();
    } else {
      return;
    }
    std::optional<JoinedLiteral> name =
        tokens::join_cpp_literal(stream_, arguments.back().range, &why_not);
    if (!name || name->text.empty()) return;
    found.position = name->position;
    found.name = name->text.text();
    out_.classes.push_back(std::move(found));
  }

  // The key argument of `m.impl("op", KEY, fn)`: a device constant (`torch::kCUDA`, `c10::kCPU`,
  // `kMeta`) or a dispatch key (`c10::DispatchKey::CPU`, `torch::DispatchKey::Meta`).
  std::optional<KeyUse> key_argument(tokens::TokenRange range) const {
    if (range.empty()) return std::nullopt;
    const Token& last = tokens_[range.end - 1];
    if (last.kind != TokenKind::identifier) return std::nullopt;
    size_t first = 0;
    std::string qualified = tokens::name_ending_at(tokens_, range.end - 1, &first);
    if (first != range.begin) return std::nullopt;
    bool dispatch_key = range.end - range.begin >= 3 &&
                        tokens::is_identifier(tokens_[range.end - 3], "DispatchKey");
    if (dispatch_key)
      return KeyUse{last.position, std::string(last.text), false, std::string(last.text)};
    // kCUDA: a c10::DeviceType constant, `k` and the device's name.
    bool constant = last.text.size() >= 2 && last.text[0] == 'k' &&
                    std::isupper(static_cast<unsigned char>(last.text[1]));
    if (!constant || qualified.find("DeviceType") != std::string::npos) return std::nullopt;
    return KeyUse{last.position, std::string(last.text.substr(1)), false, std::string(last.text)};
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
        found.namespace_from_macro = block->ns_from_macro;
      }
      out_.schemas.push_back(std::move(found));
    } else if (block && tokens::looks_like_operator_name(literal->text.text())) {
      out_.named_definitions.push_back(
          named_operator(literal->position, operator_name_in(literal->text.text()), block->ns,
                         block->position, condition(method)));
      out_.named_definitions.back().namespace_from_macro = block->ns_from_macro;
      out_.skipped.push_back(
          {literal->position, "m.def(\"" + operator_name_in(literal->text.text()) +
                                  "\", fn): the schema is inferred from the function"});
    } else if (block) {
      out_.skipped.push_back({literal->position, "m.def(...): the string is not a schema"});
    }
  }

  void implementation(size_t method, const LibraryBlock* block,
                      const std::optional<JoinedLiteral>& literal, std::string kernel,
                      const std::string& key) {
    if (!literal || !tokens::looks_like_operator_name(literal->text.text())) return;
    std::string name = operator_name_in(literal->text.text());
    if (!block && name.find("::") == std::string::npos) return;
    NamedOperator impl =
        named_operator(literal->position, name, block ? block->ns : "",
                       block ? block->position : SourcePosition{}, condition(method));
    impl.dispatch_key = !key.empty() ? key : block ? block->key : "";
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

void find_cpp_registrations(const TokenStream& stream, const tokens::MacroTable& macros,
                            ScanResult& out) {
  CppCallFinder(stream, macros, out).run();
}

}  // namespace schemac::sources
