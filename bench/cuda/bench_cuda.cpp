// CUDA kernel benchmarks with same-run floors, timed by the wall clock around the work and a
// device synchronisation (each iteration is milliseconds long, so the sync's microseconds do not
// matter). Bytes are counted as read + written:
//   add.out of two 256 MiB float32 tensors moves 3 x 256 MiB; the floor is cudaMemcpy of 256 MiB
//   from device to device (2 x 256 MiB), the bandwidth a streaming kernel can reach.
//   mm reports FLOP/s (2 * n^3) as items per second and GFLOP/s; the reference is cuBLAS.
// Sizes are larger than the GPU's L2 cache (50-60 MB on H100/H200), so the memory is what is timed.
#include <cstdio>

#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "schemac/kernels/native_functions.h"

namespace {

using schemac::core::Device;
using schemac::core::DeviceType;
using schemac::core::ScalarType;
using schemac::core::Tensor;
namespace k = schemac::kernels;

constexpr int64_t k256MiBFloats = (256 << 20) / 4;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "bench_cuda: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "bench_cuda: %s: cuBLAS status %d\n", what, static_cast<int>(status));
    std::exit(1);
  }
}

Tensor cuda_filled(std::initializer_list<int64_t> sizes, double value, ScalarType dtype = ScalarType::Float) {
  Tensor t = k::empty_cuda(sizes, dtype, std::nullopt, Device{DeviceType::CUDA, 0}, std::nullopt, std::nullopt);
  k::fill_cuda_(t, value);
  check(cudaDeviceSynchronize(), "filling a tensor");
  return t;
}

// ## add.out vs a device-to-device copy

void BM_cuda_baseline_d2d_copy_256MiB(benchmark::State& state) {
  const Tensor src = cuda_filled({k256MiBFloats}, 1.0);
  Tensor dst = cuda_filled({k256MiBFloats}, 0.0);
  const auto bytes = static_cast<std::size_t>(src.numel() * 4);
  for (auto _ : state) {
    check(cudaMemcpy(dst.data_ptr(), src.data_ptr(), bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    check(cudaDeviceSynchronize(), "synchronising");
  }
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<int64_t>(bytes));
}

void BM_cuda_add_out_f32_256MiB(benchmark::State& state) {
  const Tensor a = cuda_filled({k256MiBFloats}, 1.0);
  const Tensor b = cuda_filled({k256MiBFloats}, 2.0);
  Tensor out = cuda_filled({k256MiBFloats}, 0.0);
  for (auto _ : state) {
    k::add_out_cuda(a, b, 1, out);
    check(cudaDeviceSynchronize(), "synchronising");
  }
  state.SetBytesProcessed(state.iterations() * 3 * a.numel() * 4);
}

// ## mm vs cuBLAS

void report_flops(benchmark::State& state, int64_t n) {
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(flops));
  state.counters["GFLOP/s"] = benchmark::Counter(flops * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

template <ScalarType kType>
void BM_cuda_mm(benchmark::State& state) {
  const int64_t n = state.range(0);
  const Tensor a = cuda_filled({n, n}, 1.0, kType);
  const Tensor b = cuda_filled({n, n}, 0.5, kType);
  for (auto _ : state) {
    benchmark::DoNotOptimize(k::mm_cuda(a, b).data_ptr());
    check(cudaDeviceSynchronize(), "synchronising");
  }
  report_flops(state, n);
}

// C = A B in row-major is C^T = B^T A^T in cuBLAS's column-major: the same call with the operands
// swapped, no transposes.
template <ScalarType kType>
void BM_cuda_baseline_cublas_mm(benchmark::State& state) {
  const int64_t n = state.range(0);
  const int dim = static_cast<int>(n);
  const Tensor a = cuda_filled({n, n}, 1.0, kType);
  const Tensor b = cuda_filled({n, n}, 0.5, kType);
  Tensor c = cuda_filled({n, n}, 0.0, kType);
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  // The default math mode: no TF32 for float32, so both sides compute in full float precision.
  check(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  for (auto _ : state) {
    if constexpr (kType == ScalarType::Float) {
      const float one = 1, zero = 0;
      check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, dim, dim, dim, &one, static_cast<const float*>(b.data_ptr()),
                        dim, static_cast<const float*>(a.data_ptr()), dim, &zero, static_cast<float*>(c.data_ptr()), dim),
            "cublasSgemm");
    } else {
      const double one = 1, zero = 0;
      check(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, dim, dim, dim, &one, static_cast<const double*>(b.data_ptr()),
                        dim, static_cast<const double*>(a.data_ptr()), dim, &zero, static_cast<double*>(c.data_ptr()),
                        dim),
            "cublasDgemm");
    }
    check(cudaDeviceSynchronize(), "synchronising");
  }
  check(cublasDestroy(handle), "cublasDestroy");
  report_flops(state, n);
}

}  // namespace

BENCHMARK(BM_cuda_baseline_d2d_copy_256MiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_cuda_add_out_f32_256MiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_cuda_mm<ScalarType::Float>)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_cuda_baseline_cublas_mm<ScalarType::Float>)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_cuda_mm<ScalarType::Double>)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_cuda_baseline_cublas_mm<ScalarType::Double>)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char** argv) {
  if (k::cuda_device_count() == 0) {
    std::printf("bench_cuda: skipped: no CUDA device is present\n");
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
