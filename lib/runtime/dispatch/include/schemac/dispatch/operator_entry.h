// OperatorEntry: one operator's registrations and its computed dispatch table
// (docs/dispatch-semantics.md §4-5).
//
// ## Source of truth and derived state
// The registrations (`kernels(key)`, newest first, per runtime or alias key) are the source of
// truth. The computed table (one entry per runtime slot) and the non-fallthrough masks are
// derived from them, the operator's definition, and the registry's backend fallbacks. Every
// change recomputes the affected slots; check_invariants() recomputes all of them and compares.
//
// ## Concurrency
// Registration-side members are guarded by the Dispatcher's registry mutex. The read path
// (lookup, entry, non_fallthrough_keys) takes no lock: each slot is an atomic pointer to an
// immutable TableEntry, and every entry ever published stays alive until the OperatorEntry is
// destroyed (with the Dispatcher), so a call racing with a (de)registration sees either the old or
// the new entry, both valid.
#pragma once

#include <array>
#include <atomic>
#include <bitset>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/dispatch/kernel_function.h"
#include "schemac/dispatch/operator_signature.h"
#include "schemac/keys/dispatch_key_set.h"

namespace schemac::dispatch {

using keys::DispatchKey, keys::DispatchKeySet, keys::kNumBackends, keys::kNumRuntimeEntries,
    keys::to_string;

// Why a table entry holds its kernel. The strings are the provenance suffixes of dumps.
enum class EntryReason : uint8_t {
  Kernel,                  // "kernel": registered directly to the key
  DefaultBackendKernel,    // "default backend kernel": CompositeExplicitAutograd[NonFunctional]
  NestedKernel,            // "nested kernel": CompositeImplicitAutogradNestedTensor
  MathKernel,              // "math kernel": CompositeImplicitAutograd
  AmbiguousAutogradOther,  // "ambiguous autogradother"
  AutogradKernel,          // "autograd kernel": the Autograd alias
  BatchedKernel,           // "batched kernel": FuncTorchBatchedDecomposition
  BackendFallback,         // "backend fallback"
  Missing,                 // "missing": no kernel
};
std::string_view to_string(EntryReason reason);

// How the JIT may treat the operator's aliasing; printed by the state dump.
enum class AliasAnalysisKind : uint8_t {
  CONSERVATIVE,
  FROM_SCHEMA,
  PURE_FUNCTION,
  INTERNAL_SPECIAL_CASE
};
std::string_view to_string(AliasAnalysisKind kind);

// One registered kernel.
struct AnnotatedKernel {
  KernelFunction kernel;
  std::string debug;  // a name for humans: "fn_CPU", or "registered at <site>"
  std::string site;   // file:line of the registration
  std::optional<OperatorSignature> inferred;  // schema inferred from a C++ signature
  uint64_t id = 0;                            // unique per registration in its Dispatcher
};

// One computed slot. Immutable once published.
struct TableEntry {
  KernelFunction kernel;  // invalid when missing
  EntryReason reason = EntryReason::Missing;
  std::string debug;
  std::string site;
  uint64_t source_id = 0;  // the AnnotatedKernel or fallback registration it came from; 0: none
};

// The operator's definition (from def()).
struct OperatorDefinition {
  OperatorSignature schema;
  std::string schema_text;  // canonical printing
  std::string debug;        // "registered at <site>"
  std::string site;
  std::optional<AliasAnalysisKind> alias_kind;  // nullopt: the default (CONSERVATIVE)
  uint64_t id = 0;
};

// The registry's backend fallbacks, one optional entry per runtime slot, and the non-fallthrough
// masks of an operator that has no kernel yet (which only the fallbacks decide): the registry
// sets them with OperatorEntry::masks_without_kernels() whenever a fallback changes, so a new
// operator starts from them instead of recomputing them.
struct FallbackTable {
  std::array<const TableEntry*, kNumRuntimeEntries> entries{};
  std::array<uint64_t, kNumBackends + 1> masks_without_kernels = full_masks();

  const TableEntry*& operator[](size_t slot) { return entries[slot]; }
  const TableEntry* operator[](size_t slot) const { return entries[slot]; }

 private:
  static std::array<uint64_t, kNumBackends + 1> full_masks() {
    std::array<uint64_t, kNumBackends + 1> masks;
    masks.fill(DispatchKeySet::full().raw());
    return masks;
  }
};

class OperatorEntry {
 public:
  OperatorEntry(std::string name, std::string overload, const FallbackTable* fallbacks);
  OperatorEntry(const OperatorEntry&) = delete;
  OperatorEntry& operator=(const OperatorEntry&) = delete;
  ~OperatorEntry();

  // "ns::op", "overload" ("" when none), and "ns::op.overload".
  const std::string& name() const { return name_; }
  const std::string& overload() const { return overload_; }
  std::string full_name() const { return operator_full_name(name_, overload_); }

  // ## Lock-free read path
  // The kernel for a key set after TLS and non_fallthrough_keys() have been applied.
  const KernelFunction& lookup(DispatchKeySet ks) const {
    return table_[static_cast<size_t>(ks.dispatch_table_index())]
        .load(std::memory_order_acquire)
        ->kernel;
  }
  const TableEntry& entry_for(DispatchKeySet ks) const {
    return *table_[static_cast<size_t>(ks.dispatch_table_index())].load(std::memory_order_acquire);
  }
  // The computed entry of a runtime key (Undefined included); the missing entry for other keys.
  const TableEntry& entry(DispatchKey runtime_key) const;
  const TableEntry& entry_at_slot(int slot) const {
    return *table_[static_cast<size_t>(slot)].load(std::memory_order_acquire);
  }
  // The mask to intersect a call's key set with: every backend bit, and every functionality bit
  // whose entry is not a fallthrough for the set's highest backend.
  DispatchKeySet non_fallthrough_keys(DispatchKeySet ks) const {
    return DispatchKeySet::from_raw(
        masks_[static_cast<size_t>(ks.backend_index())].load(std::memory_order_acquire));
  }
  // Both steps of a call at once: `ks` (after TLS) is intersected with non_fallthrough_keys(ks),
  // and the kernel of the result is returned. The highest backend is found once: the mask keeps
  // every backend bit.
  const KernelFunction& mask_and_lookup(DispatchKeySet& ks) const {
    const int backend = ks.backend_index();
    ks = ks & DispatchKeySet::from_raw(
                  masks_[static_cast<size_t>(backend)].load(std::memory_order_acquire));
    return table_[static_cast<size_t>(ks.dispatch_table_index(backend))]
        .load(std::memory_order_acquire)
        ->kernel;
  }
  DispatchKeySet non_fallthrough_keys_for_backend(keys::BackendComponent b) const {
    return DispatchKeySet::from_raw(masks_[static_cast<size_t>(b)].load(std::memory_order_acquire));
  }

  // The definition (schema and site), or null. Lock-free too: a call by name reads it while
  // another thread may (un)define the operator, so every definition ever set stays alive until
  // the entry is destroyed and an undefine only unpublishes it.
  const OperatorDefinition* definition() const {
    return definition_.load(std::memory_order_acquire);
  }
  bool has_schema() const { return definition() != nullptr; }
  const OperatorSignature* schema() const {
    const OperatorDefinition* d = definition();
    return d ? &d->schema : nullptr;
  }

  // keys_with_kernels() without the registry mutex, for the error of a call that found no
  // kernel while another thread may be registering: each key as some moment saw it.
  std::vector<DispatchKey> keys_with_kernels_now() const;

  // ## Registration-side state (read under the registry mutex, or when nothing registers)
  // Kernels registered to a runtime or alias key, newest (active) first; valid until the next
  // registration change.
  const std::vector<AnnotatedKernel>& kernels(DispatchKey key) const;
  // Keys with at least one kernel, in numeric enum order (the dump's order).
  std::vector<DispatchKey> keys_with_kernels() const;
  bool has_any_kernel() const;
  // Runtime keys whose entry is a kernel registered to that very key ("[kernel]").
  std::vector<DispatchKey> keys_with_direct_kernels() const;

  // Computes a slot from the registrations, ignoring the stored table.
  TableEntry compute_entry(int slot) const;
  // "" when the stored table and masks equal a full recomputation; else what differs.
  std::string check_invariants() const;

  // ## Mutation: for the Dispatcher, under its registry mutex
  void set_definition(OperatorDefinition definition);
  void clear_definition();
  void add_kernel(DispatchKey key, AnnotatedKernel kernel);
  // Removes the kernel with this id from `key`'s list; false when it is not there.
  bool remove_kernel(DispatchKey key, uint64_t id);
  // Recomputes the slots a change to `key` can affect (kernels or a fallback of `key`).
  void refresh_after_change(DispatchKey key);
  void refresh_slot(int slot);
  // The masks of an operator with no kernel under these fallbacks.
  static std::array<uint64_t, kNumBackends + 1> masks_without_kernels(
      const FallbackTable& fallbacks);

 private:
  // Which registration a slot takes, without building its entry: a kernel of this operator, or
  // a shared entry (missing, ambiguous, or a registry fallback).
  struct Choice {
    EntryReason reason;
    const AnnotatedKernel* kernel;
    const TableEntry* shared;
    bool same_as(const TableEntry& entry) const;
  };
  Choice choose(int slot) const;
  const AnnotatedKernel* front(DispatchKey key) const;
  // Publishes new entries for `slots` and recomputes the masks.
  void publish(const std::vector<int>& slots);
  const TableEntry* intern(const Choice& choice);
  // The non-fallthrough masks of a table: index 0 for sets without a backend bit, else the
  // BackendComponent value.
  static std::array<uint64_t, kNumBackends + 1> masks_for(
      const std::array<const TableEntry*, kNumRuntimeEntries>& table);
  std::array<uint64_t, kNumBackends + 1> compute_masks() const;

  std::string name_;
  std::string overload_;
  const FallbackTable* fallbacks_;
  std::atomic<const OperatorDefinition*> definition_{nullptr};
  std::vector<std::unique_ptr<const OperatorDefinition>> definitions_;  // every one ever set
  static constexpr size_t kNumKeyValues = static_cast<size_t>(DispatchKey::EndOfAliasKeys) + 1;
  // The kernels of each key that has any, sorted by key: an operator has kernels for a few of
  // the keys, so a short list makes a new entry small (no per-key vector to build and destroy).
  struct KeyKernels {
    DispatchKey key;
    std::vector<AnnotatedKernel> kernels;  // never empty
  };
  std::vector<KeyKernels> kernels_;
  // Where `key`'s list is in kernels_, or where it would go.
  size_t kernel_list_position(DispatchKey key) const;
  // `key`'s list, or null.
  const KeyKernels* find_kernels(DispatchKey key) const;
  // Bit v: key v has kernels; what keys_with_kernels_now() reads.
  std::array<std::atomic<uint64_t>, (kNumKeyValues + 63) / 64> kernel_key_bits_{};
  void set_kernel_key_bit(size_t v, bool on);
  size_t num_kernels_ = 0;                             // over every key
  std::bitset<kNumRuntimeEntries> slots_with_kernel_;  // runtime slots with a direct kernel
  std::array<std::atomic<const TableEntry*>, kNumRuntimeEntries> table_;
  std::array<std::atomic<uint64_t>, kNumBackends + 1> masks_;
  std::vector<std::unique_ptr<TableEntry>> published_;  // every entry ever published, kept alive
};

}  // namespace schemac::dispatch
