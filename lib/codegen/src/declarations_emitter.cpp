// Emitter (c): kernel declarations (declarations_emitter.h).
#include "schemac/codegen/declarations_emitter.h"

#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "schemac/codegen/boxed_adapters_emitter.h"
#include "schemac/codegen/cpp_types.h"
#include "schemac/codegen/emit_util.h"

namespace schemac::gen {
namespace {

// The declarations of one C++ namespace `kernel_ns`: one per (kernel, parameter types); a later
// operator whose kernel has the same parameters but another return type is left as a comment
// (C++ cannot overload on the return type).
std::string declarations_of(const std::vector<const GenOperator*>& ops, const std::string& kernel_ns) {
  struct Declaration {
    std::string return_type;
    std::string params;
    std::string schema;
  };
  std::map<std::pair<std::string, std::string>, Declaration> declared;  // (kernel, types)
  std::vector<std::string> conflicts;
  for (const GenOperator* op : ops) {
    if (op->boxed_only) continue;
    const CppSignature& sig = op->signature;
    for (const KernelBinding& binding : op->kernels) {
      if (kernel_namespace(*op, binding) != kernel_ns) continue;
      auto [it, inserted] = declared.try_emplace({binding.kernel, sig.param_types()},
                                                 Declaration{sig.return_type, sig.param_list(false),
                                                             op->canonical});
      if (!inserted && it->second.return_type != sig.return_type) {
        conflicts.push_back(fmt::format("// not declared: {} for {} (differs from {} only in the return type)\n",
                                        binding.kernel, op->canonical, it->second.schema));
      }
    }
  }
  std::string out;
  for (const auto& [key, decl] : declared) {
    fmt::format_to(std::back_inserter(out), "// {}\n{} {}({});\n", decl.schema, decl.return_type,
                   key.first, decl.params);
  }
  std::set<std::string> unique_conflicts(conflicts.begin(), conflicts.end());
  for (const std::string& line : unique_conflicts) out += line;
  return out;
}

}  // namespace

std::string emit_declarations(const GenModel& model) {
  // Every operator namespace's `ns::native`, and every namespace a kernel was written with.
  std::set<std::string> namespaces;
  std::vector<const GenOperator*> ops;
  for (const GenOperator& op : model.operators) {
    ops.push_back(&op);
    namespaces.insert(op.ns + "::native");
    for (const KernelBinding& binding : op.kernels) namespaces.insert(kernel_namespace(op, binding));
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
  for (const std::string& ns : namespaces) {
    fmt::format_to(std::back_inserter(out), "\nnamespace {} {{\n\n{}\n{}{}\n}}  // namespace {}\n", ns,
                   kRuntimeNames, declarations_of(ops, ns), emit_boxed_declarations(ops, ns), ns);
  }
  return out;
}

}  // namespace schemac::gen
