// The CUDA kernels' host side: argument checks, type promotion, broadcasting plans and layout
// changes, shared with the CPU kernels where they agree; the device work is in the .cu files.
#include <fmt/format.h>

#include "../common/binary_checks.h"
#include "../common/loop_plan.h"
#include "../common/reduction_plan.h"
#include "launch.h"
#include "schemac/kernels/native_functions.h"

namespace schemac::kernels {

using core::Device, core::IntArrayRef, core::MemoryFormat, core::Scalar, core::ScalarType,
    core::Tensor;

namespace {

using core::TensorError;

void check_cuda(const char* op, const char* arg, const Tensor& t) {
  if (!t.defined())
    throw TensorError(fmt::format("{}: argument '{}' is an undefined tensor", op, arg));
  if (!t.is_cuda())
    throw TensorError(fmt::format("{}: expected argument '{}' on a CUDA device, got a tensor on {}",
                                  op, arg, t.device().to_string()));
}

// Selects `t`'s device for the launches that follow.
void use_device_of(const Tensor& t) {
  cuda::set_device(t.device().index() < 0 ? 0 : t.device().index());
}

Tensor empty_like_on(const Tensor& t, IntArrayRef sizes, ScalarType dtype,
                     MemoryFormat format = MemoryFormat::Contiguous) {
  return Tensor::empty(sizes, {dtype, t.device()}, format);
}

// dst = src on one GPU (src broadcast to dst's shape, converted to dst's dtype).
void copy_on_gpu(Tensor& dst, const Tensor& src) {
  use_device_of(dst);
  if (dst.numel() == 0) return;
  if (dst.dtype() == src.dtype() && dst.sizes() == src.sizes() && dst.strides() == src.strides() &&
      dst.is_contiguous(dst.suggest_memory_format())) {
    cuda::copy_bytes(dst.data_ptr(), src.data_ptr(), dst.numel() * dst.element_size(),
                     cuda::CopyKind::DeviceToDevice);
    return;
  }
  cuda::convert_elements(dst.dtype(), src.dtype(),
                         cuda::to_device_plan(make_loop_plan({dst, src}, dst.sizes())));
}

}  // namespace

// ## Factories and copies

Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype,
                  std::optional<core::Layout> /*layout*/, std::optional<Device> device,
                  std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  Device where = device.value_or(Device(core::DeviceType::CUDA, 0));
  if (!where.is_cuda())
    throw TensorError(fmt::format("empty_cuda: asked for a tensor on {}", where.to_string()));
  if (!where.has_index()) where = Device(core::DeviceType::CUDA, 0);
  if (pin_memory.value_or(false))
    throw TensorError("empty_cuda: pin_memory only applies to CPU tensors");
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  if (format == MemoryFormat::Preserve)
    throw TensorError("empty: preserve_format is not a valid memory format for a new tensor");
  return Tensor::empty(size, {dtype.value_or(ScalarType::Float), where}, format);
}

Tensor& copy_cuda_(Tensor& self, const Tensor& src, bool /*non_blocking*/) {
  if (!self.defined() || !src.defined()) throw TensorError("copy_: undefined tensor argument");
  if (!self.is_cuda() && !src.is_cuda())
    throw TensorError("copy_: the CUDA kernel needs at least one tensor on a CUDA device");
  if (self.is_same(src) || self.numel() == 0) return self;
  const Tensor expanded = src.expand(self.sizes());
  if (self.is_cuda() && src.is_cuda() && self.device() == src.device()) {
    copy_on_gpu(self, expanded);
  } else if (self.is_cuda() && src.is_cuda()) {  // two GPUs: through the host
    Tensor host = to_device(expanded, core::kCPU);
    copy_cuda_(self, host, false);
  } else {
    // Host <-> device: first make a dense copy in self's dtype on src's side, move the bytes,
    // then scatter into self's layout on its side if it is not dense.
    Tensor staged = Tensor::empty(self.sizes(), {self.dtype(), src.device()});
    if (src.is_cuda()) copy_on_gpu(staged, expanded);
    else copy_cpu_(staged, expanded, false);
    const bool to_gpu = self.is_cuda();
    use_device_of(to_gpu ? self : src);
    const auto kind = to_gpu ? cuda::CopyKind::HostToDevice : cuda::CopyKind::DeviceToHost;
    if (self.is_contiguous()) {
      cuda::copy_bytes(self.data_ptr(), staged.data_ptr(), self.numel() * self.element_size(),
                       kind);
    } else {
      Tensor landed = Tensor::empty(self.sizes(), {self.dtype(), self.device()});
      cuda::copy_bytes(landed.data_ptr(), staged.data_ptr(), self.numel() * self.element_size(),
                       kind);
      if (to_gpu) copy_on_gpu(self, landed);
      else copy_cpu_(self, landed, false);
    }
  }
  return self;
}

Tensor& fill_cuda_(Tensor& self, const Scalar& value) {
  check_cuda("fill_", "self", self);
  use_device_of(self);
  cuda::fill(self.dtype(), cuda::to_device_plan(make_loop_plan({self}, self.sizes())), value);
  return self;
}

// ## Pointwise

namespace {

Tensor& binary_into(cuda::BinaryOp op, const Tensor& self, const Tensor& other, const Scalar& alpha,
                    Tensor& out, const BinaryPlan& plan) {
  use_device_of(out);
  const Tensor a = to_dtype(self, plan.common);
  const Tensor b = to_dtype(other, plan.common);
  if (out.dtype() == plan.common) {
    cuda::binary(op, plan.common, cuda::to_device_plan(make_loop_plan({out, a, b}, out.sizes())),
                 alpha);
  } else {
    Tensor tmp = empty_like_on(out, plan.shape, plan.common);
    cuda::binary(op, plan.common, cuda::to_device_plan(make_loop_plan({tmp, a, b}, tmp.sizes())),
                 alpha);
    copy_on_gpu(out, tmp);
  }
  return out;
}

Tensor new_output(const BinaryPlan& plan, const Tensor& self) {
  const bool channels_last = self.sizes() == IntArrayRef(plan.shape) &&
                             self.suggest_memory_format() == MemoryFormat::ChannelsLast;
  return empty_like_on(self, plan.shape, plan.common,
                       channels_last ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous);
}

void check_args(const char* op, const Tensor& self, const Tensor& other) {
  check_cuda(op, "self", self);
  check_cuda(op, "other", other);
}

}  // namespace

Tensor add_cuda(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_args("add", self, other);
  const BinaryPlan plan = plan_binary("add", self, other, &alpha);
  Tensor out = new_output(plan, self);
  return binary_into(cuda::BinaryOp::Add, self, other, alpha, out, plan);
}

Tensor& add_cuda_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_args("add_", self, other);
  const BinaryPlan plan = plan_binary("add_", self, other, &alpha);
  prepare_out("add_", plan, self, /*may_resize=*/false);
  return binary_into(cuda::BinaryOp::Add, self, other, alpha, self, plan);
}

Tensor& add_out_cuda(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  check_args("add.out", self, other);
  check_cuda("add.out", "out", out);
  const BinaryPlan plan = plan_binary("add.out", self, other, &alpha);
  prepare_out("add.out", plan, out, /*may_resize=*/true);
  return binary_into(cuda::BinaryOp::Add, self, other, alpha, out, plan);
}

Tensor mul_cuda(const Tensor& self, const Tensor& other) {
  check_args("mul", self, other);
  const BinaryPlan plan = plan_binary("mul", self, other, nullptr);
  Tensor out = new_output(plan, self);
  return binary_into(cuda::BinaryOp::Mul, self, other, Scalar(int64_t{1}), out, plan);
}

Tensor relu_cuda(const Tensor& self) {
  check_cuda("relu", "self", self);
  if (self.dtype() == ScalarType::Bool) throw TensorError("relu: not implemented for bool tensors");
  use_device_of(self);
  Tensor out = empty_like_on(self, self.sizes(), self.dtype(), self.suggest_memory_format());
  cuda::relu(self.dtype(), cuda::to_device_plan(make_loop_plan({out, self}, out.sizes())));
  return out;
}

Tensor& relu_cuda_(Tensor& self) {
  check_cuda("relu_", "self", self);
  if (self.dtype() == ScalarType::Bool)
    throw TensorError("relu_: not implemented for bool tensors");
  use_device_of(self);
  cuda::relu(self.dtype(), cuda::to_device_plan(make_loop_plan({self, self}, self.sizes())));
  return self;
}

// ## Reductions

namespace {

Tensor reduce_cuda(const char* op, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   ScalarType out_type, bool mean) {
  check_cuda(op, "self", self);
  use_device_of(self);
  const ReductionPlan plan = plan_reduction(op, self, dim, keepdim);
  const Tensor rows =
      contiguous(to_dtype(self, out_type).permute(plan.permutation), MemoryFormat::Contiguous);
  Tensor out = empty_like_on(self, plan.out_sizes, out_type);
  cuda::reduce_rows(out_type, rows.data_ptr(), out.data_ptr(), plan.outer, plan.inner, mean);
  return out;
}

}  // namespace

Tensor sum_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype) {
  check_cuda("sum", "self", self);
  return reduce_cuda("sum", self, dim, keepdim, sum_result_type(self.dtype(), dtype), false);
}

Tensor mean_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                     std::optional<ScalarType> dtype) {
  check_cuda("mean", "self", self);
  return reduce_cuda("mean", self, dim, keepdim, mean_result_type("mean", self.dtype(), dtype),
                     true);
}

Tensor softmax_cuda(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  check_cuda("softmax", "self", self);
  const ScalarType out_type = dtype.value_or(self.dtype());
  if (!core::is_floating_point(out_type))
    throw TensorError(fmt::format("softmax: not implemented for {} (a floating dtype is needed)",
                                  core::to_string(out_type)));
  use_device_of(self);
  const int64_t ndim = self.dim();
  const int64_t d = core::wrap_dim(dim, ndim);
  const Tensor x = to_dtype(self, out_type);
  const Tensor rows_in =
      contiguous(ndim == 0 ? x : x.transpose(d, ndim - 1), MemoryFormat::Contiguous);
  Tensor rows_out = empty_like_on(self, rows_in.sizes(), out_type);
  const int64_t len = ndim == 0 ? 1 : rows_in.size(-1);
  cuda::softmax_rows(out_type, rows_in.data_ptr(), rows_out.data_ptr(),
                     len == 0 ? 0 : rows_in.numel() / len, len);
  if (ndim == 0 || d == ndim - 1) return rows_out;
  Tensor result = empty_like_on(self, self.sizes(), out_type);
  copy_on_gpu(result, rows_out.transpose(d, ndim - 1));
  return result;
}

// ## mm

Tensor mm_cuda(const Tensor& self, const Tensor& mat2) {
  check_cuda("mm", "self", self);
  check_cuda("mm", "mat2", mat2);
  if (self.dim() != 2 || mat2.dim() != 2)
    throw TensorError(fmt::format("mm: expected 2-d tensors, got {}-d self and {}-d mat2",
                                  self.dim(), mat2.dim()));
  if (self.size(1) != mat2.size(0))
    throw TensorError(fmt::format("mm: self and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                                  self.size(0), self.size(1), mat2.size(0), mat2.size(1)));
  if (self.dtype() != mat2.dtype())
    throw TensorError(
        fmt::format("mm: expected self and mat2 to have the same dtype, but got {} != {}",
                    core::to_string(self.dtype()), core::to_string(mat2.dtype())));
  if (self.dtype() == ScalarType::Bool) throw TensorError("mm: not implemented for bool");
  if (self.device() != mat2.device())
    throw TensorError(fmt::format("mm: expected both tensors on one device, got {} and {}",
                                  self.device().to_string(), mat2.device().to_string()));
  use_device_of(self);
  const int64_t m = self.size(0), k = self.size(1), n = mat2.size(1);
  Tensor out = empty_like_on(self, {m, n}, self.dtype());
  cuda::mm(self.dtype(), self.data_ptr(), self.stride(0), self.stride(1), mat2.data_ptr(),
           mat2.stride(0), mat2.stride(1), out.data_ptr(), m, n, k);
  return out;
}

}  // namespace schemac::kernels
