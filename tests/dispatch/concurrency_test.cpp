// Calls concurrent with (de)registration. Run under ThreadSanitizer (label `tsan`): caller
// threads call an operator boxed and unboxed without any lock while another thread keeps
// registering and deregistering kernels on the keys those calls reach. Every call must see a
// whole kernel, old or new, and return that kernel's answer; TSan must see no data race.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"

namespace schemac::dispatch {

using core::Tensor, keys::DispatchKey, keys::DispatchKeySet;

namespace {

constexpr int64_t kBase = 1, kOverride = 2, kAutograd = 3, kMath = 4;

int64_t base_cpu(const Tensor&) { return kBase; }
int64_t override_cpu(const Tensor&) { return kOverride; }

// An Autograd kernel that redispatches below itself, so the chain crosses two table reads.
int64_t autograd_kernel(DispatchKeySet ks, const Tensor& t);
const TypedOperatorHandle<int64_t(const Tensor&)>* the_op = nullptr;
int64_t autograd_kernel(DispatchKeySet ks, const Tensor& t) {
  const int64_t below = the_op->redispatch(ks & keys_below(DispatchKey::AutogradOther), t);
  return below == kBase || below == kOverride || below == kMath ? kAutograd : -below;
}

void boxed_math(const OperatorHandle&, DispatchKeySet, Stack* stack) {
  core::drop(*stack, 1);
  stack->push_back(core::IValue(kMath));
}

bool plausible(int64_t v) { return v == kBase || v == kOverride || v == kAutograd || v == kMath; }

TEST(Concurrency, CallsRaceWithRegistrationAndDeregistration) {
  Dispatcher d;
  register_default_fallbacks(d);
  auto def = d.def("conc::f(Tensor a) -> int", "concurrency_test.cpp:1");
  auto base = d.impl("conc::f", DispatchKey::CPU, KernelFunction::make_from_unboxed(&base_cpu), "base",
                     "concurrency_test.cpp:2");
  const auto op = OperatorHandle::find(d, "conc::f")->typed<int64_t(const Tensor&)>();
  the_op = &op;

  std::atomic<bool> stop{false};
  std::atomic<int64_t> calls{0}, bad{0};
  auto caller = [&](bool boxed) {
    const Tensor t = Tensor::empty({1});
    while (!stop.load(std::memory_order_relaxed)) {
      int64_t v;
      if (boxed) {
        Stack stack{core::IValue(t)};
        op.call_boxed(&stack);
        v = stack.at(0).to_int();
      } else {
        v = op.call(t);
      }
      if (!plausible(v)) bad.fetch_add(1);
      calls.fetch_add(1, std::memory_order_relaxed);
      ExcludeDispatchKeyGuard no_autograd(DispatchKey::AutogradCPU);  // per-thread state, too
      const int64_t w = op.call(t);
      if (w != kBase && w != kOverride && w != kMath) bad.fetch_add(1);
    }
  };

  std::vector<std::thread> threads;
  threads.emplace_back(caller, false);
  threads.emplace_back(caller, true);
  while (calls.load() == 0) std::this_thread::yield();  // the callers are running
  constexpr int kRounds = 300;
  for (int round = 0; round < kRounds; ++round) {
    auto over = d.impl("conc::f", DispatchKey::CPU, KernelFunction::make_from_unboxed(&override_cpu), "override",
                       "concurrency_test.cpp:3");
    auto grad = d.impl("conc::f", DispatchKey::Autograd, KernelFunction::make_from_unboxed(&autograd_kernel),
                       "autograd", "concurrency_test.cpp:4");
    if (round % 3 == 0) {
      // Removing the CPU kernels makes the catch-all (math) kernel the CPU entry for a while.
      auto math = d.impl("conc::f", std::nullopt, KernelFunction::make_from_boxed(&boxed_math), "math",
                         "concurrency_test.cpp:5");
      over.reset();
      base.reset();
      std::this_thread::yield();
      base = d.impl("conc::f", DispatchKey::CPU, KernelFunction::make_from_unboxed(&base_cpu), "base",
                    "concurrency_test.cpp:2");
    }
    // Another operator's registrations at the same time.
    auto other = d.def("conc::g" + std::to_string(round) + "(Tensor a) -> Tensor", "concurrency_test.cpp:6");
    std::this_thread::yield();
  }
  while (calls.load() < 1000) std::this_thread::yield();  // make sure the callers really ran
  stop = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GE(calls.load(), 1000);
  EXPECT_NO_THROW(d.check_invariants());
  EXPECT_EQ(op.call(Tensor::empty({1})), kBase);
  the_op = nullptr;
}

}  // namespace
}  // namespace schemac::dispatch
