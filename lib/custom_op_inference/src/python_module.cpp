#include "schemac/custom_op_inference/python_module.h"

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
      out.imports[tokens[i + 1].text] = path;
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
    std::string local = t.text;
    if (i + 2 < end && is_identifier(tokens[i + 1], "as") &&
        tokens[i + 2].kind == TokenKind::identifier) {
      local = tokens[i + 2].text;
      i += 2;
    }
    out.imports[local] = prefix + t.text;
  }
}

// A top-level `NAME = value`, `NAME: annotation = value` or `type NAME = value`.
void read_assignment(const std::vector<Token>& tokens, size_t i, size_t end, PythonModule& out) {
  if (is_identifier(tokens[i], "type") && i + 1 < end &&
      tokens[i + 1].kind == TokenKind::identifier) {
    ++i;
  }
  if (tokens[i].kind != TokenKind::identifier || i + 1 >= end) return;
  const std::string& name = tokens[i].text;
  size_t k = i + 1;
  if (is_punct(tokens[k], ":")) {  // skip the annotation up to '='
    while (k < end && !is_punct(tokens[k], "=")) {
      size_t close = tokens::matching_close(tokens, k);
      k = close < end ? close + 1 : k + 1;
    }
  }
  if (k >= end || !is_punct(tokens[k], "=") || k + 1 >= end) return;
  out.assignments[name] = tokens::TokenRange{k + 1, end};
}

}  // namespace

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
  size_t i = 0;
  while (i < tokens.size()) {
    if (!starts_line(tokens, i)) {
      ++i;
      continue;
    }
    size_t end = logical_line_end(tokens, i);
    const Token& first = tokens[i];
    bool top = first.position.column == 1;
    if (is_identifier(first, "import")) {
      read_import(tokens, i + 1, end, out);
    } else if (is_identifier(first, "from")) {
      read_from_import(tokens, i + 1, end, out);
    } else if (top && is_identifier(first, "class") && i + 1 < end &&
               tokens[i + 1].kind == TokenKind::identifier) {
      out.classes.insert(tokens[i + 1].text);
    } else if (top) {
      read_assignment(tokens, i, end, out);
    }
    i = end;
  }
  return out;
}

}  // namespace schemac::custom_op_inference
