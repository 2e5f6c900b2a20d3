// Layering kernels on Autograd, ADInplaceOrView and AutocastCUDA (autograd_tape.h).
//
// Two kinds of layering kernel, split by what the operator returns:
//   * boxed, for the operators that return a new tensor (functional ops and views): one kernel
//     per key serves every operator, reading the arguments off the stack by the schema.
//   * typed, for the in-place and out= operators (fill_, copy_, add_, relu_, add.out): they
//     return `Tensor&`, the argument they wrote, and a boxed kernel cannot hand a reference back
//     to a typed caller. `WritingOpLayers<Op>` is one template over the generated handle of the
//     operator (Operators.h), so each kernel has the operator's own C++ signature (with a leading
//     DispatchKeySet), redispatches unboxed and returns the reference the kernel below returned.
// Both kinds record the same tape nodes and follow one version-counter rule: the ADInplaceOrView
// kernel bumps the counter of every tensor the operator writes, once per call, after the kernel
// below returns; backend kernels never bump it.
#include <fmt/format.h>

#include <string>
#include <type_traits>
#include <utility>

#include "Operators.h"  // generated from examples/ops.yaml: the typed operator handles
#include "schemac/dispatch/library.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/kernels/autograd_tape.h"
#include "schemac/kernels/native_functions.h"

namespace schemac::kernels {
namespace {

using dispatch::OperatorHandle;
using dispatch::Stack;
using keys::DispatchKey;
using keys::DispatchKeySet;

// ## The tape
struct Tape {
  int recording = 0;  // nesting depth of TapeRecording scopes
  std::vector<TapeNode> nodes;
};
Tape& tape() {
  thread_local Tape t;
  return t;
}

// ## Boxed kernels: functional operators and views

// The first `n` stack entries from the top are the call's arguments.
size_t num_arguments(const OperatorHandle& op) { return op.schema().arguments.size(); }

// Autograd: record, then redispatch below autograd with the autograd keys excluded.
void autograd_kernel(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  if (tape().recording > 0) {
    TapeNode node{op.full_name(), {}};
    const size_t n = num_arguments(op);
    for (size_t i = stack->size() - n; i < stack->size(); ++i)
      if ((*stack)[i].is_tensor()) node.inputs.push_back((*stack)[i].to_tensor().describe());
    tape().nodes.push_back(std::move(node));
  }
  // Nested calls made by the kernels below (composites, copies) see no autograd keys.
  const dispatch::ExcludeDispatchKeyGuard no_autograd(keys::autograd_keyset());
  op.redispatch_boxed(ks & keys::after_autograd_keyset(), stack);
}

// ADInplaceOrView: redispatch below ADInplaceOrView, then bump the version counter of every
// tensor the operator wrote (a Tensor(a!) argument), once. Nested calls made by the kernels below
// see no ADInplaceOrView key, so a write they make through the dispatcher is not counted again.
void inplace_or_view_kernel(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const dispatch::OperatorSignature& s = op.schema();
  const size_t first = stack->size() - s.arguments.size();
  std::vector<core::Tensor> written;
  for (size_t i = 0; i < s.arguments.size(); ++i)
    if (s.arguments[i].is_mutable && (*stack)[first + i].is_tensor()) {
      const core::Tensor& t = (*stack)[first + i].to_tensor();
      if (t.defined()) written.push_back(t);
    }
  {
    const dispatch::ExcludeDispatchKeyGuard below(DispatchKey::ADInplaceOrView);
    op.redispatch_boxed(ks & keys::after_ADInplaceOrView_keyset(), stack);
  }
  for (const core::Tensor& t : written) t.bump_version();
}

// ## Typed kernels: in-place and out= operators
// The native signature of examples/ops.yaml gives a written argument (Tensor(a!)) the parameter
// type `Tensor&` and every other tensor `const Tensor&`, so the parameter types say what to bump.

// Adds the description of `arg` to the node when it is a tensor.
template <class Arg>
void describe_into(TapeNode& node, const Arg& arg) {
  if constexpr (std::is_same_v<Arg, core::Tensor>) node.inputs.push_back(arg.describe());
}

// Bumps the version counter of `arg` when its parameter type `Param` says the operator wrote it.
template <class Param, class Arg>
void bump_if_written(const Arg& arg) {
  if constexpr (std::is_same_v<Param, core::Tensor&>) {
    if (arg.defined()) arg.bump_version();
  }
}

// `Op` is a generated handle struct (aten::ops::fill__Scalar, ...): `Op::signature` is
// `Tensor&(Args...)` and `Op::handle()` the typed operator handle.
template <class Op, class Signature = typename Op::signature>
struct WritingOpLayers;

template <class Op, class... Args>
struct WritingOpLayers<Op, core::Tensor&(Args...)> {
  // The name a registration uses, "aten::add.out" (without looking the operator up: the
  // registration blocks may run before the operator is defined).
  static std::string full_name() {
    return Op::overload.empty() ? std::string(Op::name)
                                : fmt::format("{}.{}", Op::name, Op::overload);
  }

  // Autograd: the same node as the boxed kernel (the operator and its tensor arguments, in
  // order), then redispatch below autograd with the autograd keys excluded.
  static core::Tensor& autograd(DispatchKeySet ks, Args... args) {
    if (tape().recording > 0) {
      TapeNode node{full_name(), {}};
      (describe_into(node, args), ...);
      tape().nodes.push_back(std::move(node));
    }
    const dispatch::ExcludeDispatchKeyGuard no_autograd(keys::autograd_keyset());
    return Op::handle().redispatch(ks & keys::after_autograd_keyset(), args...);
  }

  // ADInplaceOrView: redispatch below it, then bump each written tensor once.
  static core::Tensor& inplace_or_view(DispatchKeySet ks, Args... args) {
    core::Tensor* result = nullptr;
    {
      const dispatch::ExcludeDispatchKeyGuard below(DispatchKey::ADInplaceOrView);
      result = &Op::handle().redispatch(ks & keys::after_ADInplaceOrView_keyset(), args...);
    }
    (bump_if_written<Args>(args), ...);
    return *result;
  }
};

// The in-place and out= operators of examples/ops.yaml, each layered on both keys.
template <class... Ops>
struct WritingOps {
  static void impl_autograd(dispatch::Library& m) {
    (m.impl(WritingOpLayers<Ops>::full_name(), &WritingOpLayers<Ops>::autograd, "autograd_record"),
     ...);
  }
  static void impl_inplace_or_view(dispatch::Library& m) {
    (m.impl(WritingOpLayers<Ops>::full_name(), &WritingOpLayers<Ops>::inplace_or_view,
            "inplace_or_view"),
     ...);
  }
};
using LayeredWritingOps = WritingOps<aten::ops::fill__Scalar, aten::ops::copy_,
                                     aten::ops::add__Tensor, aten::ops::relu_, aten::ops::add_out>;

// ## AutocastCUDA: mm in float16.
core::Tensor mm_autocast_cuda(DispatchKeySet ks, const core::Tensor& self,
                              const core::Tensor& mat2) {
  static const auto mm = OperatorHandle::find("aten::mm")
                             ->typed<core::Tensor(const core::Tensor&, const core::Tensor&)>();
  const auto to_half = [](const core::Tensor& t) {
    return t.dtype() == core::ScalarType::Float ? to_dtype(t, core::ScalarType::Half) : t;
  };
  const dispatch::ExcludeDispatchKeyGuard no_autocast(DispatchKey::AutocastCUDA);
  return mm.redispatch(ks & dispatch::keys_below(DispatchKey::AutocastCUDA), to_half(self),
                       to_half(mat2));
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

// Autograd: the operators of examples/ops.yaml with a tensor argument, except the composites
// (contiguous, matmul: CompositeImplicitAutograd, which the Autograd slot already runs). Those
// that return a new tensor get the boxed kernel; the in-place and out= ones (which return the
// `Tensor&` they wrote) get the typed kernels of WritingOpLayers.
SCHEMAC_LIBRARY_IMPL(aten, Autograd, m) {
  using schemac::kernels::autograd_kernel;
  for (const char* op : {"add.Tensor", "mul.Tensor", "relu", "sum.dim_IntList", "mean.dim", "mm",
                         "transpose.int", "view", "softmax.int"})
    m.impl(op, schemac::kernels::boxed(&autograd_kernel), "autograd_record");
  schemac::kernels::LayeredWritingOps::impl_autograd(m);
}

// ADInplaceOrView: the views (boxed; they write nothing, and share their base's version counter)
// and the in-place and out= operators (typed; they bump the counter of what they wrote).
SCHEMAC_LIBRARY_IMPL(aten, ADInplaceOrView, m) {
  using schemac::kernels::inplace_or_view_kernel;
  for (const char* op : {"transpose.int", "view"})
    m.impl(op, schemac::kernels::boxed(&inplace_or_view_kernel), "inplace_or_view");
  schemac::kernels::LayeredWritingOps::impl_inplace_or_view(m);
}

SCHEMAC_LIBRARY_IMPL(aten, AutocastCUDA, m) {
  m.impl("mm", &schemac::kernels::mm_autocast_cuda, "mm_autocast_cuda");
}
