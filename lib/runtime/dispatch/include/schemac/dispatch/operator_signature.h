// The dispatcher's own view of an operator's schema: what calls, boxing, the stable ABI and the
// tools need, with no type of the schema front end in it. lib/frontend/schema parses a schema
// inside the runtime (def(), parse_signature) and the result is kept in this form, so the runtime's
// public headers stand alone: kernels, plugins and generated libraries link schemac::dispatch only.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::dispatch {

struct ArgumentSignature {
  std::string name;  // "" for an unnamed return
  std::string type;  // canonical type text: "Tensor(a!)", "int[2]", "Tensor?[]"
  std::optional<std::string> default_value;  // canonical default text ("1", "None", "[0, 1]")
  bool kwarg_only = false;
  bool dispatches = false;  // Tensor, Tensor?, Tensor[], Tensor?[]: its key set picks the kernel
  bool is_mutable = false;  // writes its alias set (Tensor(a!))
  // For a plain or optional leaf type: the leaf's name ("Tensor", "int", "SymInt", "float",
  // "bool", "ScalarType", ...) and whether it is optional; "" for lists, tuples and the like.
  std::string leaf;
  bool optional = false;
};

struct OperatorSignature {
  std::string name;      // as written: "aten::add", "add"
  std::string overload;  // "" when none
  std::vector<ArgumentSignature> arguments;
  std::vector<ArgumentSignature> returns;
  bool is_vararg = false;
  bool is_varret = false;
  std::string text;  // the canonical printing of the whole schema
};

// Parses a schema into the runtime's view. On a syntax or check error: nullopt, and `error`
// (when given) says why, with the column.
std::optional<OperatorSignature> parse_signature(std::string_view schema_text,
                                                 std::string* error = nullptr);

// "ns::name.overload" (no dot without an overload), the one spelling of an operator's full name.
std::string operator_full_name(std::string_view name, std::string_view overload);

}  // namespace schemac::dispatch
