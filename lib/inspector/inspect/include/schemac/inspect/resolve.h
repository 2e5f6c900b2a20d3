// The one resolve walk, over any Runtime (runtime.h): which key and kernel a call with a given key
// set reaches, and the chain of kernels that follows as each one leaves it the way PyTorch's
// kernels of its kind do (docs/dispatch-semantics.md has the rules and why).
//
// 1. The call's key set (call_key_set): ((keys | included) - excluded), where included and
//    excluded are the thread-local sets; what they add and drop is said.
// 2. Fallthrough entries leave the set at once (the operator's non-fallthrough mask for the set's
//    highest backend); the highest remaining key wins and its table entry runs. Each step shows
//    the key set its kernel receives.
// 3. The chain: an autograd kernel passes on ks & after_autograd_keyset; ADInplaceOrView,
//    autocast, Python and Functionalize kernels pass on ks without their own key; a BackendSelect
//    kernel the backend of its options' device (with the tensors' keys, when it has tensors);
//    any other kernel ks & FULL_AFTER(its key). It ends at a backend kernel (of any
//    functionality: dense, sparse, quantized, nested...), a composite kernel, a missing or
//    ambiguous entry (the call fails there), or Undefined.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/inspect/report.h"
#include "schemac/inspect/runtime.h"

namespace schemac::inspect {

// A call: the keys its tensors carry (or --keys), the thread-local sets in force (complete:
// defaults already added), whether it has tensor arguments, and its options' device ("": not
// given). A BackendSelect kernel passes on the backend of the options' device (cpu when not given,
// as c10::computeDispatchKey defaults it): alone for an operator without tensor arguments (a
// factory), else united with the tensors' keys under the thread-local sets, below BackendSelect
// (what torchgen's BackendSelect kernels of `_to_copy` and friends do).
struct Call {
  KeySet keys;
  KeySet included, excluded;
  bool takes_tensors = true;
  std::string device = "";
};

// The key set a call dispatches on, with a sentence for each key the thread-local sets added or
// dropped ("BackendSelect: added by the thread-local included set").
struct CallKeySet {
  KeySet keys;
  std::vector<std::string> notes;
};
CallKeySet call_key_set(const Runtime& runtime, const Call& call);

// `table` holds every runtime key (Runtime::table(name, /*all_keys=*/true)).
report::Resolution resolve(const Runtime& runtime, const report::Table& table, const Call& call);

// Why a call of operator `op` cannot happen, or "": tensor keys (has_keys) given to an operator
// without tensor arguments, or a device (has_device) to one without a Device argument.
std::string call_refusal(const std::string& op, bool takes_tensors, bool takes_device,
                         bool has_keys, bool has_device);

// The walk's rules as data (report.h's WalkRules), over the runtime keys `table` lists (a table
// with every runtime key): the same decisions resolve() makes, for the report page to follow.
report::WalkRules walk_rules(const Runtime& runtime, const report::Table& table);

// Parses "CPU,AutogradCPU" into runtime keys of `runtime`; an empty string is the empty set. On
// failure returns false with a message naming the key (and a did-you-mean note) in `error`.
bool parse_key_list(const Runtime& runtime, std::string_view text, KeySet& out, std::string& error);

// The backend key a device's tensors dispatch to ("cpu" -> CPU, "cuda" -> CUDA, "meta" -> Meta),
// or "" for a device name no runtime has.
std::string device_key_name(std::string_view device);

// What c10::InferenceMode does to the thread-local sets (ADInplaceOrView leaves the included set,
// every autograd functionality joins the excluded set), and what an inference tensor lacks (the
// same keys: c10's autograd_dispatch_keyset_with_ADInplaceOrView).
struct InferenceMode {
  KeySet not_included, excluded;
  KeySet tensor_lacks() const { return not_included | excluded; }
};
InferenceMode inference_mode(const Runtime& runtime);

// Whether a schema ("ns::op(Tensor self, *, Device? device=None) -> Tensor") has an argument of
// type Device or Device?: only such an operator can be given an options' device.
bool schema_takes_device(std::string_view schema);

}  // namespace schemac::inspect
