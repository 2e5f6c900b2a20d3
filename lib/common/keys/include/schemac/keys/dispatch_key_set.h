// DispatchKeySet: a 64-bit set of backend bits and functionality bits (docs/dispatch-semantics.md
// §1.1).
//
// ## Representation
// Bits 0..15 are the backends (CPUBit is bit 0, MetaBit bit 15). Bits 16..62 are the
// functionality keys (Dense is bit 16, PythonDispatcher bit 62). Undefined has no bit.
// A per-backend runtime key such as AutogradCPU is stored as its functionality bit plus its
// backend bit. Backend bits are shared by every functionality in the set, so a set holding CPU and
// AutogradCUDA also "has" CUDA and AutogradCPU: a tensor carries one backend, and this cross-talk
// is intended.
//
// ## Priority
// A higher bit means a higher priority. The highest-priority runtime key of a set is its highest
// functionality bit, combined with its highest backend bit when that functionality is per-backend.
//
// ## Iteration
// Iterating a set yields runtime keys in increasing priority: functionality bits in order, and for
// a per-backend functionality every present backend in bit order. This is also table-slot order.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>

#include "schemac/keys/dispatch_key.h"

namespace schemac::keys {

class DispatchKeySet {
 public:
  static constexpr uint64_t kBackendMask = (uint64_t{1} << kNumBackends) - 1;

  constexpr DispatchKeySet() = default;
  // The set of one key. An alias key, a marker or Undefined gives the empty set.
  constexpr explicit DispatchKeySet(DispatchKey k) : repr_(bits_of(k)) {}
  constexpr explicit DispatchKeySet(BackendComponent b) : repr_(bits_of(b)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> keys) {
    for (DispatchKey k : keys) repr_ |= bits_of(k);
  }
  static constexpr DispatchKeySet from_raw(uint64_t raw) { return DispatchKeySet(Raw{}, raw); }
  // Every backend bit and every functionality bit.
  static constexpr DispatchKeySet full() {
    return from_raw(kBackendMask |
                    (((uint64_t{1} << (kNumFunctionalityKeys - 1)) - 1) << kNumBackends));
  }
  // Every functionality strictly below `k` (a functionality key) plus all backend bits.
  static constexpr DispatchKeySet full_after(DispatchKey k) {
    const uint16_t f = static_cast<uint16_t>(to_functionality_key(k));
    const uint64_t below = f <= 1 ? 0 : ((uint64_t{1} << (f - 1)) - 1) << kNumBackends;
    return from_raw(kBackendMask | below);
  }
  static constexpr DispatchKeySet all_backends() { return from_raw(kBackendMask); }

  constexpr uint64_t raw() const { return repr_; }
  constexpr bool empty() const { return repr_ == 0; }

  // ## Membership
  // True when every bit of `k` is present (for CPU: the Dense bit and CPUBit).
  constexpr bool has(DispatchKey k) const {
    const uint64_t bits = bits_of(k);
    return bits != 0 && (repr_ & bits) == bits;
  }
  constexpr bool has_backend(BackendComponent b) const {
    const uint64_t bits = bits_of(b);
    return bits != 0 && (repr_ & bits) == bits;
  }
  constexpr bool has_all(DispatchKeySet other) const {
    return (repr_ & other.repr_) == other.repr_;
  }
  // True when some functionality bit of `other` is present (with, for per-backend ones, some
  // backend bit of `other`), i.e. some runtime key of `other` is in this set.
  constexpr bool has_any(DispatchKeySet other) const {
    const uint64_t common = repr_ & other.repr_;
    if ((common & ~kBackendMask) == 0) return false;
    // A per-backend functionality needs a common backend too; a plain one does not.
    const uint64_t plain_common = common & ~kBackendMask & ~per_backend_functionality_bits();
    return plain_common != 0 || (common & kBackendMask) != 0;
  }

  // ## Set algebra
  constexpr DispatchKeySet operator|(DispatchKeySet o) const { return from_raw(repr_ | o.repr_); }
  constexpr DispatchKeySet operator&(DispatchKeySet o) const { return from_raw(repr_ & o.repr_); }
  constexpr DispatchKeySet operator^(DispatchKeySet o) const { return from_raw(repr_ ^ o.repr_); }
  // Removes the functionality bits of `o`; backend bits stay (a backend is shared by all
  // functionalities, so removing AutogradCPU must not remove CPU).
  constexpr DispatchKeySet operator-(DispatchKeySet o) const {
    return from_raw(repr_ & (kBackendMask | ~o.repr_));
  }
  constexpr DispatchKeySet& operator|=(DispatchKeySet o) {
    repr_ |= o.repr_;
    return *this;
  }
  constexpr DispatchKeySet& operator&=(DispatchKeySet o) {
    repr_ &= o.repr_;
    return *this;
  }
  constexpr bool operator==(const DispatchKeySet&) const = default;
  constexpr DispatchKeySet add(DispatchKey k) const { return from_raw(repr_ | bits_of(k)); }
  constexpr DispatchKeySet add(BackendComponent b) const { return from_raw(repr_ | bits_of(b)); }
  // Removes the functionality bit of `k`; its backend bit stays.
  constexpr DispatchKeySet remove(DispatchKey k) const {
    return from_raw(repr_ & ~(bits_of(k) & ~kBackendMask));
  }
  constexpr DispatchKeySet remove_backend(BackendComponent b) const {
    return from_raw(repr_ & ~bits_of(b));
  }

  // ## Priority
  // The highest functionality key present, or Undefined.
  constexpr DispatchKey highest_functionality_key() const {
    const uint64_t f = repr_ >> kNumBackends;
    if (f == 0) return DispatchKey::Undefined;
    return static_cast<DispatchKey>(64 - __builtin_clzll(f));
  }
  // The highest backend present, or InvalidBit.
  constexpr BackendComponent highest_backend() const {
    const uint64_t b = repr_ & kBackendMask;
    if (b == 0) return BackendComponent::InvalidBit;
    return static_cast<BackendComponent>(64 - __builtin_clzll(b));
  }
  // The runtime key a call with this set dispatches to; Undefined for an empty set (or for a
  // per-backend functionality with no backend bit).
  constexpr DispatchKey highest_priority_key() const {
    const DispatchKey f = highest_functionality_key();
    if (!is_per_backend_functionality_key(f)) return f;
    return to_runtime_per_backend_key(f, highest_backend());
  }
  // The table slot of highest_priority_key(); 0 for the empty set, and 0 for a set whose top
  // functionality is per-backend but which has no backend bit (not built from runtime keys).
  constexpr int dispatch_table_index() const {
    const DispatchKey f = highest_functionality_key();
    if (!is_per_backend_functionality_key(f)) return functionality_offset(f);
    const BackendComponent b = highest_backend();
    if (b == BackendComponent::InvalidBit) return 0;
    return functionality_offset(f) + static_cast<int>(b) - 1;
  }
  // Index 0..kNumBackends for per-backend masks: 0 when no backend bit is set, else bit+1.
  constexpr int backend_index() const { return static_cast<int>(highest_backend()); }
  // dispatch_table_index() of a set whose backend_index() is known to be `backend` (a call
  // computes it once for the fallthrough mask, which keeps every backend bit, and reuses it).
  constexpr int dispatch_table_index(int backend) const {
    const DispatchKey f = highest_functionality_key();
    if (!is_per_backend_functionality_key(f)) return functionality_offset(f);
    if (backend == 0) return 0;
    return functionality_offset(f) + backend - 1;
  }

  // ## Iteration over runtime keys, increasing priority
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = DispatchKey;
    using difference_type = std::ptrdiff_t;
    using pointer = const DispatchKey*;
    using reference = DispatchKey;

    constexpr iterator() = default;
    constexpr DispatchKey operator*() const { return current_; }
    constexpr iterator& operator++() {
      advance();
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator copy = *this;
      advance();
      return copy;
    }
    constexpr bool operator==(const iterator& o) const {
      return functionality_ == o.functionality_ && backend_ == o.backend_;
    }

   private:
    friend class DispatchKeySet;
    constexpr explicit iterator(uint64_t repr) : repr_(repr), functionality_(0), backend_(0) {
      advance();
    }
    // Moves to the next (functionality, backend) pair present in the set, or to the end (64, 0).
    constexpr void advance() {
      const uint64_t backends = repr_ & kBackendMask;
      // Next backend within the current per-backend functionality.
      if (functionality_ != 0 && backend_ != 0) {
        const uint64_t higher = backends & ~((uint64_t{1} << backend_) - 1);
        if (higher != 0) {
          backend_ = static_cast<uint8_t>(__builtin_ctzll(higher) + 1);
          current_ = to_runtime_per_backend_key(static_cast<DispatchKey>(functionality_),
                                                static_cast<BackendComponent>(backend_));
          return;
        }
      }
      backend_ = 0;
      // Next functionality bit above the current one.
      for (uint16_t f = functionality_ + 1; f < kNumFunctionalityKeys; ++f) {
        if ((repr_ & (uint64_t{1} << (kNumBackends + f - 1))) == 0) continue;
        const auto key = static_cast<DispatchKey>(f);
        if (!is_per_backend_functionality_key(key)) {
          functionality_ = f;
          current_ = key;
          return;
        }
        if (backends == 0) continue;
        functionality_ = f;
        backend_ = static_cast<uint8_t>(__builtin_ctzll(backends) + 1);
        current_ = to_runtime_per_backend_key(key, static_cast<BackendComponent>(backend_));
        return;
      }
      functionality_ = kEnd;
      backend_ = 0;
      current_ = DispatchKey::Undefined;
    }
    static constexpr uint16_t kEnd = 0xffff;
    uint64_t repr_ = 0;
    uint16_t functionality_ = kEnd;
    uint8_t backend_ = 0;
    DispatchKey current_ = DispatchKey::Undefined;
  };
  constexpr iterator begin() const { return iterator(repr_); }
  constexpr iterator end() const { return iterator(); }

 private:
  struct Raw {};
  constexpr DispatchKeySet(Raw, uint64_t raw) : repr_(raw) {}

  static constexpr uint64_t functionality_bit(DispatchKey functionality) {
    return uint64_t{1} << (kNumBackends + static_cast<uint16_t>(functionality) - 1);
  }
  static constexpr uint64_t bits_of(BackendComponent b) {
    if (b == BackendComponent::InvalidBit || b > BackendComponent::EndOfBackendKeys) return 0;
    return uint64_t{1} << (static_cast<uint8_t>(b) - 1);
  }
  static constexpr uint64_t bits_of(DispatchKey k) {
    if (k == DispatchKey::Undefined) return 0;
    if (k < DispatchKey::EndOfFunctionalityKeys) return functionality_bit(k);
    if (!is_per_backend_runtime_key(k)) return 0;
    return functionality_bit(to_functionality_key(k)) | bits_of(to_backend_component(k));
  }
  static constexpr uint64_t per_backend_functionality_bits() {
    return functionality_bit(DispatchKey::Dense) | functionality_bit(DispatchKey::Quantized) |
           functionality_bit(DispatchKey::Sparse) | functionality_bit(DispatchKey::SparseCsr) |
           functionality_bit(DispatchKey::NestedTensor) |
           functionality_bit(DispatchKey::AutogradFunctionality);
  }

  uint64_t repr_ = 0;
};

// "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)"
std::string to_string(DispatchKeySet ks);

// ## Named sets (docs/dispatch-semantics.md §2, §3)
// Every Autocast functionality key (all ten).
DispatchKeySet autocast_keyset();
// Thread-local defaults: included {BackendSelect, ADInplaceOrView}, excluded = every Autocast key.
DispatchKeySet default_included_set();
DispatchKeySet default_excluded_set();
// Redispatch helpers (FULL_AFTER forms).
DispatchKeySet after_autograd_keyset();         // everything below AutogradOther
DispatchKeySet after_ADInplaceOrView_keyset();  // everything below ADInplaceOrView
DispatchKeySet after_func_keyset();             // below Functionalize, minus ADInplaceOrView

// The backend kernels whose autograd slot is AutogradOther: FPGA, Vulkan, Metal, CustomRNGKeyId,
// MkldnnCPU, and Sparse, SparseCsr, Quantized for every backend.
DispatchKeySet autogradother_backends();
// The runtime keys covered by each alias.
DispatchKeySet autograd_keyset();            // Autograd
DispatchKeySet composite_explicit_keyset();  // CompositeExplicitAutograd ("backend set")
DispatchKeySet composite_explicit_nonfunctional_keyset();
DispatchKeySet composite_implicit_keyset();         // CompositeImplicitAutograd ("math set")
DispatchKeySet composite_implicit_nested_keyset();  // CompositeImplicitAutogradNestedTensor
DispatchKeySet functorch_batched_decomposition_keyset();

// For a runtime key, the set holding just it; for an alias, the alias's runtime set.
// FuncTorchBatchedDecomposition gives the empty set, as upstream's getRuntimeDispatchKeySet does
// (docs/dispatch-semantics.md §5, quirk); use alias_runtime_keyset() for membership.
DispatchKeySet runtime_keyset_to_refresh(DispatchKey k);
// The runtime set an alias covers (FuncTorchBatchedDecomposition -> {FuncTorchBatched}).
DispatchKeySet alias_runtime_keyset(DispatchKey alias);
// Is runtime key `k` covered by `alias`? False for Undefined.
bool is_included_in_alias(DispatchKey k, DispatchKey alias);
// Backend keys whose kernels count as "this backend has its own kernel" for an autograd key:
// Autograd<B> -> {B}, AutogradNestedTensor -> NestedTensor x all, AutogradOther ->
// autogradother_backends(); empty for any other key.
DispatchKeySet backend_keyset_from_autograd(DispatchKey k);
// The autograd runtime key of a backend key: Autograd<B> for a key with backend B, AutogradOther
// for a backend key with no backend component (FPGA); Undefined for non-backend keys.
DispatchKey autograd_key_of_backend(DispatchKey k);
// True for the runtime keys of the CompositeExplicitAutograd ("backend") set; false for
// Undefined, aliases and every NestedTensor key.
bool is_backend_dispatch_key(DispatchKey k);

}  // namespace schemac::keys
