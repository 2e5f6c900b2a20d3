// KernelFunction: one kernel as the dispatcher stores it, callable boxed and (when it was built
// from a C++ function) unboxed.
//
// A KernelFunction is a small value (cheap to copy: a shared pointer to the functor state, if any,
// plus three raw pointers). It is one of:
//   * invalid        - default-constructed; `is_valid()` is false
//   * fallthrough    - `make_fallthrough()`: the dispatcher skips the key and goes to the next one
//   * ambiguous      - `make_ambiguous_autogradother()`: calling it raises the AutogradOther
//                      ambiguity error (a DispatchError)
//   * boxed          - `make_from_boxed(fn)` or `make_from_boxed_functor(...)`: a kernel that
//                      takes its arguments from a Stack and leaves its results there
//   * unboxed        - `make_from_unboxed(f)` (boxing.h): a C++ function or lambda; it is callable
//                      unboxed directly and boxed through a generated adapter
//
// Calling conventions:
//   * boxed:   `call_boxed(op, ks, stack)`. The stack holds the arguments on entry and the returns
//              on exit.
//   * unboxed: `call<Ret, Args...>(op, ks, args...)` (defined in boxing.h). When the kernel has an
//              unboxed entry for exactly this signature it is called directly; otherwise the
//              arguments are boxed onto a stack, the boxed entry runs and the result is unboxed.
//   Unboxed kernels whose first parameter is a DispatchKeySet receive the key set they were
//   dispatched with (for redispatch); other kernels do not see it.
#pragma once

#include <memory>
#include <typeinfo>
#include <vector>

#include "schemac/core/fwd.h"
#include "schemac/dispatch/names_for_generated_code.h"
#include "schemac/keys/dispatch_key_set.h"

namespace schemac::dispatch {

using keys::DispatchKeySet;

class OperatorHandle;
using Stack = std::vector<core::IValue>;

// The boxed kernel signature of the D1/D2 contract.
using BoxedKernelFn = void (*)(const OperatorHandle& op, DispatchKeySet ks, Stack* stack);

// Base of every kernel functor. Functors carry state (captures of a lambda, a plugin's context).
class OperatorKernel {
 public:
  virtual ~OperatorKernel() = default;
};

// A boxed kernel written as a functor.
class BoxedKernelFunctor : public OperatorKernel {
 public:
  virtual void operator()(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) = 0;
};

class KernelFunction {
 public:
  // The internal boxed entry: every kind of kernel is reachable through one of these.
  using BoxedEntry = void (*)(const KernelFunction& self, const OperatorHandle& op,
                              DispatchKeySet ks, Stack* stack);

  KernelFunction() = default;

  static KernelFunction make_fallthrough();
  static KernelFunction make_ambiguous_autogradother();
  static KernelFunction make_from_boxed(BoxedKernelFn fn);
  static KernelFunction make_from_boxed_functor(std::shared_ptr<BoxedKernelFunctor> functor);

  // From a C++ function pointer or a lambda / functor object (defined in boxing.h).
  // The callable may take `DispatchKeySet` as its first parameter.
  template <class F>
  static KernelFunction make_from_unboxed(F f);

  bool is_valid() const { return boxed_ != &invalid_entry; }
  bool is_fallthrough() const;
  bool is_ambiguous_autogradother() const;
  // True when the kernel has a direct unboxed entry (it was built from a C++ callable).
  bool has_unboxed() const { return unboxed_ != nullptr; }
  // The C++ signature of the unboxed entry (`Ret(Args...)` without a leading DispatchKeySet),
  // or nullptr for boxed-only kernels.
  const std::type_info* unboxed_signature() const { return unboxed_signature_; }

  // Boxed call. Throws DispatchError for an invalid, fallthrough or ambiguous kernel.
  void call_boxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const {
    // A plain boxed function is called directly: one indirect call instead of two.
    if (plain_boxed_ != nullptr) return plain_boxed_(op, ks, stack);
    boxed_(*this, op, ks, stack);
  }

  // Unboxed call (boxing.h).
  template <class Ret, class... Args>
  Ret call(const OperatorHandle& op, DispatchKeySet ks, Args... args) const;

  // For the adapters in boxing.h; not for general use.
  using AnyFn = void (*)();  // any function pointer, stored type-erased
  struct Parts {
    std::shared_ptr<OperatorKernel> functor;
    AnyFn target = nullptr;  // a plain function pointer, when there is no functor
    BoxedEntry boxed = nullptr;
    AnyFn unboxed = nullptr;  // Ret(*)(const KernelFunction&, DispatchKeySet, Args...)
    const std::type_info* unboxed_signature = nullptr;
  };
  static KernelFunction from_parts(Parts parts);
  OperatorKernel* functor() const { return functor_.get(); }
  AnyFn target() const { return target_; }
  AnyFn unboxed_entry() const { return unboxed_; }

 private:
  std::shared_ptr<OperatorKernel> functor_;
  AnyFn target_ = nullptr;
  BoxedEntry boxed_ = &invalid_entry;
  AnyFn unboxed_ = nullptr;
  const std::type_info* unboxed_signature_ = nullptr;
  BoxedKernelFn plain_boxed_ = nullptr;  // make_from_boxed's function (also reached via boxed_)

  static void invalid_entry(const KernelFunction&, const OperatorHandle&, DispatchKeySet, Stack*);
};

}  // namespace schemac::dispatch
