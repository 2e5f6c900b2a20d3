// `dispatch-inspect resolve --runtime torch`: which key wins for a key set, by libtorch's rules
// (c10::DispatchKeySet's own priority order and FULL_AFTER), over libtorch's computed table.
//   1. The call's set is ((keys | included) - excluded): included starts as
//      c10::default_included_set (BackendSelect, ADInplaceOrView), excluded as
//      c10::default_excluded_set (the Autocast keys), plus --include / --exclude.
//   2. The highest-priority key (highestPriorityTypeId) whose computed entry is a fallthrough
//      is skipped: its functionality leaves the set (backend bits stay), as the operator's
//      non-fallthrough mask does; the first other key wins and its entry runs.
//   3. The chain: a kernel on key K that redispatches passes on its set & FULL_AFTER(K); it ends
//      at a backend kernel (a key in the CompositeExplicitAutograd set), a composite (math or
//      nested) kernel, a missing or ambiguous entry, or Undefined.
#pragma once

#include <string>

#include "torch_registry.h"

namespace schemac::inspect::torch_runtime {

report::Resolution resolve(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                           c10::DispatchKeySet included, c10::DispatchKeySet excluded);
// The same over the operator's computed table with every runtime key (table_of(op, true)).
report::Resolution resolve(const report::Table& table, c10::DispatchKeySet keys,
                           c10::DispatchKeySet included, c10::DispatchKeySet excluded);

// "CPU,AutogradCPU" into runtime keys (c10::parseDispatchKey); false with a message in `error`.
bool parse_key_list(const std::string& text, c10::DispatchKeySet& out, std::string& error);

}  // namespace schemac::inspect::torch_runtime
