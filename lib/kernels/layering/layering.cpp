// Layering kernels on Autograd, ADInplaceOrView and AutocastCUDA (autograd_tape.h).
#include <fmt/format.h>

#include "schemac/dispatch/library.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/kernels/autograd_tape.h"
#include "schemac/kernels/native_functions.h"

namespace schemac::kernels {
namespace {

using dispatch::DispatchKey;
using dispatch::DispatchKeySet;
using dispatch::OperatorHandle;
using dispatch::Stack;

// ## The tape
struct Tape {
  int recording = 0;  // nesting depth of TapeRecording scopes
  std::vector<TapeNode> nodes;
};
Tape& tape() {
  thread_local Tape t;
  return t;
}

// The first `n` stack entries from the top are the call's arguments.
size_t num_arguments(const OperatorHandle& op) { return op.schema().arguments.size(); }

// ## Autograd: record, then redispatch below autograd with the autograd keys excluded.
void autograd_kernel(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  if (tape().recording > 0) {
    TapeNode node{op.full_name(), {}};
    const size_t n = num_arguments(op);
    for (size_t i = stack->size() - n; i < stack->size(); ++i)
      if ((*stack)[i].is_tensor()) node.inputs.push_back((*stack)[i].to_tensor().describe());
    tape().nodes.push_back(std::move(node));
  }
  // Nested calls made by the kernels below (composites, copies) see no autograd keys.
  const dispatch::ExcludeDispatchKeyGuard no_autograd(dispatch::autograd_keyset());
  op.redispatch_boxed(ks & dispatch::after_autograd_keyset(), stack);
}

// ## ADInplaceOrView: redispatch, then make sure every tensor the operator wrote had its version
// bumped once (some backend kernels bump it themselves; then this kernel does not again).
void inplace_or_view_kernel(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const schema::FunctionSchema& s = op.schema();
  const size_t first = stack->size() - s.arguments.size();
  std::vector<std::pair<dispatch::Tensor, uint32_t>> written;
  for (size_t i = 0; i < s.arguments.size(); ++i)
    if (s.arguments[i].type.is_mutable() && (*stack)[first + i].is_tensor()) {
      const dispatch::Tensor& t = (*stack)[first + i].to_tensor();
      if (t.defined()) written.emplace_back(t, t.version());
    }
  op.redispatch_boxed(ks & dispatch::after_ADInplaceOrView_keyset(), stack);
  for (const auto& [t, before] : written)
    if (t.version() == before) t.bump_version();
}

// ## AutocastCUDA: mm in float16.
dispatch::Tensor mm_autocast_cuda(DispatchKeySet ks, const dispatch::Tensor& self, const dispatch::Tensor& mat2) {
  static const auto mm = OperatorHandle::find("aten::mm")->typed<dispatch::Tensor(const dispatch::Tensor&, const dispatch::Tensor&)>();
  const auto to_half = [](const dispatch::Tensor& t) {
    return t.dtype() == dispatch::ScalarType::Float ? to_dtype(t, dispatch::ScalarType::Half) : t;
  };
  const dispatch::ExcludeDispatchKeyGuard no_autocast(DispatchKey::AutocastCUDA);
  return mm.redispatch(ks & dispatch::keys_below(DispatchKey::AutocastCUDA), to_half(self), to_half(mat2));
}

dispatch::KernelFunction boxed(void (*fn)(const OperatorHandle&, DispatchKeySet, Stack*)) {
  return dispatch::KernelFunction::make_from_boxed(fn);
}

}  // namespace

TapeRecording::TapeRecording() {
  if (tape().recording++ == 0) tape().nodes.clear();
}
TapeRecording::~TapeRecording() { --tape().recording; }
const std::vector<TapeNode>& TapeRecording::nodes() const { return tape().nodes; }

}  // namespace schemac::kernels

// The operators of examples/ops.yaml with a tensor argument that return a new value. In-place and
// out= operators (fill_, copy_, add_, relu_, add.out) return a reference, which a boxed kernel
// cannot give to a typed caller, so they are not layered yet (their backend kernels bump the
// version counter themselves).
SCHEMAC_LIBRARY_IMPL(aten, Autograd, m) {
  using schemac::kernels::autograd_kernel;
  for (const char* op : {"add.Tensor", "mul.Tensor", "relu", "sum.dim_IntList", "mean.dim", "mm", "transpose.int",
                         "view", "softmax.int"})
    m.impl(op, schemac::kernels::boxed(&autograd_kernel), "autograd_record");
}

SCHEMAC_LIBRARY_IMPL(aten, ADInplaceOrView, m) {
  using schemac::kernels::inplace_or_view_kernel;
  for (const char* op : {"transpose.int", "view"})
    m.impl(op, schemac::kernels::boxed(&inplace_or_view_kernel), "inplace_or_view");
}

SCHEMAC_LIBRARY_IMPL(aten, AutocastCUDA, m) {
  m.impl("mm", &schemac::kernels::mm_autocast_cuda, "mm_autocast_cuda");
}
