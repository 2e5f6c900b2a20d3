// Operators.h of our runtime — typed operator handles (`ns::ops::add_Tensor` with name, overload,
// schema, call and redispatch through the runtime), the user-facing function API
// (`ns::add(...)`), method-style forms for `variants: method` (`ns::methods(t).add(...)`) and
// the declaration of the umbrella registration function.
#pragma once

#include <string>
#include <string_view>

#include "schemac/codegen/gen_model.h"

namespace schemac::codegen {

// `umbrella_namespace`: where `register_operators()` is declared.
std::string emit_operators(const GenModel& model, std::string_view umbrella_namespace);

}  // namespace schemac::codegen
