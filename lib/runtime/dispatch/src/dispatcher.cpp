// The operator registry: def, impl and fallback, each undone by its RegistrationHandle.
#include "schemac/dispatch/dispatcher.h"

#include <fmt/format.h>

namespace schemac::dispatch {

using keys::DispatchKey, keys::table_index;

namespace {

std::string registered_at(const std::string& site) { return "registered at " + site; }

// Why an inferred schema does not match the definition; "" when it does.
std::string schema_difference(const OperatorSignature& expected,
                              const OperatorSignature& inferred) {
  if (expected.arguments.size() != inferred.arguments.size())
    return fmt::format("the number of arguments is different, {} vs {}", expected.arguments.size(),
                       inferred.arguments.size());
  if (expected.returns.size() != inferred.returns.size())
    return fmt::format("the number of returns is different, {} vs {}", expected.returns.size(),
                       inferred.returns.size());
  for (size_t i = 0; i < expected.arguments.size(); ++i) {
    const std::string& want = expected.arguments[i].type;
    const std::string& got = inferred.arguments[i].type;
    if (want != got) return fmt::format("type mismatch in argument {}: {} vs {}", i + 1, want, got);
  }
  for (size_t i = 0; i < expected.returns.size(); ++i) {
    const std::string& want = expected.returns[i].type;
    const std::string& got = inferred.returns[i].type;
    if (want != got) return fmt::format("type mismatch in return {}: {} vs {}", i + 1, want, got);
  }
  return "";
}

std::string mismatch_message(const OperatorEntry& op, const std::string& reason,
                             const OperatorSignature& inferred, const std::string& inferred_site) {
  const OperatorDefinition& def = *op.definition();
  return fmt::format(
      "inferred operator schema for a C++ kernel function doesn't match the expected function "
      "schema "
      "of '{}': {}\n  expected schema: {}\n    registered at {}\n  inferred schema: {}\n    "
      "registered at {}",
      op.full_name(), reason, def.schema_text, def.site, inferred.text, inferred_site);
}

}  // namespace

std::pair<std::string, std::string> split_operator_name(std::string_view full_name) {
  const size_t ns_end = full_name.rfind("::");
  const size_t dot = full_name.find('.', ns_end == std::string_view::npos ? 0 : ns_end + 2);
  if (dot == std::string_view::npos) return {std::string(full_name), ""};
  return {std::string(full_name.substr(0, dot)), std::string(full_name.substr(dot + 1))};
}

Dispatcher::Dispatcher() = default;
Dispatcher::~Dispatcher() = default;

Dispatcher& Dispatcher::singleton() {
  static Dispatcher* const instance = [] {
    auto* d = new Dispatcher();
    register_default_fallbacks(*d);
    return d;
  }();
  return *instance;
}

OperatorEntry* Dispatcher::find_locked(std::string_view name, std::string_view overload) const {
  const auto it = operators_.find(operator_full_name(name, overload));
  if (it == operators_.end()) return nullptr;
  OperatorEntry* op = it->second.get();
  return op->has_schema() || op->has_any_kernel() ? op : nullptr;
}

OperatorEntry* Dispatcher::find(std::string_view name, std::string_view overload) const {
  std::lock_guard lock(mutex_);
  return find_locked(name, overload);
}

OperatorEntry* Dispatcher::find(std::string_view full_name) const {
  const auto [name, overload] = split_operator_name(full_name);
  return find(name, overload);
}

OperatorEntry* Dispatcher::find_schema(std::string_view name, std::string_view overload) const {
  std::lock_guard lock(mutex_);
  OperatorEntry* op = find_locked(name, overload);
  return op && op->has_schema() ? op : nullptr;
}

std::vector<const OperatorEntry*> Dispatcher::operators() const {
  std::lock_guard lock(mutex_);
  std::vector<const OperatorEntry*> result;
  for (const auto& [full, op] : operators_)
    if (op->has_schema() || op->has_any_kernel()) result.push_back(op.get());
  return result;
}

OperatorEntry& Dispatcher::find_or_create(std::string_view name, std::string_view overload) {
  std::string full = operator_full_name(name, overload);
  auto it = operators_.lower_bound(full);  // one search finds the entry or where it goes
  if (it == operators_.end() || it->first != full)
    it = operators_.emplace_hint(
        it, std::move(full),
        std::make_unique<OperatorEntry>(std::string(name), std::string(overload), &fallbacks_));
  return *it->second;
}

RegistrationHandle Dispatcher::def(std::string_view schema_text, std::string site,
                                   std::optional<AliasAnalysisKind> alias_kind) {
  std::string error;
  std::optional<OperatorSignature> parsed = parse_signature(schema_text, &error);
  if (!parsed)
    throw DispatchError(
        fmt::format("invalid schema '{}' registered at {}: {}", schema_text, site, error));
  OperatorSignature& fs = *parsed;
  std::lock_guard lock(mutex_);
  OperatorEntry& op = find_or_create(fs.name, fs.overload);
  if (op.has_schema())
    throw DispatchError(fmt::format(
        "tried to register an operator ({}) with the same name and overload name multiple times; "
        "first registered at {}, again at {}",
        op.definition()->schema_text, op.definition()->site, site));
  // Kernels registered before the definition must agree with it.
  if (op.has_any_kernel()) {
    for (DispatchKey key : op.keys_with_kernels())
      for (const AnnotatedKernel& k : op.kernels(key))
        if (k.inferred)
          if (std::string why = schema_difference(fs, *k.inferred); !why.empty()) {
            throw DispatchError(
                fmt::format("inferred operator schema for a C++ kernel function doesn't match the "
                            "expected function schema "
                            "of '{}': {}\n  expected schema: {}\n    registered at {}\n  inferred "
                            "schema: {}\n    registered at {}",
                            op.full_name(), why, fs.text, site, k.inferred->text, k.site));
          }
  }
  const uint64_t id = next_id_++;
  std::string text = fs.text;
  op.set_definition(OperatorDefinition{std::move(fs), std::move(text), registered_at(site), site,
                                       alias_kind, id});
  OperatorEntry* target = &op;
  return make_handle([this, target, id] { undo_def(target, id); });
}

void Dispatcher::undo_def(OperatorEntry* op, uint64_t id) {
  std::lock_guard lock(mutex_);
  if (op->has_schema() && op->definition()->id == id) op->clear_definition();
}

RegistrationHandle Dispatcher::impl(std::string_view op_name, std::optional<DispatchKey> key,
                                    KernelFunction kernel, std::string debug, std::string site,
                                    std::optional<OperatorSignature> inferred) {
  const DispatchKey target_key = key.value_or(DispatchKey::CompositeImplicitAutograd);
  const DispatchKey stored_key =
      target_key == DispatchKey::Undefined ? DispatchKey::CompositeImplicitAutograd : target_key;
  if (!keys::is_valid_key(stored_key) ||
      (!keys::is_alias_key(stored_key) && !keys::is_runtime_key(stored_key)))
    throw DispatchError(
        fmt::format("cannot register a kernel for '{}' on '{}': not a runtime or alias key",
                    op_name, to_string(stored_key)));
  if (!kernel.is_valid())
    throw DispatchError(
        fmt::format("cannot register an invalid kernel for '{}' on '{}' (registered at {})",
                    op_name, to_string(stored_key), site));
  const auto [name, overload] = split_operator_name(op_name);
  if (name.empty())
    throw DispatchError(
        fmt::format("cannot register a kernel with an empty operator name at {}", site));
  std::lock_guard lock(mutex_);
  OperatorEntry& op = find_or_create(name, overload);
  if (inferred && op.has_schema())
    if (std::string why = schema_difference(op.definition()->schema, *inferred); !why.empty())
      throw DispatchError(mismatch_message(op, why, *inferred, site));
  const uint64_t id = next_id_++;
  if (debug.empty()) debug = registered_at(site);
  op.add_kernel(stored_key, AnnotatedKernel{std::move(kernel), std::move(debug), std::move(site),
                                            std::move(inferred), id});
  OperatorEntry* target = &op;
  return make_handle([this, target, stored_key, id] { undo_impl(target, stored_key, id); });
}

void Dispatcher::undo_impl(OperatorEntry* op, DispatchKey key, uint64_t id) {
  std::lock_guard lock(mutex_);
  op->remove_kernel(key, id);
}

RegistrationHandle Dispatcher::fallback(DispatchKey key, KernelFunction kernel, std::string debug,
                                        std::string site) {
  if (!keys::is_runtime_key(key) || !keys::is_valid_key(key))
    throw DispatchError(
        fmt::format("a backend fallback must be registered for a runtime key, not '{}' (at {})",
                    to_string(key), site));
  if (!kernel.is_valid())
    throw DispatchError(fmt::format("cannot register an invalid backend fallback for '{}' (at {})",
                                    to_string(key), site));
  const auto slot = static_cast<size_t>(table_index(key));
  std::lock_guard lock(mutex_);
  if (const TableEntry* existing = fallbacks_[slot])
    throw DispatchError(
        fmt::format("tried to register multiple backend fallbacks for the same dispatch key {}; "
                    "previous registration at {}, "
                    "new registration at {}",
                    to_string(key), existing->site, site));
  const uint64_t id = next_id_++;
  if (debug.empty()) debug = registered_at(site);
  fallback_entries_.push_back(std::make_unique<TableEntry>(TableEntry{
      std::move(kernel), EntryReason::BackendFallback, std::move(debug), std::move(site), id}));
  fallbacks_[slot] = fallback_entries_.back().get();
  fallbacks_.masks_without_kernels = OperatorEntry::masks_without_kernels(fallbacks_);
  for (auto& [full, op] : operators_) op->refresh_slot(static_cast<int>(slot));
  return make_handle([this, key, id] { undo_fallback(key, id); });
}

void Dispatcher::undo_fallback(DispatchKey key, uint64_t id) {
  const auto slot = static_cast<size_t>(table_index(key));
  std::lock_guard lock(mutex_);
  if (!fallbacks_[slot] || fallbacks_[slot]->source_id != id) return;
  fallbacks_[slot] = nullptr;
  fallbacks_.masks_without_kernels = OperatorEntry::masks_without_kernels(fallbacks_);
  for (auto& [full, op] : operators_) op->refresh_slot(static_cast<int>(slot));
}

const TableEntry* Dispatcher::fallback_entry(DispatchKey key) const {
  const int slot = table_index(key);
  if (slot < 0) return nullptr;
  std::lock_guard lock(mutex_);
  return fallbacks_[static_cast<size_t>(slot)];
}

std::vector<FallbackRegistration> Dispatcher::fallbacks() const {
  std::lock_guard lock(mutex_);
  std::vector<FallbackRegistration> result;
  for (int slot = 0; slot < keys::kNumRuntimeEntries; ++slot)
    if (const TableEntry* entry = fallbacks_[static_cast<size_t>(slot)])
      result.push_back({keys::runtime_key_for_slot(slot), entry});
  return result;
}

RegistrationHandle Dispatcher::make_handle(std::function<void()> undo) {
  if (journal_) journal_->push_back(undo);
  return RegistrationHandle(std::move(undo));
}

void Dispatcher::open_journal() {
  std::lock_guard lock(mutex_);
  if (journal_) throw DispatchError("the registration journal is already open");
  journal_.emplace();
}

void Dispatcher::close_journal(bool undo) {
  std::vector<std::function<void()>> recorded;
  {
    std::lock_guard lock(mutex_);
    if (!journal_) return;
    recorded = std::move(*journal_);
    journal_.reset();
  }
  if (!undo) return;
  // Each undo takes the mutex itself, and does nothing when its handle already ran.
  for (auto it = recorded.rbegin(); it != recorded.rend(); ++it) (*it)();
}

void Dispatcher::check_invariants() const {
  std::lock_guard lock(mutex_);
  for (const auto& [full, op] : operators_)
    if (std::string problem = op->check_invariants(); !problem.empty())
      throw DispatchError(problem);
}

}  // namespace schemac::dispatch
