// The kernels named in the `dispatch:` entries of examples/ops.yaml, as plain C++ functions that
// generated registration code binds to dispatch keys.
//
// Signature convention (the "native" signature, derived from the schema):
//   Tensor             -> const Tensor&          Tensor(a!) (in-place self or out) -> Tensor&
//   Tensor(a) (a view) -> const Tensor&          int -> int64_t,  bool -> bool
//   Scalar -> const Scalar&                      int[] / SymInt[] -> IntArrayRef
//   int[1]? -> std::optional<IntArrayRef>        T? (ScalarType, Layout, Device, bool,
//                                                    MemoryFormat) -> std::optional<T>
//   MemoryFormat -> MemoryFormat
//   returns: Tensor -> Tensor; Tensor(a!) -> Tensor& (the argument it aliases)
// Arguments keep the schema's order (out arguments are last, as the schema has them).
//
// CPU kernels take CPU tensors; CUDA kernels take CUDA tensors (copy_cuda_ also copies between the
// host and a GPU). Errors are thrown as dispatch::TensorError with a message naming the operator.
#pragma once

#include <functional>
#include <optional>

#include "schemac/core/tensor.h"

namespace schemac::kernels {

using core::Device, core::IntArrayRef, core::MemoryFormat, core::Scalar, core::ScalarType,
    core::Tensor;

using core::Device;
using core::IntArrayRef;
using core::Layout;
using core::MemoryFormat;
using core::Scalar;
using core::ScalarType;
using core::Tensor;

// ## Factories
// empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None,
//                     Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None)
Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype,
                 std::optional<core::Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format);
Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype,
                  std::optional<core::Layout> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format);

// ## In-place writes
// fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)
Tensor& fill_cpu_(Tensor& self, const Scalar& value);
Tensor& fill_cuda_(Tensor& self, const Scalar& value);
// copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
// src broadcasts to self's shape and is converted to self's dtype.
Tensor& copy_cpu_(Tensor& self, const Tensor& src, bool non_blocking);
Tensor& copy_cuda_(Tensor& self, const Tensor& src, bool non_blocking);

// ## Pointwise
// add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
Tensor add_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor add_cuda(const Tensor& self, const Tensor& other, const Scalar& alpha);
// add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
Tensor& add_cpu_(Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& add_cuda_(Tensor& self, const Tensor& other, const Scalar& alpha);
// add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
// out is resized to the broadcast shape when its shape differs.
Tensor& add_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out);
Tensor& add_out_cuda(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out);
// mul.Tensor(Tensor self, Tensor other) -> Tensor
Tensor mul_cpu(const Tensor& self, const Tensor& other);
Tensor mul_cuda(const Tensor& self, const Tensor& other);
// relu(Tensor self) -> Tensor
Tensor relu_cpu(const Tensor& self);
Tensor relu_cuda(const Tensor& self);
// relu_(Tensor(a!) self) -> Tensor(a!)
Tensor& relu_cpu_(Tensor& self);
Tensor& relu_cuda_(Tensor& self);

// ## Reductions
// sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
// No dim (or an empty list) reduces every dimension. Integral inputs sum to int64.
Tensor sum_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   std::optional<ScalarType> dtype);
Tensor sum_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype);
// mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
Tensor mean_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype);
Tensor mean_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                     std::optional<ScalarType> dtype);
// softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
Tensor softmax_cpu(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
Tensor softmax_cuda(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);

// ## Linear algebra
// mm(Tensor self, Tensor mat2) -> Tensor
Tensor mm_cpu(const Tensor& self, const Tensor& mat2);
Tensor mm_cuda(const Tensor& self, const Tensor& mat2);

// ## Views (any device: CPU, CUDA: ...)
// transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
// view(Tensor(a) self, SymInt[] size) -> Tensor(a)
Tensor view(const Tensor& self, IntArrayRef size);

// ## Composites (CompositeImplicitAutograd: built from the operators above)
// A composite is written over the operators it uses, passed in: the registered kernels pass the
// dispatcher's operators (so every layer above the backend sees the inner calls, as in PyTorch);
// the defaults call this library's kernels for the tensor's device directly.
struct CompositeOps {
  std::function<Tensor(const Tensor&, const Tensor&)> mm;
  std::function<Tensor(IntArrayRef, ScalarType, Device, MemoryFormat)> empty;
  std::function<void(Tensor&, const Tensor&)> copy;
  static const CompositeOps& direct();  // this library's kernels, no dispatch
};
// contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)
// Returns self when it already has the format, else a copy in that format.
Tensor contiguous(const Tensor& self, MemoryFormat memory_format,
                  const CompositeOps& ops = CompositeOps::direct());
// matmul(Tensor self, Tensor other) -> Tensor: 1-d and 2-d operands (dot, mv, vm, mm).
Tensor matmul(const Tensor& self, const Tensor& other,
              const CompositeOps& ops = CompositeOps::direct());

// ## Helpers for tests and tools (not operators)
// A copy of `t` on `device` (the same tensor when it is already there).
Tensor to_device(const Tensor& t, Device device);
// A copy of `t` with element type `dtype`, on the same device.
Tensor to_dtype(const Tensor& t, ScalarType dtype);
// The number of CUDA devices (0 when the library was built without CUDA or none is present).
int cuda_device_count();

}  // namespace schemac::kernels
