// The layering kernels (lib/runtime/kernels/layering): which kernels run, in which order, for tensors
// carrying Autograd keys; the autograd tape; and the version counter of in-place and view ops.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "Operators.h"  // generated from examples/ops.yaml: typed handles (aten::ops::*)
#include "schemac/dispatch/call_trace.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/core/tensor.h"
#include "schemac/kernels/autograd_tape.h"
#include "schemac/kernels/native_functions.h"

namespace {

using schemac::keys::DispatchKey;
using schemac::keys::DispatchKeySet;
using schemac::core::IValue;
using schemac::dispatch::OperatorHandle;
using schemac::core::ScalarType;
using schemac::dispatch::Stack;
using schemac::core::Tensor;

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

// The entries of `ran` for operator `op` itself (kernels below may call others: empty, copy_).
std::vector<std::string> calls_of(const std::vector<std::string>& ran, const std::string& op) {
  std::vector<std::string> own;
  for (const std::string& r : ran)
    if (r.rfind(op + " ", 0) == 0) own.push_back(r);
  return own;
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
    ASSERT_TRUE(op && op->has_schema()) << "lib/runtime/kernels defines no aten::add.Tensor: its generated registration is missing";
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
    EXPECT_EQ(calls_of(ran, c.op), c.ran) << c.op;
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

// ## In-place and out= operators: typed layering kernels
// Each case writes `target` (self, or out) through the operator's typed handle and returns what
// the call returned.
struct WriteCase {
  const char* op;
  Tensor& (*call)(Tensor& target);
  std::vector<std::string> inputs;  // the tape node's input descriptions
};

const WriteCase kWriteCases[] = {
    {"aten::fill_.Scalar", [](Tensor& t) -> Tensor& { return aten::ops::fill__Scalar::call(t, 1.5); },
     {"cpu:float32[2, 3]"}},
    {"aten::copy_", [](Tensor& t) -> Tensor& { return aten::ops::copy_::call(t, filled({3}), false); },
     {"cpu:float32[2, 3]", "cpu:float32[3]"}},
    {"aten::add_.Tensor", [](Tensor& t) -> Tensor& { return aten::ops::add__Tensor::call(t, filled({3}), 2); },
     {"cpu:float32[2, 3]", "cpu:float32[3]"}},
    {"aten::relu_", [](Tensor& t) -> Tensor& { return aten::ops::relu_::call(t); }, {"cpu:float32[2, 3]"}},
    {"aten::add.out", [](Tensor& t) -> Tensor& { return aten::ops::add_out::call(filled({2, 3}), filled({3}), 1, t); },
     {"cpu:float32[2, 3]", "cpu:float32[3]", "cpu:float32[2, 3]"}},
};

TEST_F(Layering, WritingOpsRunAutogradThenADInplaceOrViewThenTheBackend) {
  for (const WriteCase& c : kWriteCases) {
    Tensor target = filled({2, 3});
    std::vector<std::string> ran;
    {
      KeyRecorder recorder;
      c.call(target);
      ran = recorder.ran;
    }
    const std::string op = c.op;
    EXPECT_EQ(calls_of(ran, op), (std::vector<std::string>{op + " AutogradCPU", op + " ADInplaceOrView", op + " CPU"}))
        << op;
  }
}

TEST_F(Layering, WritingOpsRecordOneTapeNodeWithTheirTensorArguments) {
  for (const WriteCase& c : kWriteCases) {
    Tensor target = filled({2, 3});
    schemac::kernels::TapeRecording recording;
    c.call(target);
    ASSERT_EQ(recording.nodes().size(), 1u) << c.op;
    EXPECT_EQ(recording.nodes()[0].op, c.op);
    EXPECT_EQ(recording.nodes()[0].inputs, c.inputs) << c.op;
  }
}

TEST_F(Layering, WritingOpsReturnTheTensorTheyWroteAndBumpItsVersionOnce) {
  for (const WriteCase& c : kWriteCases) {
    Tensor target = filled({2, 3});
    const uint32_t before = target.version();
    Tensor& result = c.call(target);
    EXPECT_EQ(&result, &target) << c.op << ": the reference is to the caller's own handle";
    EXPECT_TRUE(result.is_same(target)) << c.op;
    EXPECT_EQ(target.version(), before + 1) << c.op;
  }
}

TEST_F(Layering, BoxedCallersOfWritingOpsGetTheWrittenTensorBack) {
  Tensor self = filled({2, 3});
  Stack returned = call("aten::fill_.Scalar", {self, IValue(2.5)});
  ASSERT_EQ(returned.size(), 1u);
  EXPECT_TRUE(returned[0].to_tensor().is_same(self));
  EXPECT_EQ(self.version(), 1u);
  EXPECT_EQ(self.item_at<float>({1, 2}), 2.5f);

  Tensor out = filled({2, 3});
  returned = call("aten::add.out", {filled({2, 3}), filled({2, 3}), IValue(int64_t{1}), out});
  ASSERT_EQ(returned.size(), 1u);
  EXPECT_TRUE(returned[0].to_tensor().is_same(out));
  EXPECT_EQ(out.version(), 1u);
  EXPECT_EQ(out.item_at<float>({1, 2}), 10.0f);
}

TEST_F(Layering, OnlyTheWrittenArgumentIsBumped) {
  const Tensor self = filled({2, 3});
  const Tensor other = filled({3});
  Tensor out = Tensor::empty({2, 3});
  aten::ops::add_out::call(self, other, 1, out);
  EXPECT_EQ(out.version(), 1u);
  EXPECT_EQ(self.version(), 0u);
  EXPECT_EQ(other.version(), 0u);
  Tensor dst = Tensor::empty({3});
  aten::ops::copy_::call(dst, other, false);
  EXPECT_EQ(dst.version(), 1u);
  EXPECT_EQ(other.version(), 0u) << "copy_ reads src";
}

TEST_F(Layering, AWriteThatConvertsThroughATemporaryStillCountsOnce) {
  // add.out into a float64 out computes in float32 and copies into out: one write for the caller.
  Tensor out = Tensor::empty({2, 3}, {ScalarType::Double});
  aten::ops::add_out::call(filled({2, 3}), filled({2, 3}), 1, out);
  EXPECT_EQ(out.version(), 1u);
  EXPECT_EQ(out.item_at<double>({1, 2}), 10.0);
}

TEST_F(Layering, BackendKernelsCalledDirectlyLeaveTheVersionAlone) {
  // The ADInplaceOrView kernel is what bumps: a direct kernel call is not a write the dispatcher saw.
  Tensor t = filled({4});
  schemac::kernels::fill_cpu_(t, 1);
  schemac::kernels::relu_cpu_(t);
  schemac::kernels::add_cpu_(t, t, 1);
  EXPECT_EQ(t.version(), 0u);
}

TEST_F(Layering, EveryThreadIncludesADInplaceOrViewSoEveryDispatchedWriteCounts) {
  // The key is in the thread's default included set, so a tensor without it is counted too.
  Tensor t = filled({4});
  t.set_key_set(DispatchKeySet{DispatchKey::CPU});
  KeyRecorder recorder;
  aten::ops::relu_::call(t);
  EXPECT_EQ(calls_of(recorder.ran, "aten::relu_"),
            (std::vector<std::string>{"aten::relu_ ADInplaceOrView", "aten::relu_ CPU"}));
  EXPECT_EQ(t.version(), 1u);
}

TEST_F(Layering, WithADInplaceOrViewExcludedAWriteIsNotCounted) {
  // What an inference-mode scope does: the write runs, the counter stays.
  Tensor t = filled({4});
  const schemac::dispatch::ExcludeDispatchKeyGuard no_versions(DispatchKey::ADInplaceOrView);
  KeyRecorder recorder;
  aten::ops::fill__Scalar::call(t, 3);
  EXPECT_EQ(calls_of(recorder.ran, "aten::fill_.Scalar"),
            (std::vector<std::string>{"aten::fill_.Scalar AutogradCPU", "aten::fill_.Scalar CPU"}));
  EXPECT_EQ(t.version(), 0u);
  EXPECT_EQ(t.item_at<float>({3}), 3.0f);
}

}  // namespace
