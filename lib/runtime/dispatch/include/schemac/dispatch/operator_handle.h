// OperatorHandle and TypedOperatorHandle: how code calls an operator.
//
// A call takes four steps, none of which locks:
//   1. key extraction: the union of the key sets of the dispatch-relevant arguments. Boxed calls
//      peek the stack at the positions of the schema's Tensor, Tensor?, Tensor[] and Tensor?[]
//      arguments; typed calls look at the C++ arguments of those types (and Generator).
//   2. thread-local state: (keys | included) - excluded (local_dispatch_key_set.h).
//   3. the operator's non-fallthrough mask for the set's backend, so fallthrough keys are skipped.
//   4. the table slot of the highest-priority key, and its kernel runs.
// When a CallTracer is installed (call_trace.h), step 4 also reports the call to it.
// `redispatch` starts at step 3 with a key set the caller chose, typically the set a kernel
// received minus its own key and everything above it (`keys_below`).
//
// A handle is a small value: the OperatorEntry (owned by the Dispatcher, never freed before it)
// and the stack positions of the dispatch arguments, taken from the schema when the handle is
// made (or on each boxed call while the operator has no schema yet).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schemac/core/ivalue.h"
#include "schemac/core/stack.h"
#include "schemac/dispatch/boxing.h"
#include "schemac/dispatch/call_trace.h"
#include "schemac/dispatch/dispatch_error.h"
#include "schemac/dispatch/kernel_function.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/names_for_generated_code.h"
#include "schemac/dispatch/operator_entry.h"
#include "schemac/keys/dispatch_key_set.h"

namespace schemac::dispatch {

using core::IValue, core::Tensor, keys::DispatchKeySet;

class Dispatcher;
template <class Sig>
class TypedOperatorHandle;

// Every functionality strictly below `key`, and every backend bit: what a kernel registered on
// `key` intersects its key set with before redispatching.
constexpr DispatchKeySet keys_below(keys::DispatchKey key) {
  return DispatchKeySet::full_after(key);
}

// Bit i set: the argument i places below the top of the stack (0 = the last argument) is a
// Tensor, Tensor?, Tensor[] or Tensor?[] argument of the schema (up to 64 arguments).
uint64_t dispatch_argument_bits(const OperatorSignature& schema);

class OperatorHandle {
 public:
  OperatorHandle() = default;
  explicit OperatorHandle(OperatorEntry* entry);

  // Finds "ns::op" / "ns::op.overload" in `dispatcher` (the process-wide one by default);
  // nullopt when no such operator is known.
  static std::optional<OperatorHandle> find(std::string_view full_name);
  static std::optional<OperatorHandle> find(Dispatcher& dispatcher, std::string_view full_name);

  bool valid() const { return entry_ != nullptr; }
  OperatorEntry& entry() const { return *entry_; }
  const std::string& name() const;      // "ns::op"
  const std::string& overload() const;  // "" when none
  std::string full_name() const;        // "ns::op.overload"
  bool has_schema() const;
  // Throws DispatchError when the operator has no definition yet.
  const OperatorSignature& schema() const;

  // The union of the key sets of the dispatch arguments on the stack (step 1 only). Arguments
  // deeper than the stack are left out (a short stack: the kernel reports it).
  DispatchKeySet argument_key_set(const Stack& stack) const {
    if (!dispatch_args_known_) [[unlikely]]
      return argument_key_set_without_schema(stack);
    uint64_t bits = dispatch_args_;
    const size_t size = stack.size();
    if (size < 64) bits &= (uint64_t{1} << size) - 1;
    const IValue* top = stack.data() + size - 1;
    DispatchKeySet ks;
    for (; bits != 0; bits &= bits - 1)
      ks |= top[-static_cast<ptrdiff_t>(__builtin_ctzll(bits))].dispatch_key_set();
    return ks;
  }

  // Boxed call: the arguments on top of the stack are replaced by the returns.
  // The common case (a known schema, every dispatch argument a plain Tensor, no tracer) is
  // inline and ends in a tail call to the kernel; everything else goes to call_boxed_general.
  void call_boxed(Stack* stack) const {
    DispatchKeySet ks;
    if (!tensor_argument_key_set(*stack, ks) || detail::active_call_tracer() != nullptr)
        [[unlikely]]
      return call_boxed_general(stack);
    ks = apply_tls(ks);
    const KernelFunction& kernel = entry_->mask_and_lookup(ks);
    kernel.call_boxed(*this, ks, stack);
  }
  // Boxed call with a key set chosen by the caller (no extraction, no TLS).
  void redispatch_boxed(DispatchKeySet ks, Stack* stack) const {
    const KernelFunction& kernel = entry_->mask_and_lookup(ks);
    if (CallTracer* tracer = detail::active_call_tracer()) [[unlikely]] {
      detail::TracedCall traced(tracer, *this, ks);
      return kernel.call_boxed(*this, ks, stack);
    }
    kernel.call_boxed(*this, ks, stack);
  }

  // A handle typed by the C++ signature of the calls, e.g. `Tensor(const Tensor&, double)`.
  // Throws DispatchError when the operator has a schema whose argument or return count differs.
  template <class Sig>
  TypedOperatorHandle<Sig> typed() const;

  friend bool operator==(const OperatorHandle& a, const OperatorHandle& b) {
    return a.entry_ == b.entry_;
  }

 protected:
  void check_signature(size_t num_args, size_t num_returns, std::string_view signature) const;
  // argument_key_set for a handle made before the operator had a schema.
  DispatchKeySet argument_key_set_without_schema(const Stack& stack) const;
  // argument_key_set when the schema is known and every dispatch argument on the stack is a
  // Tensor (defined or not); false otherwise (lists, optionals, generators, a short stack).
  bool tensor_argument_key_set(const Stack& stack, DispatchKeySet& ks) const {
    uint64_t bits = dispatch_args_;
    const size_t size = stack.size();
    if (!dispatch_args_known_ || (size < 64 && (bits >> size) != 0)) return false;
    const IValue* top = stack.data() + size - 1;
    for (; bits != 0; bits &= bits - 1) {
      const IValue& arg = top[-static_cast<ptrdiff_t>(__builtin_ctzll(bits))];
      if (!arg.is_tensor()) return false;
      ks |= arg.dispatch_key_set();
    }
    return true;
  }
  // call_boxed for every other case: extraction from any argument kind, the tracer.
  void call_boxed_general(Stack* stack) const;

  OperatorEntry* entry_ = nullptr;
  uint64_t dispatch_args_ = 0;
  bool dispatch_args_known_ = false;  // false while the operator has no schema
};

namespace detail {
// The error for a call that reached a missing entry: names the operator, the key, and the keys
// that have kernels (or, for Undefined, says that no argument carried a key).
[[noreturn]] void throw_missing_kernel(const OperatorHandle& op, DispatchKeySet ks);

// Step 1 for typed calls: the key set contributed by one C++ argument.
template <class T>
inline DispatchKeySet argument_keys(const T& value) {
  using D = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<D, Tensor>) {
    return value.defined() ? value.key_set() : DispatchKeySet();
  } else if constexpr (std::is_same_v<D, core::Generator>) {
    return value.key_set();
  } else if constexpr (std::is_same_v<D, std::optional<Tensor>> ||
                       std::is_same_v<D, std::optional<core::Generator>> ||
                       std::is_same_v<D, std::optional<core::TensorList>>) {
    return value ? argument_keys(*value) : DispatchKeySet();
  } else if constexpr (std::is_same_v<D, std::vector<Tensor>> ||
                       std::is_same_v<D, std::vector<std::optional<Tensor>>> ||
                       std::is_same_v<D, core::TensorList> ||
                       std::is_same_v<D, core::ArrayRef<std::optional<Tensor>>>) {
    DispatchKeySet ks;
    for (const auto& item : value) ks |= argument_keys(item);
    return ks;
  } else {
    return DispatchKeySet();
  }
}
template <class... Args>
inline DispatchKeySet argument_keys_of(const Args&... args) {
  return (DispatchKeySet() | ... | argument_keys(args));
}
}  // namespace detail

template <class Sig>
class TypedOperatorHandle;

template <class Ret, class... Args>
class TypedOperatorHandle<Ret(Args...)> : public OperatorHandle {
 public:
  TypedOperatorHandle() = default;

  Ret call(Args... args) const {
    DispatchKeySet ks = apply_tls(detail::argument_keys_of(args...));
    const KernelFunction& kernel = entry_->mask_and_lookup(ks);
    if (CallTracer* tracer = detail::active_call_tracer()) [[unlikely]] {
      detail::TracedCall traced(tracer, *this, ks);
      return kernel.template call<Ret, Args...>(*this, ks, std::forward<Args>(args)...);
    }
    return kernel.template call<Ret, Args...>(*this, ks, std::forward<Args>(args)...);
  }

  Ret redispatch(DispatchKeySet ks, Args... args) const {
    const KernelFunction& kernel = entry_->mask_and_lookup(ks);
    if (CallTracer* tracer = detail::active_call_tracer()) [[unlikely]] {
      detail::TracedCall traced(tracer, *this, ks);
      return kernel.template call<Ret, Args...>(*this, ks, std::forward<Args>(args)...);
    }
    return kernel.template call<Ret, Args...>(*this, ks, std::forward<Args>(args)...);
  }

 private:
  friend class OperatorHandle;
  explicit TypedOperatorHandle(const OperatorHandle& op) : OperatorHandle(op) {}
};

namespace detail {
template <class T>
struct ReturnCount : std::integral_constant<size_t, 1> {};
template <>
struct ReturnCount<void> : std::integral_constant<size_t, 0> {};
template <class... T>
struct ReturnCount<std::tuple<T...>> : std::integral_constant<size_t, sizeof...(T)> {};
}  // namespace detail

template <class Sig>
TypedOperatorHandle<Sig> OperatorHandle::typed() const {
  using Traits = boxing::FunctionTraits<Sig>;
  using Ret = typename Traits::return_type;
  check_signature(std::tuple_size_v<boxing::TupleOf<typename Traits::params>>,
                  detail::ReturnCount<std::remove_cvref_t<Ret>>::value, typeid(Sig).name());
  return TypedOperatorHandle<Sig>(*this);
}

}  // namespace schemac::dispatch
