// Path independence, as test_dispatch.py's `commute` checks it: for small registration sets,
// every order of registration and every order of deregistration gives, after each step, the same
// state and computed table as registering that set in a canonical order on a fresh registry;
// check_invariants passes after every step; a failing registration changes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "dispatch_test_support.h"
#include "table_format.h"

namespace schemac::dispatch {

using inspect::TableFormat;

namespace {

using testing::noop_kernel;

// One registration step: "def", "catchall", a key name, or "fallback:<Key>" (a fallthrough
// backend fallback).
RegistrationHandle apply(Dispatcher& d, const std::string& step) {
  if (step == "def") return d.def("test::foo(Tensor x) -> Tensor", "commute.cpp:1");
  if (step.rfind("fallback:", 0) == 0)
    return d.fallback(testing::key_named(step.substr(9)), KernelFunction::make_fallthrough(), "", "commute.cpp:2");
  const std::optional<keys::DispatchKey> key =
      step == "catchall" ? std::nullopt : std::optional(testing::key_named(step));
  return d.impl("test::foo", key, KernelFunction::make_from_boxed(&noop_kernel), "fn_" + step, "commute.cpp:3");
}

// The observable state: the dump (without the debug line order issues: it is fully ordered) and
// the whole computed table.
std::string observe(const Dispatcher& d) {
  const OperatorEntry* op = d.find("test::foo");
  if (!op) return "(no operator)";
  inspect::TableOptions all;
  all.all_keys = true;
  return inspect::format_dump(*op, TableFormat::Torch) + inspect::format_table(*op, TableFormat::Text, all);
}

// The state after registering exactly `active` (a subset of steps), in canonical order, on a fresh
// registry with the default fallbacks. Memoised per subset.
class ReferenceStates {
 public:
  explicit ReferenceStates(const std::vector<std::string>& steps) : steps_(steps) {}
  const std::string& of(const std::vector<bool>& active) {
    uint32_t mask = 0;
    for (size_t i = 0; i < active.size(); ++i)
      if (active[i]) mask |= 1u << i;
    auto it = cache_.find(mask);
    if (it != cache_.end()) return it->second;
    Dispatcher d;
    register_default_fallbacks(d);
    std::vector<RegistrationHandle> handles;
    for (size_t i = 0; i < steps_.size(); ++i)
      if (active[i]) handles.push_back(apply(d, steps_[i]));
    std::string state = observe(d);
    while (!handles.empty()) handles.pop_back();
    return cache_.emplace(mask, std::move(state)).first->second;
  }

 private:
  const std::vector<std::string>& steps_;
  std::map<uint32_t, std::string> cache_;
};

// Registers in `order`, checking after each step, then removes in `removal`, checking again.
void register_then_remove(const std::vector<std::string>& steps, const std::vector<size_t>& order,
                          const std::vector<size_t>& removal, ReferenceStates& reference) {
  Dispatcher d;
  register_default_fallbacks(d);
  std::vector<RegistrationHandle> handles(steps.size());
  std::vector<bool> active(steps.size(), false);
  for (size_t i : order) {
    handles[i] = apply(d, steps[i]);
    active[i] = true;
    ASSERT_NO_THROW(d.check_invariants());
    ASSERT_EQ(observe(d), reference.of(active)) << "after registering " << steps[i];
  }
  for (size_t i : removal) {
    handles[i].reset();
    active[i] = false;
    ASSERT_NO_THROW(d.check_invariants());
    ASSERT_EQ(observe(d), reference.of(active)) << "after removing " << steps[i];
  }
}

// Every registration order (each undone in the same order), and every removal order after the
// canonical registration order.
void commute(const std::vector<std::string>& steps) {
  ReferenceStates reference(steps);
  std::vector<size_t> order(steps.size());
  std::iota(order.begin(), order.end(), 0);
  const std::vector<size_t> canonical = order;
  size_t runs = 0;
  do {
    register_then_remove(steps, order, order, reference);
    ++runs;
  } while (std::next_permutation(order.begin(), order.end()));
  std::vector<size_t> removal = canonical;
  do {
    register_then_remove(steps, canonical, removal, reference);
    ++runs;
  } while (std::next_permutation(removal.begin(), removal.end()));
  size_t orders = 1;  // steps.size()! of each kind
  for (size_t n = 2; n <= steps.size(); ++n) orders *= n;
  EXPECT_EQ(runs, 2 * orders);
  // The states compared are not all alike: the whole set leaves a different state from none.
  EXPECT_NE(reference.of(std::vector<bool>(steps.size(), true)),
            reference.of(std::vector<bool>(steps.size(), false)));
}

// The registration sets of test_dispatch.py's commute tests, and more.
const std::vector<std::vector<std::string>> kSets = {
    {"def", "catchall", "CPU", "Autograd", "AutogradCPU"},                    // test_def
    {"def", "CPU", "XLA", "Autograd", "AutogradCPU"},                          // test_computed_table
    {"def", "CPU", "CompositeImplicitAutograd"},                               // cpu_math_autogradcpu_fallthrough
    {"def", "CompositeImplicitAutograd", "QuantizedCPU"},                      // ambiguous autogradother
    {"def", "CPU", "Autograd", "CompositeImplicitAutograd", "CompositeExplicitAutograd"},
    {"def", "CPU", "Autograd", "CompositeExplicitAutograd"},
    {"FPGA", "CompositeImplicitAutograd", "AutogradOther", "CPU"},
    {"CompositeExplicitAutogradNonFunctional", "CompositeExplicitAutograd", "XLA", "SparseCPU"},
    {"CompositeImplicitAutogradNestedTensor", "CompositeImplicitAutograd", "NestedTensorCPU", "Autograd"},
    {"FuncTorchBatchedDecomposition", "Autograd", "CompositeImplicitAutograd"},
    {"def", "fallback:XLA", "XLA", "CompositeImplicitAutograd"},
    {"fallback:FPGA", "CompositeImplicitAutograd", "Tracer", "fallback:Meta"},
};

class Commute : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(Commute, AnyOrderGivesTheSameTables) { commute(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Sets, Commute, ::testing::ValuesIn(kSets));

TEST(Commute, FailingRegistrationChangesNothing) {
  Dispatcher d;
  register_default_fallbacks(d);
  auto def = apply(d, "def");
  auto cpu = apply(d, "CPU");
  const std::string before = observe(d);
  EXPECT_THROW(apply(d, "def"), DispatchError);
  EXPECT_THROW(apply(d, "fallback:BackendSelect"), DispatchError);
  EXPECT_THROW(d.impl("test::foo", keys::DispatchKey::CPU, KernelFunction(), "", "x.cpp:1"), DispatchError);
  EXPECT_EQ(observe(d), before);
  EXPECT_NO_THROW(d.check_invariants());
}

}  // namespace
}  // namespace schemac::dispatch
