// Values for `dispatch-inspect trace`, built from short specs on the command line:
//
//   cpu:float32[2,3]   a tensor: device, element type, sizes ("cuda:0:float16[4]" names a GPU;
//                      "[]" is a 0-d tensor). Elements are 1, 2, 3, ... in the element type.
//   3, -1              an int           2.5, 1e-3   a float
//   True, False        a bool           None        None
//   [0,1]              a list of ints   float16     a ScalarType (any name torch accepts)
//
// and the IValue for a schema default (`alpha=1`, `keepdim=False`, `dim=None`, `[]`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "schemac/core/ivalue.h"
#include "schemac/schema/model.h"

namespace schemac::inspect {

// A parsed value, or the reason the spec is not one (naming the spec).
struct ValueSpecResult {
  std::optional<dispatch::IValue> value;
  std::string error;
  bool ok() const { return value.has_value(); }
};

ValueSpecResult parse_value_spec(std::string_view spec);

// The value of a schema default; an error for defaults it cannot build (strings, identifiers
// other than the memory formats and dtypes).
ValueSpecResult value_of_default(const schema::DefaultValue& default_value);

// A short description for trace output: "Tensor cpu float32 [2, 3]", "3", "None".
std::string describe_value(const dispatch::IValue& value);

}  // namespace schemac::inspect
