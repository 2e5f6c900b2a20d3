// The lexical forms of native-functions field values: names, operator and kernel names, YAML 1.1
// booleans, and what a node is (for messages). Internal to lib/frontend/native_functions.
#pragma once

#include "schemac/support/text.h"

#include <optional>
#include <string_view>

#include "schemac/yaml/yaml_loader.h"

namespace schemac::native_functions {

// The text without the white space at either end.
using support::trim;
// Letters, digits and '_', not starting with a digit; bytes of UTF-8 letters count as letters
// (torchgen's names are Python strings, so 'föo' is a name to it).
bool is_identifier(std::string_view text);
// `name` or `name.overload`, as structured_delegate and autogen write operator names.
bool is_operator_name(std::string_view text);
// A C++ function name, with at most three namespaces (torchgen 2.0 and newer; lint holds older
// releases to two): `fn`, `at::native::fn`, `a::b::c::fn`.
bool is_kernel_name(std::string_view text);
// A plain scalar PyYAML reads as a boolean (YAML 1.1): true/false, yes/no and on/off, each
// written in lower case, capitalised or upper case.
std::optional<bool> yaml11_bool(std::string_view v);
// "nothing", "a scalar", "a list" or "a mapping".
std::string_view kind_name(const yaml::YamlNode& node);

}  // namespace schemac::native_functions
