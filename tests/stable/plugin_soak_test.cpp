// Soak: a plugin loaded and unloaded through the stable ABI, again and again, while other threads
// call operators. Run under ThreadSanitizer (label `tsan`) for SCHEMAC_SOAK_SECONDS (10 by
// default). Every call of the plugin's operators either runs the plugin's kernel and returns its
// right answer, finds no operator (between an unload and the next load), or finds the operator
// without its CPU kernel or without its schema (a load or an unload half done: a plugin registers
// its definitions and its kernels one by one, as PyTorch's libraries do), and says so; every call of an operator that stays
// registered succeeds with the right answer; nothing crashes; TSan sees no data race.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "schemac/stable/abi.h"
#include "schemac/stable/library.hpp"

namespace {

using schemac::stable::Tensor;

void add_ints(StableValue* stack, uint64_t, uint64_t) {
  stack[0] = schemac_value_from_int(schemac_value_to_int(stack[0]) + schemac_value_to_int(stack[1]));
}

std::chrono::seconds soak_time() {
  const char* text = std::getenv("SCHEMAC_SOAK_SECONDS");
  return std::chrono::seconds(text ? std::atoi(text) : 10);
}

// The error of a call that found the operator but not (or no longer) its kernel, or whose operator
// was undefined while the call was on its way to the kernel.
bool half_registered(const std::string& error) {
  return error.rfind("Could not run 'example_plugin::", 0) == 0 ||
         (error.rfind("operator 'example_plugin::", 0) == 0 && error.find("has no schema") != std::string::npos);
}

struct Counts {
  std::atomic<int64_t> plugin_ok{0}, plugin_absent{0}, plugin_half{0}, steady_ok{0}, wrong{0}, loads{0};
  std::atomic<bool> stop{false};
};

// One caller: the plugin's scale (CPU kernel) and count (catch-all), and the steady operator.
void call_forever(Counts& counts, int id) {
  Tensor x = Tensor::empty({3});
  for (int i = 0; i < 3; ++i) x.data<float>()[i] = 1.5f;
  for (int64_t n = 0; !counts.stop.load(std::memory_order_relaxed); ++n) {
    StableValue scale[2] = {x.as_argument(), schemac_value_from_double(2.0)};
    const SchemacStatus scaled = schemac_call("example_plugin::scale", scale, 2, 1);
    if (scaled == SCHEMAC_OK) {
      Tensor out = Tensor::adopt(scale[0]);
      const bool right = out.numel() == 3 && out.data<float>()[0] == 3.0f && out.data<float>()[2] == 3.0f;
      (right ? counts.plugin_ok : counts.wrong).fetch_add(1);
    } else if (scaled == SCHEMAC_ERROR_NOT_FOUND) {
      counts.plugin_absent.fetch_add(1);
    } else if (scaled == SCHEMAC_ERROR_CALL && half_registered(schemac_last_error())) {
      counts.plugin_half.fetch_add(1);
    } else {
      counts.wrong.fetch_add(1);
      ADD_FAILURE() << "scale: " << schemac_last_error();
    }
    StableValue count[1] = {x.as_argument()};
    const SchemacStatus counted = schemac_call("example_plugin::count", count, 1, 1);
    if (counted == SCHEMAC_OK) {
      (schemac_value_to_int(count[0]) == 3 ? counts.plugin_ok : counts.wrong).fetch_add(1);
    } else if (counted == SCHEMAC_ERROR_CALL && half_registered(schemac_last_error())) {
      counts.plugin_half.fetch_add(1);
    } else if (counted != SCHEMAC_ERROR_NOT_FOUND) {
      counts.wrong.fetch_add(1);
      ADD_FAILURE() << "count: " << schemac_last_error();
    }
    StableValue add[2] = {schemac_value_from_int(id), schemac_value_from_int(n)};
    const SchemacStatus added = schemac_call("soak::add", add, 2, 1);
    (added == SCHEMAC_OK && schemac_value_to_int(add[0]) == id + n ? counts.steady_ok : counts.wrong).fetch_add(1);
  }
}

TEST(PluginSoak, LoadAndUnloadWhileOtherThreadsCall) {
  SchemacLibrary steady = nullptr;
  ASSERT_EQ(schemac_library_create(0, "soak", nullptr, "plugin_soak_test.cpp", 1, &steady), SCHEMAC_OK)
      << schemac_last_error();
  ASSERT_EQ(schemac_library_def(steady, "add(int a, int b) -> int"), SCHEMAC_OK) << schemac_last_error();
  ASSERT_EQ(schemac_library_impl(steady, "add", nullptr, &add_ints), SCHEMAC_OK) << schemac_last_error();

  Counts counts;
  std::vector<std::thread> callers;
  for (int id = 0; id < 3; ++id) callers.emplace_back(call_forever, std::ref(counts), id);
  const auto end = std::chrono::steady_clock::now() + soak_time();
  while (std::chrono::steady_clock::now() < end) {
    SchemacPlugin plugin = nullptr;
    ASSERT_EQ(schemac_plugin_load(SCHEMAC_EXAMPLE_PLUGIN, &plugin), SCHEMAC_OK) << schemac_last_error();
    counts.loads.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    schemac_plugin_unload(plugin);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  counts.stop = true;
  for (std::thread& t : callers) t.join();
  schemac_library_destroy(steady);

  EXPECT_EQ(counts.wrong.load(), 0);
  EXPECT_GT(counts.loads.load(), 10);
  EXPECT_GT(counts.plugin_ok.load(), 0);
  EXPECT_GT(counts.plugin_absent.load(), 0);
  EXPECT_GT(counts.steady_ok.load(), 0);
  std::printf("%lld loads; plugin calls: %lld answered, %lld found no operator, %lld no kernel; steady calls: %lld\n",
              static_cast<long long>(counts.loads.load()), static_cast<long long>(counts.plugin_ok.load()),
              static_cast<long long>(counts.plugin_absent.load()), static_cast<long long>(counts.plugin_half.load()),
              static_cast<long long>(counts.steady_ok.load()));
}

}  // namespace
