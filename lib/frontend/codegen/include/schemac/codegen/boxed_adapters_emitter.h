// Boxed adapters of our runtime for boxed-only operators (varargs, or types without a C++
// counterpart in the runtime). Their kernels are declared with the boxed signature
// `void(const OperatorHandle&, DispatchKeySet, Stack*)`, registered through
// KernelFunction::make_from_boxed, and called through handles that take a stack.
#pragma once

#include <string>
#include <string_view>

#include "schemac/codegen/gen_model.h"

namespace schemac::codegen {

// The registration expression of a boxed kernel, given its address (`&ns::native::kernel`).
std::string boxed_kernel_expression(std::string_view function_address);

// The declaration of boxed kernel `kernel` of `op`, with a comment that says why it is boxed.
std::string boxed_declaration(const GenOperator& op, std::string_view kernel);

// The handle struct of a boxed-only operator: name, overload, schema, call_boxed and
// redispatch_boxed (inside the ops namespace).
std::string emit_boxed_handle(const GenOperator& op, std::string_view struct_name);

}  // namespace schemac::codegen
