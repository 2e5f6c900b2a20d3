// The layering kernels (lib/kernels/layering): which kernels run, in which order, for tensors
// carrying Autograd keys; the autograd tape; and the version counter of in-place and view ops.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schemac/dispatch/call_trace.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/dispatch/tensor.h"
#include "schemac/kernels/autograd_tape.h"

namespace {

using schemac::dispatch::DispatchKey;
using schemac::dispatch::DispatchKeySet;
using schemac::dispatch::IValue;
using schemac::dispatch::OperatorHandle;
using schemac::dispatch::Stack;
using schemac::dispatch::Tensor;

// "op Key" for every kernel that ran.
class KeyRecorder : public schemac::dispatch::CallTracer {
 public:
  KeyRecorder() { schemac::dispatch::set_call_tracer(this); }
  ~KeyRecorder() override { schemac::dispatch::set_call_tracer(nullptr); }
  void on_enter(const OperatorHandle& op, DispatchKeySet ks, const schemac::dispatch::TableEntry&) override {
    ran.push_back(op.full_name() + " " + std::string(schemac::dispatch::to_string(ks.highest_priority_key())));
  }
  void on_leave() override {}
  std::vector<std::string> ran;
};

Stack call(const char* name, Stack stack) {
  const auto op = OperatorHandle::find(name);
  EXPECT_TRUE(op.has_value()) << name;
  if (op) op->call_boxed(&stack);
  return stack;
}

Tensor filled(std::vector<int64_t> sizes) {
  Tensor t = Tensor::empty(sizes);
  float* data = static_cast<float*>(t.data_ptr());
  for (int64_t i = 0; i < t.numel(); ++i) data[i] = static_cast<float>(i);
  return t;
}

// The operators come from the registration generated from examples/ops.yaml.
class Layering : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto op = OperatorHandle::find("aten::add.Tensor");
    if (!op || !op->has_schema()) GTEST_SKIP() << "lib/kernels defines no aten operators in this build";
  }
};

struct OrderCase {
  const char* op;
  std::vector<IValue> (*args)();
  std::vector<std::string> ran;
};

TEST_F(Layering, KernelsRunInLayerOrderForAutogradTensors) {
  const OrderCase cases[] = {
      {"aten::add.Tensor", [] { return std::vector<IValue>{filled({2, 3}), filled({2, 3}), IValue(int64_t{1})}; },
       {"aten::add.Tensor AutogradCPU", "aten::add.Tensor CPU"}},
      {"aten::relu", [] { return std::vector<IValue>{filled({4})}; }, {"aten::relu AutogradCPU", "aten::relu CPU"}},
      {"aten::transpose.int", [] { return std::vector<IValue>{filled({2, 3}), IValue(int64_t{0}), IValue(int64_t{1})}; },
       {"aten::transpose.int AutogradCPU", "aten::transpose.int ADInplaceOrView", "aten::transpose.int CPU"}},
  };
  for (const OrderCase& c : cases) {
    std::vector<std::string> ran;
    {
      KeyRecorder recorder;
      call(c.op, c.args());
      ran = recorder.ran;
    }
    // Only the calls of the operator itself: kernels below may call others (empty, copy_).
    std::vector<std::string> own;
    for (const std::string& r : ran)
      if (r.rfind(std::string(c.op) + " ", 0) == 0) own.push_back(r);
    EXPECT_EQ(own, c.ran) << c.op;
  }
}

TEST_F(Layering, WithoutAutogradKeysOnlyTheBackendRuns) {
  Tensor a = filled({3});
  a.set_key_set(DispatchKeySet{DispatchKey::CPU});
  KeyRecorder recorder;
  call("aten::relu", {a});
  ASSERT_FALSE(recorder.ran.empty());
  EXPECT_EQ(recorder.ran.front(), "aten::relu CPU");
}

TEST_F(Layering, TheTapeRecordsOnlyWhileRecording) {
  call("aten::mul.Tensor", {filled({2}), filled({2})});
  schemac::kernels::TapeRecording recording;
  EXPECT_TRUE(recording.nodes().empty());
  call("aten::mul.Tensor", {filled({2}), filled({2})});
  call("aten::relu", {filled({2})});
  ASSERT_EQ(recording.nodes().size(), 2u);
  EXPECT_EQ(recording.nodes()[0].op, "aten::mul.Tensor");
  EXPECT_EQ(recording.nodes()[0].inputs, (std::vector<std::string>{"cpu:float32[2]", "cpu:float32[2]"}));
  EXPECT_EQ(recording.nodes()[1].op, "aten::relu");
}

TEST_F(Layering, InPlaceOpsBumpTheVersionCounterSharedWithViews) {
  Tensor a = filled({2, 3});
  const uint32_t v0 = a.version();
  call("aten::add_.Tensor", {a, filled({2, 3}), IValue(int64_t{1})});
  EXPECT_EQ(a.version(), v0 + 1);
  const Stack view = call("aten::transpose.int", {a, IValue(int64_t{0}), IValue(int64_t{1})});
  ASSERT_EQ(view.size(), 1u);
  const Tensor t = view[0].to_tensor();
  EXPECT_EQ(a.version(), v0 + 1);  // making a view writes nothing
  call("aten::relu_", {t});
  EXPECT_EQ(t.version(), v0 + 2);
  EXPECT_EQ(a.version(), v0 + 2);  // the view shares its base's counter
  // A functional op writes nothing.
  call("aten::add.Tensor", {a, a, IValue(int64_t{1})});
  EXPECT_EQ(a.version(), v0 + 2);
}

}  // namespace
