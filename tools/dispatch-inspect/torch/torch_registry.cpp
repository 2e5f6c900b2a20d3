// libtorch's registry, loaded and read into the report model (torch_registry.h).
#include "torch_registry.h"

#include <dlfcn.h>

#include <algorithm>
#include <iostream>
#include <ostream>
#include <sstream>

#include <c10/core/DispatchKeySet.h>

#include "schemac/elf/elf_check.h"

namespace schemac::inspect::torch_runtime {
namespace {

// FILE:LINE out of "registered at FILE:LINE", or "".
std::string site_of(const std::string& debug) {
  constexpr std::string_view prefix = "registered at ";
  return debug.rfind(prefix, 0) == 0 ? debug.substr(prefix.size()) : std::string();
}

std::vector<c10::DispatchKey> runtime_keys() {
  std::vector<c10::DispatchKey> keys = {c10::DispatchKey::Undefined};
  for (c10::DispatchKey k : c10::DispatchKeySet(c10::DispatchKeySet::FULL)) keys.push_back(k);
  return keys;
}

// Every key (runtime and alias) with a kernel registered directly on `op`.
std::vector<std::string> keys_with_kernels(const c10::OperatorHandle& op) {
  std::vector<std::string> keys;
  const auto end = static_cast<uint16_t>(c10::DispatchKey::EndOfAliasKeys);
  for (uint16_t i = 1; i <= end; ++i) {
    const auto k = static_cast<c10::DispatchKey>(i);
    const std::string_view name = c10::toString(k);
    if (name.rfind("StartOf", 0) == 0 || name.rfind("EndOf", 0) == 0 ||
        name == "UNKNOWN_TENSOR_TYPE_ID")
      continue;
    if (op.hasKernelForDispatchKey(k)) keys.emplace_back(name);
  }
  return keys;
}

// One kernel line of dumpState(): `Key[alias][ (inactive)]: <debug> :: <inferred> [ <kinds>]`.
std::optional<report::DumpKernel> kernel_line(const std::string& line) {
  const size_t colon = line.find(": ");
  const size_t inferred = line.find(" :: ", colon == std::string::npos ? 0 : colon);
  const size_t kinds = line.rfind(" [ ");
  if (colon == std::string::npos || inferred == std::string::npos || kinds == std::string::npos ||
      kinds < inferred || !line.ends_with("]"))
    return std::nullopt;
  report::DumpKernel k;
  k.key = line.substr(0, colon);
  k.active = !k.key.ends_with(" (inactive)");
  if (!k.active) k.key.resize(k.key.size() - 11);
  k.alias = k.key.ends_with("[alias]");
  if (k.alias) k.key.resize(k.key.size() - 7);
  k.debug = line.substr(colon + 2, inferred - colon - 2);
  k.site = site_of(k.debug);
  k.inferred = line.substr(inferred + 4, kinds - inferred - 4);
  k.has_inferred = k.inferred != "(none)";
  if (!k.has_inferred) k.inferred.clear();
  k.kinds = line.substr(kinds + 3, line.size() - kinds - 4);
  return k;
}

}  // namespace

bool load_library(const std::string& path, std::ostream& err) {
  // dlopen searches the library path for a bare name; a relative path means this directory.
  const std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
  std::optional<std::string> error = elf::check_shared_library_file(open_path);
  if (!error) {
    try {
      if (dlopen(open_path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) error = dlerror();
    } catch (const std::exception& e) {
      error = e.what();  // a TORCH_LIBRARY block threw (a duplicate definition, a bad schema)
    }
  }
  if (error) {
    err << "dispatch-inspect: error: cannot load '" << path << "': " << *error << "\n";
    return false;
  }
  return true;
}

std::string full_name(const c10::OperatorName& name) {
  return name.overload_name.empty() ? name.name : name.name + "." + name.overload_name;
}

std::optional<c10::OperatorHandle> find_operator(const std::string& name) {
  const size_t dot = name.find('.', name.rfind("::") == std::string::npos ? 0 : name.rfind("::"));
  c10::OperatorName op_name(dot == std::string::npos ? name : name.substr(0, dot),
                            dot == std::string::npos ? "" : name.substr(dot + 1));
  if (auto op = c10::Dispatcher::singleton().findOp(op_name)) return *op;
  return std::nullopt;
}

report::Table table_of(const c10::OperatorHandle& op, bool all_keys) {
  report::Table table{full_name(op.operator_name()), /*kernel_names=*/false, {}};
  std::vector<report::TableRow> present;
  std::istringstream lines(op.dumpComputedTable());
  for (std::string line; std::getline(lines, line);) {
    const size_t colon = line.find(": ");
    const size_t bracket = line.rfind(" [");
    if (colon == std::string::npos || bracket == std::string::npos || bracket < colon) continue;
    report::TableRow row;
    row.key = line.substr(0, colon);
    row.has_kernel = true;
    std::string rest = line.substr(colon + 2, bracket - colon - 2);
    constexpr std::string_view fallthrough = "fallthrough ";
    if (rest.rfind(fallthrough, 0) == 0) {
      row.fallthrough = true;
      rest.erase(0, fallthrough.size());
    }
    row.kernel = rest;
    row.site = site_of(rest);
    row.reason = report::parse_reason(line.substr(bracket + 2, line.size() - bracket - 3))
                     .value_or(report::Reason::Missing);
    present.push_back(std::move(row));
  }
  if (!all_keys) {
    table.rows = std::move(present);
    return table;
  }
  size_t next = 0;
  for (c10::DispatchKey k : runtime_keys()) {
    if (next < present.size() && present[next].key == c10::toString(k)) {
      table.rows.push_back(present[next++]);
    } else {
      table.rows.push_back({c10::toString(k), false, "", report::Reason::Missing, false, ""});
    }
  }
  return table;
}

report::Dump dump_of(const c10::OperatorHandle& op) {
  report::Dump dump;
  dump.name = full_name(op.operator_name());
  dump.has_schema = op.hasSchema();
  if (dump.has_schema) {
    const c10::FunctionSchema& schema = op.schema();
    dump.schema = c10::toString(schema);
    dump.debug = op.debug();
    dump.site = site_of(dump.debug);
    dump.alias_analysis = std::string(c10::toString(schema.aliasAnalysis())) +
                          (schema.isDefaultAliasAnalysisKind() ? " (default)" : "");
  }
  std::istringstream lines(op.dumpState());
  std::string line;
  for (int header = dump.has_schema ? 4 : 2; header > 0 && std::getline(lines, line); --header) {
  }
  while (std::getline(lines, line)) {
    if (auto kernel = kernel_line(line)) dump.kernels.push_back(std::move(*kernel));
  }
  return dump;
}

report::Operators operators_of() {
  std::vector<c10::OperatorName> names = c10::Dispatcher::singleton().getAllOpNames();
  std::sort(names.begin(), names.end(), [](const c10::OperatorName& a, const c10::OperatorName& b) {
    return full_name(a) < full_name(b);
  });
  report::Operators out;
  for (const c10::OperatorName& name : names) {
    auto op = c10::Dispatcher::singleton().findOp(name);
    if (!op) continue;
    report::OperatorSummary summary{full_name(name), op->hasSchema(), "", "",
                                    keys_with_kernels(*op)};
    if (summary.has_schema) {
      summary.schema = c10::toString(op->schema());
      summary.site = site_of(op->debug());
    }
    out.operators.push_back(std::move(summary));
  }
  return out;
}

}  // namespace schemac::inspect::torch_runtime
