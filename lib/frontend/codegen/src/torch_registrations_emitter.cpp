// The TORCH_LIBRARY_IMPL blocks of the PyTorch target (torch_emitters.h).
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/torch_emitters.h"
#include "schemac/keys/dispatch_key_names.h"

namespace schemac::codegen {
namespace {

// Kernels that are declared with more than one parameter list (a boxed one counts as one):
// TORCH_FN needs the overload picked by a cast.
std::set<std::string> overloaded_kernels(const GenModel& model,
                                         torch_releases::TorchVersion release) {
  std::map<std::string, std::set<std::string>> params;
  for (const GenOperator& op : model.operators) {
    for (const KernelBinding& binding : op.kernels) {
      std::string types = "boxed";
      if (std::optional<kernel_types::TorchSignature> sig = torch_signature(op, binding, release)) {
        types.clear();
        for (const kernel_types::CppParam& p : sig->params) types += p.type + ",";
      }
      params[qualified_kernel(op, binding)].insert(types);
    }
  }
  std::set<std::string> out;
  for (const auto& [kernel, lists] : params)
    if (lists.size() > 1) out.insert(kernel);
  return out;
}

std::string param_types(const kernel_types::TorchSignature& sig) {
  std::string out;
  for (const kernel_types::CppParam& p : sig.params) out += (out.empty() ? "" : ", ") + p.type;
  return out;
}

// A wrapper taking the arguments in schema order and calling the kernel in native order.
std::string reorder_wrapper(const GenOperator& op, const kernel_types::TorchSignature& sig,
                            std::string_view name, std::string_view kernel) {
  std::vector<std::string> params(sig.params.size());
  std::vector<std::string> args;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    params[sig.schema_index[i]] = sig.params[i].type + " " + sig.params[i].name;
    args.push_back(sig.params[i].name);
  }
  return fmt::format("// {}: the schema's argument order\n{} {}({}) {{\n  return {}({});\n}}\n",
                     op.canonical, sig.return_type, name, fmt::join(params, ", "), kernel,
                     fmt::join(args, ", "));
}

}  // namespace

std::string torch_key_name(std::string_view key) {
  const keys::DispatchKeyName* entry = keys::find_dispatch_key(key);
  if (entry == nullptr || entry->kind != keys::DispatchKeyKind::synonym) return std::string(key);
  if (entry->same_as.empty()) return "CompositeImplicitAutograd";  // CatchAll
  return std::string(entry->same_as);
}

bool is_symint_kernel(const KernelBinding& binding) {
  return binding.kernel.find("_symint") != std::string::npos;
}

std::optional<kernel_types::TorchSignature> torch_signature(const GenOperator& op,
                                                            const KernelBinding& binding,
                                                            torch_releases::TorchVersion release) {
  return kernel_types::torch_native_signature(op.schema, op.use_const_ref_for_mutable_tensors,
                                              is_symint_kernel(binding), nullptr, release);
}

std::string emit_torch_impl_block(std::string_view ns, std::string_view key,
                                  const std::vector<const GenOperator*>& ops, const GenModel& model,
                                  torch_releases::TorchVersion release) {
  std::string wrappers;
  std::string body;
  std::set<std::string> overloaded;
  bool overloaded_known = false;
  const std::string torch_key = torch_key_name(key);
  for (const GenOperator* op : ops) {
    for (const KernelBinding& binding : op->kernels) {
      if (torch_key_name(binding.key) != torch_key) continue;
      const std::string op_name =
          cpp_string_literal(schema::operator_full_name(op->name, op->overload));
      const std::optional<kernel_types::TorchSignature> typed =
          torch_signature(*op, binding, release);
      std::string function = qualified_kernel(*op, binding);
      if (!typed) {
        fmt::format_to(std::back_inserter(body),
                       "  m.impl({}, torch::CppFunction::makeFromBoxedFunction<&{}>());\n", op_name,
                       function);
        continue;
      }
      const kernel_types::TorchSignature& sig = *typed;
      if (!overloaded_known) {
        overloaded = overloaded_kernels(model, release);
        overloaded_known = true;
      }
      if (overloaded.count(function) != 0) {
        function = fmt::format("static_cast<{} (*)({})>(&{})", sig.return_type, param_types(sig),
                               function);
      }
      if (sig.reordered()) {
        std::string wrapper = fmt::format("wrapper_{}_{}", torch_key, op->handle_name);
        wrappers += reorder_wrapper(*op, sig, wrapper, function);
        function = wrapper;
      }
      fmt::format_to(std::back_inserter(body), "  m.impl({}, TORCH_FN({}));\n", op_name, function);
    }
  }
  if (body.empty()) return {};
  std::string out;
  if (!wrappers.empty()) out += "namespace {\n\n" + wrappers + "\n}  // namespace\n\n";
  return out + fmt::format("TORCH_LIBRARY_IMPL({}, {}, m) {{\n{}}}\n", ns, torch_key, body);
}

}  // namespace schemac::codegen
