// Python values read statically where infer_schema needs them: a parameter's default, written
// into the schema as PyTorch writes it (str() of None, an int, a float or a bool; a string or a
// torch.device in double quotes; a torch.dtype without "torch."), and a custom op's mutates_args.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "schemac/custom_op_inference/python_module.h"
#include "schemac/tokens/calls.h"
#include "schemac/tokens/token.h"

namespace schemac::custom_op_inference {

struct StaticValue {
  enum class Status : uint8_t { ok, unsupported, unknown };
  Status status = Status::unknown;
  std::string text;  // ok: the default as the schema writes it; otherwise why not
};

// The default written in tokens `range` (module-level constants are followed).
StaticValue default_value(const PythonModule& module, tokens::TokenRange range);

struct MutatesArgs {
  enum class Status : uint8_t { names, all, unknown, invalid };
  Status status = Status::names;  // all: the string "unknown"; invalid: another string
  std::vector<std::string> names;
  std::vector<tokens::SourcePosition> positions;  // of each name
  std::string why;                                // unknown / invalid: why
};

// mutates_args=(...) / [...] / {...} / set() / "unknown" / a module-level constant.
MutatesArgs read_mutates_args(const PythonModule& module, tokens::TokenRange range);

// The tags custom_op(..., tags=) passes: torch.Tag.NAME, a tuple or list of them, None, or a
// module-level constant holding one of these; `names` without "torch.Tag.".
struct CustomOpTags {
  bool known = true;  // false: `why` says what is not known statically
  std::vector<std::string> names;
  tokens::SourcePosition position;  // where tags= is written
  std::string why;
  bool has(std::string_view tag) const {
    for (const std::string& name : names)
      if (name == tag) return true;
    return false;
  }
};
CustomOpTags read_custom_op_tags(const PythonModule& module, tokens::TokenRange range);

// A string built statically: literals (as tokens::join_python_literal reads them), module-level
// string constants by name, f-strings whose fields are such constants (`f"{LIB}::op"`), and `+`
// between any of these. The bytes a constant gives map to where the name is written in the
// argument. None when the value needs the file to run; `why_not` says why.
std::optional<tokens::JoinedLiteral> static_string(const PythonModule& module,
                                                   tokens::TokenRange range, std::string* why_not);

// Python's str() of a float: the shortest digits that read back, in fixed notation from 1e-4 up
// to below 1e16, else in exponent notation ("1e-05", "1e+16"); inf, -inf, nan.
std::string python_float_text(double value);

}  // namespace schemac::custom_op_inference
