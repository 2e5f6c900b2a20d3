// Boxing and unboxing adapters: how a kernel written one way is called the other way.
//
//   * An unboxed kernel called boxed: `make_from_unboxed(f)` generates a boxed entry that reads
//     the arguments off the stack (converting each IValue to the C++ parameter type), calls `f`,
//     drops the arguments and pushes the returns (a std::tuple pushes one value per element).
//   * A boxed kernel called unboxed: `KernelFunction::call<Ret, Args...>` pushes the arguments as
//     IValues, runs the boxed entry, and converts what it left on the stack back to `Ret`.
//   * An unboxed kernel called unboxed with its own signature is called directly, with no boxing.
//
// Parameter types an unboxed kernel may take (by value or const reference unless noted):
//   Tensor (also Tensor& for out= arguments), int64_t, double, bool, std::complex<double>, Scalar,
//   std::string, std::string_view, Device, Generator, enums (ScalarType, Layout, MemoryFormat),
//   ArrayRef<T> of any supported T (IntArrayRef, TensorList, ArrayRef<double>, ...),
//   std::vector<int64_t|double|bool|Tensor|std::optional<Tensor>>, std::vector<T> of any other
//   supported T (a generic list), std::optional<T> of any of these, and IValue itself;
//   std::tuple<T...> (a schema tuple `(int, Tensor)`), Dict<K, V> (`Dict(K, V)`, dict.h) and
//   std::monostate (`None`), whose elements are owned values (std::string, std::vector<T>, ...).
// An ArrayRef parameter of a kernel called boxed views the list inside the argument's IValue when
// the IValue holds that very array (int[], float[], Tensor[], Tensor?[], a generic list viewed as
// ArrayRef<IValue>); any other list (bool[], str[], Scalar[], ...) is converted into a ListArgument
// that the adapter keeps alive until the kernel returns. Either way the view is valid for the
// whole kernel call, and no longer.
// Return types: void, any of the above by value, Tensor& (returned as a copy of the handle when
// boxed), or a std::tuple of them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

#include "schemac/core/array_ref.h"
#include "schemac/core/ivalue.h"
#include "schemac/core/ivalue_conversions.h"
#include "schemac/core/stack.h"
#include "schemac/dispatch/kernel_function.h"

namespace schemac::dispatch {

using core::require_stack_size, core::boxing::take, core::boxing::to_ivalue, keys::DispatchKeySet;

namespace boxing {

// ## Function traits: the return type and parameter list of a function or callable object.
template <class... Ts>
struct TypeList {};

template <class F>
struct FunctionTraits : FunctionTraits<decltype(&F::operator())> {};
template <class R, class... A>
struct FunctionTraits<R(A...)> {
  using return_type = R;
  using params = TypeList<A...>;
};
template <class R, class... A>
struct FunctionTraits<R (*)(A...)> : FunctionTraits<R(A...)> {};
template <class C, class R, class... A>
struct FunctionTraits<R (C::*)(A...)> : FunctionTraits<R(A...)> {};
template <class C, class R, class... A>
struct FunctionTraits<R (C::*)(A...) const> : FunctionTraits<R(A...)> {};
template <class C, class R, class... A>
struct FunctionTraits<R (C::*)(A...) noexcept> : FunctionTraits<R(A...)> {};
template <class C, class R, class... A>
struct FunctionTraits<R (C::*)(A...) const noexcept> : FunctionTraits<R(A...)> {};
template <class R, class... A>
struct FunctionTraits<R (*)(A...) noexcept> : FunctionTraits<R(A...)> {};

// Splits off a leading DispatchKeySet parameter: `Args` is the signature callers see.
template <class List>
struct StripKeySet {
  static constexpr bool takes_key_set = false;
  using args = List;
};
template <class First, class... Rest>
struct StripKeySet<TypeList<First, Rest...>> {
  static constexpr bool takes_key_set = std::is_same_v<std::remove_cvref_t<First>, DispatchKeySet>;
  using args = std::conditional_t<takes_key_set, TypeList<Rest...>, TypeList<First, Rest...>>;
};

template <class List>
struct TupleOfImpl;
template <class... Ts>
struct TupleOfImpl<TypeList<Ts...>> {
  using type = std::tuple<Ts...>;
};
template <class List>
using TupleOf = typename TupleOfImpl<List>::type;

// The IValue <-> C++ conversions (FromIValue, to_ivalue, take) are the value core's:
// schemac/core/ivalue_conversions.h.

// Pushes a kernel's result: nothing for void, one value per element for a tuple.
template <class R>
void push_result(R&& result, Stack* stack) {
  using D = std::remove_cvref_t<R>;
  if constexpr (core::boxing::IsTuple<D>::value) {
    std::apply([stack](auto&&... items) { (stack->push_back(to_ivalue(items)), ...); },
               std::forward<R>(result));
  } else {
    stack->push_back(to_ivalue(std::forward<R>(result)));
  }
}

// Reads a result of type R off the stack (the values a boxed kernel left) and clears them.
template <class R>
R pop_result(Stack* stack);

template <class R, size_t... I>
R pop_tuple(Stack* stack, std::index_sequence<I...>) {
  constexpr size_t n = sizeof...(I);
  require_stack_size(*stack, n, "the returns of a boxed kernel");
  core::IValue* base = stack->data() + stack->size() - n;
  R result(take<std::tuple_element_t<I, R>>(std::move(base[I]))...);
  stack->resize(stack->size() - n);
  return result;
}

template <class R>
R pop_result(Stack* stack) {
  if constexpr (std::is_void_v<R>) {
    stack->clear();
  } else if constexpr (core::boxing::IsTuple<R>::value) {
    return pop_tuple<R>(stack, std::make_index_sequence<std::tuple_size_v<R>>());
  } else {
    require_stack_size(*stack, 1, "the return of a boxed kernel");
    R result = take<R>(std::move(stack->back()));
    stack->pop_back();
    return result;
  }
}

[[noreturn]] void throw_reference_return_from_boxed();

// The C++ signature callers use for a kernel, `Ret(Args...)`.
template <class Ret, class ArgList>
struct SignatureOfImpl;
template <class Ret, class... Args>
struct SignatureOfImpl<Ret, TypeList<Args...>> {
  using type = Ret(Args...);
};
template <class Ret, class ArgList>
using SignatureOf = typename SignatureOfImpl<Ret, ArgList>::type;

// ## The entries generated for an unboxed callable F
template <class F>
struct FunctorHolder final : OperatorKernel {
  explicit FunctorHolder(F f) : fn(std::move(f)) {}
  F fn;
};

template <class F, bool kIsFunctionPointer, bool kTakesKeySet, class Ret, class ArgList>
struct UnboxedAdapter;

template <class F, bool kIsFunctionPointer, bool kTakesKeySet, class Ret, class... Args>
struct UnboxedAdapter<F, kIsFunctionPointer, kTakesKeySet, Ret, TypeList<Args...>> {
  static decltype(auto) callable(const KernelFunction& self) {
    if constexpr (kIsFunctionPointer) {
      return reinterpret_cast<F>(self.target());
    } else {
      return (static_cast<FunctorHolder<F>*>(self.functor())->fn);
    }
  }

  // The unboxed entry: the signature callers use, with the dispatch key set in front.
  static Ret call_unboxed(const KernelFunction& self, DispatchKeySet ks, Args... args) {
    if constexpr (kTakesKeySet) {
      return callable(self)(ks, std::forward<Args>(args)...);
    } else {
      (void)ks;
      return callable(self)(std::forward<Args>(args)...);
    }
  }

  template <size_t... I>
  static void call_boxed_impl(const KernelFunction& self, DispatchKeySet ks, Stack* stack,
                              std::index_sequence<I...>) {
    constexpr size_t n = sizeof...(Args);
    core::IValue* base = stack->data() + stack->size() - n;
    (void)base;
    if constexpr (std::is_void_v<Ret>) {
      call_unboxed(self, ks, core::boxing::FromIValue<std::remove_cvref_t<Args>>::get(base[I])...);
      stack->resize(stack->size() - n);
    } else {
      // Convert before dropping the arguments: a Tensor& result may alias one of them.
      std::remove_cvref_t<Ret> result(call_unboxed(
          self, ks, core::boxing::FromIValue<std::remove_cvref_t<Args>>::get(base[I])...));
      stack->resize(stack->size() - n);
      push_result(std::move(result), stack);
    }
  }

  // The boxed entry: arguments from the stack, returns onto it.
  static void call_boxed(const KernelFunction& self, const OperatorHandle&, DispatchKeySet ks,
                         Stack* stack) {
    require_stack_size(*stack, sizeof...(Args), "the arguments of an unboxed kernel");
    call_boxed_impl(self, ks, stack, std::index_sequence_for<Args...>());
  }
};

// A reference, or a tuple with a reference (`std::tuple<Tensor&, Tensor&>`): a boxed kernel
// cannot produce one.
template <class R>
struct HasReference : std::is_reference<R> {};
template <class... T>
struct HasReference<std::tuple<T...>> : std::disjunction<std::is_reference<T>...> {};

// Calls a kernel that has no unboxed entry for this signature, through the boxed entry.
template <class Ret, class... Args>
Ret call_through_boxed(const KernelFunction& kernel, const OperatorHandle& op, DispatchKeySet ks,
                       Args... args) {
  if constexpr (HasReference<Ret>::value) {
    throw_reference_return_from_boxed();
  } else {
    Stack stack;
    stack.reserve(sizeof...(Args) > 1 ? sizeof...(Args) : 1);
    (stack.push_back(to_ivalue(std::forward<Args>(args))), ...);
    kernel.call_boxed(op, ks, &stack);
    return pop_result<Ret>(&stack);
  }
}

}  // namespace boxing

template <class F>
KernelFunction KernelFunction::make_from_unboxed(F f) {
  using Decayed = std::decay_t<F>;
  constexpr bool kIsFunctionPointer =
      std::is_pointer_v<Decayed> && std::is_function_v<std::remove_pointer_t<Decayed>>;
  using Traits = boxing::FunctionTraits<Decayed>;
  using Strip = boxing::StripKeySet<typename Traits::params>;
  using Ret = typename Traits::return_type;
  using Adapter = boxing::UnboxedAdapter<Decayed, kIsFunctionPointer, Strip::takes_key_set, Ret,
                                         typename Strip::args>;
  Parts parts;
  if constexpr (kIsFunctionPointer) {
    parts.target = reinterpret_cast<AnyFn>(f);
  } else {
    parts.functor = std::make_shared<boxing::FunctorHolder<Decayed>>(std::move(f));
  }
  parts.boxed = &Adapter::call_boxed;
  parts.unboxed = reinterpret_cast<AnyFn>(&Adapter::call_unboxed);
  parts.unboxed_signature = &typeid(boxing::SignatureOf<Ret, typename Strip::args>);
  return from_parts(std::move(parts));
}

// Inlined into every typed call and redispatch: an out-of-line call here cost a prologue and an
// epilogue per dispatch level.
template <class Ret, class... Args>
inline __attribute__((always_inline)) Ret KernelFunction::call(const OperatorHandle& op,
                                                               DispatchKeySet ks,
                                                               Args... args) const {
  using Sig = Ret(Args...);
  const std::type_info* sig = unboxed_signature_;
  if (sig != nullptr && (sig == &typeid(Sig) || *sig == typeid(Sig))) [[likely]] {
    auto entry =
        reinterpret_cast<Ret (*)(const KernelFunction&, DispatchKeySet, Args...)>(unboxed_);
    return entry(*this, ks, std::forward<Args>(args)...);
  }
  return boxing::call_through_boxed<Ret, Args...>(*this, op, ks, std::forward<Args>(args)...);
}

}  // namespace schemac::dispatch
