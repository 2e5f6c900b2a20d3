// What a dispatcher call costs, against calling the kernel directly, in the same run:
//   BM_unboxed_call       typed handle -> key extraction, TLS, mask -> CPU kernel (unboxed)
//   BM_boxed_call         the same operator called with a stack -> a boxed CPU kernel
//   BM_two_level_chain    an Autograd kernel that excludes itself with a guard and redispatches
//                         to the CPU kernel
//   BM_def_impl_1000      def + impl of 1,000 operators (time per iteration = 1,000 operators;
//                         the per_op counter is the time per operator)
//   BM_unboxed_call_no_refcount  the same path to a kernel that returns a bool: what dispatch
//                         itself costs, without the two atomic reference-count operations that
//                         copying and dropping a returned tensor take
// Baselines: BM_baseline_direct_call (the kernel through a function pointer),
// BM_baseline_direct_call_no_refcount (the bool kernel through a function pointer),
// BM_baseline_two_level (two direct calls), BM_baseline_parse_1000 (parsing the 1,000 schemas),
// BM_baseline_boxed_stack (BM_boxed_call's pushes and pops without the call).
// Tensors have one element. Run: build-*/bench/dispatch/bench_dispatch --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "../call_loops.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/schema/parser.h"

namespace schemac::dispatch {

using bench::boxed_loop, bench::call_loop, core::Tensor, keys::DispatchKey;

namespace {

using Binary = Tensor(const Tensor&, const Tensor&);
using Probe = bool(const Tensor&, const Tensor&);

__attribute__((noinline)) Tensor cpu_kernel(const Tensor& a, const Tensor&) {
  benchmark::ClobberMemory();
  return a;
}

__attribute__((noinline)) bool cpu_probe_kernel(const Tensor& a, const Tensor&) {
  benchmark::ClobberMemory();
  return a.defined();
}

void boxed_cpu_kernel(const OperatorHandle&, keys::DispatchKeySet, Stack* stack) {
  stack->pop_back();  // b; a stays as the result
}

const TypedOperatorHandle<Binary>* chain_op = nullptr;

Tensor autograd_kernel(keys::DispatchKeySet ks, const Tensor& a, const Tensor& b) {
  ExcludeDispatchKeyGuard below_autograd(DispatchKey::AutogradCPU);
  return chain_op->redispatch(ks & keys_below(DispatchKey::AutogradOther), a, b);
}

// One registry with the default fallbacks and three operators on it.
struct Fixture {
  Fixture() {
    register_default_fallbacks(dispatcher);
    keep.push_back(
        dispatcher.def("bench::unboxed(Tensor a, Tensor b) -> Tensor", "dispatch_bench.cpp:1"));
    keep.push_back(dispatcher.impl("bench::unboxed", DispatchKey::CPU,
                                   KernelFunction::make_from_unboxed(&cpu_kernel), "cpu",
                                   "dispatch_bench.cpp:2"));
    keep.push_back(
        dispatcher.def("bench::probe(Tensor a, Tensor b) -> bool", "dispatch_bench.cpp:10"));
    keep.push_back(dispatcher.impl("bench::probe", DispatchKey::CPU,
                                   KernelFunction::make_from_unboxed(&cpu_probe_kernel), "cpu",
                                   "dispatch_bench.cpp:11"));
    keep.push_back(
        dispatcher.def("bench::boxed(Tensor a, Tensor b) -> Tensor", "dispatch_bench.cpp:3"));
    keep.push_back(dispatcher.impl("bench::boxed", DispatchKey::CPU,
                                   KernelFunction::make_from_boxed(&boxed_cpu_kernel), "cpu",
                                   "dispatch_bench.cpp:4"));
    keep.push_back(
        dispatcher.def("bench::chain(Tensor a, Tensor b) -> Tensor", "dispatch_bench.cpp:5"));
    keep.push_back(dispatcher.impl("bench::chain", DispatchKey::CPU,
                                   KernelFunction::make_from_unboxed(&cpu_kernel), "cpu",
                                   "dispatch_bench.cpp:6"));
    keep.push_back(dispatcher.impl("bench::chain", DispatchKey::AutogradCPU,
                                   KernelFunction::make_from_unboxed(&autograd_kernel), "autograd",
                                   "dispatch_bench.cpp:7"));
    unboxed = OperatorHandle::find(dispatcher, "bench::unboxed")->typed<Binary>();
    probe = OperatorHandle::find(dispatcher, "bench::probe")->typed<Probe>();
    boxed = *OperatorHandle::find(dispatcher, "bench::boxed");
    chain = OperatorHandle::find(dispatcher, "bench::chain")->typed<Binary>();
    chain_op = &chain;
  }
  Dispatcher dispatcher;
  std::vector<RegistrationHandle> keep;
  TypedOperatorHandle<Binary> unboxed, chain;
  TypedOperatorHandle<Probe> probe;
  OperatorHandle boxed;
};

Fixture& fixture() {
  static Fixture* f = new Fixture();
  return *f;
}

void BM_baseline_direct_call(benchmark::State& state) {
  Tensor (*volatile fn)(const Tensor&, const Tensor&) = &cpu_kernel;
  call_loop(state, Tensor::empty({1}), Tensor::empty({1}),
            [&](const Tensor& a, const Tensor& b) { return fn(a, b); });
}
BENCHMARK(BM_baseline_direct_call);

void BM_unboxed_call(benchmark::State& state) {
  const auto& op = fixture().unboxed;
  call_loop(state, Tensor::empty({1}), Tensor::empty({1}),
            [&](const Tensor& a, const Tensor& b) { return op.call(a, b); });
}
BENCHMARK(BM_unboxed_call);

void BM_baseline_direct_call_no_refcount(benchmark::State& state) {
  bool (*volatile fn)(const Tensor&, const Tensor&) = &cpu_probe_kernel;
  call_loop(state, Tensor::empty({1}), Tensor::empty({1}),
            [&](const Tensor& a, const Tensor& b) { return fn(a, b); });
}
BENCHMARK(BM_baseline_direct_call_no_refcount);

void BM_unboxed_call_no_refcount(benchmark::State& state) {
  const auto& op = fixture().probe;
  call_loop(state, Tensor::empty({1}), Tensor::empty({1}),
            [&](const Tensor& a, const Tensor& b) { return op.call(a, b); });
}
BENCHMARK(BM_unboxed_call_no_refcount);

void BM_boxed_call(benchmark::State& state) {
  const OperatorHandle& op = fixture().boxed;
  boxed_loop<Stack>(state, Tensor::empty({1}), Tensor::empty({1}),
                    [&](Stack* stack) { op.call_boxed(stack); });
}
BENCHMARK(BM_boxed_call);

// BM_boxed_call's stack work without the call: BM_boxed_call less this is what the boxed dispatch
// itself costs.
void BM_baseline_boxed_stack(benchmark::State& state) {
  boxed_loop<Stack>(state, Tensor::empty({1}), Tensor::empty({1}), [](Stack* stack) {
    benchmark::ClobberMemory();
    stack->pop_back();
  });
}
BENCHMARK(BM_baseline_boxed_stack);

__attribute__((noinline)) Tensor direct_autograd(const Tensor& a, const Tensor& b) {
  Tensor (*volatile next)(const Tensor&, const Tensor&) = &cpu_kernel;
  return next(a, b);
}

void BM_baseline_two_level(benchmark::State& state) {
  Tensor (*volatile fn)(const Tensor&, const Tensor&) = &direct_autograd;
  call_loop(state, Tensor::empty({1}), Tensor::empty({1}),
            [&](const Tensor& a, const Tensor& b) { return fn(a, b); });
}
BENCHMARK(BM_baseline_two_level);

void BM_two_level_chain(benchmark::State& state) {
  const auto& op = fixture().chain;
  call_loop(state, Tensor::empty({1}), Tensor::empty({1}),
            [&](const Tensor& a, const Tensor& b) { return op.call(a, b); });
}
BENCHMARK(BM_two_level_chain);

constexpr int kOperators = 1000;

std::vector<std::string> schemas() {
  std::vector<std::string> out;
  for (int i = 0; i < kOperators; ++i)
    out.push_back("bench::op" + std::to_string(i) +
                  "(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  return out;
}

void BM_baseline_parse_1000(benchmark::State& state) {
  const std::vector<std::string> texts = schemas();
  for (auto _ : state)
    for (const std::string& s : texts) benchmark::DoNotOptimize(schema::parse_schema(s));
  state.counters["per_op"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kOperators,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_baseline_parse_1000)->Unit(benchmark::kMicrosecond);

void BM_def_impl_1000(benchmark::State& state) {
  const std::vector<std::string> texts = schemas();
  std::vector<std::string> names;
  for (int i = 0; i < kOperators; ++i) names.push_back("bench::op" + std::to_string(i));
  const KernelFunction kernel = KernelFunction::make_from_unboxed(&cpu_kernel);
  for (auto _ : state) {
    state.PauseTiming();
    auto dispatcher = std::make_unique<Dispatcher>();
    register_default_fallbacks(*dispatcher);
    std::vector<RegistrationHandle> handles;
    handles.reserve(2 * kOperators);
    state.ResumeTiming();
    for (int i = 0; i < kOperators; ++i) {
      handles.push_back(dispatcher->def(texts[i], "dispatch_bench.cpp:8"));
      handles.push_back(
          dispatcher->impl(names[i], DispatchKey::CPU, kernel, "cpu", "dispatch_bench.cpp:9"));
    }
    state.PauseTiming();
    handles.clear();
    dispatcher.reset();
    state.ResumeTiming();
  }
  state.counters["per_op"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kOperators,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_def_impl_1000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace schemac::dispatch

BENCHMARK_MAIN();
