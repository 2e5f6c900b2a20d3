// Kernel declarations of our runtime (declarations_emitter.h).
#include "schemac/codegen/declarations_emitter.h"

#include <iterator>

#include <fmt/format.h>

#include "schemac/codegen/boxed_adapters_emitter.h"
#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/kernel_declarations.h"
#include "schemac/kernel_types/cpp_types.h"

namespace schemac::codegen {

std::string emit_declarations(const GenModel& model) {
  // Every operator namespace's `ns::native`, and every namespace a kernel was written with.
  KernelDeclarations decls;
  for (const GenOperator& op : model.operators) {
    decls.add_namespace(op.ns + "::native");
    for (const KernelBinding& binding : op.kernels) {
      const std::string kernel_ns = kernel_namespace(op, binding);
      if (op.boxed_only) {
        decls.add_boxed(kernel_ns, binding.kernel, boxed_declaration(op, binding.kernel));
        continue;
      }
      const kernel_types::CppSignature& sig = op.signature;
      decls.add_typed(kernel_ns, binding.kernel, sig.return_type, sig.param_types(),
                      sig.param_list(false), op.canonical);
    }
  }
  std::string out = banner(model);
  out +=
      "// The kernels the registrations bind: implement each one named by a dispatch entry.\n"
      "#pragma once\n\n"
      "#include <complex>\n#include <cstdint>\n#include <optional>\n#include <string>\n"
      "#include <string_view>\n#include <tuple>\n#include <variant>\n#include <vector>\n\n"
      "#include \"schemac/core/ivalue.h\"\n"
      "#include \"schemac/dispatch/kernel_function.h\"\n"
      "#include \"schemac/core/tensor.h\"\n";
  for (const std::string& ns : decls.namespaces()) {
    fmt::format_to(std::back_inserter(out), "\nnamespace {} {{\n\n{}\n{}\n}}  // namespace {}\n",
                   ns, kRuntimeNames, decls.render(ns), ns);
  }
  return out;
}

}  // namespace schemac::codegen
