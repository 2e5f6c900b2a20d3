// Dogfooding: lib/runtime/kernels registers the operators of examples/ops.yaml through code that
// `schemac gen` generated during this build. These tests call them through the generated
// handles and API, so they fail when the generated registration or API is wrong.
#include <gtest/gtest.h>

#include "Operators.h"

namespace {

using schemac::dispatch::OperatorHandle;
using schemac::core::Tensor;

class Dogfood : public ::testing::Test {
 protected:
  void SetUp() override { aten::register_operators(); }
};

TEST_F(Dogfood, EveryOperatorOfTheYamlIsDefinedWithItsSchema) {
  for (const char* name : {"aten::add.Tensor", "aten::add_.Tensor", "aten::add.out", "aten::mm",
                           "aten::empty.memory_format", "aten::view", "aten::matmul"}) {
    std::optional<OperatorHandle> op = OperatorHandle::find(name);
    ASSERT_TRUE(op.has_value()) << name;
    EXPECT_TRUE(op->has_schema()) << name;
  }
  EXPECT_EQ(aten::ops::add_Tensor::schema,
            "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
}

TEST_F(Dogfood, FactoryGoesThroughBackendSelectAndKernelsRun) {
  Tensor a = aten::empty({2, 3}, schemac::core::ScalarType::Float);  // BackendSelect -> CPU
  ASSERT_TRUE(a.defined());
  EXPECT_TRUE(a.is_cpu());
  aten::fill_(a, 2.0);
  Tensor b = aten::empty({2, 3});
  aten::fill_(b, 3.0);
  Tensor sum = aten::add(a, b, 2);  // 2 + 2*3
  EXPECT_FLOAT_EQ(sum.item_at<float>({1, 2}), 8.0f);
  aten::methods(sum).add_(a);  // method form, in place
  EXPECT_FLOAT_EQ(sum.item_at<float>({0, 0}), 10.0f);
  Tensor out = aten::empty({2, 3});
  aten::add_out(a, b, 1, out);
  EXPECT_FLOAT_EQ(out.item_at<float>({0, 1}), 5.0f);
  Tensor t = aten::methods(out).view({3, 2});
  EXPECT_EQ(t.size(0), 3);
}

TEST_F(Dogfood, CompositeImplicitAutogradKernelServesEveryBackend) {
  Tensor a = aten::empty({2, 2});
  aten::fill_(a, 1.0);
  Tensor m = aten::matmul(a, a);
  EXPECT_FLOAT_EQ(m.item_at<float>({1, 1}), 2.0f);
}

}  // namespace
