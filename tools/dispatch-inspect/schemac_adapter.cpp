// Our runtime's registry as the report model (schemac_adapter.h).
#include "schemac_adapter.h"

#include <dlfcn.h>

#include <iostream>
#include <map>

#include "cli.h"
#include "library_loader.h"
#include "operator_lookup.h"
#include "report/names.h"
#include "resolve.h"
#include "schemac/dispatch/local_dispatch_key_set.h"

namespace schemac::inspect {
namespace {

using keys::DispatchKey;

std::string kernel_kinds(const dispatch::KernelFunction& kernel) {
  std::string out;
  if (kernel.is_valid()) out += "boxed ";
  if (kernel.has_unboxed()) out += "unboxed ";
  return out;
}

std::string alias_kind_text(const dispatch::OperatorDefinition& def) {
  if (!def.alias_kind)
    return fmt::format("{} (default)", to_string(dispatch::AliasAnalysisKind::CONSERVATIVE));
  return std::string(to_string(*def.alias_kind));
}

// The key lists of a resolve request, parsed, and the thread-local sets they make: a fresh
// thread's plus --include / --exclude, and autocast enabled for a device takes that device's
// Autocast key out of the excluded set (as torch.autocast does; the included set stays as it is).
// Exit 2 on a name that is no runtime key or device.
report::OperatorSummary operators_of_one(const dispatch::OperatorEntry& op) {
  report::OperatorSummary summary{op.full_name(), false, "", "", {}};
  if (const auto& def = op.definition()) {
    summary.has_schema = true;
    summary.schema = def->schema_text;
    summary.site = def->site;
  }
  for (DispatchKey key : op.keys_with_kernels()) summary.keys.emplace_back(to_string(key));
  return summary;
}

int parse_keys(const report::Request& r, keys::DispatchKeySet& keys, keys::DispatchKeySet& included,
               keys::DispatchKeySet& excluded) {
  std::string error;
  for (auto [text, set] :
       {std::pair{&r.keys, &keys}, {&r.include, &included}, {&r.exclude, &excluded}}) {
    if (!parse_key_list(*text, *set, error)) {
      cli::error("dispatch-inspect resolve", "{}", error);
      return cli::kExitUsage;
    }
  }
  included = dispatch::kDefaultIncludedSet | included;
  excluded = dispatch::kDefaultExcludedSet | excluded;
  for (const std::string& device : r.autocast) {
    const auto key = keys::parse_dispatch_key(report::autocast_key_name(device));
    if (!key) {
      cli::error("dispatch-inspect resolve",
                 "autocast has no key for device '{}' (cpu, cuda, xpu, ...)", device);
      return cli::kExitUsage;
    }
    excluded = excluded.remove(*key);
  }
  return cli::kExitOk;
}

// The key sets a library request asks each operator's chain for; exit 2 on a name that is no
// runtime key.
int parse_key_sets(const report::Request& r, std::vector<keys::DispatchKeySet>& sets) {
  for (const std::string& text : r.key_sets) {
    std::string error;
    if (!parse_key_list(text, sets.emplace_back(), error)) {
      cli::error("dispatch-inspect report", "{}", error);
      return cli::kExitUsage;
    }
  }
  return cli::kExitOk;
}

// The operators `loaded` registered: new ones, or ones whose keys with kernels or schema changed
// since `before`; every operator when no library was loaded. Each with its chain for each of
// `key_sets`, under a fresh thread's included and excluded sets.
report::Library library_of(const report::Operators& before, bool loaded,
                           const std::vector<keys::DispatchKeySet>& key_sets) {
  std::map<std::string, const report::OperatorSummary*> old;
  for (const report::OperatorSummary& op : before.operators) old[op.name] = &op;
  report::Library library;
  for (const dispatch::OperatorEntry* op : dispatch::Dispatcher::singleton().operators()) {
    report::OperatorSummary summary = operators_of_one(*op);
    const auto was = old.find(summary.name);
    if (loaded && was != old.end() && was->second->keys == summary.keys &&
        was->second->has_schema == summary.has_schema)
      continue;
    std::vector<report::Resolution> chains;
    for (keys::DispatchKeySet set : key_sets)
      chains.push_back(
          resolve(*op, set, dispatch::kDefaultIncludedSet, dispatch::kDefaultExcludedSet));
    library.operators.push_back(
        {std::move(summary), table_of(*op, {true, {}}), dump_of(*op), std::move(chains)});
  }
  return library;
}

}  // namespace

report::Table table_of(const dispatch::OperatorEntry& op, const inspect::TableOptions& options) {
  report::Table table{op.full_name(), true, {}};
  for (int slot = 0; slot < keys::kNumRuntimeEntries; ++slot) {
    const dispatch::TableEntry& e = op.entry_at_slot(slot);
    const DispatchKey key = keys::runtime_key_for_slot(slot);
    if (!e.kernel.is_valid() && !options.all_keys) continue;
    if (options.show_key && !options.show_key(key)) continue;
    table.rows.push_back({std::string(to_string(key)), e.kernel.is_valid(),
                          e.kernel.is_valid() ? e.debug : "", std::string(to_string(e.reason)),
                          e.kernel.is_fallthrough(), e.site});
  }
  return table;
}

report::Dump dump_of(const dispatch::OperatorEntry& op) {
  report::Dump dump;
  dump.name = op.full_name();
  if (const auto& def = op.definition()) {
    dump.has_schema = true;
    dump.schema = def->schema_text;
    dump.debug = def->debug;
    dump.site = def->site;
    dump.alias_analysis = alias_kind_text(*def);
  }
  for (DispatchKey key : op.keys_with_kernels()) {
    const auto& list = op.kernels(key);
    for (size_t i = 0; i < list.size(); ++i) {
      const dispatch::AnnotatedKernel& k = list[i];
      dump.kernels.push_back({std::string(to_string(key)), keys::is_alias_key(key), i == 0, k.debug,
                              k.site, k.inferred.has_value(), k.inferred ? k.inferred->text : "",
                              kernel_kinds(k.kernel)});
    }
  }
  return dump;
}

report::Operators operators_of(const dispatch::Dispatcher& dispatcher) {
  report::Operators out;
  for (const dispatch::OperatorEntry* op : dispatcher.operators())
    out.operators.push_back(operators_of_one(*op));
  return out;
}

report::Response answer(const report::Request& request) {
  report::Response response;
  keys::DispatchKeySet keys, included, excluded;
  if (request.kind == "resolve") response.status = parse_keys(request, keys, included, excluded);
  std::vector<keys::DispatchKeySet> key_sets;
  if (request.kind == "library") response.status = parse_key_sets(request, key_sets);
  if (response.status != cli::kExitOk) return response;
  const report::Operators before = request.kind == "library"
                                       ? operators_of(dispatch::Dispatcher::singleton())
                                       : report::Operators{};
  if (!load_libraries(request.libraries, std::cerr)) {
    response.status = cli::kExitProblems;
    return response;
  }
  if (request.kind == "library") {
    response.library = library_of(before, !request.libraries.empty(), key_sets);
    return response;
  }
  if (request.kind == "operators") {
    response.operators = operators_of(dispatch::Dispatcher::singleton());
    return response;
  }
  const dispatch::OperatorEntry* op = find_operator_or_explain(request.op, std::cerr);
  if (op == nullptr) {
    // A PyTorch extension loads (it links libtorch) but registers with PyTorch's dispatcher.
    if (!request.libraries.empty() && dlopen("libc10.so", RTLD_LAZY | RTLD_NOLOAD) != nullptr)
      std::cerr << "note: a loaded library links libtorch, so it registers with PyTorch's "
                   "dispatcher: try "
                   "--runtime torch\n";
    response.status = cli::kExitProblems;
  } else if (request.kind == "table") {
    response.table = table_of(*op, {request.all_keys, {}});
  } else if (request.kind == "dump") {
    response.dump = dump_of(*op);
  } else {
    response.resolution = resolve(*op, keys, included, excluded);
  }
  return response;
}

}  // namespace schemac::inspect
