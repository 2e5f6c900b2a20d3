// Kernel declarations per C++ namespace (kernel_declarations.h).
#include "schemac/codegen/kernel_declarations.h"

#include <iterator>

#include <fmt/format.h>

namespace schemac::codegen {

void KernelDeclarations::add_typed(const std::string& kernel_ns, const std::string& kernel,
                                   const std::string& return_type, std::string param_types,
                                   const std::string& params, const std::string& schema) {
  Namespace& ns = by_namespace_[kernel_ns];
  auto [it, inserted] =
      ns.typed.try_emplace({kernel, std::move(param_types)}, Typed{return_type, params, schema});
  if (!inserted && it->second.return_type != return_type) {
    ns.conflicts.insert(
        fmt::format("// not declared: {} for {} (differs from {} only in the return type)\n",
                    kernel, schema, it->second.schema));
  }
}

void KernelDeclarations::add_boxed(const std::string& kernel_ns, const std::string& kernel,
                                   const std::string& declaration) {
  by_namespace_[kernel_ns].boxed.try_emplace(kernel, declaration);
}

std::set<std::string> KernelDeclarations::namespaces() const {
  std::set<std::string> out;
  for (const auto& [name, ns] : by_namespace_) out.insert(name);
  return out;
}

std::string KernelDeclarations::render(const std::string& kernel_ns) const {
  auto found = by_namespace_.find(kernel_ns);
  if (found == by_namespace_.end()) return {};
  const Namespace& ns = found->second;
  std::string out;
  for (const auto& [key, decl] : ns.typed) {
    fmt::format_to(std::back_inserter(out), "// {}\n{} {}({});\n", decl.schema, decl.return_type,
                   key.first, decl.params);
  }
  for (const std::string& line : ns.conflicts) out += line;
  for (const auto& [kernel, declaration] : ns.boxed) out += declaration;
  return out;
}

}  // namespace schemac::codegen
