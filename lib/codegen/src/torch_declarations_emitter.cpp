// NativeFunctions.h of the PyTorch target: every kernel a registration binds, declared with
// torchgen's native signature, in the namespace its dispatch entry names (torch_emitters.h).
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/torch_emitters.h"

namespace schemac::gen {
namespace {

struct Declaration {
  std::string return_type;
  std::string params;
  std::string schema;
};

// Per C++ namespace, the declarations keyed by (kernel, parameter types); a later operator
// whose kernel differs only in the return type is left as a comment (C++ cannot overload on it).
struct NamespaceDeclarations {
  std::map<std::pair<std::string, std::string>, Declaration> declared;
  std::set<std::string> conflicts;
};

std::string render(const NamespaceDeclarations& decls) {
  std::string out;
  for (const auto& [key, decl] : decls.declared) {
    fmt::format_to(std::back_inserter(out), "// {}\n{} {}({});\n", decl.schema, decl.return_type, key.first,
                   decl.params);
  }
  for (const std::string& line : decls.conflicts) out += line;
  return out;
}

}  // namespace

std::string emit_torch_declarations(const GenModel& model) {
  std::map<std::string, NamespaceDeclarations> by_namespace;
  for (const GenOperator& op : model.operators) {
    for (const KernelBinding& binding : op.kernels) {
      const TorchSignature sig = torch_signature(op, binding);
      std::string types;
      for (const CppParam& p : sig.params) types += (types.empty() ? "" : ", ") + p.type;
      std::string params;
      for (const CppParam& p : sig.params) params += (params.empty() ? "" : ", ") + p.type + " " + p.name;
      NamespaceDeclarations& decls = by_namespace[kernel_namespace(op, binding)];
      auto [it, inserted] =
          decls.declared.try_emplace({binding.kernel, types}, Declaration{sig.return_type, params, op.canonical});
      if (!inserted && it->second.return_type != sig.return_type) {
        decls.conflicts.insert(fmt::format("// not declared: {} for {} (differs from {} only in the return type)\n",
                                           binding.kernel, op.canonical, it->second.schema));
      }
    }
  }
  std::string out = banner(model);
  out +=
      "// The kernels the PyTorch registrations bind, declared with torchgen's native signatures:\n"
      "// implement each one.\n"
      "#pragma once\n\n"
      "#include <array>\n#include <cstdint>\n#include <string>\n#include <tuple>\n#include <vector>\n\n"
      "#include <ATen/core/Dict.h>\n"
      "#include <ATen/core/Generator.h>\n"
      "#include <ATen/core/List.h>\n"
      "#include <ATen/core/Tensor.h>\n"
      "#include <c10/core/Scalar.h>\n"
      "#include <c10/util/Optional.h>\n"
      "#include <c10/util/string_view.h>\n";
  for (const auto& [ns, decls] : by_namespace) {
    fmt::format_to(std::back_inserter(out), "\nnamespace {} {{\n\n{}\n}}  // namespace {}\n", ns, render(decls), ns);
  }
  return out;
}

}  // namespace schemac::gen
