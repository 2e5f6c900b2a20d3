// Computing an operator's dispatch table from its registrations (docs/dispatch-semantics.md §4-5).
#include "schemac/dispatch/operator_entry.h"

#include <fmt/format.h>

#include <algorithm>

namespace schemac::dispatch {

using keys::BackendComponent, keys::DispatchKey, keys::DispatchKeySet, keys::is_included_in_alias,
    keys::kNumBackends, keys::kNumRuntimeEntries, keys::runtime_key_for_slot, keys::table_index;

namespace {

using SlotBits = std::bitset<kNumRuntimeEntries>;

// What the precedence rules need to know about one runtime slot; the same for every operator.
struct SlotInfo {
  DispatchKey key = DispatchKey::Undefined;
  bool in_composite_explicit_nonfunctional = false;
  bool in_composite_explicit = false;
  bool in_composite_implicit_nested = false;
  bool in_composite_implicit = false;
  bool in_autograd = false;
  bool in_batched_decomposition = false;
  SlotBits backend_slots;  // slots of backend_keyset_from_autograd(key)
};

SlotBits slots_of(DispatchKeySet ks) {
  SlotBits bits;
  for (DispatchKey k : ks) bits.set(static_cast<size_t>(table_index(k)));
  return bits;
}

struct SlotTables {
  std::array<SlotInfo, kNumRuntimeEntries> info;
  SlotBits autogradother_backend_slots;
  // For each key value (runtime or alias): the slots a change to it can affect.
  std::vector<std::vector<int>> refresh;
};

const SlotTables& slot_tables() {
  // Never destroyed, like the shared entries below.
  static const SlotTables* const tables = new SlotTables([] {
    SlotTables t;
    for (int slot = 0; slot < kNumRuntimeEntries; ++slot) {
      SlotInfo& s = t.info[static_cast<size_t>(slot)];
      const DispatchKey k = runtime_key_for_slot(slot);
      s.key = k;
      s.in_composite_explicit_nonfunctional =
          is_included_in_alias(k, DispatchKey::CompositeExplicitAutogradNonFunctional);
      s.in_composite_explicit = is_included_in_alias(k, DispatchKey::CompositeExplicitAutograd);
      s.in_composite_implicit_nested =
          is_included_in_alias(k, DispatchKey::CompositeImplicitAutogradNestedTensor);
      s.in_composite_implicit = is_included_in_alias(k, DispatchKey::CompositeImplicitAutograd);
      s.in_autograd = is_included_in_alias(k, DispatchKey::Autograd);
      s.in_batched_decomposition =
          is_included_in_alias(k, DispatchKey::FuncTorchBatchedDecomposition);
      s.backend_slots = slots_of(keys::backend_keyset_from_autograd(k));
    }
    t.autogradother_backend_slots = slots_of(keys::autogradother_backends());

    const size_t num_values = static_cast<size_t>(DispatchKey::EndOfAliasKeys) + 1;
    t.refresh.resize(num_values);
    for (size_t v = 0; v < num_values; ++v) {
      const auto key = static_cast<DispatchKey>(v);
      if (!keys::is_valid_key(key)) continue;
      SlotBits slots;
      if (keys::is_alias_key(key)) {
        // Unlike upstream, FuncTorchBatchedDecomposition refreshes FuncTorchBatched (§5 quirk).
        slots = slots_of(keys::alias_runtime_keyset(key));
        if (key == DispatchKey::CompositeImplicitAutograd ||
            key == DispatchKey::CompositeExplicitAutograd ||
            key == DispatchKey::CompositeExplicitAutogradNonFunctional)
          slots.set(0);
        // A CompositeExplicitAutograd kernel counts as a backend kernel everywhere the math
        // kernel could apply.
        if (key == DispatchKey::CompositeExplicitAutograd)
          slots |= slots_of(keys::composite_implicit_keyset());
      } else if (keys::is_runtime_key(key)) {
        const int own = table_index(key);
        slots.set(static_cast<size_t>(own));
        // Autograd slots whose "has backend kernel" test looks at this key.
        for (int slot = 0; slot < kNumRuntimeEntries; ++slot)
          if (t.info[static_cast<size_t>(slot)].backend_slots.test(static_cast<size_t>(own)))
            slots.set(static_cast<size_t>(slot));
        if (t.autogradother_backend_slots.test(static_cast<size_t>(own)))
          slots.set(static_cast<size_t>(table_index(DispatchKey::AutogradOther)));
      }
      for (int slot = 0; slot < kNumRuntimeEntries; ++slot)
        if (slots.test(static_cast<size_t>(slot))) t.refresh[v].push_back(slot);
    }
    return t;
  }());
  return *tables;
}

// The shared entries are never destroyed: handles in other libraries' static objects undo their
// registrations at exit, after this library's statics would be gone.
const TableEntry& missing_entry() {
  static const TableEntry* const entry = new TableEntry{};
  return *entry;
}

const TableEntry& ambiguous_entry() {
  static const TableEntry* const entry =
      new TableEntry{KernelFunction::make_ambiguous_autogradother(),
                     EntryReason::AmbiguousAutogradOther, "ambiguous_autogradother", "", 0};
  return *entry;
}

TableEntry entry_from(const AnnotatedKernel& k, EntryReason reason) {
  return TableEntry{k.kernel, reason, k.debug, k.site, k.id};
}

}  // namespace

std::string_view to_string(EntryReason reason) {
  switch (reason) {
    case EntryReason::Kernel: return "kernel";
    case EntryReason::DefaultBackendKernel: return "default backend kernel";
    case EntryReason::NestedKernel: return "nested kernel";
    case EntryReason::MathKernel: return "math kernel";
    case EntryReason::AmbiguousAutogradOther: return "ambiguous autogradother";
    case EntryReason::AutogradKernel: return "autograd kernel";
    case EntryReason::BatchedKernel: return "batched kernel";
    case EntryReason::BackendFallback: return "backend fallback";
    case EntryReason::Missing: return "missing";
  }
  return "missing";
}

std::string_view to_string(AliasAnalysisKind kind) {
  switch (kind) {
    case AliasAnalysisKind::CONSERVATIVE: return "CONSERVATIVE";
    case AliasAnalysisKind::FROM_SCHEMA: return "FROM_SCHEMA";
    case AliasAnalysisKind::PURE_FUNCTION: return "PURE_FUNCTION";
    case AliasAnalysisKind::INTERNAL_SPECIAL_CASE: return "INTERNAL_SPECIAL_CASE";
  }
  return "CONSERVATIVE";
}

OperatorEntry::OperatorEntry(std::string name, std::string overload, const FallbackTable* fallbacks)
    : name_(std::move(name)), overload_(std::move(overload)), fallbacks_(fallbacks) {
  // With no kernel yet, rule 3 decides every slot: the backend fallback, or missing. Nothing can
  // call the entry before the constructor returns, so it is filled in directly.
  const TableEntry* const missing = &missing_entry();
  for (size_t slot = 0; slot < table_.size(); ++slot) {
    const TableEntry* fallback = (*fallbacks_)[slot];
    table_[slot].store(fallback ? fallback : missing, std::memory_order_relaxed);
  }
  const auto& masks = fallbacks_->masks_without_kernels;
  for (size_t b = 0; b < masks.size(); ++b) masks_[b].store(masks[b], std::memory_order_relaxed);
}

std::array<uint64_t, kNumBackends + 1> OperatorEntry::masks_without_kernels(
    const FallbackTable& fallbacks) {
  std::array<const TableEntry*, kNumRuntimeEntries> table;
  for (size_t slot = 0; slot < table.size(); ++slot)
    table[slot] = fallbacks[slot] ? fallbacks[slot] : &missing_entry();
  return masks_for(table);
}

OperatorEntry::~OperatorEntry() = default;

const TableEntry& OperatorEntry::entry(DispatchKey runtime_key) const {
  const int slot = table_index(runtime_key);
  return slot < 0 ? missing_entry() : entry_at_slot(slot);
}

size_t OperatorEntry::kernel_list_position(DispatchKey key) const {
  const auto at =
      std::lower_bound(kernels_.begin(), kernels_.end(), key,
                       [](const KeyKernels& entry, DispatchKey k) { return entry.key < k; });
  return static_cast<size_t>(at - kernels_.begin());
}

const OperatorEntry::KeyKernels* OperatorEntry::find_kernels(DispatchKey key) const {
  const size_t i = kernel_list_position(key);
  return i < kernels_.size() && kernels_[i].key == key ? &kernels_[i] : nullptr;
}

const std::vector<AnnotatedKernel>& OperatorEntry::kernels(DispatchKey key) const {
  static const std::vector<AnnotatedKernel>* const none = new std::vector<AnnotatedKernel>();
  const KeyKernels* found = find_kernels(key);
  return found ? found->kernels : *none;
}

std::vector<DispatchKey> OperatorEntry::keys_with_kernels() const {
  std::vector<DispatchKey> keys;
  for (const KeyKernels& entry : kernels_) keys.push_back(entry.key);
  return keys;
}

std::vector<DispatchKey> OperatorEntry::keys_with_kernels_now() const {
  std::vector<DispatchKey> keys;
  for (size_t v = 0; v < kNumKeyValues; ++v)
    if (kernel_key_bits_[v / 64].load(std::memory_order_acquire) & (uint64_t{1} << (v % 64)))
      keys.push_back(static_cast<DispatchKey>(v));
  return keys;
}

void OperatorEntry::set_kernel_key_bit(size_t v, bool on) {
  const uint64_t bit = uint64_t{1} << (v % 64);
  auto& word = kernel_key_bits_[v / 64];
  word.store(on ? (word.load(std::memory_order_relaxed) | bit)
                : (word.load(std::memory_order_relaxed) & ~bit),
             std::memory_order_release);
}

bool OperatorEntry::has_any_kernel() const { return num_kernels_ > 0; }

std::vector<DispatchKey> OperatorEntry::keys_with_direct_kernels() const {
  std::vector<DispatchKey> keys;
  for (int slot = 0; slot < kNumRuntimeEntries; ++slot)
    if (entry_at_slot(slot).reason == EntryReason::Kernel)
      keys.push_back(runtime_key_for_slot(slot));
  return keys;
}

const AnnotatedKernel* OperatorEntry::front(DispatchKey key) const {
  const KeyKernels* found = find_kernels(key);
  return found ? &found->kernels.front() : nullptr;
}

// The precedence of docs/dispatch-semantics.md §4; the first rule that yields a kernel wins.
OperatorEntry::Choice OperatorEntry::choose(int slot) const {
  const SlotTables& tables = slot_tables();
  const SlotInfo& s = tables.info[static_cast<size_t>(slot)];
  const bool undefined = s.key == DispatchKey::Undefined;

  // 1. A kernel registered to the key itself.
  if (const AnnotatedKernel* k = front(s.key); k && !undefined)
    return {EntryReason::Kernel, k, nullptr};
  // 2.1, 2.2. CompositeExplicitAutogradNonFunctional, then CompositeExplicitAutograd.
  if (undefined || s.in_composite_explicit_nonfunctional)
    if (const AnnotatedKernel* k = front(DispatchKey::CompositeExplicitAutogradNonFunctional))
      return {EntryReason::DefaultBackendKernel, k, nullptr};
  const AnnotatedKernel* explicit_kernel = front(DispatchKey::CompositeExplicitAutograd);
  if ((undefined || s.in_composite_explicit) && explicit_kernel)
    return {EntryReason::DefaultBackendKernel, explicit_kernel, nullptr};
  // The math kernel does not apply where the backend has its own kernel.
  const bool has_backend_kernel = (slots_with_kernel_ & s.backend_slots).any() || explicit_kernel;
  // 2.3a. CompositeImplicitAutogradNestedTensor on nested keys.
  if (!undefined && s.in_composite_implicit_nested)
    if (const AnnotatedKernel* k = front(DispatchKey::CompositeImplicitAutogradNestedTensor))
      return {EntryReason::NestedKernel, k, nullptr};
  // 2.3b. CompositeImplicitAutograd, unless AutogradOther is ambiguous.
  if (undefined || s.in_composite_implicit) {
    if (const AnnotatedKernel* k = front(DispatchKey::CompositeImplicitAutograd)) {
      if (s.key == DispatchKey::AutogradOther &&
          (slots_with_kernel_ & tables.autogradother_backend_slots).any())
        return {EntryReason::AmbiguousAutogradOther, nullptr, &ambiguous_entry()};
      if (!has_backend_kernel) return {EntryReason::MathKernel, k, nullptr};
    }
  }
  // 2.4. Autograd.
  if (s.in_autograd)
    if (const AnnotatedKernel* k = front(DispatchKey::Autograd))
      return {EntryReason::AutogradKernel, k, nullptr};
  // 2.5. FuncTorchBatchedDecomposition.
  if (s.in_batched_decomposition)
    if (const AnnotatedKernel* k = front(DispatchKey::FuncTorchBatchedDecomposition))
      return {EntryReason::BatchedKernel, k, nullptr};
  // 3. The registry's backend fallback.
  if (const TableEntry* fallback = (*fallbacks_)[static_cast<size_t>(slot)])
    return {EntryReason::BackendFallback, nullptr, fallback};
  return {EntryReason::Missing, nullptr, &missing_entry()};
}

TableEntry OperatorEntry::compute_entry(int slot) const {
  const Choice choice = choose(slot);
  return choice.shared ? *choice.shared : entry_from(*choice.kernel, choice.reason);
}

bool OperatorEntry::Choice::same_as(const TableEntry& entry) const {
  return reason == entry.reason && (shared ? shared->source_id : kernel->id) == entry.source_id;
}

const TableEntry* OperatorEntry::intern(const Choice& choice) {
  // Missing, ambiguous and fallback entries are shared and owned elsewhere.
  if (choice.shared) return choice.shared;
  published_.push_back(std::make_unique<TableEntry>(entry_from(*choice.kernel, choice.reason)));
  return published_.back().get();
}

std::array<uint64_t, kNumBackends + 1> OperatorEntry::masks_for(
    const std::array<const TableEntry*, kNumRuntimeEntries>& table) {
  std::array<uint64_t, kNumBackends + 1> masks;
  masks.fill(DispatchKeySet::full().raw());
  for (int slot = 1; slot < kNumRuntimeEntries; ++slot) {
    if (!table[static_cast<size_t>(slot)]->kernel.is_fallthrough()) continue;
    const DispatchKey k = runtime_key_for_slot(slot);
    const uint64_t functionality_bit =
        DispatchKeySet(keys::to_functionality_key(k)).raw() & ~DispatchKeySet::kBackendMask;
    const BackendComponent b = keys::to_backend_component(k);
    if (b == BackendComponent::InvalidBit) {
      for (auto& mask : masks) mask &= ~functionality_bit;
    } else {
      masks[static_cast<size_t>(b)] &= ~functionality_bit;
    }
  }
  return masks;
}

std::array<uint64_t, kNumBackends + 1> OperatorEntry::compute_masks() const {
  std::array<const TableEntry*, kNumRuntimeEntries> table;
  for (int slot = 0; slot < kNumRuntimeEntries; ++slot)
    table[static_cast<size_t>(slot)] = &entry_at_slot(slot);
  return masks_for(table);
}

void OperatorEntry::publish(const std::vector<int>& slots) {
  std::vector<std::pair<int, const TableEntry*>> changed;
  for (int slot : slots) {
    const Choice choice = choose(slot);
    if (choice.same_as(entry_at_slot(slot))) continue;
    changed.emplace_back(slot, intern(choice));
  }
  if (changed.empty()) return;
  // The masks only change where an entry starts or stops being a fallthrough.
  const bool masks_change = std::any_of(changed.begin(), changed.end(), [&](const auto& change) {
    return change.second->kernel.is_fallthrough() !=
           entry_at_slot(change.first).kernel.is_fallthrough();
  });
  if (!masks_change) {
    for (const auto& [slot, entry] : changed)
      table_[static_cast<size_t>(slot)].store(entry, std::memory_order_release);
    return;
  }
  // Masks are computed from the table, so compute them with the new entries in place; then
  // publish in three steps so that a racing call never selects a slot that just became a
  // fallthrough through a stale mask: (1) clear the bits that go away, (2) publish the entries,
  // (3) set the bits that come back.
  std::array<const TableEntry*, kNumRuntimeEntries> next;
  for (int slot = 0; slot < kNumRuntimeEntries; ++slot)
    next[static_cast<size_t>(slot)] = &entry_at_slot(slot);
  for (const auto& [slot, entry] : changed) next[static_cast<size_t>(slot)] = entry;
  const auto new_masks = masks_for(next);
  for (size_t b = 0; b < new_masks.size(); ++b)
    masks_[b].store(masks_[b].load(std::memory_order_relaxed) & new_masks[b],
                    std::memory_order_release);
  for (const auto& [slot, entry] : changed)
    table_[static_cast<size_t>(slot)].store(entry, std::memory_order_release);
  for (size_t b = 0; b < new_masks.size(); ++b)
    masks_[b].store(new_masks[b], std::memory_order_release);
}

void OperatorEntry::refresh_after_change(DispatchKey key) {
  const auto& refresh = slot_tables().refresh;
  const auto v = static_cast<size_t>(key);
  if (v < refresh.size()) publish(refresh[v]);
}

void OperatorEntry::refresh_slot(int slot) { publish({slot}); }

void OperatorEntry::set_definition(OperatorDefinition definition) {
  definitions_.push_back(std::make_unique<const OperatorDefinition>(std::move(definition)));
  definition_.store(definitions_.back().get(), std::memory_order_release);
}
// The definition stays alive (a racing call by name may be reading its schema); it is only
// unpublished.
void OperatorEntry::clear_definition() { definition_.store(nullptr, std::memory_order_release); }

void OperatorEntry::add_kernel(DispatchKey key, AnnotatedKernel kernel) {
  const size_t i = kernel_list_position(key);
  if (i == kernels_.size() || kernels_[i].key != key)
    kernels_.insert(kernels_.begin() + i, KeyKernels{key, {}});
  auto& list = kernels_[i].kernels;
  list.insert(list.begin(), std::move(kernel));
  set_kernel_key_bit(static_cast<size_t>(key), true);
  ++num_kernels_;
  if (const int slot = table_index(key); slot > 0)
    slots_with_kernel_.set(static_cast<size_t>(slot));
  refresh_after_change(key);
}

bool OperatorEntry::remove_kernel(DispatchKey key, uint64_t id) {
  const size_t i = kernel_list_position(key);
  if (i == kernels_.size() || kernels_[i].key != key) return false;
  auto& list = kernels_[i].kernels;
  const auto it =
      std::find_if(list.begin(), list.end(), [id](const AnnotatedKernel& k) { return k.id == id; });
  if (it == list.end()) return false;
  list.erase(it);
  --num_kernels_;
  if (list.empty()) {
    kernels_.erase(kernels_.begin() + i);
    set_kernel_key_bit(static_cast<size_t>(key), false);
    if (const int slot = table_index(key); slot > 0)
      slots_with_kernel_.reset(static_cast<size_t>(slot));
  }
  refresh_after_change(key);
  return true;
}

std::string OperatorEntry::check_invariants() const {
  if (!kernels(DispatchKey::Undefined).empty())
    return fmt::format("operator '{}' has a kernel stored under Undefined", full_name());
  size_t counted = 0;
  for (size_t i = 0; i < kernels_.size(); ++i) {
    if (kernels_[i].kernels.empty() || (i > 0 && !(kernels_[i - 1].key < kernels_[i].key)))
      return fmt::format("operator '{}': its kernel lists are not sorted by key and non-empty",
                         full_name());
    counted += kernels_[i].kernels.size();
  }
  if (counted != num_kernels_)
    return fmt::format("operator '{}' counts {} kernels but holds {}", full_name(), num_kernels_,
                       counted);
  for (size_t v = 0; v < kNumKeyValues; ++v) {
    const int slot = table_index(static_cast<DispatchKey>(v));
    if (slot > 0 && slots_with_kernel_.test(static_cast<size_t>(slot)) ==
                        kernels(static_cast<DispatchKey>(v)).empty())
      return fmt::format("operator '{}': the kernel bit of key '{}' is stale", full_name(),
                         to_string(static_cast<DispatchKey>(v)));
  }
  for (int slot = 0; slot < kNumRuntimeEntries; ++slot) {
    const TableEntry& stored = entry_at_slot(slot);
    if (!choose(slot).same_as(stored)) {
      const TableEntry computed = compute_entry(slot);
      return fmt::format(
          "operator '{}': the table entry for '{}' is '{} [{}]' but recomputing gives '{} [{}]'",
          full_name(), to_string(runtime_key_for_slot(slot)), stored.debug,
          to_string(stored.reason), computed.debug, to_string(computed.reason));
    }
  }
  const auto masks = compute_masks();
  for (size_t b = 0; b < masks.size(); ++b)
    if (masks[b] != masks_[b].load(std::memory_order_acquire))
      return fmt::format("operator '{}': the non-fallthrough mask for backend '{}' is stale",
                         full_name(), to_string(static_cast<BackendComponent>(b)));
  return "";
}

}  // namespace schemac::dispatch
