// Reading one entry of a native-functions file: every field's shape checked (names, dispatch
// keys and kernels, flags, lists, the schema's syntax and checks, retired forms with their fixes).
// Internal to lib/frontend/native_functions.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "schemac/native_functions/native_functions.h"

namespace schemac::native_functions {

// Reads one entry (a mapping) of `document`, adding what is wrong with it to `diagnostics`.
NativeFunction read_entry(const yaml::YamlDocument& document, const yaml::YamlNode& entry,
                          std::vector<diagnostics::Diagnostic>& diagnostics);

// The names of the fields an entry may have, in the order torchgen's documentation lists them.
std::span<const std::string_view> entry_field_names();

}  // namespace schemac::native_functions
