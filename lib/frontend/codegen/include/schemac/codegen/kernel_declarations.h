// The kernel declarations of NativeFunctions.h, per C++ namespace, for every target: one per
// (kernel, parameter types), so that a kernel bound to several operators is declared once and
// overloads are declared side by side; a later operator whose kernel differs from a declared one
// only in the return type is left as a comment (C++ cannot overload on it). Boxed kernels are
// declared once per name. The targets supply the C++ types (their type mapping) and the text
// around each namespace.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>

namespace schemac::codegen {

class KernelDeclarations {
 public:
  // A kernel with a typed signature: `return_type kernel(params);`, `param_types` its parameter
  // types alone (what tells overloads apart), `schema` the canonical schema of its operator.
  void add_typed(const std::string& kernel_ns, const std::string& kernel,
                 const std::string& return_type, std::string param_types, const std::string& params,
                 const std::string& schema);
  // A boxed kernel: `declaration` (its comment and declaration lines), for the first operator
  // that binds `kernel` in `kernel_ns`.
  void add_boxed(const std::string& kernel_ns, const std::string& kernel,
                 const std::string& declaration);
  // Makes `kernel_ns` appear in namespaces() even without a declaration.
  void add_namespace(const std::string& kernel_ns) { by_namespace_.try_emplace(kernel_ns); }

  // Every namespace added, sorted, and the declarations of one of them: the typed ones sorted by
  // (kernel, parameter types), then the return-type conflicts, then the boxed ones by name.
  std::set<std::string> namespaces() const;
  std::string render(const std::string& kernel_ns) const;

 private:
  struct Typed {
    std::string return_type;
    std::string params;
    std::string schema;
  };
  struct Namespace {
    std::map<std::pair<std::string, std::string>, Typed> typed;  // (kernel, parameter types)
    std::set<std::string> conflicts;
    std::map<std::string, std::string> boxed;  // kernel -> declaration
  };
  std::map<std::string, Namespace> by_namespace_;
};

}  // namespace schemac::codegen
