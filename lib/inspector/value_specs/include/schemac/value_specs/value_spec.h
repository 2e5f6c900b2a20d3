// Values for `dispatch-inspect trace`, built from short specs on the command line:
//
//   cpu:float32[2,3]   a tensor: device, element type, sizes ("cuda:0:float16[4]" names a GPU;
//                      "[]" is a 0-d tensor). Elements are 1, 2, 3, ... in the element type.
//   3, -1              an int           2.5, 1e-3   a float
//   True, False        a bool           None        None
//   'text', "text"     a str (escapes \\ \' \" \n \t)
//   [0,1]              a list (of ints here; [1.5], [True], [cpu:float32[2]] and mixed lists too)
//   (1, cpu:float32[2])  a tuple ((), (1,) and (1) are tuples too)
//   {'a': 1, 'b': 2}   a dict, keys distinct, in the order written
//   float16            a ScalarType (any name torch accepts)
//
// Values nest (`{'k': (1, [2, 3])}`). A malformed spec is an error naming the spec and the column
// like a file position: `{'a': 1,:1: '{' is never closed`.
// And the IValue for a schema default (`alpha=1`, `keepdim=False`, `dim=None`, `[]`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "schemac/core/ivalue.h"
#include "schemac/schema/model.h"

namespace schemac::value_specs {

// A parsed value, or the reason the spec is not one (naming the spec).
struct ValueSpecResult {
  std::optional<core::IValue> value;
  std::string error;
  bool ok() const { return value.has_value(); }
};

ValueSpecResult parse_value_spec(std::string_view spec);

// `value` made to fit an argument of schema type `type`: tuples, dicts and lists of them are
// checked element by element (ints widen to floats inside them, `[]` becomes an empty list of
// the element type); a leaf at the top level is passed as it is. An error says what did not fit.
ValueSpecResult fit_to_type(const core::IValue& value, const schema::Type& type);

// The value of a schema default; an error for defaults it cannot build (strings, identifiers
// other than the memory formats and dtypes).
ValueSpecResult value_of_default(const schema::DefaultValue& default_value);

// A short description for trace output: "Tensor cpu float32 [2, 3]", "3", "None".
std::string describe_value(const core::IValue& value);

}  // namespace schemac::value_specs
