// Python type hints read statically, as torch.library.infer_schema sees them once Python has
// evaluated them: names resolved through the file's imports and aliases, Optional[X] / X | None /
// Union[...] as one flattened union, List / list / Sequence as lists, Tuple / tuple as tuples,
// string annotations read as the hint they spell. Then infer_schema's two tables: the schema type
// of a parameter hint and of a return hint.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "schemac/custom_op_inference/python_module.h"
#include "schemac/tokens/calls.h"
#include "schemac/tokens/token.h"

namespace schemac::custom_op_inference {

using tokens::TokenRange, tokens::TokenStream;

struct Hint {
  enum class Kind : uint8_t {
    base,      // name: Tensor int float bool str dtype device GroupName
    none,      // None
    list,      // name: "list" (typing.List, list) or "sequence" (Sequence); args: the element
    tuple,     // args: the element types; name "bare" for typing.Tuple without brackets
    union_of,  // args: the members, flattened, without repeats (Optional[X] is X | None)
    ellipsis,  // ... inside tuple[X, ...]
    other,     // a real type infer_schema has no entry for; written: as written
    unknown,   // not known statically (defined in another file); written: why
  };
  Kind kind = Kind::other;
  std::string name;
  std::string written;
  std::vector<Hint> args;
};

class HintReader {
 public:
  explicit HintReader(const PythonModule& module) : module_(module) {}

  // The hint written in tokens `range` of `stream`.
  Hint read(const TokenStream& stream, TokenRange range) const { return read(stream, range, 0); }

 private:
  Hint read(const TokenStream& stream, TokenRange range, int depth) const;
  Hint read_primary(const TokenStream& stream, TokenRange range, int depth) const;
  Hint read_name(const std::string& dotted, int depth) const;

  const PythonModule& module_;
};

// The first `unknown` inside a hint, or null.
const Hint* find_unknown(const Hint& hint);

// infer_schema's parameter table: "Tensor", "SymInt[]?", "Tensor?[]", "Scalar", ... or none.
std::optional<std::string> parameter_schema_type(const Hint& hint);
// infer_schema's return rules: "()" for None, "Tensor", "(Tensor, SymInt)", "((Tensor))" for a
// one-element tuple, ... or none.
std::optional<std::string> return_schema_type(const Hint& hint);

// A hint as Python would print it, short: "Optional[list[int]]", for messages.
std::string describe(const Hint& hint);

}  // namespace schemac::custom_op_inference
