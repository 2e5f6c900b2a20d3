// Operators with tuple, dict and None arguments and returns (ops.yaml), registered by code that
// `schemac gen` generated during this build: called unboxed through the generated API and typed
// handles, and boxed through the handles' operators with IValues.
#include <gtest/gtest.h>

#include "Operators.h"

namespace {

using schemac::core::Dict;
using schemac::core::IValue;
using schemac::dispatch::Stack;
using schemac::core::Tensor;

class GenContainers : public ::testing::Test {
 protected:
  void SetUp() override { containers::register_operators(); }
};

TEST_F(GenContainers, SchemasKeepTheirContainerTypes) {
  EXPECT_EQ(containers::ops::pick::schema,
            "containers::pick(Dict(str, Tensor) seed_dict, str key, (int, int)? group_shape=None) -> "
            "(Tensor, int)");
}

TEST_F(GenContainers, DictAndTupleArgumentsUnboxed) {
  const Tensor a = Tensor::empty({2});
  const Tensor b = Tensor::empty({3});
  const Dict<std::string, Tensor> seeds{{"a", a}, {"b", b}};
  auto [picked, groups] = containers::pick(seeds, "b", std::tuple<int64_t, int64_t>{2, 3});
  EXPECT_TRUE(picked.is_same(b));
  EXPECT_EQ(groups, 6);
  auto [first, none] = containers::pick(seeds, "a");  // group_shape defaults to None
  EXPECT_TRUE(first.is_same(a));
  EXPECT_EQ(none, -1);

  const Dict<std::string, int64_t> scaled =
      containers::scale_sizes({{"h", 2}, {"w", 5}}, std::tuple<int64_t, int64_t>{10, 1});
  ASSERT_EQ(scaled.size(), 2u);
  EXPECT_EQ(scaled.at("h"), 21);
  EXPECT_EQ(scaled.at("w"), 51);
  EXPECT_EQ(scaled.begin()->first, "h");  // insertion order

  const std::vector<std::tuple<std::string, std::string, std::string>> edges{
      {"user", "rates", "item"}, {"item", "rev", "user"}, {"user", "follows", "user"}};
  EXPECT_EQ(containers::count_edges(edges, "user", std::monostate{}), 2);
  EXPECT_EQ(containers::ops::check_none::call(a, std::monostate{}), std::monostate{});
}

TEST_F(GenContainers, DictAndTupleArgumentsBoxed) {
  const Tensor a = Tensor::empty({2});
  Stack stack{IValue::dict({{IValue("a"), IValue(a)}}), IValue("a"),
              IValue::tuple({IValue(int64_t{4}), IValue(int64_t{5})})};
  containers::ops::pick::handle().call_boxed(&stack);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_TRUE(stack[0].to_tensor().is_same(a));
  EXPECT_EQ(stack[1].to_int(), 20);

  stack = {IValue::dict({{IValue("h"), IValue(int64_t{2})}}),
           IValue::tuple({IValue(int64_t{3}), IValue(int64_t{0})})};
  containers::ops::scale_sizes::handle().call_boxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0], IValue::dict({{IValue("h"), IValue(int64_t{6})}}));

  stack = {IValue::list({IValue::tuple({IValue("user"), IValue("rates"), IValue("item")})}),
           IValue("user"), IValue()};
  containers::ops::count_edges::handle().call_boxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].to_int(), 1);

  stack = {IValue(a), IValue()};
  containers::ops::check_none::handle().call_boxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].is_none());
}

TEST_F(GenContainers, WrongBoxedValuesAreErrorsNotCrashes) {
  Stack stack{IValue::dict({}), IValue("a"), IValue::tuple({IValue(int64_t{4})})};
  EXPECT_THROW(containers::ops::pick::handle().call_boxed(&stack), std::exception);
  stack = {IValue(Tensor::empty({1})), IValue(int64_t{3})};
  EXPECT_THROW(containers::ops::check_none::handle().call_boxed(&stack), std::exception);
}

}  // namespace
