// What a Python file says about its names, read from its tokens once: the imports (anywhere),
// the top-level assignments (type aliases, constants), the top-level classes, and every `def`.
// Inferring a custom op's schema needs them to tell `Optional` from `typing.Optional` or a
// `TensorList = list[Tensor]` alias from a name defined in another file.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "schemac/tokens/calls.h"
#include "schemac/tokens/token.h"

namespace schemac::custom_op_inference {

struct PythonModule {
  const tokens::TokenStream* stream = nullptr;  // the tokens the ranges below index
  // local name -> the dotted path it stands for: "Optional" -> "typing.Optional" (from typing
  // import Optional), "t" -> "typing" (import typing as t), "T" -> ".types.T" (relative import).
  std::map<std::string, std::string> imports;
  // NAME = value, NAME: TypeAlias = value and `type NAME = value` at the top level: the value.
  std::map<std::string, tokens::TokenRange> assignments;
  std::set<std::string> classes;                 // top-level `class NAME`
  std::multimap<std::string, size_t> functions;  // NAME -> the `def` token, in file order
};

PythonModule read_python_module(const tokens::TokenStream& stream);

// The end (one past the last token) of the logical line that starts at `start`: brackets are
// skipped whole, and the line ends where a token outside them starts a new physical line.
size_t logical_line_end(const std::vector<tokens::Token>& tokens, size_t start);

}  // namespace schemac::custom_op_inference
