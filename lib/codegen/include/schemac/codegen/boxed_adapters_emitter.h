// Emitter (e): boxed adapters for boxed-only operators (varargs, or types without a C++
// counterpart in the runtime). Their kernels are declared with the boxed signature
// `void(const OperatorHandle&, DispatchKeySet, Stack*)`, registered through
// KernelFunction::make_from_boxed, and called through handles that take a stack.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"

namespace schemac::gen {

// The registration expression of a boxed kernel, given its address (`&ns::native::kernel`).
std::string boxed_kernel_expression(std::string_view function_address);

// Declarations of the boxed kernels of `ops` that live in the C++ namespace `kernel_ns` (the
// declarations go inside it), one per name.
std::string emit_boxed_declarations(const std::vector<const GenOperator*>& ops, const std::string& kernel_ns);

// The handle struct of a boxed-only operator: name, overload, schema, call_boxed and
// redispatch_boxed (inside the ops namespace).
std::string emit_boxed_handle(const GenOperator& op, std::string_view struct_name);

}  // namespace schemac::gen
