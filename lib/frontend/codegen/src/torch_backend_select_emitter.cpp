// BackendSelect kernels of the PyTorch target, for factory operators (torch_emitters.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/torch_emitters.h"

namespace schemac::codegen {
namespace {

// The argument named `name` whose type (under an optional) is `base`, or nullptr.
const schema::Argument* named_argument(const schema::FunctionSchema& schema, std::string_view name,
                                       schema::BaseType base) {
  for (const schema::Argument& a : schema.arguments) {
    const schema::Type& t = a.type.is_optional() ? a.type.element() : a.type;
    if (a.name == name && t.is_base(base)) return &a;
  }
  return nullptr;
}

// `dtype` as an optional for c10::computeDispatchKey, or c10::nullopt when there is none.
std::string optional_argument(const schema::FunctionSchema& schema, std::string_view name,
                              schema::BaseType base) {
  return named_argument(schema, name, base) != nullptr ? kernel_types::cpp_identifier(name)
                                                       : "c10::nullopt";
}

}  // namespace

std::string emit_torch_backend_select(std::string_view ns,
                                      const std::vector<const GenOperator*>& ops,
                                      torch_releases::TorchVersion release) {
  std::string kernels;
  std::string registrations;
  for (const GenOperator* op : ops) {
    if (!op->needs_backend_select) continue;
    const std::optional<kernel_types::TorchSignature> typed = kernel_types::torch_native_signature(
        op->schema, op->use_const_ref_for_mutable_tensors, false, nullptr, release);
    if (!typed) continue;  // check_torch_model has refused it
    const kernel_types::TorchSignature& sig = *typed;
    // The typed call and the kernel take the arguments in schema order.
    std::vector<std::string> params(sig.params.size()), types(sig.params.size()),
        names(sig.params.size());
    for (size_t i = 0; i < sig.params.size(); ++i) {
      params[sig.schema_index[i]] = sig.params[i].type + " " + sig.params[i].name;
      types[sig.schema_index[i]] = sig.params[i].type;
      names[sig.schema_index[i]] = sig.params[i].name;
    }
    const std::string function = "backend_select_" + op->handle_name;
    fmt::format_to(std::back_inserter(kernels),
                   "// {}: the backend its dtype, layout and device name\n"
                   "{} {}({}) {{\n"
                   "  static const auto op = c10::Dispatcher::singleton()\n"
                   "      .findSchemaOrThrow({}, {})\n"
                   "      .typed<{}({})>();\n"
                   "  const c10::DispatchKeySet ks(c10::computeDispatchKey({}, {}, device));\n"
                   "  return op.redispatch(ks, {});\n"
                   "}}\n",
                   op->canonical, sig.return_type, function, fmt::join(params, ", "),
                   cpp_string_literal(op->ns + "::" + op->name), cpp_string_literal(op->overload),
                   sig.return_type, fmt::join(types, ", "),
                   optional_argument(op->schema, "dtype", schema::BaseType::ScalarType),
                   optional_argument(op->schema, "layout", schema::BaseType::Layout),
                   fmt::join(names, ", "));
    fmt::format_to(std::back_inserter(registrations), "  m.impl({}, TORCH_FN({}));\n",
                   cpp_string_literal(schema::operator_full_name(op->name, op->overload)),
                   function);
  }
  if (registrations.empty()) return {};
  return fmt::format(
      "namespace {{\n\n{}\n}}  // namespace\n\nTORCH_LIBRARY_IMPL({}, BackendSelect, m) {{\n{}}}\n",
      kernels, ns, registrations);
}

}  // namespace schemac::codegen
