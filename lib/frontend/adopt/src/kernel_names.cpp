// Kernels named with their C++ namespaces (kernel_names.h).
#include "kernel_names.h"

#include <fmt/format.h>

namespace schemac::adopt {
namespace {

// `scope` and every namespace enclosing it, innermost first, ending with the global one ("").
std::vector<std::string> enclosing(const std::string& scope) {
  std::vector<std::string> out;
  std::string at = scope;
  while (!at.empty()) {
    out.push_back(at);
    size_t colons = at.rfind("::");
    at = colons == std::string::npos ? "" : at.substr(0, colons);
  }
  out.push_back("");
  return out;
}

std::string joined(const std::string& a, const std::string& b) {
  return a.empty() || b.empty() ? a + b : a + "::" + b;
}

}  // namespace

KernelName kernel_name(const sources::NamedOperator& impl, const std::string& file,
                       std::span<const sources::ScannedFile> files) {
  std::string written = impl.kernel;
  const bool global = written.starts_with("::");
  if (global) written.erase(0, 2);
  const size_t colons = written.rfind("::");
  const std::string base = colons == std::string::npos ? written : written.substr(colons + 2);
  const std::string qualifier = colons == std::string::npos ? "" : written.substr(0, colons);
  std::vector<std::string> scopes =
      global ? std::vector<std::string>{""} : enclosing(impl.cpp_scope);
  for (const std::string& scope : scopes) {
    const std::string wanted = joined(scope, qualifier);
    const tokens::CppFunction* found = nullptr;
    std::string found_in;
    for (const sources::ScannedFile& other : files) {
      for (const tokens::CppFunction& function : other.scan.functions) {
        if (function.name != base || function.cpp_namespace != wanted) continue;
        bool internal = function.anonymous || function.is_static;
        if (internal && other.path != file) continue;  // another file's own function
        if (!found || (function.defined && !found->defined)) {
          found = &function;
          found_in = other.path;
        }
      }
    }
    if (!found) continue;
    std::string where =
        fmt::format("{}:{}:{}", found_in, found->position.line, found->position.column);
    if (found->anonymous || found->is_static) {
      return {"",
              fmt::format("'{}' ({}) is {}, which code generated into another file cannot call; "
                          "declare it in a named namespace",
                          impl.kernel, where,
                          found->anonymous ? "in an anonymous namespace" : "static")};
    }
    if (wanted.empty()) {
      return {"", fmt::format("'{}' ({}) is in the global namespace, and gen --target torch "
                              "declares a kernel written without a namespace in '<namespace>::"
                              "native'; declare it in a named namespace",
                              impl.kernel, where)};
    }
    return {joined(wanted, base), ""};
  }
  return {impl.kernel, ""};
}

}  // namespace schemac::adopt
