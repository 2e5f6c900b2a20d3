// BackendSelect kernels for factory operators (backend_select_emitter.h).
#include "schemac/codegen/backend_select_emitter.h"

#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/kernel_types/cpp_types.h"

namespace schemac::codegen {
namespace {

const schema::Argument* device_argument(const schema::FunctionSchema& schema) {
  for (const schema::Argument& a : schema.arguments) {
    const schema::Type& t = a.type.is_optional() ? a.type.element() : a.type;
    if (a.name == "device" && t.is_base(schema::BaseType::Device)) return &a;
  }
  return nullptr;
}

}  // namespace

std::string emit_backend_select(std::string_view ns, const std::vector<const GenOperator*>& ops) {
  std::string kernels;
  std::string registrations;
  for (const GenOperator* op : ops) {
    if (!op->needs_backend_select) continue;
    const kernel_types::CppSignature& sig = op->signature;
    std::string function = "backend_select_" + op->handle_name;
    bool optional = device_argument(op->schema)->type.is_optional();
    fmt::format_to(
        std::back_inserter(kernels),
        "// {}\n"
        "{} {}({}) {{\n"
        "  DispatchKeySet ks = key_set_for({}) & keys_below(DispatchKey::BackendSelect);\n"
        "  return {}::ops::{}::redispatch(ks, {});\n"
        "}}\n",
        op->canonical, sig.return_type, function, sig.param_list(false),
        optional ? "device.value_or(kCPU)" : "device", ns, op->handle_name, sig.arg_names());
    std::string op_name = schema::operator_full_name(op->name, op->overload);
    fmt::format_to(std::back_inserter(registrations), "  m.impl({}, &{}, {});\n",
                   cpp_string_literal(op_name), function, cpp_string_literal(function));
  }
  if (registrations.empty()) return {};
  return fmt::format(
      "namespace {{\n{}}}  // namespace\n\nSCHEMAC_LIBRARY_IMPL({}, BackendSelect, m) {{\n{}}}\n",
      kernels, ns, registrations);
}

}  // namespace schemac::codegen
