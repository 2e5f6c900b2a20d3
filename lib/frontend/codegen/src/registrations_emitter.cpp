// Our runtime's kernel registrations per dispatch key (registrations_emitter.h).
#include "schemac/codegen/registrations_emitter.h"

#include <fmt/format.h>

#include "schemac/codegen/boxed_adapters_emitter.h"
#include "schemac/codegen/emit_util.h"
#include "schemac/kernel_types/cpp_types.h"

namespace schemac::codegen {

std::string emit_impl_block(std::string_view ns, std::string_view key,
                            const std::vector<const GenOperator*>& ops) {
  std::string body;
  for (const GenOperator* op : ops) {
    for (const KernelBinding& binding : op->kernels) {
      if (binding.key != key) continue;
      std::string op_name = schema::operator_full_name(op->name, op->overload);
      std::string function = "&" + qualified_kernel(*op, binding);
      std::string kernel;
      if (op->boxed_only) {
        kernel = boxed_kernel_expression(function);
      } else {
        const kernel_types::CppSignature& sig = op->signature;
        kernel = fmt::format("static_cast<{} (*)({})>({})", sig.return_type, sig.param_types(),
                             function);
      }
      fmt::format_to(std::back_inserter(body), "  m.impl({}, {}, {});\n",
                     cpp_string_literal(op_name), kernel,
                     cpp_string_literal(written_kernel(binding)));
    }
  }
  if (body.empty()) return {};
  std::string block = fmt::format("SCHEMAC_LIBRARY_IMPL({}, {}, m) {{\n{}}}\n", ns, key, body);
  if (is_cuda_key(key))
    block = "#ifdef SCHEMAC_HAVE_CUDA\n" + block + "#endif  // SCHEMAC_HAVE_CUDA\n";
  return block;
}

}  // namespace schemac::codegen
