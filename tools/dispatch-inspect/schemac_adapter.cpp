// Our runtime as an inspect Runtime (schemac_adapter.h).
#include "schemac_adapter.h"

#include <dlfcn.h>

#include <fmt/format.h>

#include <algorithm>

#include "library_loader.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/keys/dispatch_key_names.h"

namespace schemac::inspect {
namespace {

using keys::DispatchKey;
using keys::DispatchKeySet;

DispatchKeySet ours(KeySet set) { return DispatchKeySet::from_raw(set.bits); }
KeySet neutral(DispatchKeySet set) { return {set.raw()}; }
DispatchKey key_of(Key key) { return static_cast<DispatchKey>(key); }

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

report::OperatorSummary summary_of(const dispatch::OperatorEntry& op) {
  report::OperatorSummary summary{op.full_name(), false, "", "", {}};
  if (const auto& def = op.definition()) {
    summary.has_schema = true;
    summary.schema = def->schema_text;
    summary.site = def->site;
  }
  for (DispatchKey key : op.keys_with_kernels()) summary.keys.emplace_back(to_string(key));
  return summary;
}

class SchemacRuntime final : public Runtime {
 public:
  RuntimeKind kind() const override { return RuntimeKind::Schemac; }

  std::optional<Key> parse_key(std::string_view name) const override {
    const auto key = keys::parse_dispatch_key(name);
    if (!key) return std::nullopt;
    return static_cast<Key>(*key);
  }
  bool is_runtime_key(Key key) const override {
    return !keys::is_alias_key(key_of(key)) && keys::is_runtime_key(key_of(key)) &&
           key_of(key) != DispatchKey::Undefined;
  }
  std::string key_name(Key key) const override { return std::string(to_string(key_of(key))); }
  std::vector<std::string> key_names() const override {
    std::vector<std::string> out;
    for (const keys::DispatchKeyName& key : keys::dispatch_key_names()) out.emplace_back(key.name);
    return out;
  }
  KeySet set_of(Key key) const override { return neutral(DispatchKeySet(key_of(key))); }
  std::string set_text(KeySet set) const override { return to_string(ours(set)); }
  std::vector<Key> keys_in(KeySet set) const override {
    std::vector<Key> out;
    for (DispatchKey k : ours(set)) out.push_back(static_cast<Key>(k));
    return out;
  }
  Key highest(KeySet set) const override {
    return static_cast<Key>(ours(set).highest_priority_key());
  }
  Key undefined() const override { return static_cast<Key>(DispatchKey::Undefined); }
  KeySet functionality_of(Key key) const override {
    return neutral(DispatchKeySet(keys::to_functionality_key(key_of(key))));
  }
  KeySet backend_bits() const override { return neutral(DispatchKeySet::all_backends()); }
  KeySet full_after(Key key) const override { return neutral(dispatch::keys_below(key_of(key))); }
  KeySet after_autograd() const override { return neutral(keys::after_autograd_keyset()); }
  KeyKind kind_of(Key key) const override {
    const DispatchKey k = key_of(key);
    const DispatchKey f = keys::to_functionality_key(k);
    if (k == DispatchKey::Undefined) return KeyKind::Undefined;
    if (keys::is_backend_dispatch_key(k) || f == DispatchKey::Quantized ||
        f == DispatchKey::Sparse || f == DispatchKey::SparseCsr || f == DispatchKey::NestedTensor)
      return KeyKind::Backend;
    if (f == DispatchKey::AutogradFunctionality || k == DispatchKey::AutogradOther ||
        k == DispatchKey::AutogradNestedTensor)
      return KeyKind::Autograd;
    if (k == DispatchKey::ADInplaceOrView) return KeyKind::ADInplaceOrView;
    if (dispatch::kDefaultExcludedSet.has(k)) return KeyKind::Autocast;
    if (k == DispatchKey::Python) return KeyKind::Python;
    if (k == DispatchKey::Functionalize) return KeyKind::Functionalize;
    if (k == DispatchKey::BackendSelect) return KeyKind::BackendSelect;
    return KeyKind::Other;
  }
  KeySet with_thread_local(KeySet keys, KeySet included, KeySet excluded) const override {
    // apply_tls, which every call of our dispatcher goes through, on the calling thread's sets
    // made these for the moment.
    const dispatch::ForceDispatchKeyGuard sets({ours(included), ours(excluded)});
    return neutral(dispatch::apply_tls(ours(keys)));
  }
  KeySet default_included() const override { return neutral(dispatch::kDefaultIncludedSet); }
  KeySet default_excluded() const override { return neutral(dispatch::kDefaultExcludedSet); }

  Loaded load(const std::string& path, std::ostream& err) override {
    switch (load_once(path, err)) {
      case LoadState::Now: return Loaded::Now;
      case LoadState::Before: return Loaded::Before;
      default: return Loaded::Failed;
    }
  }
  report::Operators operators() const override {
    report::Operators out;
    for (const dispatch::OperatorEntry* op : dispatch::Dispatcher::singleton().operators())
      out.operators.push_back(summary_of(*op));
    return out;
  }
  bool has_operator(const std::string& name) const override { return find(name) != nullptr; }
  report::Table table(const std::string& name, bool all_keys) const override {
    return table_of(*find(name), {all_keys, {}});
  }
  report::Dump dump(const std::string& name) const override { return dump_of(*find(name)); }
  bool takes_tensors(const std::string& name) const override {
    const auto& def = find(name)->definition();
    return !def || std::any_of(def->schema.arguments.begin(), def->schema.arguments.end(),
                               [](const auto& a) { return a.dispatches; });
  }
  std::string unknown_operator_hint(const std::vector<std::string>& libraries) const override {
    // A PyTorch extension loads (it links libtorch) but registers with PyTorch's dispatcher.
    if (!libraries.empty() && dlopen("libc10.so", RTLD_LAZY | RTLD_NOLOAD) != nullptr)
      return "note: a loaded library links libtorch, so it registers with PyTorch's dispatcher: "
             "try --runtime torch\n";
    return "";
  }

 private:
  static const dispatch::OperatorEntry* find(std::string_view name) {
    return dispatch::Dispatcher::singleton().find(name);
  }
};

}  // namespace

report::Table table_of(const dispatch::OperatorEntry& op, const inspect::TableOptions& options) {
  report::Table table{op.full_name(), true, {}};
  for (int slot = 0; slot < keys::kNumRuntimeEntries; ++slot) {
    const dispatch::TableEntry& e = op.entry_at_slot(slot);
    const DispatchKey key = keys::runtime_key_for_slot(slot);
    if (!e.kernel.is_valid() && !options.all_keys) continue;
    if (options.show_key && !options.show_key(key)) continue;
    table.rows.push_back(
        {std::string(to_string(key)), e.kernel.is_valid(), e.kernel.is_valid() ? e.debug : "",
         report::parse_reason(to_string(e.reason)).value_or(report::Reason::Missing),
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

Runtime& schemac_runtime() {
  static SchemacRuntime runtime;
  return runtime;
}

}  // namespace schemac::inspect
