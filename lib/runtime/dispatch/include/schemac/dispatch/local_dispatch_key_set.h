// Thread-local include/exclude key sets (docs/dispatch-semantics.md §2.2).
//
// A call dispatches on ((keys of its arguments | included) - excluded), masked by the
// operator's non-fallthrough keys. Each thread starts with PyTorch's defaults: BackendSelect and
// ADInplaceOrView included, every Autocast key excluded.
//
// ## Storage
// The thread-local words hold the sets XOR-ed with those defaults, so a zero-initialised thread
// (every new thread) means "the defaults" with no initialisation code, and the variable needs no
// TLS wrapper function (it is `constinit`).
//
// ## Guards
// IncludeDispatchKeyGuard adds keys to the included set and ExcludeDispatchKeyGuard to the
// excluded set, for the guard's scope. Each guard remembers only the keys it actually added
// (the ones not already there) and removes exactly those, so nested guards restore the state.
// ForceDispatchKeyGuard replaces both sets for its scope and restores them whole.
#pragma once

#include <cstdint>

#include "schemac/keys/dispatch_key_set.h"

namespace schemac::dispatch {

using keys::DispatchKey, keys::DispatchKeySet;

// The defaults (newest layout: ten Autocast keys).
inline constexpr DispatchKeySet kDefaultIncludedSet{DispatchKey::BackendSelect,
                                                    DispatchKey::ADInplaceOrView};
inline constexpr DispatchKeySet kDefaultExcludedSet{
    DispatchKey::AutocastCPU,        DispatchKey::AutocastMTIA, DispatchKey::AutocastMAIA,
    DispatchKey::AutocastXPU,        DispatchKey::AutocastIPU,  DispatchKey::AutocastHPU,
    DispatchKey::AutocastXLA,        DispatchKey::AutocastMPS,  DispatchKey::AutocastCUDA,
    DispatchKey::AutocastPrivateUse1};

// The raw thread-local words: the sets XOR-ed with the defaults.
struct RawLocalDispatchKeySet {
  uint64_t included_xor = 0;
  uint64_t excluded_xor = 0;
};

namespace detail {
extern constinit thread_local RawLocalDispatchKeySet tls_local_dispatch_key_set;
}  // namespace detail

// The effective sets of the calling thread.
struct LocalDispatchKeySet {
  DispatchKeySet included;
  DispatchKeySet excluded;
};

inline LocalDispatchKeySet tls_local_dispatch_key_set() {
  const RawLocalDispatchKeySet raw = detail::tls_local_dispatch_key_set;
  return {DispatchKeySet::from_raw(raw.included_xor ^ kDefaultIncludedSet.raw()),
          DispatchKeySet::from_raw(raw.excluded_xor ^ kDefaultExcludedSet.raw())};
}

// Replaces the calling thread's sets (what a thread pool does to propagate them).
void set_tls_local_dispatch_key_set(LocalDispatchKeySet sets);

// Makes the calling thread's sets exactly `sets` for the guard's scope, then puts back what they
// were (c10's ForceDispatchKeyGuard): how a tool models a call made under given sets.
class ForceDispatchKeyGuard {
 public:
  explicit ForceDispatchKeyGuard(LocalDispatchKeySet sets) : saved_(tls_local_dispatch_key_set()) {
    set_tls_local_dispatch_key_set(sets);
  }
  ~ForceDispatchKeyGuard() { set_tls_local_dispatch_key_set(saved_); }
  ForceDispatchKeyGuard(const ForceDispatchKeyGuard&) = delete;
  ForceDispatchKeyGuard& operator=(const ForceDispatchKeyGuard&) = delete;

 private:
  LocalDispatchKeySet saved_;
};

// What a call with argument keys `args` dispatches on, before the operator's fallthrough mask.
inline DispatchKeySet apply_tls(DispatchKeySet args) {
  const RawLocalDispatchKeySet raw = detail::tls_local_dispatch_key_set;
  const DispatchKeySet included =
      DispatchKeySet::from_raw(raw.included_xor ^ kDefaultIncludedSet.raw());
  const DispatchKeySet excluded =
      DispatchKeySet::from_raw(raw.excluded_xor ^ kDefaultExcludedSet.raw());
  return (args | included) - excluded;
}

bool tls_is_dispatch_key_included(DispatchKey k);
bool tls_is_dispatch_key_excluded(DispatchKey k);
void tls_set_dispatch_key_included(DispatchKey k, bool included);
void tls_set_dispatch_key_excluded(DispatchKey k, bool excluded);

// The guards add only the bits that were absent and, on exit, clear exactly those bits again.
// They are inline: a layering kernel enters and leaves one on every call.
namespace detail {
// Adds `keys` to the effective set stored in `stored` (XOR-ed with `defaults`); returns the bits
// that were added.
inline uint64_t add_local_keys(uint64_t& stored, uint64_t defaults, DispatchKeySet keys) {
  const uint64_t added = keys.raw() & ~(stored ^ defaults);
  stored ^= added;
  return added;
}
inline void remove_local_keys(uint64_t& stored, uint64_t defaults, uint64_t added) {
  stored = ((stored ^ defaults) & ~added) ^ defaults;
}

// Adds keys to one of the thread's local sets (Stored, kept as its difference from Defaults) for
// the guard's lifetime; only the bits it set are taken out again.
template <uint64_t RawLocalDispatchKeySet::*Stored, uint64_t Defaults>
class LocalKeysGuard {
 public:
  explicit LocalKeysGuard(DispatchKeySet keys)
      : added_(add_local_keys(tls_local_dispatch_key_set.*Stored, Defaults, keys)) {}
  explicit LocalKeysGuard(DispatchKey key) : LocalKeysGuard(DispatchKeySet(key)) {}
  ~LocalKeysGuard() { remove_local_keys(tls_local_dispatch_key_set.*Stored, Defaults, added_); }
  LocalKeysGuard(const LocalKeysGuard&) = delete;
  LocalKeysGuard& operator=(const LocalKeysGuard&) = delete;

 private:
  uint64_t added_;  // the bits this guard set, in the effective set
};
}  // namespace detail

using IncludeDispatchKeyGuard =
    detail::LocalKeysGuard<&RawLocalDispatchKeySet::included_xor, kDefaultIncludedSet.raw()>;
using ExcludeDispatchKeyGuard =
    detail::LocalKeysGuard<&RawLocalDispatchKeySet::excluded_xor, kDefaultExcludedSet.raw()>;

}  // namespace schemac::dispatch
