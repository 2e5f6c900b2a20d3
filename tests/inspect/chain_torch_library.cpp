// A PyTorch library for the chain test (chain_torch_test.py): one operator, inspect_chain::op,
// with a recording kernel at every runtime key a CPU, Meta or nested tensor reaches. Each kernel
// records its key and leaves the call as PyTorch's own kernels of that kind do: an autograd
// kernel redispatches with ks & after_autograd_keyset, ADInplaceOrView with
// ks & after_ADInplaceOrView_keyset, the Python key without itself, an autocast kernel calls the
// operator again with its key excluded, and a backend kernel computes (returns its input).
// inspect_chain::recorded() returns the keys recorded since the last call of it.
#include <torch/library.h>

#include <ATen/core/dispatch/Dispatcher.h>
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
  recorded().emplace_back(c10::toString(key));
  if (c10::autograd_dispatch_keyset.has(c10::toFunctionalityKey(key))) {
    op.redispatchBoxed(ks & c10::after_autograd_keyset, stack);
  } else if (key == c10::DispatchKey::ADInplaceOrView) {
    op.redispatchBoxed(ks & c10::after_ADInplaceOrView_keyset, stack);
  } else if (key == c10::DispatchKey::Python) {
    op.redispatchBoxed(ks.remove(c10::DispatchKey::Python), stack);
  } else if (c10::autocast_dispatch_keyset.has(key)) {
    c10::impl::ExcludeDispatchKeyGuard no_autocast(key);
    op.callBoxed(stack);
  }
  // A backend kernel: the input stays on the stack as the result.
}

std::vector<std::string> take_recorded() {
  std::vector<std::string> out;
  out.swap(recorded());
  return out;
}

}  // namespace

TORCH_LIBRARY(inspect_chain, m) {
  m.def("op(Tensor x) -> Tensor");
  m.def("recorded() -> str[]", &take_recorded);
}

#define INSPECT_CHAIN_KERNEL(KEY)                                                          \
  TORCH_LIBRARY_IMPL(inspect_chain, KEY, m) {                                              \
    m.impl("op", torch::CppFunction::makeFromBoxedFunction<&record_and_pass_on>());       \
  }
INSPECT_CHAIN_KERNEL(CPU)
INSPECT_CHAIN_KERNEL(Meta)
INSPECT_CHAIN_KERNEL(NestedTensorCPU)
INSPECT_CHAIN_KERNEL(AutogradCPU)
INSPECT_CHAIN_KERNEL(AutogradMeta)
INSPECT_CHAIN_KERNEL(AutogradNestedTensor)
INSPECT_CHAIN_KERNEL(ADInplaceOrView)
INSPECT_CHAIN_KERNEL(AutocastCPU)
INSPECT_CHAIN_KERNEL(Python)
