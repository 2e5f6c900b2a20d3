// KernelFunction: the special kernels (invalid, fallthrough, ambiguous) and the boxed forms.
#include "schemac/dispatch/kernel_function.h"

#include <fmt/format.h>

#include "schemac/dispatch/boxing.h"
#include "schemac/dispatch/dispatch_error.h"
#include "schemac/dispatch/operator_handle.h"

namespace schemac::dispatch {

using keys::DispatchKeySet;

namespace {

std::string operator_label(const OperatorHandle& op) { return op.full_name(); }

// The dispatcher masks fallthrough keys out before the lookup, so this entry runs only when a
// call read the operator's mask just before a registration made the key a fallthrough (or when
// someone calls the kernel object directly). It does what a fallthrough means: go on with the
// next key below.
void fallthrough_entry(const KernelFunction&, const OperatorHandle& op, DispatchKeySet ks,
                       Stack* stack) {
  const keys::DispatchKey key = ks.highest_priority_key();
  if (key == keys::DispatchKey::Undefined) detail::throw_missing_kernel(op, ks);
  op.redispatch_boxed(ks.remove(key), stack);
}

void ambiguous_autogradother_entry(const KernelFunction&, const OperatorHandle& op, DispatchKeySet,
                                   Stack*) {
  throw DispatchError(fmt::format(
      "operator '{}' is ambiguous on the AutogradOther key: it has a CompositeImplicitAutograd "
      "kernel and a kernel for a backend that uses AutogradOther (such as a Sparse, Quantized or "
      "FPGA key); give that backend its own Autograd key, or register a kernel on AutogradOther "
      "(or on CompositeExplicitAutograd) for this operator",
      operator_label(op)));
}

void plain_boxed_entry(const KernelFunction& self, const OperatorHandle& op, DispatchKeySet ks,
                       Stack* stack) {
  reinterpret_cast<BoxedKernelFn>(self.target())(op, ks, stack);
}

void functor_boxed_entry(const KernelFunction& self, const OperatorHandle& op, DispatchKeySet ks,
                         Stack* stack) {
  (*static_cast<BoxedKernelFunctor*>(self.functor()))(op, ks, stack);
}

}  // namespace

// A missing table entry holds an invalid kernel, so calling it is the missing-kernel error.
void KernelFunction::invalid_entry(const KernelFunction&, const OperatorHandle& op,
                                   DispatchKeySet ks, Stack*) {
  detail::throw_missing_kernel(op, ks);
}

KernelFunction KernelFunction::make_fallthrough() {
  Parts parts;
  parts.boxed = &fallthrough_entry;
  return from_parts(std::move(parts));
}

KernelFunction KernelFunction::make_ambiguous_autogradother() {
  Parts parts;
  parts.boxed = &ambiguous_autogradother_entry;
  return from_parts(std::move(parts));
}

KernelFunction KernelFunction::make_from_boxed(BoxedKernelFn fn) {
  if (fn == nullptr) return KernelFunction();
  Parts parts;
  parts.target = reinterpret_cast<AnyFn>(fn);
  parts.boxed = &plain_boxed_entry;
  KernelFunction k = from_parts(std::move(parts));
  k.plain_boxed_ = fn;
  return k;
}

KernelFunction KernelFunction::make_from_boxed_functor(
    std::shared_ptr<BoxedKernelFunctor> functor) {
  if (!functor) return KernelFunction();
  Parts parts;
  parts.functor = std::move(functor);
  parts.boxed = &functor_boxed_entry;
  return from_parts(std::move(parts));
}

KernelFunction KernelFunction::from_parts(Parts parts) {
  KernelFunction k;
  k.functor_ = std::move(parts.functor);
  k.target_ = parts.target;
  k.boxed_ = parts.boxed != nullptr ? parts.boxed : &invalid_entry;
  k.unboxed_ = parts.unboxed;
  k.unboxed_signature_ = parts.unboxed_signature;
  return k;
}

bool KernelFunction::is_fallthrough() const { return boxed_ == &fallthrough_entry; }

bool KernelFunction::is_ambiguous_autogradother() const {
  return boxed_ == &ambiguous_autogradother_entry;
}

namespace boxing {
void throw_reference_return_from_boxed() {
  throw DispatchError(
      "a kernel without an unboxed entry for this signature cannot return a reference; call it "
      "with a signature that returns by value");
}
}  // namespace boxing

}  // namespace schemac::dispatch
