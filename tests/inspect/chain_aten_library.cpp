// A PyTorch library for chain_aten_test.py: recording kernels on a few aten operators whose device
// PyTorch's BackendSelect kernels compute from the options and the tensors together (_to_copy,
// which .to() calls, and the factory zeros) or that have no BackendSelect kernel (empty_like,
// new_zeros). PyTorch's own BackendSelect kernels stay in place: what is checked is where they
// send the call. Every other key a CPU or Meta tensor reaches gets a kernel that records its key
// and leaves the call as PyTorch's kernels of its kind do (an autograd kernel redispatches with
// ks & after_autograd_keyset, ADInplaceOrView with ks & after_ADInplaceOrView_keyset, an autocast
// kernel calls the operator again with its key excluded); a backend kernel records and returns a
// small CPU tensor.
// inspect_chain_aten::recorded() returns the "operator key" pairs recorded since its last call.
#include <torch/library.h>

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/empty.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string>& recorded() {
  static std::vector<std::string> keys;
  return keys;
}

void record_and_pass_on(const c10::OperatorHandle& op, c10::DispatchKeySet ks,
                        torch::jit::Stack* stack) {
  const c10::DispatchKey key = ks.highestPriorityTypeId();
  recorded().push_back(op.schema().name() + " " + c10::toString(key));
  if (c10::autograd_dispatch_keyset.has(c10::toFunctionalityKey(key))) {
    op.redispatchBoxed(ks & c10::after_autograd_keyset, stack);
  } else if (key == c10::DispatchKey::ADInplaceOrView) {
    op.redispatchBoxed(ks & c10::after_ADInplaceOrView_keyset, stack);
  } else if (c10::autocast_dispatch_keyset.has(key)) {
    c10::impl::ExcludeDispatchKeyGuard no_autocast(key);
    op.callBoxed(stack);
  } else {
    // A backend kernel computes: its result is a small CPU tensor from aten::empty, which
    // records nothing (it is none of the operators recorded here).
    torch::jit::drop(*stack, op.schema().arguments().size());
    stack->emplace_back(at::empty({1}));
  }
}

std::vector<std::string> take_recorded() {
  std::vector<std::string> out;
  out.swap(recorded());
  return out;
}

}  // namespace

TORCH_LIBRARY(inspect_chain_aten, m) { m.def("recorded() -> str[]", &take_recorded); }

#define INSPECT_RECORD(KEY)                                                              \
  TORCH_LIBRARY_IMPL(aten, KEY, m) {                                                     \
    for (const char* op : {"_to_copy", "zeros", "empty_like", "new_zeros"})              \
      m.impl(op, torch::CppFunction::makeFromBoxedFunction<&record_and_pass_on>());      \
  }
INSPECT_RECORD(CPU)
INSPECT_RECORD(Meta)
INSPECT_RECORD(AutogradCPU)
INSPECT_RECORD(AutogradMeta)
INSPECT_RECORD(ADInplaceOrView)
INSPECT_RECORD(AutocastCPU)
