// torchgen's native signature (PyTorch 1.13's torchgen/api/native.py over cpp.py): the C++ types
// a kernel registered with `m.impl("op", TORCH_FN(kernel))` is written with.
//   Tensor -> const at::Tensor&          Tensor(a!) -> at::Tensor& (const at::Tensor& under
//                                        use_const_ref_for_mutable_tensors)
//   Tensor? -> const c10::optional<at::Tensor>&      Scalar -> const at::Scalar&
//   Scalar? -> const c10::optional<at::Scalar>&      int -> int64_t   float -> double   bool
//   str -> c10::string_view   SymInt -> int64_t (c10::SymInt for a `_symint` kernel)
//   int[] -> at::IntArrayRef   SymInt[] -> at::IntArrayRef (c10::SymIntArrayRef for `_symint`)
//   int[]? -> at::OptionalIntArrayRef   SymInt[]? -> at::OptionalIntArrayRef
//   (at::OptionalSymIntArrayRef) Tensor[] -> at::TensorList   Tensor?[] -> const
//   c10::List<c10::optional<at::Tensor>>& Dimname[] -> at::DimnameList   bool[N] ->
//   ::std::array<bool,N>   other T[] -> at::ArrayRef<T> other T? -> c10::optional<T>   ScalarType,
//   Layout, Device, MemoryFormat, Generator, Dimname, Storage, Stream, QScheme -> at::<Name> tuples
//   and dicts are owned values, as IValue::to gives them (PyTorch 1.13's kernel boxing,
//   ATen/core/boxing/impl/make_boxed_from_unboxed_functor.h, takes them):
//   (int, str) -> const ::std::tuple<int64_t, std::string>&   Dict(str, Tensor) -> const
//   c10::Dict<std::string, at::Tensor>&   (int, int)? -> const c10::optional<::std::tuple<int64_t,
//   int64_t>>&   (float, float)[] -> at::ArrayRef<::std::tuple<double, double>>; inside them str
//   is std::string, T[] c10::List<T>, T? c10::optional<T>. None has no type (no C++ argument
//   type infers to NoneType), nor c10::List<at::Scalar> inside a container
//   returns: Tensor -> at::Tensor, Tensor(a!) -> at::Tensor&, Scalar -> at::Scalar, T[] ->
//   ::std::vector<T>, several -> ::std::tuple<...>, none -> void, Dict(K, V) -> c10::Dict<K, V>,
//   a tuple among several -> a ::std::tuple element; beyond torchgen, what c10 returns: T? ->
//   c10::optional<T> (Tensor? -> c10::optional<at::Tensor>), str -> std::string, bool[] ->
//   c10::List<bool>; a lone tuple-typed return and Scalar[] have none (a ::std::tuple result means
//   several returns; c10 refuses std::vector<at::Scalar>)
// SymInt beyond torchgen, as PyTorch checks a kernel against its schema: a SymInt return is
// c10::SymInt from 2.0 (int64_t in 1.13), whatever the kernel's name (symint_returns_are_symint);
// a SymInt inside a list element is c10::SymInt (SymInt?[] -> at::ArrayRef<c10::optional<
// c10::SymInt>>), inside a tuple or a dict int64_t.
// Out arguments come last (for a valid out= schema they already are: torchgen requires them
// after every other keyword-only argument). No defaults: torchgen's defaults are C++ API sugar.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "schemac/kernel_types/cpp_types.h"
#include "schemac/schema/model.h"
#include "schemac/torch_releases/torch_release.h"

namespace schemac::kernel_types {

struct TorchSignature {
  std::string return_type;
  std::vector<CppParam> params;      // in native order (out arguments last)
  std::vector<size_t> schema_index;  // params[i] is schema argument schema_index[i]

  // Whether the native order differs from the schema's (a registration then needs a wrapper
  // that takes the arguments in schema order).
  bool reordered() const;
};

// Whether `release` checks a kernel's SymInt returns as SymInt: a `SymInt` (`SymInt[]`, `SymInt?`,
// `SymInt[]?`) return is then c10::SymInt (std::vector<c10::SymInt>, ...), before it int64_t.
// PyTorch compares a kernel's arguments by their fake type (int for a top-level SymInt, so
// int64_t and c10::SymInt both match) and from 2.0 its returns by their real type; 1.13 and 2.14
// are checked by loading kernels into each (tests/torch).
bool symint_returns_are_symint(torch_releases::TorchVersion release);

// The native signature for kernels registered into `release`, or nullopt with the reason in `why`
// when c10 cannot infer the schema from any C++ signature (varargs, Any, None, type variables,
// unions, futures, custom classes, a lone tuple return, a Scalar[] return, ...): such a kernel is
// boxed. `symint`: the kernel takes SymInt arguments as c10::SymInt (torchgen's `_symint` rule).
std::optional<TorchSignature> torch_native_signature(
    const schema::FunctionSchema& schema, bool const_ref_for_mutable_tensors, bool symint,
    std::string* why = nullptr,
    torch_releases::TorchVersion release = torch_releases::kNewestTorchVersion);

}  // namespace schemac::kernel_types
