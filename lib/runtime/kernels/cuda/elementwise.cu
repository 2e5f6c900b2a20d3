// Element-wise CUDA kernels over a DevicePlan: dtype conversion (copy_), fill_, add, mul, relu.
// Each thread finds its operands' offsets from the linear index; when every operand is
// contiguous a vectorised path moves 16 bytes per load.
#include <type_traits>

#include "../common/convert.h"
#include "cuda_check.cuh"
#include "launch.h"

namespace schemac::kernels::cuda {

using core::ScalarType;

namespace {

// Byte offsets of element `linear` for the first N operands.
template <int N>
__device__ void offsets_of(const DevicePlan& plan, int64_t linear, int64_t (&off)[N]) {
  for (int k = 0; k < N; ++k) off[k] = 0;
  for (int d = 0; d < plan.ndim; ++d) {
    const int64_t i = linear % plan.sizes[d];
    linear /= plan.sizes[d];
    for (int k = 0; k < N; ++k) off[k] += i * plan.strides[d][k];
  }
}

// fn(char* ptrs[N]) for every element.
template <int N, typename Fn>
__global__ void strided_kernel(DevicePlan plan, Fn fn) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < plan.numel;
       i += int64_t(blockDim.x) * gridDim.x) {
    int64_t off[N];
    offsets_of<N>(plan, i, off);
    char* ptrs[N];
    for (int k = 0; k < N; ++k) ptrs[k] = plan.data[k] + off[k];
    fn(ptrs);
  }
}

template <int N, typename Fn>
void launch_strided(const DevicePlan& plan, Fn fn, const char* what) {
  if (plan.numel == 0) return;
  strided_kernel<N><<<blocks_for(plan.numel), 256>>>(plan, fn);
  check_launch(what);
}

// Whether every operand of the plan is one contiguous run of elements of `elsize` bytes.
bool all_contiguous(const DevicePlan& plan, int nops, int64_t elsize) {
  if (plan.ndim > 1) return false;
  if (plan.ndim == 0) return true;
  for (int k = 0; k < nops; ++k)
    if (plan.strides[0][k] != elsize) return false;
  return true;
}

template <typename D, typename S>
struct ConvertFn {
  __device__ void operator()(char** p) const {
    *reinterpret_cast<D*>(p[0]) = convert<D>(*reinterpret_cast<const S*>(p[1]));
  }
};

template <typename T>
struct FillFn {
  T value;
  __device__ void operator()(char** p) const { *reinterpret_cast<T*>(p[0]) = value; }
};

template <typename C>
struct AddOp {
  C alpha;
  __device__ C operator()(C x, C y) const {
    if constexpr (std::is_same_v<C, bool>) return x || (alpha && y);
    else return x + alpha * y;
  }
};
template <typename C>
struct MulOp {
  __device__ C operator()(C x, C y) const {
    if constexpr (std::is_same_v<C, bool>) return x && y;
    else return x * y;
  }
};

template <typename T, typename Op>
struct BinaryFn {
  Op op;
  __device__ void operator()(char** p) const {
    using C = compute_t<T>;
    *reinterpret_cast<T*>(p[0]) = convert<T>(op(convert<C>(*reinterpret_cast<const T*>(p[1])),
                                                convert<C>(*reinterpret_cast<const T*>(p[2]))));
  }
};

// Contiguous binary op, V elements per 16-byte vector.
template <typename T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

template <typename T, int V, typename Op>
__global__ void contiguous_binary_kernel(T* out, const T* a, const T* b, int64_t n, Op op) {
  using C = compute_t<T>;
  const int64_t vectors = n / V;
  const int64_t stride = int64_t(blockDim.x) * gridDim.x;
  const int64_t first = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  for (int64_t i = first; i < vectors; i += stride) {
    const Pack<T, V> x = reinterpret_cast<const Pack<T, V>*>(a)[i];
    const Pack<T, V> y = reinterpret_cast<const Pack<T, V>*>(b)[i];
    Pack<T, V> r;
#pragma unroll
    for (int j = 0; j < V; ++j) r.v[j] = convert<T>(op(convert<C>(x.v[j]), convert<C>(y.v[j])));
    reinterpret_cast<Pack<T, V>*>(out)[i] = r;
  }
  for (int64_t i = vectors * V + first; i < n; i += stride)
    out[i] = convert<T>(op(convert<C>(a[i]), convert<C>(b[i])));
}

template <typename T>
struct ReluFn {
  __device__ void operator()(char** p) const {
    using C = compute_t<T>;
    const C x = convert<C>(*reinterpret_cast<const T*>(p[1]));
    *reinterpret_cast<T*>(p[0]) = convert<T>(x < C(0) ? C(0) : x);
  }
};

template <typename T, typename Op>
void run_binary(const DevicePlan& plan, Op op, const char* what) {
  constexpr int V = 16 / sizeof(T);
  const bool aligned =
      (reinterpret_cast<uintptr_t>(plan.data[0]) | reinterpret_cast<uintptr_t>(plan.data[1]) |
       reinterpret_cast<uintptr_t>(plan.data[2])) %
          16 ==
      0;
  if (plan.numel > 0 && aligned && all_contiguous(plan, 3, sizeof(T))) {
    contiguous_binary_kernel<T, V><<<blocks_for(plan.numel / V + 1), 256>>>(
        reinterpret_cast<T*>(plan.data[0]), reinterpret_cast<const T*>(plan.data[1]),
        reinterpret_cast<const T*>(plan.data[2]), plan.numel, op);
    check_launch(what);
    return;
  }
  launch_strided<3>(plan, BinaryFn<T, Op>{op}, what);
}

}  // namespace

void convert_elements(ScalarType dst, ScalarType src, const DevicePlan& plan) {
  core::visit_scalar_type(dst, [&]<typename D>() {
    core::visit_scalar_type(
        src, [&]<typename S>() { launch_strided<2>(plan, ConvertFn<D, S>{}, "copy_"); });
  });
}

void fill(ScalarType t, const DevicePlan& plan, const core::Scalar& value) {
  core::visit_scalar_type(
      t, [&]<typename T>() { launch_strided<1>(plan, FillFn<T>{value.to<T>()}, "fill_"); });
}

void binary(BinaryOp op, ScalarType t, const DevicePlan& plan, const core::Scalar& alpha) {
  core::visit_scalar_type(t, [&]<typename T>() {
    using C = compute_t<T>;
    if (op == BinaryOp::Add) run_binary<T>(plan, AddOp<C>{alpha.to<C>()}, "add");
    else run_binary<T>(plan, MulOp<C>{}, "mul");
  });
}

void relu(ScalarType t, const DevicePlan& plan) {
  core::visit_scalar_type(t, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) launch_strided<2>(plan, ReluFn<T>{}, "relu");
  });
}

}  // namespace schemac::kernels::cuda
