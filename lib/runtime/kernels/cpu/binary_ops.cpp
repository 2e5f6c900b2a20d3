// add (functional, in-place, out) and mul on the CPU: broadcasting, any strides, type promotion;
// vectorisable loops for contiguous and scalar-broadcast runs, parallel for large tensors.
#include <cstdint>
#include <cstring>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "../common/binary_checks.h"
#include "../common/convert.h"
#include "../common/loop_plan.h"
#include "cpu_checks.h"
#include "schemac/kernels/cpu_features.h"
#include "schemac/kernels/native_functions.h"
#include "schemac/support/thread_pool.h"

// ElementFn's vector instantiations are inlined into the AVX2 / AVX-512 streaming runs; GCC
// still notes (at the end of the file) that such a return would change the ABI if it were not.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace schemac::kernels {

using core::MemoryFormat, core::Scalar, core::Tensor;

namespace {

constexpr int64_t kGrain = 1 << 15;
// Chunks per thread: the threads claim them one at a time, so a thread that wakes late or runs
// slower (memory-bound loops share the bandwidth unevenly) leaves its share to the others.
constexpr int kChunksPerThread = 8;

enum class BinaryOp { Add, Mul };

// The element function of op in compute type C.
// UnitAlpha: alpha is 1, so add is a plain sum.
template <BinaryOp Op, typename C, bool UnitAlpha>
struct ElementFn {
  C alpha;
  // V is C, or a vector of C (GCC/Clang vector extensions) for the streaming path, which inlines
  // it into functions built for AVX2 / AVX-512 (never called with a vector across an ABI edge).
  template <typename V>
  __attribute__((always_inline)) V operator()(V x, V y) const {
    if constexpr (std::is_same_v<C, bool>) {
      return Op == BinaryOp::Add ? (x || (alpha && y)) : (x && y);
    } else if constexpr (Op == BinaryOp::Add) {
      if constexpr (UnitAlpha) return x + y;
      return x + alpha * y;
    } else {
      return x * y;
    }
  }
};

template <typename T, typename F>
void contiguous_run(T* __restrict out, const T* __restrict a, const T* __restrict b, int64_t n,
                    F f) {
  using C = compute_t<T>;
  for (int64_t i = 0; i < n; ++i) out[i] = convert<T>(f(convert<C>(a[i]), convert<C>(b[i])));
}

// float runs with non-temporal stores, for operands that together do not fit in the cache a
// kernel can count on (cache_resident_bytes()): a store that first reads its cache line
// (write-allocate) would add a fourth stream to the three of a + b -> out, and the output would
// only evict the inputs. The widest vectors the CPU has (the library is built for baseline x86-64;
// these paths are chosen at run time).
#if defined(__GNUC__) && !defined(__clang__) && \
    defined(                                    \
        __x86_64__)  // clang rejects vector arguments to the functor outside a target function
#define SCHEMAC_STREAMING_RUN(name, isa, bytes, stream)                                    \
  template <typename F>                                                                    \
  __attribute__((target(isa))) void name(float* __restrict out, const float* __restrict a, \
                                         const float* __restrict b, int64_t n, F f) {      \
    typedef float vec __attribute__((vector_size(bytes)));                                 \
    constexpr int64_t kLanes = bytes / 4;                                                  \
    int64_t i = 0;                                                                         \
    for (; i < n && reinterpret_cast<uintptr_t>(out + i) % bytes != 0; ++i)                \
      out[i] = f(a[i], b[i]);                                                              \
    for (; i + kLanes <= n; i += kLanes) {                                                 \
      vec x, y;                                                                            \
      std::memcpy(&x, a + i, sizeof x);                                                    \
      std::memcpy(&y, b + i, sizeof y);                                                    \
      stream(out + i, f(x, y));                                                            \
    }                                                                                      \
    for (; i < n; ++i) out[i] = f(a[i], b[i]);                                             \
    _mm_sfence();                                                                          \
  }
#define SCHEMAC_STREAM_512(p, v) _mm512_stream_ps(p, static_cast<__m512>(v))
#define SCHEMAC_STREAM_256(p, v) _mm256_stream_ps(p, static_cast<__m256>(v))
#define SCHEMAC_STREAM_128(p, v) _mm_stream_ps(p, static_cast<__m128>(v))
SCHEMAC_STREAMING_RUN(streaming_run_avx512, "avx512f", 64, SCHEMAC_STREAM_512)
SCHEMAC_STREAMING_RUN(streaming_run_avx2, "avx2", 32, SCHEMAC_STREAM_256)
SCHEMAC_STREAMING_RUN(streaming_run_sse2, "sse2", 16, SCHEMAC_STREAM_128)

template <typename F>
void streaming_float_run(float* __restrict out, const float* __restrict a,
                         const float* __restrict b, int64_t n, F f) {
  static const int width = __builtin_cpu_supports("avx512f") ? 512
                           : __builtin_cpu_supports("avx2")  ? 256
                                                             : 128;
  if (width == 512) return streaming_run_avx512(out, a, b, n, f);
  if (width == 256) return streaming_run_avx2(out, a, b, n, f);
  streaming_run_sse2(out, a, b, n, f);
}
#else
template <typename F>
void streaming_float_run(float* __restrict out, const float* __restrict a,
                         const float* __restrict b, int64_t n, F f) {
  contiguous_run(out, a, b, n, f);
}
#endif

template <typename T, typename F>
void scalar_b_run(T* __restrict out, const T* __restrict a, compute_t<T> b, int64_t n, F f) {
  using C = compute_t<T>;
  for (int64_t i = 0; i < n; ++i) out[i] = convert<T>(f(convert<C>(a[i]), b));
}

template <typename T, typename F>
void scalar_a_run(T* __restrict out, compute_t<T> a, const T* __restrict b, int64_t n, F f) {
  using C = compute_t<T>;
  for (int64_t i = 0; i < n; ++i) out[i] = convert<T>(f(a, convert<C>(b[i])));
}

template <typename T, typename F>
void binary_inner(char** p, const int64_t* s, int64_t n, bool stream, F f) {
  using C = compute_t<T>;
  constexpr int64_t e = sizeof(T);
  auto* out = reinterpret_cast<T*>(p[0]);
  const auto* a = reinterpret_cast<const T*>(p[1]);
  const auto* b = reinterpret_cast<const T*>(p[2]);
  if (s[0] == e && s[1] == e && s[2] == e) {
    if constexpr (std::is_same_v<T, float>) {
      if (stream) return streaming_float_run(out, a, b, n, f);
    }
    contiguous_run(out, a, b, n, f);
  } else if (s[0] == e && s[1] == e && s[2] == 0) {
    scalar_b_run(out, a, convert<C>(*b), n, f);
  } else if (s[0] == e && s[1] == 0 && s[2] == e) {
    scalar_a_run(out, convert<C>(*a), b, n, f);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const C x = convert<C>(*reinterpret_cast<const T*>(p[1] + i * s[1]));
      const C y = convert<C>(*reinterpret_cast<const T*>(p[2] + i * s[2]));
      *reinterpret_cast<T*>(p[0] + i * s[0]) = convert<T>(f(x, y));
    }
  }
}

// out = op(a, b); all three have the same dtype, a and b broadcast to out's shape.
template <BinaryOp Op>
void run_binary(Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha) {
  const LoopPlan plan = make_loop_plan({out, a, b}, out.sizes());
  core::visit_scalar_type(out.dtype(), [&]<typename T>() {
    using C = compute_t<T>;
    const bool stream = 3 * plan.numel * static_cast<int64_t>(sizeof(T)) > cache_resident_bytes();
    auto run = [&](auto f) {
      support::parallel_for(
          0, plan.numel, kGrain,
          [&](int64_t begin, int64_t end) {
            run_plan_range(plan, begin, end, [&](char** p, const int64_t* s, int64_t n) {
              binary_inner<T>(p, s, n, stream, f);
            });
          },
          kChunksPerThread);
    };
    if (alpha.to_double() == 1.0) {
      run(ElementFn<Op, C, true>{alpha.to<C>()});
    } else {
      run(ElementFn<Op, C, false>{alpha.to<C>()});
    }
  });
}

template <BinaryOp Op>
Tensor& binary_into(const char* op, const Tensor& self, const Tensor& other, const Scalar& alpha,
                    Tensor& out, const BinaryPlan& plan) {
  const Tensor a = self.dtype() == plan.common ? self : to_dtype(self, plan.common);
  const Tensor b = other.dtype() == plan.common ? other : to_dtype(other, plan.common);
  (void)op;
  if (out.dtype() == plan.common) {
    run_binary<Op>(out, a, b, alpha);
  } else {
    Tensor tmp = Tensor::empty(plan.shape, {plan.common, core::kCPU});
    run_binary<Op>(tmp, a, b, alpha);
    copy_cpu_(out, tmp, false);
  }
  return out;
}

Tensor new_output(const BinaryPlan& plan, const Tensor& self) {
  const bool channels_last = self.sizes() == core::IntArrayRef(plan.shape) &&
                             self.suggest_memory_format() == MemoryFormat::ChannelsLast;
  return Tensor::empty(plan.shape, {plan.common, core::kCPU},
                       channels_last ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous);
}

void check_cpu_args(const char* op, const Tensor& self, const Tensor& other) {
  cpu::check_cpu(op, "self", self);
  cpu::check_cpu(op, "other", other);
}

}  // namespace

Tensor add_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_cpu_args("add", self, other);
  const BinaryPlan plan = plan_binary("add", self, other, &alpha);
  Tensor out = new_output(plan, self);
  return binary_into<BinaryOp::Add>("add", self, other, alpha, out, plan);
}

Tensor& add_cpu_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_cpu_args("add_", self, other);
  const BinaryPlan plan = plan_binary("add_", self, other, &alpha);
  prepare_out("add_", plan, self, /*may_resize=*/false);
  return binary_into<BinaryOp::Add>("add_", self, other, alpha, self, plan);
}

Tensor& add_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  check_cpu_args("add.out", self, other);
  cpu::check_cpu("add.out", "out", out);
  const BinaryPlan plan = plan_binary("add.out", self, other, &alpha);
  prepare_out("add.out", plan, out, /*may_resize=*/true);
  return binary_into<BinaryOp::Add>("add.out", self, other, alpha, out, plan);
}

Tensor mul_cpu(const Tensor& self, const Tensor& other) {
  check_cpu_args("mul", self, other);
  const BinaryPlan plan = plan_binary("mul", self, other, nullptr);
  Tensor out = new_output(plan, self);
  return binary_into<BinaryOp::Mul>("mul", self, other, Scalar(int64_t{1}), out, plan);
}

}  // namespace schemac::kernels
