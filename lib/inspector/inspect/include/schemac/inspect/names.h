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

// The operators a name as PyTorch writes it stands for, among `known` (full names):
//   aten::add.Tensor                the operator itself;
//   aten.add.Tensor, aten.relu.default, torch.ops.aten.add.Tensor
//                                   torch.ops' spelling (OpOverload's str; "default" is the
//                                   overload without a name);
//   add.Tensor, relu                the aten namespace when none is written;
//   aten::add, aten.add             an overload packet (the profiler's name): every overload of
//                                   add, when add itself has none without a name.
// `names` is empty when no spelling is known (`spelled` then is the first reading, for a
// did-you-mean); `packet` is true when they are a packet's overloads.
struct OperatorMatch {
  std::vector<std::string> names;
  bool packet = false;
  std::string spelled;
};
OperatorMatch match_operator(std::string_view typed, const std::vector<std::string>& known);

// The operators an OP argument stands for: a glob's matches (operator_glob.h), or match_operator's;
// `several` when they print as sections (a glob, a packet). When there are none, `error` is what
// to print ("dispatch-inspect: error: ..." and its notes); `note` says what a packet stands for.
// Texts end with a newline.
struct OperatorLookup {
  std::vector<std::string> names;
  bool several = false;
  std::string error, note;
};
OperatorLookup find_operators(std::string_view typed, const std::vector<std::string>& known);
// The operators several OP arguments stand for, in the order given, each once; `several` when
// more than one is given or one stands for several. The first that stands for none gives `error`.
OperatorLookup find_operators(const std::vector<std::string>& typed,
                              const std::vector<std::string>& known);

// Whether `typed` is written as an operator's full name, ns::name.overload (so that it needs no
// list of the operators to be found: a runtime finds it, or says it is unknown).
bool is_full_operator_name(std::string_view typed);

// The closest of `known` to a misspelt `name` (a dispatch key's, say), or "".
std::string closest_name(std::string_view name, const std::vector<std::string>& known);

// "AutocastCPU" for "cpu": the key torch.autocast(device) takes out of the excluded set.
std::string autocast_key_name(std::string_view device);

// The keys a tensor on `device` carries (cpu, cuda, meta), comma-separated, as
// torch._C._dispatch_keys prints them; "" for another device.
std::string tensor_keys(std::string_view device);

}  // namespace schemac::inspect::report
