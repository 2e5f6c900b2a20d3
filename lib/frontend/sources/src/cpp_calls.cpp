// Finding registration calls in C++ tokens. A TORCH_LIBRARY-family macro followed by a braced
// body is a block whose first argument names the namespace; inside (and outside) blocks,
// `<receiver>.def(...)` and `<receiver>->def(...)` with a schema-shaped literal are definitions,
// `.impl("name", ...)` implementations. pybind11's `m.def("name", &fn, "doc")` outside a block
// has no schema shape and is left alone, and so is a custom class's `class_<T>(...).def(...)`.
#include <cctype>
#include <string>

#include "scan_internal.h"
#include "schemac/tokens/calls.h"
#include "schemac/tokens/cpp_expansion.h"

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
  bool stable_abi = false;  // a STABLE_TORCH_LIBRARY-family block (PyTorch's stable ABI)
};

// The block a TORCH_LIBRARY-family invocation opens, its namespace and key read from the code as
// the compiler reads it (tokens/cpp_expansion.h has expanded what the compiler expands):
// TORCH_LIBRARY's namespace is as written, an ALL-CAPS name nobody defined unknown (the build's
// macro, TORCH_EXTENSION_NAME); a wrapper this file does not define keeps its arguments, an
// ALL-CAPS one unknown alike.
void read_block_arguments(const std::vector<Token>& tokens, size_t macro, LibraryBlock& block) {
  std::vector<tokens::CallArgument> arguments = tokens::call_arguments(tokens, macro + 1, false);
  if (arguments.empty()) return;
  std::string_view head = tokens[macro].text;
  bool torch_macro = tokens::is_torch_block_macro(head);
  tokens::TokenRange ns = arguments[0].range;
  if (ns.end == ns.begin + 1 && tokens[ns.begin].kind == TokenKind::identifier) {
    const Token& name = tokens[ns.begin];
    bool unknown =
        name.unknown || (!torch_macro && tokens::namespace_from_identifier(name.text).empty());
    if (!unknown) {
      block.ns = name.text;
      // A namespace a macro gave (the build's, a #define's): the same macro may name it in files
      // that are never built together.
      block.ns_from_macro = name.from_macro;
    }
  }
  block.is_impl = head.find("IMPL") != std::string::npos;
  block.stable_abi = head.starts_with("STABLE_");
  if (!block.is_impl || arguments.size() < 2) return;
  tokens::TokenRange key = arguments[1].range;
  if (key.end != key.begin + 1 || tokens[key.begin].kind != TokenKind::identifier) return;
  const Token& written = tokens[key.begin];
  block.key = written.text;
  block.key_position = written.position;
  if (!written.made) block.key_written = block.key;
}

std::vector<LibraryBlock> library_blocks(const std::vector<Token>& tokens) {
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
    read_block_arguments(tokens, i, block);
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
                     arguments.size() >= 2
                         ? kernel_name(arguments.back().range, block && block->stable_abi)
                         : "",
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
        found.stable_abi = block->stable_abi;
      }
      out_.schemas.push_back(std::move(found));
    } else if (block && tokens::looks_like_operator_name(literal->text.text())) {
      out_.named_definitions.push_back(
          named_operator(literal->position, operator_name_in(literal->text.text()), block->ns,
                         block->position, condition(method)));
      out_.named_definitions.back().namespace_from_macro = block->ns_from_macro;
      out_.named_definitions.back().inferred_at_load = true;
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

  // The function a kernel argument names (cpp_kernel_name); in a stable-ABI block only
  // `TORCH_BOX(&fn)` names a typed kernel.
  std::string kernel_name(tokens::TokenRange range, bool stable_abi) const {
    return cpp_kernel_name(tokens_, range, stable_abi);
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

std::string cpp_kernel_name(const std::vector<Token>& tokens, tokens::TokenRange range,
                            bool stable_abi) {
  const char* wrapper = stable_abi ? "TORCH_BOX" : "TORCH_FN";
  const bool wrapped = range.end - range.begin >= 3 &&
                       tokens::is_identifier(tokens[range.begin], wrapper) &&
                       is_punct(tokens[range.begin + 1], "(") &&
                       tokens::matching_close(tokens, range.begin + 1) == range.end - 1;
  if (wrapped) range = {range.begin + 2, range.end - 1};
  if (stable_abi && !wrapped) return "";  // a function over the StableIValue stack
  if (!range.empty() && is_punct(tokens[range.begin], "&")) ++range.begin;
  std::string name;
  if (!range.empty() && is_punct(tokens[range.begin], "::")) {  // ::fn: the global namespace's
    name = "::";
    ++range.begin;
  }
  for (size_t i = range.begin; i < range.end; ++i) {
    bool want_name = (i - range.begin) % 2 == 0;
    if (want_name ? tokens[i].kind != TokenKind::identifier : !is_punct(tokens[i], "::")) return "";
    name += tokens[i].text;
  }
  return range.empty() || (range.end - range.begin) % 2 == 0 ? "" : name;
}

void find_cpp_registrations(const TokenStream& stream, ScanResult& out) {
  CppCallFinder(stream, out).run();
  find_register_operators(stream, out);
}

}  // namespace schemac::sources
