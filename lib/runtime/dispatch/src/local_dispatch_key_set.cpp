// The thread-local include/exclude sets and their guards.
#include "schemac/dispatch/local_dispatch_key_set.h"

namespace schemac::dispatch {

using keys::DispatchKey;

namespace detail {
constinit thread_local RawLocalDispatchKeySet tls_local_dispatch_key_set{};
}  // namespace detail

namespace {
RawLocalDispatchKeySet& raw_tls() { return detail::tls_local_dispatch_key_set; }
}  // namespace

void set_tls_local_dispatch_key_set(LocalDispatchKeySet sets) {
  raw_tls().included_xor = sets.included.raw() ^ kDefaultIncludedSet.raw();
  raw_tls().excluded_xor = sets.excluded.raw() ^ kDefaultExcludedSet.raw();
}

bool tls_is_dispatch_key_included(DispatchKey k) {
  return tls_local_dispatch_key_set().included.has(k);
}

bool tls_is_dispatch_key_excluded(DispatchKey k) {
  return tls_local_dispatch_key_set().excluded.has(k);
}

// Sets or clears the bits of `k` in one effective set stored XOR-ed with `defaults`.
static void set_bits(uint64_t& stored, uint64_t defaults, DispatchKey k, bool on) {
  const uint64_t bits = keys::DispatchKeySet(k).raw();
  const uint64_t effective = stored ^ defaults;
  stored = (on ? (effective | bits) : (effective & ~bits)) ^ defaults;
}

void tls_set_dispatch_key_included(DispatchKey k, bool included) {
  set_bits(raw_tls().included_xor, kDefaultIncludedSet.raw(), k, included);
}

void tls_set_dispatch_key_excluded(DispatchKey k, bool excluded) {
  set_bits(raw_tls().excluded_xor, kDefaultExcludedSet.raw(), k, excluded);
}

}  // namespace schemac::dispatch
