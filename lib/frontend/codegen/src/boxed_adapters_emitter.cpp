// Boxed adapters of our runtime (boxed_adapters_emitter.h).
#include "schemac/codegen/boxed_adapters_emitter.h"

#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/kernel_types/cpp_types.h"

namespace schemac::codegen {

std::string boxed_kernel_expression(std::string_view function_address) {
  return fmt::format(
      "::schemac::dispatch::KernelFunction::make_from_boxed("
      "static_cast<::schemac::dispatch::BoxedKernelFn>({}))",
      function_address);
}

std::string boxed_declaration(const GenOperator& op, std::string_view kernel) {
  // Why it is boxed-only: varargs, or a type with no C++ counterpart (unions, futures, RRefs,
  // Any, opaque types; see docs/gen.md).
  return fmt::format(
      "// boxed-only ({}): {}\nvoid {}(const OperatorHandle& op, DispatchKeySet ks, Stack* "
      "stack);\n",
      kernel_types::boxed_only_reason(op.schema), op.canonical, kernel);
}

std::string emit_boxed_handle(const GenOperator& op, std::string_view struct_name) {
  return fmt::format(
      "// {}\n"
      "struct {} {{\n"
      "  static constexpr std::string_view name = {};\n"
      "  static constexpr std::string_view overload = {};\n"
      "  static constexpr std::string_view schema = {};\n"
      "  static const OperatorHandle& handle() {{\n"
      "    static const OperatorHandle op = detail::find_operator({});\n"
      "    return op;\n"
      "  }}\n"
      "  // Boxed only: the arguments on the stack are replaced by the returns.\n"
      "  static void call_boxed(Stack* stack) {{ handle().call_boxed(stack); }}\n"
      "  static void redispatch_boxed(DispatchKeySet ks, Stack* stack) {{\n"
      "    handle().redispatch_boxed(ks, stack);\n"
      "  }}\n"
      "}};\n",
      op.canonical, struct_name, cpp_string_literal(op.ns + "::" + op.name),
      cpp_string_literal(op.overload), cpp_string_literal(op.canonical),
      cpp_string_literal(op.full_name));
}

}  // namespace schemac::codegen
