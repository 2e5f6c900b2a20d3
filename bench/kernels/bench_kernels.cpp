// Kernel benchmarks with same-run baselines. Bytes are counted as read + written:
//   add of two 64 MiB float32 tensors moves 3 x 64 MiB; memcpy of 64 MiB moves 2 x 64 MiB.
//   BM_baseline_add_nt_loop_64MiB is the floor for add.out: a hand-written loop over the same
//   tensors, split in two halves on two threads, with the widest non-temporal stores the CPU has.
//   NCHW -> channels_last of (32, 64, 56, 56) float32 moves 2 x 25.7 MB, as memcpy of it does.
// mm reports FLOP/s (2 * M * N * K per multiplication) as items per second and GFLOP/s. Its
// reference is OpenBLAS's sgemm/dgemm on the same matrices with its own threads (one per core),
// built in where libopenblas-dev is installed; the label names the kernel OpenBLAS chose for this
// CPU (bench/run.sh tells it the right one where its detection fails, as in some VMs).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

#include <immintrin.h>

#include <benchmark/benchmark.h>
#if SCHEMAC_BENCH_OPENBLAS
#include <cblas.h>
#endif

#include "schemac/gemm/gemm.h"
#include "schemac/kernels/native_functions.h"

namespace {

using schemac::core::MemoryFormat;
using schemac::core::Tensor;
namespace k = schemac::kernels;
namespace g = schemac::gemm;

constexpr int64_t k64MiBFloats = (64 << 20) / 4;

Tensor filled(std::initializer_list<int64_t> sizes, double value,
              MemoryFormat format = MemoryFormat::Contiguous) {
  Tensor t = Tensor::empty(sizes, {}, format);
  k::fill_cpu_(t, value);
  return t;
}

// ## add vs memcpy

void BM_baseline_memcpy_64MiB(benchmark::State& state) {
  std::vector<char> src(64 << 20, 1), dst(64 << 20, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<int64_t>(src.size()));
}

// out[i] = a[i] + b[i] with streaming stores, AVX-512 or AVX2 as the CPU has (n a multiple of 16,
// out 64-byte aligned, as the tensors' storage is).
__attribute__((target("avx512f"))) void add_nt_avx512(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; i += 16)
    _mm512_stream_ps(out + i, _mm512_add_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
  _mm_sfence();
}

__attribute__((target("avx2"))) void add_nt_avx2(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; i += 8)
    _mm256_stream_ps(out + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  _mm_sfence();
}

void BM_baseline_add_nt_loop_64MiB(benchmark::State& state) {
  const Tensor a = filled({k64MiBFloats}, 1.0);
  const Tensor b = filled({k64MiBFloats}, 2.0);
  Tensor out = filled({k64MiBFloats}, 0.0);
  const auto* pa = static_cast<const float*>(a.data_ptr());
  const auto* pb = static_cast<const float*>(b.data_ptr());
  auto* po = static_cast<float*>(out.data_ptr());
  const bool avx512 = __builtin_cpu_supports("avx512f");
  auto half = [&](int64_t begin, int64_t n) {
    avx512 ? add_nt_avx512(pa + begin, pb + begin, po + begin, n) : add_nt_avx2(pa + begin, pb + begin, po + begin, n);
  };
  constexpr int64_t kHalf = k64MiBFloats / 2;
  // One helper thread for the whole run (as a pool would have), started and joined outside the
  // timing; each iteration hands it the second half through a generation counter.
  std::atomic<int64_t> started{0}, finished{0};
  std::atomic<bool> stop{false};
  std::thread helper([&] {
    for (int64_t seen = 0;;) {
      while (started.load(std::memory_order_acquire) == seen && !stop.load()) std::this_thread::yield();
      if (stop.load()) return;
      ++seen;
      half(kHalf, kHalf);
      finished.store(seen, std::memory_order_release);
    }
  });
  int64_t generation = 0;
  for (auto _ : state) {
    started.store(++generation, std::memory_order_release);
    half(0, kHalf);
    while (finished.load(std::memory_order_acquire) != generation) std::this_thread::yield();
    benchmark::DoNotOptimize(out.data_ptr());
  }
  stop.store(true);
  helper.join();
  state.SetLabel(avx512 ? "avx512" : "avx2");
  state.SetBytesProcessed(state.iterations() * 3 * a.numel() * 4);
}

void BM_add_out_f32_64MiB(benchmark::State& state) {
  const Tensor a = filled({k64MiBFloats}, 1.0);
  const Tensor b = filled({k64MiBFloats}, 2.0);
  Tensor out = filled({k64MiBFloats}, 0.0);
  for (auto _ : state) {
    k::add_out_cpu(a, b, 1, out);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * 3 * a.numel() * 4);
}

void BM_add_f32_64MiB_allocating(benchmark::State& state) {
  const Tensor a = filled({k64MiBFloats}, 1.0);
  const Tensor b = filled({k64MiBFloats}, 2.0);
  for (auto _ : state) benchmark::DoNotOptimize(k::add_cpu(a, b, 1).data_ptr());
  state.SetBytesProcessed(state.iterations() * 3 * a.numel() * 4);
}

// ## NCHW -> channels_last vs memcpy of the same tensor

void BM_baseline_memcpy_nchw_32x64x56x56(benchmark::State& state) {
  const Tensor src = filled({32, 64, 56, 56}, 1.0);
  Tensor dst = filled({32, 64, 56, 56}, 0.0);
  const auto bytes = static_cast<std::size_t>(src.numel() * 4);
  for (auto _ : state) {
    std::memcpy(dst.data_ptr(), src.data_ptr(), bytes);
    benchmark::DoNotOptimize(dst.data_ptr());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<int64_t>(bytes));
}

void BM_nchw_to_channels_last_32x64x56x56(benchmark::State& state) {
  const Tensor src = filled({32, 64, 56, 56}, 1.0);
  Tensor dst = filled({32, 64, 56, 56}, 0.0, MemoryFormat::ChannelsLast);
  for (auto _ : state) {
    k::copy_cpu_(dst, src, false);
    benchmark::DoNotOptimize(dst.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * 2 * src.numel() * 4);
}

// ## mm

void report_flops(benchmark::State& state, int64_t n) {
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(flops));
  state.counters["GFLOP/s"] = benchmark::Counter(flops * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

// A straightforward i-p-j loop (vectorisable inner loop, no blocking, one thread).
void BM_baseline_mm_naive_f32_1024(benchmark::State& state) {
  const int64_t n = 1024;
  std::vector<float> a(n * n, 1.0f), b(n * n, 0.5f), c(n * n);
  for (auto _ : state) {
    std::fill(c.begin(), c.end(), 0.0f);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t p = 0; p < n; ++p) {
        const float av = a[i * n + p];
        for (int64_t j = 0; j < n; ++j) c[i * n + j] += av * b[p * n + j];
      }
    benchmark::DoNotOptimize(c.data());
  }
  report_flops(state, n);
}

void BM_mm_f32_1024(benchmark::State& state) {
  g::set_mm_isa(static_cast<g::CpuIsa>(state.range(0)));
  state.SetLabel(std::string(g::to_string(g::mm_isa())));
  const Tensor a = filled({1024, 1024}, 1.0);
  const Tensor b = filled({1024, 1024}, 0.5);
  for (auto _ : state) benchmark::DoNotOptimize(k::mm_cpu(a, b).data_ptr());
  report_flops(state, 1024);
  g::set_mm_isa(g::detected_isa());
}

void BM_mm_f64_1024(benchmark::State& state) {
  Tensor a = Tensor::empty({1024, 1024}, {schemac::core::ScalarType::Double});
  k::fill_cpu_(a, 1.0);
  const Tensor b = a;
  for (auto _ : state) benchmark::DoNotOptimize(k::mm_cpu(a, b).data_ptr());
  report_flops(state, 1024);
}

#if SCHEMAC_BENCH_OPENBLAS
extern "C" char* openblas_get_corename();

// C = A B with OpenBLAS's sgemm or dgemm, row-major, on the matrices BM_mm_* multiply.
template <typename T>
void BM_baseline_openblas_gemm_1024(benchmark::State& state) {
  const int n = 1024;
  std::vector<T> a(n * n, T(1)), b(n * n, T(0.5)), c(n * n);
  for (auto _ : state) {
    if constexpr (std::is_same_v<T, float>) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                  c.data(), n);
    } else {
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0,
                  c.data(), n);
    }
    benchmark::DoNotOptimize(c.data());
  }
  state.SetLabel(openblas_get_corename());
  report_flops(state, n);
}
void BM_baseline_openblas_sgemm_1024(benchmark::State& state) { BM_baseline_openblas_gemm_1024<float>(state); }
void BM_baseline_openblas_dgemm_1024(benchmark::State& state) { BM_baseline_openblas_gemm_1024<double>(state); }
BENCHMARK(BM_baseline_openblas_sgemm_1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_baseline_openblas_dgemm_1024)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

BENCHMARK(BM_baseline_memcpy_64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_baseline_add_nt_loop_64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_add_out_f32_64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_add_f32_64MiB_allocating)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_baseline_memcpy_nchw_32x64x56x56)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_nchw_to_channels_last_32x64x56x56)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_baseline_mm_naive_f32_1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_mm_f32_1024)
    ->ArgName("isa")
    ->Arg(static_cast<int>(g::CpuIsa::Baseline))
    ->Arg(static_cast<int>(g::CpuIsa::Avx2))
    ->Arg(static_cast<int>(g::CpuIsa::Avx512))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_mm_f64_1024)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
