// Dispatcher: the operator registry. Holds every operator's OperatorEntry and the global backend
// fallbacks, and turns def/impl/fallback calls into registrations undone by their handles.
//
// `Dispatcher::singleton()` is the process-wide registry (it lives in the shared library, so every
// loaded operator library sees the same one) and starts with PyTorch's default fallbacks
// (register_default_fallbacks). Separate instances are for what-if sessions and tests; each starts
// empty.
//
// Registration takes one mutex. Calls never do: they go through OperatorEntry's lock-free read
// path. OperatorEntry objects are never destroyed before their Dispatcher, so pointers to them
// stay valid even after every registration of the operator is gone.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/dispatch/dispatch_error.h"
#include "schemac/dispatch/kernel_function.h"
#include "schemac/dispatch/operator_entry.h"
#include "schemac/dispatch/registration_handle.h"
#include "schemac/keys/dispatch_key.h"

namespace schemac::dispatch {

using keys::DispatchKey;

// A registered backend fallback, as shown in dumps.
struct FallbackRegistration {
  DispatchKey key = DispatchKey::Undefined;
  const TableEntry* entry = nullptr;  // reason BackendFallback
};

class Dispatcher {
 public:
  Dispatcher();
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // The process-wide registry, created on first use with the default fallbacks. Never destroyed,
  // so registration handles in static objects of other libraries can always undo themselves.
  static Dispatcher& singleton();

  // ## Lookup
  // The operator "ns::op" with this overload ("" for none), when it has a definition or a kernel;
  // nullptr otherwise.
  OperatorEntry* find(std::string_view name, std::string_view overload) const;
  // The same for "ns::op.overload" or "ns::op".
  OperatorEntry* find(std::string_view full_name) const;
  // Only an operator with a definition.
  OperatorEntry* find_schema(std::string_view name, std::string_view overload) const;
  // Every operator with a definition or a kernel, sorted by full name.
  std::vector<const OperatorEntry*> operators() const;

  // ## Registration. Each throws DispatchError and leaves the registry unchanged on failure.
  // Defines an operator from its schema text (parsed by lib/frontend/schema). A second definition
  // of the same name and overload is an error naming both sites.
  RegistrationHandle def(
      std::string_view schema_text, std::string site,
      std::optional<AliasAnalysisKind> alias_kind = AliasAnalysisKind::FROM_SCHEMA);
  // Registers a kernel for `op_name` ("ns::op" or "ns::op.overload") on `key`; nullopt is the
  // catch-all, stored under CompositeImplicitAutograd. Allowed before def(). An empty `debug`
  // becomes "registered at <site>". When `inferred` is given it must match the definition.
  RegistrationHandle impl(std::string_view op_name, std::optional<DispatchKey> key,
                          KernelFunction kernel, std::string debug, std::string site,
                          std::optional<OperatorSignature> inferred = std::nullopt);
  // Registers the global fallback of a runtime key (at most one per key).
  RegistrationHandle fallback(DispatchKey key, KernelFunction kernel, std::string debug,
                              std::string site);

  // The fallback registered for a runtime key, or nullptr.
  const TableEntry* fallback_entry(DispatchKey key) const;
  std::vector<FallbackRegistration> fallbacks() const;

  // Recomputes every table and compares; throws DispatchError naming the first difference.
  void check_invariants() const;

  // The registry mutex, for readers that walk registration-side state while others register.
  std::mutex& mutex() const { return mutex_; }

  // ## Registration journal (for RegistrationTransaction, registration_transaction.h)
  // While the journal is open, every successful def/impl/fallback also records how to undo it.
  // close_journal(true) undoes the recorded registrations, newest first; their handles then do
  // nothing when destroyed. Throws DispatchError when a journal is already open.
  void open_journal();
  void close_journal(bool undo);

 private:
  OperatorEntry& find_or_create(std::string_view name, std::string_view overload);
  OperatorEntry* find_locked(std::string_view name, std::string_view overload) const;
  void undo_def(OperatorEntry* op, uint64_t id);
  void undo_impl(OperatorEntry* op, DispatchKey key, uint64_t id);
  void undo_fallback(DispatchKey key, uint64_t id);
  // The handle of a new registration; also records `undo` in the journal when it is open.
  RegistrationHandle make_handle(std::function<void()> undo);

  mutable std::mutex mutex_;
  uint64_t next_id_ = 1;
  std::map<std::string, std::unique_ptr<OperatorEntry>, std::less<>> operators_;  // by full name
  FallbackTable fallbacks_{};
  std::vector<std::unique_ptr<TableEntry>> fallback_entries_;  // every fallback entry, kept alive
  std::optional<std::vector<std::function<void()>>> journal_;  // open: undo actions, oldest first
};

// Registers PyTorch's default fallbacks (newest set) into `dispatcher`: fallthrough for
// BackendSelect, ADInplaceOrView, every Autograd key, every Autocast key, PreDispatch,
// FuncTorchVmapMode and VmapMode; boxed fallbacks for Python, the functorch layers,
// Functionalize, Named, Conjugate, Negative, ZeroTensor, Tracer, the batching keys,
// FuncTorchGradWrapper, PythonTLSSnapshot and PythonDispatcher. Their debug names read
// "registered at lib/runtime/dispatch/src/dispatch_default_fallbacks.cpp:<line>". The handles are
// kept for the life of the dispatcher.
void register_default_fallbacks(Dispatcher& dispatcher);

// Splits "ns::op.overload" into ("ns::op", "overload").
std::pair<std::string, std::string> split_operator_name(std::string_view full_name);

}  // namespace schemac::dispatch
