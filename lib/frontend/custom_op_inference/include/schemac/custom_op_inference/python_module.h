// What a Python file says about its names, read from its tokens once: the imports (anywhere),
// the top-level assignments (type aliases, constants), the top-level classes, and every `def`.
// Inferring a custom op's schema needs them to tell `Optional` from `typing.Optional` or a
// `TensorList = list[Tensor]` alias from a name defined in another file.
#pragma once

#include <functional>
#include <map>
#include <optional>
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
  std::map<std::string, std::string, std::less<>> imports;
  // NAME = value, NAME: TypeAlias = value and `type NAME = value` at the top level: the value.
  std::map<std::string, tokens::TokenRange, std::less<>> assignments;
  std::set<std::string, std::less<>> classes;  // top-level `class NAME`
  std::multimap<std::string, size_t, std::less<>>
      functions;  // NAME -> the `def` token, in file order
  // NAME = dotted.name at module level, also inside `if` / `try` / `with` blocks (not in a def or
  // class body): every dotted name it is bound to, in file order. `_op = torch.library.custom_op`
  // under `if torch_version >= ...:` and `_op = noop` under `else:` give both.
  std::multimap<std::string, std::string, std::less<>> aliases;
  // NAME = functools.partial(fn, ...) at module level: the tokens of partial's arguments.
  std::map<std::string, tokens::TokenRange, std::less<>> partials;
  // A string constant of another module given with this one: `from a.b import X` (or `import a.b
  // as m` and `m.X`) asks for ("a.b", "X"); a relative import's module starts with '.'. Its value,
  // or none. Unset: no other module is known (the file on its own).
  using ImportedConstant =
      std::function<std::optional<std::string>(std::string_view module, std::string_view name)>;
  ImportedConstant imported_constant;
};

PythonModule read_python_module(const tokens::TokenStream& stream);

// The dotted path a name stands for once the file's imports are applied to its first part:
// "co" -> "torch.library.custom_op" after `from torch.library import custom_op as co`, "tl.define"
// -> "torch.library.define" after `import torch.library as tl`. Module-level aliases
// (`_op = torch.library.custom_op`) are followed too, preferring what they bind from torch.
std::string resolved_path(const PythonModule& module, const std::string& dotted);

// The end (one past the last token) of the logical line that starts at `start`: brackets are
// skipped whole, and the line ends where a token outside them starts a new physical line.
size_t logical_line_end(const std::vector<tokens::Token>& tokens, size_t start);

}  // namespace schemac::custom_op_inference
