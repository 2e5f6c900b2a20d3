// Operator handles, function API and methods of our runtime (operators_emitter.h).
#include "schemac/codegen/operators_emitter.h"

#include <map>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "schemac/codegen/boxed_adapters_emitter.h"
#include "schemac/codegen/emit_util.h"
#include "schemac/kernel_types/cpp_types.h"

namespace schemac::codegen {
namespace {

// The runtime names of emit_util.h, plus the typed handle the operator structs use.
const std::string& operators_runtime_names() {
  static const std::string names =
      std::string(kRuntimeNames) + "using ::schemac::dispatch::TypedOperatorHandle;\n";
  return names;
}

constexpr std::string_view kFindOperator =
    "namespace detail {\n"
    "// The operator registered as `full_name`, or a DispatchError naming it.\n"
    "inline OperatorHandle find_operator(std::string_view full_name) {\n"
    "  std::optional<OperatorHandle> op = OperatorHandle::find(full_name);\n"
    "  if (!op) {\n"
    "    throw ::schemac::dispatch::DispatchError(\"operator '\" + std::string(full_name) +\n"
    "                                             \"' is not registered (is its library "
    "loaded?)\");\n"
    "  }\n"
    "  return *op;\n"
    "}\n"
    "}  // namespace detail\n";

std::string typed_handle(const GenOperator& op, std::string_view struct_name) {
  const kernel_types::CppSignature& sig = op.signature;
  std::string params = sig.param_list(false);
  std::string names = sig.arg_names();
  return fmt::format(
      "// {}\n"
      "struct {} {{\n"
      "  using signature = {};\n"
      "  static constexpr std::string_view name = {};\n"
      "  static constexpr std::string_view overload = {};\n"
      "  static constexpr std::string_view schema = {};\n"
      "  static const TypedOperatorHandle<signature>& handle() {{\n"
      "    static const TypedOperatorHandle<signature> op =\n"
      "        detail::find_operator({}).typed<signature>();\n"
      "    return op;\n"
      "  }}\n"
      "  static {} call({}) {{ return handle().call({}); }}\n"
      "  static {} redispatch(DispatchKeySet ks{}{}) {{\n"
      "    return handle().redispatch(ks{}{});\n"
      "  }}\n"
      "}};\n",
      op.canonical, struct_name, sig.function_type(), cpp_string_literal(op.ns + "::" + op.name),
      cpp_string_literal(op.overload), cpp_string_literal(op.canonical),
      cpp_string_literal(op.full_name), sig.return_type, params, names, sig.return_type,
      params.empty() ? "" : ", ", params, names.empty() ? "" : ", ", names);
}

// Names the API may not use: they are taken by the namespaces and helpers beside it.
bool reserved_api_name(std::string_view name) {
  return name == "ops" || name == "native" || name == "methods" || name == "TensorMethods" ||
         name == "register_operators" || name == "detail" || name == "self";
}

std::string by_value(std::string type) {
  for (std::string_view ref : {"const Tensor&", "Tensor&"}) {
    for (size_t at = type.find(ref); at != std::string::npos; at = type.find(ref, at)) {
      type.replace(at, ref.size(), "Tensor");
    }
  }
  return type;
}

struct ApiText {
  std::string functions;
  std::string methods;
};

ApiText api_of(const std::vector<const GenOperator*>& ops,
               const std::vector<std::string>& structs) {
  ApiText api;
  std::set<std::string> functions_taken;  // name(param types)
  std::set<std::string> methods_taken;
  for (size_t i = 0; i < ops.size(); ++i) {
    const GenOperator& op = *ops[i];
    if (op.boxed_only) continue;
    const kernel_types::CppSignature& sig = op.signature;
    std::string name =
        kernel_types::cpp_identifier(op.name + (is_out_overload(op.schema) ? "_out" : ""));
    if (reserved_api_name(name)) continue;
    if (op.function_variant &&
        functions_taken.insert(name + "(" + sig.param_types() + ")").second) {
      fmt::format_to(std::back_inserter(api.functions),
                     "// {}\ninline {} {}({}) {{\n  return ops::{}::call({});\n}}\n", op.canonical,
                     sig.return_type, name, sig.param_list(true), structs[i], sig.arg_names());
    }
    if (!op.method_variant) continue;
    kernel_types::CppSignature method = sig;
    std::erase_if(method.params, [](const kernel_types::CppParam& p) { return p.name == "self"; });
    if (method.params.size() + 1 != sig.params.size()) continue;  // no `self` to be a method of
    if (!methods_taken.insert(name + "(" + method.param_types() + ")").second) continue;
    fmt::format_to(std::back_inserter(api.methods),
                   "  // {}\n  {} {}({}) {{ return ops::{}::call({}); }}\n", op.canonical,
                   by_value(sig.return_type), name, method.param_list(true), structs[i],
                   sig.arg_names());
  }
  return api;
}

}  // namespace

std::string emit_operators(const GenModel& model, std::string_view umbrella_namespace) {
  std::map<std::string, std::vector<size_t>> by_namespace;
  for (size_t i = 0; i < model.operators.size(); ++i)
    by_namespace[model.operators[i].ns].push_back(i);
  by_namespace.try_emplace(std::string(umbrella_namespace));

  std::string out = banner(model);
  out +=
      "// Typed operator handles, the function API and method-style forms: calls go through the\n"
      "// dispatcher.\n"
      "#pragma once\n\n"
      "#include <optional>\n#include <string>\n#include <string_view>\n#include <tuple>\n#include "
      "<variant>\n"
      "#include <vector>\n\n"
      "#include \"schemac/dispatch/dispatch_error.h\"\n"
      "#include \"schemac/dispatch/operator_handle.h\"\n"
      "#include \"schemac/core/tensor.h\"\n";
  for (const auto& [ns, indices] : by_namespace) {
    std::vector<const GenOperator*> ops;
    std::vector<std::string> names;
    std::string handles;
    for (size_t i : indices) {
      const GenOperator& op = model.operators[i];
      ops.push_back(&op);
      names.push_back(op.handle_name);
      handles +=
          op.boxed_only ? emit_boxed_handle(op, op.handle_name) : typed_handle(op, op.handle_name);
    }
    ApiText api = api_of(ops, names);
    fmt::format_to(std::back_inserter(out),
                   "\nnamespace {}::ops {{\n\n{}\n{}\n{}}}  // namespace {}::ops\n", ns,
                   operators_runtime_names(), kFindOperator, handles, ns);
    fmt::format_to(std::back_inserter(out), "\nnamespace {} {{\n\n{}\n{}", ns,
                   operators_runtime_names(), api.functions);
    fmt::format_to(std::back_inserter(out),
                   "\n// Method-style forms of the operators with `variants: method`:\n"
                   "//   {}::methods(t).name(args...) calls name with `self` = t.\n"
                   "struct TensorMethods {{\n  Tensor self;\n{}}};\n"
                   "inline TensorMethods methods(Tensor self) {{ return "
                   "TensorMethods{{std::move(self)}}; }}\n",
                   ns, api.methods);
    if (ns == umbrella_namespace) {
      out +=
          "\n// Calls every generated registration file, so that a static library keeps them all\n"
          "// (their blocks register when the program or library is loaded).\n"
          "void register_operators();\n";
    }
    fmt::format_to(std::back_inserter(out), "\n}}  // namespace {}\n", ns);
  }
  return out;
}

}  // namespace schemac::codegen
