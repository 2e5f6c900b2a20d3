// The stable C ABI: version checks, tensors, libraries, calls by name with 64-bit slots,
// errors raised by kernels, and plugins loaded with dlopen (one that fits, and ones built for a
// newer ABI that are refused with a clear message).
#include "schemac/stable/abi.h"

#include <gtest/gtest.h>

#include <string>

#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/stable/library.hpp"

namespace schemac::dispatch {

using core::ScalarType, core::Tensor;

namespace {

std::string version_error(uint32_t v) {
  if (schemac_check_abi_version(v) == SCHEMAC_OK) return "ok";
  return schemac_last_error();
}

TEST(StableAbi, VersionPolicy) {
  EXPECT_EQ(schemac_abi_version(), uint32_t{SCHEMAC_ABI_VERSION});
  EXPECT_EQ(schemac_abi_version() >> 16, 1u);
  EXPECT_EQ(version_error(SCHEMAC_ABI_VERSION), "ok");
  EXPECT_EQ(version_error((1u << 16) | 7),
            "built for schemac ABI version 1.7, but this runtime provides version 1.0; it needs a newer runtime");
  EXPECT_EQ(version_error(2u << 16),
            "built for schemac ABI version 2.0, but this runtime provides version 1.0; it needs a newer runtime");
  EXPECT_EQ(version_error(0),
            "built for schemac ABI version 0.0, but this runtime provides version 1.0; rebuild it against this "
            "runtime's abi.h");
}

TEST(StableAbi, ValuesAndTensors) {
  EXPECT_EQ(schemac_value_to_double(schemac_value_from_double(-2.5)), -2.5);
  EXPECT_EQ(schemac_value_to_int(schemac_value_from_int(-3)), -3);
  const int64_t sizes[] = {2, 3};
  SchemacTensor t = nullptr;
  ASSERT_EQ(schemac_tensor_empty(sizes, 2, SCHEMAC_DTYPE_FLOAT64, &t), SCHEMAC_OK);
  EXPECT_EQ(schemac_tensor_dim(t), 2);
  EXPECT_EQ(schemac_tensor_size(t, -1), 3);
  EXPECT_EQ(schemac_tensor_size(t, 2), -1);
  EXPECT_EQ(schemac_tensor_numel(t), 6);
  EXPECT_EQ(schemac_tensor_dtype(t), SCHEMAC_DTYPE_FLOAT64);
  EXPECT_EQ(schemac_tensor_is_contiguous(t), 1);
  EXPECT_NE(schemac_tensor_data_ptr(t), nullptr);
  SchemacTensor u = nullptr;
  ASSERT_EQ(schemac_tensor_retain(t, &u), SCHEMAC_OK);
  EXPECT_EQ(schemac_tensor_data_ptr(u), schemac_tensor_data_ptr(t));
  schemac_tensor_release(t);
  schemac_tensor_release(u);
  EXPECT_EQ(schemac_tensor_empty(sizes, 2, 99, &t), SCHEMAC_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(schemac_last_error(), "schemac_tensor_empty: unknown dtype 99");
}

// C kernels for the in-process library.
void add_int(StableValue* stack, uint64_t num_args, uint64_t num_outputs) {
  ASSERT_EQ(num_args, 2u);
  ASSERT_EQ(num_outputs, 1u);
  stack[0] = schemac_value_from_int(schemac_value_to_int(stack[0]) + schemac_value_to_int(stack[1]));
}
void first_or_default(StableValue* stack, uint64_t, uint64_t) {
  // (Tensor? a, float? b) -> (bool, float)
  const bool has_tensor = schemac_value_to_tensor(stack[0]) != nullptr;
  const double b = stack[1] == SCHEMAC_NONE_VALUE ? -1.0 : schemac_value_to_double(stack[1]);
  stack[0] = has_tensor ? 1 : 0;
  stack[1] = schemac_value_from_double(b);
}
void failing(StableValue*, uint64_t, uint64_t) { schemac_set_error("the kernel refused"); }

TEST(StableAbi, LibrariesAndCallsByName) {
  SchemacLibrary def = nullptr, cpu = nullptr;
  ASSERT_EQ(schemac_library_create(0, "stable_test", nullptr, "stable_abi_test.cpp", 1, &def), SCHEMAC_OK)
      << schemac_last_error();
  ASSERT_EQ(schemac_library_def(def, "add(int a, int b) -> int"), SCHEMAC_OK) << schemac_last_error();
  ASSERT_EQ(schemac_library_def(def, "opt(Tensor? a, float? b) -> (bool, float)"), SCHEMAC_OK);
  ASSERT_EQ(schemac_library_def(def, "fails(Tensor a) -> Tensor"), SCHEMAC_OK);
  ASSERT_EQ(schemac_library_def(def, "listy(int[] a) -> int"), SCHEMAC_OK);
  ASSERT_EQ(schemac_library_impl(def, "add", nullptr, &add_int), SCHEMAC_OK);  // catch-all
  ASSERT_EQ(schemac_library_impl(def, "opt", nullptr, &first_or_default), SCHEMAC_OK);
  ASSERT_EQ(schemac_library_impl(def, "listy", nullptr, &add_int), SCHEMAC_OK);
  ASSERT_EQ(schemac_library_create(1, "stable_test", "CPU", "stable_abi_test.cpp", 2, &cpu), SCHEMAC_OK);
  ASSERT_EQ(schemac_library_impl(cpu, "fails", nullptr, &failing), SCHEMAC_OK);

  StableValue stack[2] = {schemac_value_from_int(40), schemac_value_from_int(2)};
  ASSERT_EQ(schemac_call("stable_test::add", stack, 2, 1), SCHEMAC_OK) << schemac_last_error();
  EXPECT_EQ(schemac_value_to_int(stack[0]), 42);

  // The same operator from C++: the stable kernel behind a typed handle.
  const auto add = OperatorHandle::find("stable_test::add")->typed<int64_t(int64_t, int64_t)>();
  EXPECT_EQ(add.call(5, 6), 11);

  StableValue opt[2] = {0, SCHEMAC_NONE_VALUE};
  ASSERT_EQ(schemac_call("stable_test::opt", opt, 2, 2), SCHEMAC_OK) << schemac_last_error();
  EXPECT_EQ(opt[0], 0u);
  EXPECT_EQ(schemac_value_to_double(opt[1]), -1.0);

  schemac::stable::Tensor t = schemac::stable::Tensor::empty({1});
  StableValue f[1] = {t.as_argument()};
  EXPECT_EQ(schemac_call("stable_test::fails", f, 1, 1), SCHEMAC_ERROR_CALL);
  EXPECT_STREQ(schemac_last_error(), "stable kernel of 'stable_test::fails' failed: the kernel refused");

  EXPECT_EQ(schemac_call("stable_test::add", stack, 1, 1), SCHEMAC_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(schemac_last_error(),
               "schemac_call: 'stable_test::add' takes 2 arguments and returns 1 values, but the call passes 1 "
               "and expects 1");
  EXPECT_EQ(schemac_call("stable_test::listy", stack, 1, 1), SCHEMAC_ERROR_CALL);
  EXPECT_STREQ(schemac_last_error(),
               "argument 0 ('a') of operator 'stable_test::listy' has a type that the stable ABI cannot pass in a "
               "64-bit slot");
  EXPECT_EQ(schemac_call("stable_test::nope", stack, 2, 1), SCHEMAC_ERROR_NOT_FOUND);
  EXPECT_STREQ(schemac_last_error(), "schemac_call: no operator named 'stable_test::nope'");

  // Registration errors come back as codes with the dispatcher's message.
  EXPECT_EQ(schemac_library_def(def, "add(int a, int b) -> int"), SCHEMAC_ERROR_REGISTRATION);
  EXPECT_NE(std::string(schemac_last_error()).find("stable_abi_test.cpp:1"), std::string::npos)
      << schemac_last_error();
  SchemacLibrary bad = nullptr;
  EXPECT_EQ(schemac_library_create(1, "stable_test", "NotAKey", "x.cpp", 1, &bad), SCHEMAC_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(schemac_last_error(), "schemac_library_create: unknown dispatch key 'NotAKey'");

  schemac_library_destroy(cpu);
  schemac_library_destroy(def);
  EXPECT_FALSE(OperatorHandle::find("stable_test::add").has_value());
}

Tensor filled(float v, int64_t n) {
  Tensor t = Tensor::empty({n});
  for (int64_t i = 0; i < n; ++i) t.data_ptr<float>()[i] = v;
  return t;
}

TEST(StablePlugin, LoadsCallsAndUnloads) {
  SchemacPlugin plugin = nullptr;
  ASSERT_EQ(schemac_plugin_load(SCHEMAC_EXAMPLE_PLUGIN, &plugin), SCHEMAC_OK) << schemac_last_error();
  const auto scale = OperatorHandle::find("example_plugin::scale");
  ASSERT_TRUE(scale.has_value());
  EXPECT_EQ(scale->schema().arguments.size(), 2u);

  // From C++, boxed and typed.
  const Tensor x = filled(1.5f, 3);
  const Tensor y = scale->typed<Tensor(const Tensor&, double)>().call(x, 2.0);
  ASSERT_EQ(y.numel(), 3);
  EXPECT_EQ(y.data_ptr<float>()[2], 3.0f);
  const auto twice = OperatorHandle::find("example_plugin::scale_twice")->typed<Tensor(const Tensor&, double)>();
  EXPECT_EQ(twice.call(x, 2.0).data_ptr<float>()[0], 6.0f);
  const auto count = OperatorHandle::find("example_plugin::count")->typed<int64_t(const Tensor&)>();
  EXPECT_EQ(count.call(x), 3);
  EXPECT_EQ(x.use_count(), 1);  // no handle leaked or over-released

  // From C, by name.
  StableValue stack[2] = {schemac_value_from_tensor(reinterpret_cast<SchemacTensor>(const_cast<Tensor*>(&x))),
                          schemac_value_from_double(-1.0)};
  ASSERT_EQ(schemac_call("example_plugin::scale", stack, 2, 1), SCHEMAC_OK) << schemac_last_error();
  schemac::stable::Tensor out = schemac::stable::Tensor::adopt(stack[0]);
  EXPECT_EQ(out.data<float>()[1], -1.5f);

  // A kernel error surfaces as a DispatchError naming the operator.
  const Tensor ints = Tensor::empty({2}, core::TensorOptions{ScalarType::Long, core::kCPU});
  try {
    scale->typed<Tensor(const Tensor&, double)>().call(ints, 2.0);
    FAIL() << "no error";
  } catch (const DispatchError& e) {
    EXPECT_STREQ(e.what(),
                 "stable kernel of 'example_plugin::scale' failed: example_plugin::scale supports contiguous "
                 "float32 tensors only");
  }

  schemac_plugin_unload(plugin);
  EXPECT_FALSE(OperatorHandle::find("example_plugin::scale").has_value());
  // It loads again after unloading.
  ASSERT_EQ(schemac_plugin_load(SCHEMAC_EXAMPLE_PLUGIN, &plugin), SCHEMAC_OK) << schemac_last_error();
  EXPECT_TRUE(OperatorHandle::find("example_plugin::count").has_value());
  schemac_plugin_unload(plugin);
}

TEST(StablePlugin, NewerAbiIsRefusedAndRegistersNothing) {
  const struct {
    const char* path;
    const char* version;
  } cases[] = {{SCHEMAC_NEWER_ABI_PLUGIN, "1.7"}, {SCHEMAC_NEWER_MAJOR_PLUGIN, "2.0"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    SchemacPlugin plugin = nullptr;
    EXPECT_EQ(schemac_plugin_load(c.path, &plugin), SCHEMAC_ERROR_VERSION);
    EXPECT_EQ(plugin, nullptr);
    EXPECT_EQ(std::string(schemac_last_error()),
              std::string("refusing plugin '") + c.path + "': built for schemac ABI version " + c.version +
                  ", but this runtime provides version 1.0; it needs a newer runtime");
    EXPECT_FALSE(OperatorHandle::find("newer_plugin::must_not_exist").has_value());
  }
}

TEST(StablePlugin, LoaderErrors) {
  SchemacPlugin plugin = nullptr;
  EXPECT_EQ(schemac_plugin_load("/nonexistent/libnothing.so", &plugin), SCHEMAC_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(schemac_last_error()).find("cannot load plugin '/nonexistent/libnothing.so': "),
            std::string::npos);
  // A shared library that is not a plugin: libc has none of the entry points.
  EXPECT_EQ(schemac_plugin_load("libc.so.6", &plugin), SCHEMAC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(schemac_last_error()).find("'libc.so.6' is not a schemac plugin"), std::string::npos);
}

}  // namespace
}  // namespace schemac::dispatch
