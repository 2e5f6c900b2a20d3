// Kernel benchmarks with same-run baselines. Bytes are counted as read + written:
//   add of two 64 MiB float32 tensors moves 3 x 64 MiB; memcpy of 64 MiB moves 2 x 64 MiB.
//   NCHW -> channels_last of (32, 64, 56, 56) float32 moves 2 x 25.7 MB, as memcpy of it does.
// mm reports FLOP/s (2 * M * N * K per multiplication) as items per second and GFLOP/s.
#include <cstring>
#include <vector>

#include <benchmark/benchmark.h>

#include "schemac/kernels/cpu_features.h"
#include "schemac/kernels/native_functions.h"

namespace {

using schemac::dispatch::MemoryFormat;
using schemac::dispatch::Tensor;
namespace k = schemac::kernels;

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
  k::set_mm_isa(static_cast<k::CpuIsa>(state.range(0)));
  state.SetLabel(std::string(k::to_string(k::mm_isa())));
  const Tensor a = filled({1024, 1024}, 1.0);
  const Tensor b = filled({1024, 1024}, 0.5);
  for (auto _ : state) benchmark::DoNotOptimize(k::mm_cpu(a, b).data_ptr());
  report_flops(state, 1024);
  k::set_mm_isa(k::detected_isa());
}

void BM_mm_f64_1024(benchmark::State& state) {
  Tensor a = Tensor::empty({1024, 1024}, {schemac::dispatch::ScalarType::Double});
  k::fill_cpu_(a, 1.0);
  const Tensor b = a;
  for (auto _ : state) benchmark::DoNotOptimize(k::mm_cpu(a, b).data_ptr());
  report_flops(state, 1024);
}

}  // namespace

BENCHMARK(BM_baseline_memcpy_64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_add_out_f32_64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_add_f32_64MiB_allocating)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_baseline_memcpy_nchw_32x64x56x56)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_nchw_to_channels_last_32x64x56x56)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_baseline_mm_naive_f32_1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_mm_f32_1024)
    ->ArgName("isa")
    ->Arg(static_cast<int>(k::CpuIsa::Baseline))
    ->Arg(static_cast<int>(k::CpuIsa::Avx2))
    ->Arg(static_cast<int>(k::CpuIsa::Avx512))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_mm_f64_1024)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
