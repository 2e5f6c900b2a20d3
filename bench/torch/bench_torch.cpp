// The work our benchmarks measure, done by libtorch (c10's dispatcher, ATen's kernels), so that
// bench/run.sh can print each of our figures as a ratio against libtorch's in the same run
// (the pairs are in bench/baselines.txt). Each benchmark mirrors one of ours:
//   BM_torch_parse_schema          torch::jit::parseSchema, one corpus schema per iteration
//                                  (bench_schema BM_parse_schema)
//   BM_torch_direct_call           the kernel through a function pointer (BM_baseline_direct_call)
//   BM_torch_unboxed_call          Tensor(Tensor, Tensor) through c10::Dispatcher to a CPU kernel
//                                  that returns its input (BM_unboxed_call)
//   BM_torch_direct_call_no_refcount / BM_torch_unboxed_call_no_refcount
//                                  the same to a kernel returning bool: call - direct call is the
//                                  pure dispatch cost (BM_unboxed_call_no_refcount)
//   BM_torch_boxed_call            a boxed CPU kernel called with a stack (BM_boxed_call)
//   BM_torch_baseline_boxed_stack  its pushes and pops without the call (BM_baseline_boxed_stack)
//   BM_torch_two_level_chain       an AutogradCPU kernel that excludes autograd with a guard and
//                                  redispatches to the CPU kernel (BM_two_level_chain)
//   BM_torch_def_impl_1000         def + impl of 1,000 operators on a torch::Library
//                                  (BM_def_impl_1000)
//   BM_torch_add_out_f32_64MiB     at::add_out, two 64 MiB float tensors, 2 threads
//   BM_torch_contiguous_channels_last_32x64x56x56  at::contiguous(ChannelsLast), which allocates
//   BM_torch_copy_to_channels_last_32x64x56x56     copy_ into a preallocated channels_last tensor
//   BM_torch_mm_f32_1024 / BM_torch_mm_f64_1024     at::mm (Debian's build: OpenBLAS)
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>
#include <torch/csrc/jit/frontend/function_schema_parser.h>
#include <torch/library.h>

#include "../bench_support.h"
#include "../call_loops.h"

namespace {

using schemac::bench::boxed_loop;

// ## Operators registered with c10, as the dispatch benchmarks register ours

__attribute__((noinline)) at::Tensor cpu_kernel(const at::Tensor& a, const at::Tensor&) {
  benchmark::ClobberMemory();
  return a;
}

__attribute__((noinline)) bool cpu_probe_kernel(const at::Tensor& a, const at::Tensor&) {
  benchmark::ClobberMemory();
  return a.defined();
}

void boxed_cpu_kernel(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  stack->pop_back();  // b; a stays as the result
}

using Binary = at::Tensor(const at::Tensor&, const at::Tensor&);
using Probe = bool(const at::Tensor&, const at::Tensor&);

const c10::TypedOperatorHandle<Binary>& chain_op() {
  static const auto op = c10::Dispatcher::singleton().findSchemaOrThrow("schemac_bench::chain", "").typed<Binary>();
  return op;
}

at::Tensor autograd_kernel(c10::DispatchKeySet ks, const at::Tensor& a, const at::Tensor& b) {
  c10::impl::ExcludeDispatchKeyGuard below_autograd(c10::autograd_dispatch_keyset);
  return chain_op().redispatch(ks & c10::after_autograd_keyset, a, b);
}

TORCH_LIBRARY(schemac_bench, m) {
  m.def("unboxed(Tensor a, Tensor b) -> Tensor");
  m.def("probe(Tensor a, Tensor b) -> bool");
  m.def("boxed(Tensor a, Tensor b) -> Tensor");
  m.def("chain(Tensor a, Tensor b) -> Tensor");
}

TORCH_LIBRARY_IMPL(schemac_bench, CPU, m) {
  m.impl("unboxed", &cpu_kernel);
  m.impl("probe", &cpu_probe_kernel);
  m.impl("boxed", torch::CppFunction::makeFromBoxedFunction<&boxed_cpu_kernel>());
  m.impl("chain", &cpu_kernel);
}

TORCH_LIBRARY_IMPL(schemac_bench, AutogradCPU, m) { m.impl("chain", &autograd_kernel); }

template <typename Signature>
c10::TypedOperatorHandle<Signature> find(const char* name) {
  return c10::Dispatcher::singleton().findSchemaOrThrow(name, "").typed<Signature>();
}

// ## Parsing

const std::vector<std::string>& corpus() {
  static const std::vector<std::string> schemas = [] {
    std::vector<std::string> out;
    for (std::string& text : schemac::bench::corpus_schemas()) {
      try {
        (void)torch::jit::parseSchema(text);  // the few forms 1.13 predates are left out
        out.push_back(std::move(text));
      } catch (const std::exception&) {
      }
    }
    return out;
  }();
  return schemas;
}

void BM_torch_parse_schema(benchmark::State& state) {
  const auto& schemas = corpus();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(torch::jit::parseSchema(schemas[i]));
    if (++i == schemas.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["schemas"] = static_cast<double>(schemas.size());
}
BENCHMARK(BM_torch_parse_schema);

// ## Calls

// `kernel` called through a pointer the compiler cannot see through: a call without dispatch.
template <auto kernel>
void direct_call(benchmark::State& state) {
  decltype(kernel) volatile fn = kernel;
  const at::Tensor a = at::empty({1}), b = at::empty({1});
  for (auto _ : state) benchmark::DoNotOptimize(fn(a, b));
}

// The operator `name` called through c10::Dispatcher, unboxed.
template <typename Signature>
void unboxed_call(benchmark::State& state, const char* name) {
  const auto op = find<Signature>(name);
  const at::Tensor a = at::empty({1}), b = at::empty({1});
  for (auto _ : state) benchmark::DoNotOptimize(op.call(a, b));
}

void BM_torch_direct_call(benchmark::State& state) { direct_call<&cpu_kernel>(state); }
BENCHMARK(BM_torch_direct_call);
void BM_torch_unboxed_call(benchmark::State& state) { unboxed_call<Binary>(state, "schemac_bench::unboxed"); }
BENCHMARK(BM_torch_unboxed_call);
void BM_torch_direct_call_no_refcount(benchmark::State& state) { direct_call<&cpu_probe_kernel>(state); }
BENCHMARK(BM_torch_direct_call_no_refcount);
void BM_torch_unboxed_call_no_refcount(benchmark::State& state) { unboxed_call<Probe>(state, "schemac_bench::probe"); }
BENCHMARK(BM_torch_unboxed_call_no_refcount);

void BM_torch_boxed_call(benchmark::State& state) {
  const c10::OperatorHandle op = c10::Dispatcher::singleton().findSchemaOrThrow("schemac_bench::boxed", "");
  boxed_loop<torch::jit::Stack>(state, at::empty({1}), at::empty({1}), [&](torch::jit::Stack* stack) { op.callBoxed(stack); });
}
BENCHMARK(BM_torch_boxed_call);

// BM_torch_boxed_call's stack work without the call (BM_baseline_boxed_stack).
void BM_torch_baseline_boxed_stack(benchmark::State& state) {
  boxed_loop<torch::jit::Stack>(state, at::empty({1}), at::empty({1}), [](torch::jit::Stack* stack) {
    benchmark::ClobberMemory();
    stack->pop_back();
  });
}
BENCHMARK(BM_torch_baseline_boxed_stack);

void BM_torch_two_level_chain(benchmark::State& state) {
  const auto& op = chain_op();
  const at::Tensor a = at::empty({1}), b = at::empty({1});
  for (auto _ : state) benchmark::DoNotOptimize(op.call(a, b));
}
BENCHMARK(BM_torch_two_level_chain);

// ## Registration

at::Tensor registered_kernel(const at::Tensor& a, const at::Tensor&, const at::Scalar&) { return a; }

constexpr int kOperators = 1000;

void BM_torch_def_impl_1000(benchmark::State& state) {
  std::vector<std::string> schemas, names;
  for (int i = 0; i < kOperators; ++i) {
    names.push_back("op" + std::to_string(i));
    schemas.push_back(names.back() + "(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  }
  for (auto _ : state) {
    state.PauseTiming();
    auto lib = std::make_unique<torch::Library>(torch::Library::FRAGMENT, "schemac_bench_reg", c10::nullopt,
                                                __FILE__, __LINE__);
    state.ResumeTiming();
    for (int i = 0; i < kOperators; ++i) {
      lib->def(schemas[i].c_str());
      lib->impl(names[i].c_str(), torch::dispatch(c10::DispatchKey::CPU, &registered_kernel));
    }
    state.PauseTiming();
    lib.reset();
    state.ResumeTiming();
  }
  state.counters["per_op"] = benchmark::Counter(static_cast<double>(state.iterations()) * kOperators,
                                                benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_torch_def_impl_1000)->Unit(benchmark::kMicrosecond);

// ## Kernels

constexpr int64_t k64MiBFloats = (64 << 20) / 4;

void BM_torch_add_out_f32_64MiB(benchmark::State& state) {
  at::set_num_threads(2);
  const at::Tensor a = at::full({k64MiBFloats}, 1.0f);
  const at::Tensor b = at::full({k64MiBFloats}, 2.0f);
  at::Tensor out = at::zeros({k64MiBFloats});
  for (auto _ : state) {
    at::add_out(out, a, b);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * 3 * a.numel() * 4);
}
BENCHMARK(BM_torch_add_out_f32_64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_torch_contiguous_channels_last_32x64x56x56(benchmark::State& state) {
  at::set_num_threads(2);
  const at::Tensor src = at::full({32, 64, 56, 56}, 1.0f);
  for (auto _ : state) benchmark::DoNotOptimize(src.contiguous(at::MemoryFormat::ChannelsLast).data_ptr());
  state.SetBytesProcessed(state.iterations() * 2 * src.numel() * 4);
}
BENCHMARK(BM_torch_contiguous_channels_last_32x64x56x56)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_torch_copy_to_channels_last_32x64x56x56(benchmark::State& state) {
  at::set_num_threads(2);
  const at::Tensor src = at::full({32, 64, 56, 56}, 1.0f);
  at::Tensor dst = at::zeros({32, 64, 56, 56}).contiguous(at::MemoryFormat::ChannelsLast);
  for (auto _ : state) {
    dst.copy_(src);
    benchmark::DoNotOptimize(dst.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * 2 * src.numel() * 4);
}
BENCHMARK(BM_torch_copy_to_channels_last_32x64x56x56)->Unit(benchmark::kMillisecond)->UseRealTime();

void mm(benchmark::State& state, at::ScalarType type) {
  at::set_num_threads(2);
  const at::Tensor a = at::full({1024, 1024}, 1.0, at::TensorOptions().dtype(type));
  const at::Tensor b = at::full({1024, 1024}, 0.5, at::TensorOptions().dtype(type));
  for (auto _ : state) benchmark::DoNotOptimize(at::mm(a, b).data_ptr());
  const double flops = 2.0 * 1024 * 1024 * 1024;
  state.counters["GFLOP/s"] = benchmark::Counter(flops * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

void BM_torch_mm_f32_1024(benchmark::State& state) { mm(state, at::kFloat); }
void BM_torch_mm_f64_1024(benchmark::State& state) { mm(state, at::kDouble); }
BENCHMARK(BM_torch_mm_f32_1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_torch_mm_f64_1024)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
