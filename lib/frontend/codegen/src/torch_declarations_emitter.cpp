// NativeFunctions.h of the PyTorch target: every kernel a registration binds, declared with
// torchgen's native signature, in the namespace its dispatch entry names (torch_emitters.h).
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/kernel_declarations.h"
#include "schemac/codegen/torch_emitters.h"

namespace schemac::codegen {

std::string emit_torch_declarations(const GenModel& model, torch_releases::TorchVersion release) {
  KernelDeclarations decls;
  bool boxed = false;
  for (const GenOperator& op : model.operators) {
    for (const KernelBinding& binding : op.kernels) {
      std::string why;
      const std::optional<kernel_types::TorchSignature> typed =
          kernel_types::torch_native_signature(op.schema, op.use_const_ref_for_mutable_tensors,
                                               is_symint_kernel(binding), &why, release);
      if (!typed) {
        decls.add_boxed(kernel_namespace(op, binding), binding.kernel,
                        fmt::format("// boxed ({}): {}\nvoid {}(const c10::OperatorHandle& op, "
                                    "torch::jit::Stack* stack);\n",
                                    why, op.canonical, binding.kernel));
        boxed = true;
        continue;
      }
      const kernel_types::TorchSignature& sig = *typed;
      std::string types;
      for (const kernel_types::CppParam& p : sig.params)
        types += (types.empty() ? "" : ", ") + p.type;
      std::string params;
      for (const kernel_types::CppParam& p : sig.params)
        params += (params.empty() ? "" : ", ") + p.type + " " + p.name;
      decls.add_typed(kernel_namespace(op, binding), binding.kernel, sig.return_type,
                      std::move(types), params, op.canonical);
    }
  }
  std::string out = banner(model);
  out +=
      "// The kernels the PyTorch registrations bind, declared with torchgen's native signatures:\n"
      "// implement each one.\n"
      "#pragma once\n\n"
      "#include <array>\n#include <cstdint>\n#include <string>\n#include <tuple>\n#include "
      "<vector>\n\n"
      "#include <ATen/core/Dict.h>\n"
      "#include <ATen/core/Generator.h>\n"
      "#include <ATen/core/List.h>\n"
      "#include <ATen/core/Tensor.h>\n";
  // Boxed kernels take the operator and the stack.
  if (boxed) out += "#include <ATen/core/dispatch/Dispatcher.h>\n#include <ATen/core/stack.h>\n";
  out +=
      "#include <c10/core/Scalar.h>\n"
      "#include <c10/util/Optional.h>\n"
      "#include <c10/util/string_view.h>\n";
  for (const std::string& ns : decls.namespaces()) {
    fmt::format_to(std::back_inserter(out), "\nnamespace {} {{\n\n{}\n}}  // namespace {}\n", ns,
                   decls.render(ns), ns);
  }
  return out;
}

}  // namespace schemac::codegen
