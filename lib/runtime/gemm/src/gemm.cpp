// The blocked GEMM of gemm.h: packing, the micro-kernel per ISA, and the split across threads.
#include "schemac/gemm/gemm.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <iterator>
#include <memory>
#include <type_traits>

#include "schemac/support/thread_pool.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define SCHEMAC_X86 1
#define SCHEMAC_TARGET(isa) __attribute__((target(isa), flatten))
#else
#define SCHEMAC_X86 0
#define SCHEMAC_TARGET(isa)
#endif
#define SCHEMAC_INLINE inline __attribute__((always_inline))

namespace schemac::gemm {

using support::parallel_for;

// ## ISA selection

std::string_view to_string(CpuIsa isa) {
  static constexpr std::array<std::string_view, 3> kNames{"baseline", "avx2", "avx512"};
  const auto i = static_cast<std::size_t>(isa);
  return i < kNames.size() ? kNames[i] : kNames[0];
}

CpuIsa detected_isa() {
  static const CpuIsa isa = [] {
#if SCHEMAC_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return CpuIsa::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuIsa::Avx2;
#endif
    return CpuIsa::Baseline;
  }();
  return isa;
}

namespace {
std::atomic<int> g_mm_isa{-1};
}

CpuIsa mm_isa() {
  const int forced = g_mm_isa.load(std::memory_order_relaxed);
  return forced < 0 ? detected_isa() : static_cast<CpuIsa>(forced);
}

void set_mm_isa(CpuIsa isa) {
  g_mm_isa.store(static_cast<int>(std::min(isa, detected_isa())), std::memory_order_relaxed);
}

namespace {

// ## The blocked GEMM

constexpr int64_t kKC = 256;

// A GCC/Clang vector of Bytes bytes of T (the attribute cannot go on a dependent type, so each
// element type and width the micro-kernels use is spelled out).
template <typename T, int Bytes>
struct VectorOf;
#define SCHEMAC_VECTOR_OF(T, BYTES)                     \
  template <>                                           \
  struct VectorOf<T, BYTES> {                           \
    typedef T type __attribute__((vector_size(BYTES))); \
  }
SCHEMAC_VECTOR_OF(float, 16);
SCHEMAC_VECTOR_OF(float, 32);
SCHEMAC_VECTOR_OF(float, 64);
SCHEMAC_VECTOR_OF(double, 16);
SCHEMAC_VECTOR_OF(double, 32);
SCHEMAC_VECTOR_OF(double, 64);
#undef SCHEMAC_VECTOR_OF

// MR x NR block of C from packed panels: a holds kc columns of MR values, b kc rows of NR. The
// accumulators are MR x (NR / L) vectors of L elements (GCC/Clang vector extensions: the width
// becomes xmm, ymm or zmm registers in the function of each ISA that inlines this).
template <typename T, int MR, int NR, int Bytes>
SCHEMAC_INLINE void micro_kernel(int64_t kc, const T* __restrict a, const T* __restrict b, T* c,
                                 int64_t ldc, int64_t mr, int64_t nr, bool first) {
  using V = typename VectorOf<T, Bytes>::type;
  constexpr int L = Bytes / static_cast<int>(sizeof(T));
  constexpr int NV = NR / L;
  static_assert(NV * L == NR);
  // The block of C is read (or written) once the loop below is done: ask for its lines now.
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v) __builtin_prefetch(c + i * ldc + v * L, 1);
  V acc[MR][NV] = {};
  for (int64_t p = 0; p < kc; ++p) {
    V bv[NV];
    for (int v = 0; v < NV; ++v) std::memcpy(&bv[v], b + p * NR + v * L, Bytes);
    const T* ap = a + p * MR;
    for (int i = 0; i < MR; ++i) {
      const T av = ap[i];
      for (int v = 0; v < NV; ++v) acc[i][v] += bv[v] * av;
    }
  }
  if (mr == MR && nr == NR) {  // a whole tile: C is read and written a vector at a time
    for (int i = 0; i < MR; ++i) {
      T* row = c + i * ldc;
      for (int v = 0; v < NV; ++v) {
        V sum = acc[i][v];
        if (!first) {
          V old;
          std::memcpy(&old, row + v * L, Bytes);
          sum += old;
        }
        std::memcpy(row + v * L, &sum, Bytes);
      }
    }
    return;
  }
  T tile[MR][NR];  // an edge tile: only mr x nr of it is C
  std::memcpy(tile, acc, sizeof tile);
  for (int64_t i = 0; i < mr; ++i)
    for (int64_t j = 0; j < nr; ++j)
      c[i * ldc + j] = first ? tile[i][j] : c[i * ldc + j] + tile[i][j];
}

template <typename T, int MR>
SCHEMAC_INLINE void pack_a(const Gemm<T>& g, int64_t i0, int64_t mc, int64_t p0, int64_t kc,
                           T* out) {
  for (int64_t ir = 0; ir < mc; ir += MR) {
    const int64_t mr = std::min<int64_t>(MR, mc - ir);
    T* panel = out + ir * kc;
    for (int64_t p = 0; p < kc; ++p) {
      const T* src = g.a + (i0 + ir) * g.a_row + (p0 + p) * g.a_col;
      int64_t i = 0;
      for (; i < mr; ++i) panel[p * MR + i] = src[i * g.a_row];
      for (; i < MR; ++i) panel[p * MR + i] = T(0);
    }
  }
}

template <typename T, int NR>
SCHEMAC_INLINE void pack_b(const Gemm<T>& g, int64_t p0, int64_t kc, int64_t j0, int64_t nc,
                           T* out) {
  for (int64_t jr = 0; jr < nc; jr += NR) {
    const int64_t nr = std::min<int64_t>(NR, nc - jr);
    T* panel = out + jr * kc;
    for (int64_t p = 0; p < kc; ++p) {
      const T* src = g.b + (p0 + p) * g.b_row + (j0 + jr) * g.b_col;
      if (g.b_col == 1 && nr == NR) {  // a whole row of the panel: one fixed-size copy
        std::memcpy(panel + p * NR, src, sizeof(T) * NR);
        continue;
      }
      int64_t j = 0;
      if (g.b_col == 1) {
        for (; j < nr; ++j) panel[p * NR + j] = src[j];
      } else {
        for (; j < nr; ++j) panel[p * NR + j] = src[j * g.b_col];
      }
      for (; j < NR; ++j) panel[p * NR + j] = T(0);
    }
  }
}

// Rows [i_begin, i_end) by columns [j_begin, j_end) of C.
template <typename T, int MR, int NR, int Bytes>
SCHEMAC_INLINE void gemm_block(const Gemm<T>& g, int64_t i_begin, int64_t i_end, int64_t j_begin,
                               int64_t j_end) {
  constexpr int64_t kMC = MR * 16;
  constexpr int64_t kNC = NR * 32;
  // Uninitialised: packing writes every element before the micro-kernels read it.
  const std::unique_ptr<T[]> a_pack(new T[static_cast<std::size_t>(kMC * kKC)]);
  const std::unique_ptr<T[]> b_pack(new T[static_cast<std::size_t>(kNC * kKC)]);
  for (int64_t jc = j_begin; jc < j_end; jc += kNC) {
    const int64_t nc = std::min(kNC, j_end - jc);
    for (int64_t pc = 0; pc < g.k; pc += kKC) {
      const int64_t kc = std::min(kKC, g.k - pc);
      pack_b<T, NR>(g, pc, kc, jc, nc, b_pack.get());
      for (int64_t ic = i_begin; ic < i_end; ic += kMC) {
        const int64_t mc = std::min(kMC, i_end - ic);
        pack_a<T, MR>(g, ic, mc, pc, kc, a_pack.get());
        for (int64_t jr = 0; jr < nc; jr += NR) {
          for (int64_t ir = 0; ir < mc; ir += MR) {
            micro_kernel<T, MR, NR, Bytes>(kc, a_pack.get() + ir * kc, b_pack.get() + jr * kc,
                                           g.c + (ic + ir) * g.ldc + jc + jr, g.ldc,
                                           std::min<int64_t>(MR, mc - ir),
                                           std::min<int64_t>(NR, nc - jr), pc == 0);
          }
        }
      }
    }
  }
}

template <typename T>
struct Kernel {
  void (*fn)(const Gemm<T>&, int64_t, int64_t, int64_t, int64_t);
  int mr, nr;
};

// One instantiation per ISA and type, KERNEL_block, and its Kernel, KERNEL: `flatten` (in
// SCHEMAC_TARGET) compiles the whole block loop for that ISA.
#define SCHEMAC_KERNEL(KERNEL, TARGET, T, MR, NR, BYTES)                                         \
  TARGET void KERNEL##_block(const Gemm<T>& g, int64_t ib, int64_t ie, int64_t jb, int64_t je) { \
    gemm_block<T, MR, NR, BYTES>(g, ib, ie, jb, je);                                             \
  }                                                                                              \
  constexpr Kernel<T> KERNEL{KERNEL##_block, MR, NR};
SCHEMAC_KERNEL(f32_baseline, , float, 4, 8, 16)
SCHEMAC_KERNEL(f64_baseline, , double, 4, 4, 16)
#if SCHEMAC_X86
SCHEMAC_KERNEL(f32_avx2, SCHEMAC_TARGET("avx2,fma"), float, 6, 16, 32)
SCHEMAC_KERNEL(f64_avx2, SCHEMAC_TARGET("avx2,fma"), double, 6, 8, 32)
SCHEMAC_KERNEL(f32_avx512, SCHEMAC_TARGET("avx512f,avx512vl,fma"), float, 6, 32, 64)
SCHEMAC_KERNEL(f64_avx512, SCHEMAC_TARGET("avx512f,avx512vl,fma"), double, 6, 16, 64)
#endif
#undef SCHEMAC_KERNEL

// The kernels of each type, indexed by CpuIsa.
#if SCHEMAC_X86
constexpr Kernel<float> kFloatKernels[] = {f32_baseline, f32_avx2, f32_avx512};
constexpr Kernel<double> kDoubleKernels[] = {f64_baseline, f64_avx2, f64_avx512};
#else
constexpr Kernel<float> kFloatKernels[] = {f32_baseline};
constexpr Kernel<double> kDoubleKernels[] = {f64_baseline};
#endif

// The kernel of mm_isa() for T.
template <typename T>
Kernel<T> kernel_for() {
  const size_t isa = std::min(static_cast<size_t>(mm_isa()), std::size(kFloatKernels) - 1);
  if constexpr (std::is_same_v<T, float>) return kFloatKernels[isa];
  else return kDoubleKernels[isa];
}

// Splits C across the threads along its longer side, in whole micro-panels.
template <typename T>
void blocked_mm(const Gemm<T>& g) {
  const Kernel<T> kernel = kernel_for<T>();
  const int64_t flops_per_row = g.n * g.k;
  if (g.n >= g.m) {
    const int64_t panels = (g.n + kernel.nr - 1) / kernel.nr;
    const int64_t grain =
        std::max<int64_t>(1, (1 << 20) / std::max<int64_t>(1, g.m * g.k * kernel.nr));
    parallel_for(0, panels, grain, [&](int64_t b, int64_t e) {
      kernel.fn(g, 0, g.m, b * kernel.nr, std::min(g.n, e * kernel.nr));
    });
  } else {
    const int64_t panels = (g.m + kernel.mr - 1) / kernel.mr;
    const int64_t grain =
        std::max<int64_t>(1, (1 << 20) / std::max<int64_t>(1, flops_per_row * kernel.mr));
    parallel_for(0, panels, grain, [&](int64_t b, int64_t e) {
      kernel.fn(g, b * kernel.mr, std::min(g.m, e * kernel.mr), 0, g.n);
    });
  }
}

// Integer mm: C[i, j] = sum_p A[i, p] * B[p, j], row by row (i-p-j order).

}  // namespace

void multiply(const Gemm<float>& g) { blocked_mm(g); }
void multiply(const Gemm<double>& g) { blocked_mm(g); }

}  // namespace schemac::gemm
