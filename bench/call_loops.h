// The loops of the call benchmarks that bench_dispatch and bench_torch share, over either
// runtime's Tensor and Stack.
#pragma once

#include <benchmark/benchmark.h>

namespace schemac::bench {

// Pushes two tensors (two reference-count increments), runs `call` on the stack, which leaves
// one, and clears it (the decrements).
template <typename Stack, typename Tensor, typename Call>
void boxed_loop(benchmark::State& state, const Tensor& a, const Tensor& b, Call call) {
  Stack stack;
  stack.reserve(4);
  for (auto _ : state) {
    stack.emplace_back(a);
    stack.emplace_back(b);
    call(&stack);
    benchmark::DoNotOptimize(stack.back());
    stack.clear();
  }
}

// Runs `call(a, b)`, keeping its result.
template <typename Tensor, typename Call>
void call_loop(benchmark::State& state, const Tensor& a, const Tensor& b, Call call) {
  for (auto _ : state) benchmark::DoNotOptimize(call(a, b));
}

}  // namespace schemac::bench
