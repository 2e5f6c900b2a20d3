// Our runtime's engine behind `dispatch-inspect resolve`: which key and kernel a call with a
// given key set reaches, and the chain of kernels that follows when each one redispatches below
// itself, as the report model (report/report.h) has it.
//
// ## The model
// 1. The call's key set is ((keys | included) - excluded), where included and excluded are the
//    thread-local sets: a fresh thread's defaults (BackendSelect and ADInplaceOrView included,
//    every Autocast key excluded) plus the --include / --exclude keys.
// 2. The operator's non-fallthrough mask for the set's highest backend removes every key whose
//    entry is a fallthrough; the highest remaining key wins and its table entry runs.
// 3. The chain: a kernel on key K that redispatches passes on its set intersected with
//    keys_below(K) (PyTorch's FULL_AFTER(K): every functionality below K, every backend bit);
//    the mask is applied again and the highest remaining key runs next. The chain ends at a
//    backend kernel (a key of the CompositeExplicitAutograd set, which computes the result), at
//    a composite (math or nested) kernel (it calls other operators rather than redispatching), at
//    a missing or ambiguous entry (the call fails there), or at Undefined.
// Whether a real kernel redispatches is up to its code; the chain shows where it would go.
#pragma once

#include <string>
#include <string_view>

#include "report/report.h"
#include "schemac/dispatch/operator_entry.h"

namespace schemac::inspect {

// `included` and `excluded` are the complete thread-local sets (defaults already added).
report::Resolution resolve(const dispatch::OperatorEntry& op, keys::DispatchKeySet keys,
                           keys::DispatchKeySet included, keys::DispatchKeySet excluded);

// Parses "CPU,AutogradCPU" into runtime keys; an empty string is the empty set. On failure
// returns false with a message naming the key (and a did-you-mean note) in `error`.
bool parse_key_list(std::string_view text, keys::DispatchKeySet& out, std::string& error);

}  // namespace schemac::inspect
