// What native_functions.yaml files once had and PyTorch retired: fields, dispatch keys and
// schema types. Older files (PyTorch 0.4 to 1.8) still use them; lint names each as retired,
// with what replaced it and the release that changed it, instead of calling it unknown.
#pragma once

#include <span>
#include <string_view>

namespace schemac::native_functions {

struct RetiredName {
  std::string_view name;     // as written in old files: "use_c10_dispatcher", "Math", "IntList"
  std::string_view release;  // the first PyTorch release without it: "1.9"
  std::string_view instead;  // what to write now (or why nothing is needed)
};

// nullptr when `name` is not a retired field / dispatch key / schema type.
const RetiredName* find_retired_field(std::string_view name);
const RetiredName* find_retired_dispatch_key(std::string_view name);
const RetiredName* find_retired_type(std::string_view name);

std::span<const RetiredName> retired_fields();
std::span<const RetiredName> retired_dispatch_keys();
std::span<const RetiredName> retired_types();

}  // namespace schemac::native_functions
