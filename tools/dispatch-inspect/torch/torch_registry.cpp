// libtorch's registry, loaded and read (torch_registry.h).
#include "torch_registry.h"

#include <dlfcn.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include <c10/core/DispatchKeySet.h>

namespace schemac::inspect::torch_runtime {

bool load_libraries(const std::vector<std::string>& paths, std::ostream& err) {
  for (const std::string& path : paths) {
    // dlopen searches the library path for a bare name; a relative path means this directory.
    const std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
    std::string error;
    try {
      if (dlopen(open_path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) error = dlerror();
    } catch (const std::exception& e) {
      error = e.what();  // a TORCH_LIBRARY block threw (a duplicate definition, a bad schema)
    }
    if (!error.empty()) {
      err << "dispatch-inspect: error: cannot load '" << path << "': " << error << "\n";
      return false;
    }
  }
  return true;
}

std::string full_name(const c10::OperatorName& name) {
  return name.overload_name.empty() ? name.name : name.name + "." + name.overload_name;
}

std::optional<c10::OperatorHandle> find_operator(const std::string& name, std::ostream& err) {
  const size_t dot = name.find('.', name.rfind("::") == std::string::npos ? 0 : name.rfind("::"));
  c10::OperatorName op_name(dot == std::string::npos ? name : name.substr(0, dot),
                            dot == std::string::npos ? "" : name.substr(dot + 1));
  if (auto op = c10::Dispatcher::singleton().findOp(op_name)) return *op;
  err << "dispatch-inspect: error: unknown operator '" << name << "'";
  std::vector<std::string> overloads;
  for (const c10::OperatorName& known : c10::Dispatcher::singleton().getAllOpNames()) {
    if (known.name == op_name.name) overloads.push_back(full_name(known));
  }
  std::sort(overloads.begin(), overloads.end());
  if (!overloads.empty()) {
    err << "\nnote: its overloads are:";
    for (const std::string& o : overloads) err << " " << o;
  }
  err << "\n";
  return std::nullopt;
}

std::string TableRow::site() const {
  constexpr std::string_view prefix = "registered at ";
  return debug.rfind(prefix, 0) == 0 ? debug.substr(prefix.size()) : std::string();
}

std::vector<c10::DispatchKey> runtime_keys() {
  std::vector<c10::DispatchKey> keys = {c10::DispatchKey::Undefined};
  for (c10::DispatchKey k : c10::DispatchKeySet(c10::DispatchKeySet::FULL)) keys.push_back(k);
  return keys;
}

std::vector<TableRow> computed_table(const c10::OperatorHandle& op, bool all_keys) {
  std::vector<TableRow> present;
  std::istringstream lines(op.dumpComputedTable());
  for (std::string line; std::getline(lines, line);) {
    TableRow row;
    row.present = true;
    const size_t colon = line.find(": ");
    const size_t bracket = line.rfind(" [");
    if (colon == std::string::npos || bracket == std::string::npos || bracket < colon) continue;
    row.key = line.substr(0, colon);
    std::string rest = line.substr(colon + 2, bracket - colon - 2);
    constexpr std::string_view fallthrough = "fallthrough ";
    if (rest.rfind(fallthrough, 0) == 0) {
      row.fallthrough = true;
      rest.erase(0, fallthrough.size());
    }
    row.debug = rest;
    row.reason = line.substr(bracket + 2, line.size() - bracket - 3);
    present.push_back(std::move(row));
  }
  if (!all_keys) return present;
  std::vector<TableRow> rows;
  size_t next = 0;
  for (c10::DispatchKey k : runtime_keys()) {
    if (next < present.size() && present[next].key == c10::toString(k)) {
      rows.push_back(present[next++]);
      continue;
    }
    TableRow missing;
    missing.key = c10::toString(k);
    missing.reason = "missing";
    rows.push_back(std::move(missing));
  }
  return rows;
}

std::vector<c10::DispatchKey> keys_with_kernels(const c10::OperatorHandle& op) {
  std::vector<c10::DispatchKey> keys;
  const auto end = static_cast<uint16_t>(c10::DispatchKey::EndOfAliasKeys);
  for (uint16_t i = 1; i <= end; ++i) {
    const auto k = static_cast<c10::DispatchKey>(i);
    const std::string_view name = c10::toString(k);
    if (name.rfind("StartOf", 0) == 0 || name.rfind("EndOf", 0) == 0 || name == "UNKNOWN_TENSOR_TYPE_ID") continue;
    if (op.hasKernelForDispatchKey(k)) keys.push_back(k);
  }
  return keys;
}

}  // namespace schemac::inspect::torch_runtime
