// Names both runtimes' adapters share: the did-you-mean of an unknown operator, and the key names
// of what a tensor or autocast carries.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/inspect/report.h"

namespace schemac::inspect::report {

// Every operator's full name, in their order.
std::vector<std::string> operator_names(const Operators& operators);

// The closest known operator names to `name` ("ns::op.overload"), best first, at most three:
// the same name in another namespace or with another overload, then by edit distance.
std::vector<std::string> similar_operator_names(const std::vector<std::string>& known,
                                                std::string_view name);

// "dispatch-inspect: error: unknown operator 'NAME'" and a note:
// did you mean, or how to list the operators. Ends with a newline.
std::string unknown_operator_error(std::string_view name, const std::vector<std::string>& known);

// The closest of `known` to a misspelt `name` (a dispatch key's, say), or "".
std::string closest_name(std::string_view name, const std::vector<std::string>& known);

// "AutocastCPU" for "cpu": the key torch.autocast(device) takes out of the excluded set.
std::string autocast_key_name(std::string_view device);

// The keys a tensor on `device` carries (cpu, cuda, meta), comma-separated, as
// torch._C._dispatch_keys prints them; "" for another device.
std::string tensor_keys(std::string_view device);

}  // namespace schemac::inspect::report
