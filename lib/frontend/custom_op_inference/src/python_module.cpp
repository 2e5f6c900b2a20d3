#include "schemac/custom_op_inference/python_module.h"

#include <algorithm>

namespace schemac::custom_op_inference {

using tokens::Token, tokens::TokenKind, tokens::is_identifier, tokens::is_punct;

namespace {

bool starts_line(const std::vector<Token>& tokens, size_t i) {
  return i == 0 || tokens[i - 1].position.line != tokens[i].position.line;
}

// A dotted module path from `i` on ("a.b.c", or ".." / ".x" for relative imports); `i` moves
// past it.
std::string dotted_path(const std::vector<Token>& tokens, size_t& i, size_t end) {
  std::string path;
  while (i < end && (tokens[i].kind == TokenKind::identifier || is_punct(tokens[i], "."))) {
    if (tokens[i].kind == TokenKind::identifier && !path.empty() && path.back() != '.') break;
    if (is_identifier(tokens[i], "import") || is_identifier(tokens[i], "as")) break;
    path += tokens[i].text;
    ++i;
  }
  return path;
}

// `import a.b [as c], d` in tokens [i, end).
void read_import(const std::vector<Token>& tokens, size_t i, size_t end, PythonModule& out) {
  while (i < end) {
    std::string path = dotted_path(tokens, i, end);
    if (path.empty()) return;
    if (i + 1 < end && is_identifier(tokens[i], "as") &&
        tokens[i + 1].kind == TokenKind::identifier) {
      out.imports[std::string(tokens[i + 1].text)] = path;
      i += 2;
    } else {
      std::string root = path.substr(0, path.find('.'));
      out.imports[root] = root;
    }
    if (i >= end || !is_punct(tokens[i], ",")) return;
    ++i;
  }
}

// `from M import x [as y], (z, w)` in tokens [i, end); `i` is just after `from`.
void read_from_import(const std::vector<Token>& tokens, size_t i, size_t end, PythonModule& out) {
  std::string module = dotted_path(tokens, i, end);
  if (i >= end || !is_identifier(tokens[i], "import")) return;
  std::string prefix = module.empty() || module.back() == '.' ? module : module + ".";
  for (++i; i < end; ++i) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::identifier) continue;
    std::string local(t.text);
    if (i + 2 < end && is_identifier(tokens[i + 1], "as") &&
        tokens[i + 2].kind == TokenKind::identifier) {
      local = tokens[i + 2].text;
      i += 2;
    }
    out.imports[local] = prefix + std::string(t.text);
  }
}

// A top-level `NAME = value`, `NAME: annotation = value` or `type NAME = value`.
void read_assignment(const std::vector<Token>& tokens, size_t i, size_t end, PythonModule& out) {
  if (is_identifier(tokens[i], "type") && i + 1 < end &&
      tokens[i + 1].kind == TokenKind::identifier) {
    ++i;
  }
  if (tokens[i].kind != TokenKind::identifier || i + 1 >= end) return;
  std::string_view name = tokens[i].text;
  size_t k = i + 1;
  if (is_punct(tokens[k], ":")) {  // skip the annotation up to '='
    while (k < end && !is_punct(tokens[k], "=")) {
      size_t close = tokens::matching_close(tokens, k);
      k = close < end ? close + 1 : k + 1;
    }
  }
  if (k >= end || !is_punct(tokens[k], "=") || k + 1 >= end) return;
  out.assignments[std::string(name)] = tokens::TokenRange{k + 1, end};
}

// The dotted name that tokens [begin, end) spell exactly, or "".
std::string dotted_in(const std::vector<Token>& tokens, size_t begin, size_t end) {
  std::string out;
  for (size_t k = begin; k < end; ++k) {
    bool want_name = (k - begin) % 2 == 0;
    if (want_name ? tokens[k].kind != TokenKind::identifier : !is_punct(tokens[k], ".")) return "";
    out += tokens[k].text;
  }
  return out.empty() || out.back() == '.' ? "" : out;
}

// `NAME = dotted.name` and `NAME = [functools.]partial(...)` at module level.
void read_alias(const std::vector<Token>& tokens, size_t i, size_t end, PythonModule& out) {
  if (i + 2 >= end || tokens[i].kind != TokenKind::identifier || !is_punct(tokens[i + 1], "=")) {
    return;
  }
  std::string_view name = tokens[i].text;
  std::string target = dotted_in(tokens, i + 2, end);
  if (!target.empty()) {
    out.aliases.emplace(name, target);
    return;
  }
  size_t open = i + 2;
  while (open < end && !is_punct(tokens[open], "(")) ++open;
  std::string callee = dotted_in(tokens, i + 2, open);
  if ((callee == "partial" || callee == "functools.partial") && open < end &&
      tokens::matching_close(tokens, open) == end - 1) {
    out.partials[std::string(name)] = tokens::TokenRange{open, end};
  }
}

// Whether the logical line [i, end) opens a block (`if ...:`, `def f(...):`), and whether that
// block is a def or class body.
bool opens_block(const std::vector<Token>& tokens, size_t i, size_t end, bool* scope) {
  if (end == 0 || !is_punct(tokens[end - 1], ":")) return false;
  static constexpr std::string_view kOpeners[] = {"if",      "elif",  "else", "try",   "except",
                                                  "finally", "with",  "for",  "while", "match",
                                                  "case",    "async", "def",  "class"};
  for (std::string_view opener : kOpeners) {
    if (!is_identifier(tokens[i], opener)) continue;
    *scope = opener == "def" || opener == "class" || opener == "async";
    return true;
  }
  return false;
}

}  // namespace

namespace {

std::string resolve(const PythonModule& module, const std::string& dotted, int depth) {
  if (depth > 8) return dotted;
  std::string root = dotted.substr(0, dotted.find('.'));
  std::string rest = dotted.substr(root.size());
  auto [begin, end] = module.aliases.equal_range(root);
  std::string chosen;
  for (auto it = begin; it != end; ++it) {
    if (it->second == root) continue;
    std::string target = resolve(module, it->second, depth + 1);
    if (chosen.empty() || target.rfind("torch.", 0) == 0) chosen = target;
    if (target.rfind("torch.", 0) == 0) break;
  }
  if (!chosen.empty()) return chosen + rest;
  auto imported = module.imports.find(root);
  if (imported == module.imports.end() || imported->second == root) return dotted;
  return resolve(module, imported->second + rest, depth + 1);
}

}  // namespace

std::string resolved_path(const PythonModule& module, const std::string& dotted) {
  return resolve(module, dotted, 0);
}

size_t logical_line_end(const std::vector<Token>& tokens, size_t start) {
  size_t i = start;
  while (i < tokens.size()) {
    size_t close = tokens::matching_close(tokens, i);
    size_t last = close < tokens.size() ? close : i;
    if (last + 1 >= tokens.size() || tokens[last + 1].position.line != tokens[last].position.line) {
      return last + 1;
    }
    i = last + 1;
  }
  return tokens.size();
}

PythonModule read_python_module(const tokens::TokenStream& stream) {
  const std::vector<Token>& tokens = stream.tokens;
  PythonModule out;
  out.stream = &stream;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (is_identifier(tokens[i], "def") && i + 1 < tokens.size() &&
        tokens[i + 1].kind == TokenKind::identifier) {
      out.functions.emplace(tokens[i + 1].text, i);
    }
  }
  struct Block {
    uint32_t column;
    bool scope;  // a def or class body
  };
  std::vector<Block> blocks;
  size_t i = 0;
  while (i < tokens.size()) {
    if (!starts_line(tokens, i)) {
      ++i;
      continue;
    }
    size_t end = logical_line_end(tokens, i);
    const Token& first = tokens[i];
    bool top = first.position.column == 1;
    while (!blocks.empty() && blocks.back().column >= first.position.column) blocks.pop_back();
    bool module_level =
        std::none_of(blocks.begin(), blocks.end(), [](const Block& b) { return b.scope; });
    bool scope = false;
    if (opens_block(tokens, i, end, &scope)) blocks.push_back({first.position.column, scope});
    if (module_level) read_alias(tokens, i, end, out);
    if (is_identifier(first, "import")) {
      read_import(tokens, i + 1, end, out);
    } else if (is_identifier(first, "from")) {
      read_from_import(tokens, i + 1, end, out);
    } else if (top && is_identifier(first, "class") && i + 1 < end &&
               tokens[i + 1].kind == TokenKind::identifier) {
      out.classes.emplace(tokens[i + 1].text);
    } else if (top) {
      read_assignment(tokens, i, end, out);
    }
    i = end;
  }
  return out;
}

}  // namespace schemac::custom_op_inference
