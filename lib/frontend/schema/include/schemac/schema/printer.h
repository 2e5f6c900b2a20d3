// The canonical, lossless printing of schemas. For every entry of PyTorch's
// native_functions.yaml, print_schema(parse(text)) == text.
#pragma once

#include <string>

#include "schemac/schema/model.h"

namespace schemac::schema {

std::string print_schema(const FunctionSchema& schema);
std::string print_type(const Type& type);                  // "Tensor(a!)", "int[2]?", "Tensor?[]"
std::string print_type_without_aliases(const Type& type);  // "Tensor", "Tensor[]" for "Tensor(a)[]"
std::string print_argument(const Argument& argument);
std::string print_alias(const AliasInfo& alias);  // "(a! -> a|b)"

}  // namespace schemac::schema
