// ArrayRef<T>, the view that list parameters take: what it binds to and what it offers, and how
// the boxing adapters pass one to an unboxed kernel (viewing the list inside the IValue when it
// can, else a converted copy that lives for the whole call) and box one for a boxed kernel.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "schemac/core/array_ref.h"
#include "schemac/dispatch/boxing.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/library.h"
#include "schemac/dispatch/operator_handle.h"

namespace schemac::dispatch {

using core::ArrayRef, core::IValue, core::IntArrayRef, core::Scalar, core::ScalarType,
    core::Tensor, core::TensorList, keys::DispatchKey;

namespace {

static_assert(std::is_same_v<IntArrayRef, ArrayRef<int64_t>>);
static_assert(std::is_same_v<TensorList, ArrayRef<Tensor>>);
static_assert(std::is_trivially_copyable_v<ArrayRef<Tensor>>);
static_assert(!std::is_constructible_v<ArrayRef<bool>, const std::vector<bool>&>,
              "std::vector<bool> has no array of bool to view");

std::vector<int64_t> contents(IntArrayRef view) { return view.vec(); }
const int64_t* address(IntArrayRef view) { return view.data(); }

// ## The view itself

TEST(ArrayRef, BindsWithoutCopyingToWhatHoldsContiguousElements) {
  const std::vector<int64_t> vec{1, 2, 3};
  const std::array<int64_t, 3> arr{1, 2, 3};
  const int64_t c_array[3] = {1, 2, 3};
  const int64_t one = 7;
  struct Case {
    std::string what;
    IntArrayRef view;
    const int64_t* expected_data;
    std::vector<int64_t> expected;
  };
  const Case cases[] = {
      {"vector", vec, vec.data(), {1, 2, 3}},
      {"array", arr, arr.data(), {1, 2, 3}},
      {"c array", c_array, c_array, {1, 2, 3}},
      {"span", std::span<const int64_t>(vec).subspan(1), vec.data() + 1, {2, 3}},
      {"one element", one, &one, {7}},
      {"pointer and size", IntArrayRef(vec.data(), 2), vec.data(), {1, 2}},
      {"default", IntArrayRef(), nullptr, {}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.view.data(), c.expected_data) << c.what;
    EXPECT_EQ(c.view.vec(), c.expected) << c.what;
    EXPECT_EQ(c.view.size(), c.expected.size()) << c.what;
    EXPECT_EQ(c.view.empty(), c.expected.empty()) << c.what;
  }
}

TEST(ArrayRef, BracesBindForTheLengthOfACall) {
  EXPECT_EQ(contents({4, 5, 6}), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_EQ(contents({}), std::vector<int64_t>{});
  const std::vector<int64_t> vec{1};
  EXPECT_EQ(address(vec), vec.data());
}

TEST(ArrayRef, AccessSliceAndCopy) {
  const std::vector<int64_t> vec{10, 20, 30, 40};
  const IntArrayRef view = vec;
  EXPECT_EQ(view.front(), 10);
  EXPECT_EQ(view.back(), 40);
  EXPECT_EQ(view[2], 30);
  EXPECT_EQ(&view[2], vec.data() + 2);
  EXPECT_EQ(view.at(3), 40);
  EXPECT_EQ(view.end() - view.begin(), 4);
  int64_t sum = 0;
  for (int64_t x : view) sum += x;
  EXPECT_EQ(sum, 100);
  EXPECT_EQ(view.slice(1, 2).vec(), (std::vector<int64_t>{20, 30}));
  EXPECT_EQ(view.slice(1).vec(), (std::vector<int64_t>{20, 30, 40}));
  EXPECT_TRUE(view.slice(4).empty());
  EXPECT_TRUE(view.slice(4, 0).empty());
  EXPECT_THROW((void)view.slice(5), std::out_of_range);
  EXPECT_THROW((void)view.slice(3, 2), std::out_of_range);
  EXPECT_THROW((void)view.at(4), std::out_of_range);
  std::vector<int64_t> copy = view.vec();
  copy[0] = 0;
  EXPECT_EQ(vec[0], 10) << "vec() copies";
}

TEST(ArrayRef, EqualityComparesElements) {
  const std::vector<int64_t> a{1, 2}, b{1, 2}, c{1, 3}, d{1};
  EXPECT_TRUE(IntArrayRef(a) == IntArrayRef(b));
  EXPECT_FALSE(IntArrayRef(a) == IntArrayRef(c));
  EXPECT_FALSE(IntArrayRef(a) == IntArrayRef(d));
  EXPECT_TRUE(IntArrayRef(a) != IntArrayRef(d));
  EXPECT_TRUE(IntArrayRef(a) == a) << "a vector converts for the comparison";
  EXPECT_TRUE(IntArrayRef() == IntArrayRef(a.data(), 0));
  const std::vector<std::string_view> s1{"x", "y"}, s2{"x", "y"};
  EXPECT_TRUE(ArrayRef<std::string_view>(s1) == ArrayRef<std::string_view>(s2));
}

TEST(ArrayRef, TensorListViewsTheHandles) {
  const std::vector<Tensor> tensors{Tensor::empty({1}), Tensor::empty({2})};
  const long uses = tensors[0].use_count();
  TensorList view = tensors;
  EXPECT_EQ(tensors[0].use_count(), uses) << "a view takes no reference";
  EXPECT_TRUE(view[1].is_same(tensors[1]));
  TensorList one = tensors[0];
  EXPECT_EQ(one.size(), 1u);
  EXPECT_TRUE(one.front().is_same(tensors[0]));
}

// ## FromIValue: a view for a kernel called boxed

TEST(ArrayRefUnboxing, ListsHeldAsTheirOwnArrayAreViewedInPlace) {
  IValue ints(std::vector<int64_t>{1, 2});
  IValue doubles(std::vector<double>{0.5});
  IValue tensors(std::vector<Tensor>{Tensor::empty({1})});
  IValue optional_tensors(std::vector<std::optional<Tensor>>{std::nullopt, Tensor::empty({1})});
  IValue generic = IValue::list({IValue(1), IValue("a")});
  EXPECT_EQ(core::boxing::FromIValue<IntArrayRef>::get(ints).data(), ints.to_int_list().data());
  EXPECT_EQ(core::boxing::FromIValue<ArrayRef<double>>::get(doubles).data(),
            doubles.to_double_list().data());
  EXPECT_EQ(core::boxing::FromIValue<TensorList>::get(tensors).data(), tensors.to_tensor_list().data());
  EXPECT_EQ(core::boxing::FromIValue<ArrayRef<std::optional<Tensor>>>::get(optional_tensors).data(),
            optional_tensors.to_optional_tensor_list().data());
  EXPECT_EQ(core::boxing::FromIValue<ArrayRef<IValue>>::get(generic).data(), generic.to_list().data());
  IValue none;
  EXPECT_EQ(core::boxing::FromIValue<std::optional<TensorList>>::get(none), std::nullopt);
  const std::optional<IntArrayRef> some = core::boxing::FromIValue<std::optional<IntArrayRef>>::get(ints);
  ASSERT_TRUE(some.has_value());
  EXPECT_EQ(some->data(), ints.to_int_list().data());
}

TEST(ArrayRefUnboxing, OtherListsAreConvertedIntoStorageTheCallerKeeps) {
  IValue bools(std::vector<bool>{true, false, true});
  const core::boxing::ListArgument<bool> bits = core::boxing::FromIValue<ArrayRef<bool>>::get(bools);
  EXPECT_EQ(ArrayRef<bool>(bits).vec(), (std::vector<bool>{true, false, true}));
  IValue strings = IValue::list({IValue("a"), IValue("bc")});
  const auto names = core::boxing::FromIValue<ArrayRef<std::string_view>>::get(strings);
  EXPECT_EQ(ArrayRef<std::string_view>(names).vec(), (std::vector<std::string_view>{"a", "bc"}));
  IValue none;
  const std::optional<ArrayRef<bool>> absent =
      core::boxing::FromIValue<std::optional<ArrayRef<bool>>>::get(none);
  EXPECT_EQ(absent, std::nullopt);
  IValue wrong(int64_t{3});
  EXPECT_ANY_THROW((void)core::boxing::FromIValue<ArrayRef<bool>>::get(wrong));
  EXPECT_ANY_THROW((void)core::boxing::FromIValue<TensorList>::get(wrong));
}

TEST(ArrayRefUnboxing, ToIValueCopiesTheElements) {
  const std::vector<int64_t> ints{1, 2};
  const bool bits[2] = {false, true};
  const std::vector<std::string_view> names{"a", "b"};
  const Tensor t = Tensor::empty({1});
  EXPECT_EQ(core::boxing::to_ivalue(IntArrayRef(ints)), IValue(ints));
  EXPECT_EQ(core::boxing::to_ivalue(ArrayRef<bool>(bits)), IValue(std::vector<bool>{false, true}));
  EXPECT_EQ(core::boxing::to_ivalue(ArrayRef<std::string_view>(names)).repr(), "['a', 'b']");
  EXPECT_TRUE(core::boxing::to_ivalue(TensorList(t)).to_tensor_list().at(0).is_same(t));
  EXPECT_TRUE(core::boxing::to_ivalue(std::optional<ArrayRef<double>>()).is_none());
  EXPECT_EQ(core::boxing::to_ivalue(std::optional<ArrayRef<Scalar>>(ArrayRef<Scalar>(Scalar(2)))).repr(),
            "[2]");
}

// ## Calls through the dispatcher

class ArrayRefCallTest : public ::testing::Test {
 protected:
  ArrayRefCallTest() { register_default_fallbacks(d); }

  RegistrationHandle def(std::string_view schema) { return d.def(schema, "array_ref_test.cpp:1"); }
  RegistrationHandle impl(std::string_view op, DispatchKey key, KernelFunction k) {
    return d.impl(op, key, std::move(k), "", "array_ref_test.cpp:2");
  }
  OperatorHandle handle(std::string_view name) {
    auto op = OperatorHandle::find(d, name);
    EXPECT_TRUE(op.has_value()) << name;
    return *op;
  }

  Dispatcher d;
};

// What the kernel below saw, copied out while it ran.
struct Seen {
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::vector<bool> bools;
  std::vector<Tensor> tensors;
  std::vector<std::optional<Tensor>> optional_tensors;
  std::vector<std::string> strings;
  std::vector<Scalar> scalars;
  std::vector<ScalarType> dtypes;
  std::optional<std::vector<double>> maybe_doubles;
  std::optional<std::vector<bool>> maybe_bools;
};

constexpr std::string_view kListsSchema =
    "test::lists(int[] i, float[] d, bool[] b, Tensor[] t, Tensor?[] ot, str[] s, Scalar[] sc, "
    "ScalarType[] st, float[]? od, bool[]? ob) -> Tensor[]";

using ListsSignature =
    std::vector<Tensor>(IntArrayRef, ArrayRef<double>, ArrayRef<bool>, TensorList,
                        ArrayRef<std::optional<Tensor>>, ArrayRef<std::string_view>,
                        ArrayRef<Scalar>, ArrayRef<ScalarType>, std::optional<ArrayRef<double>>,
                        std::optional<ArrayRef<bool>>);

// An unboxed kernel over views of every kind of list; it allocates before reading the views, so
// a view of storage that died before the call would show (and trip AddressSanitizer).
std::function<ListsSignature> recording_kernel(Seen* seen) {
  return [seen](IntArrayRef i, ArrayRef<double> d, ArrayRef<bool> b, TensorList t,
                ArrayRef<std::optional<Tensor>> ot, ArrayRef<std::string_view> s,
                ArrayRef<Scalar> sc, ArrayRef<ScalarType> st, std::optional<ArrayRef<double>> od,
                std::optional<ArrayRef<bool>> ob) {
    std::vector<std::string> churn(64, std::string(100, 'x'));
    seen->ints = i.vec();
    seen->doubles = d.vec();
    seen->bools = b.vec();
    seen->tensors = t.vec();
    seen->optional_tensors = ot.vec();
    seen->strings.assign(s.begin(), s.end());
    seen->scalars = sc.vec();
    seen->dtypes = st.vec();
    if (od) seen->maybe_doubles = od->vec();
    if (ob) seen->maybe_bools = ob->vec();
    return t.vec();
  };
}

void expect_seen(const Seen& seen, const Tensor& a, const Tensor& b, bool with_optionals) {
  EXPECT_EQ(seen.ints, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(seen.doubles, (std::vector<double>{0.5, 1.5}));
  EXPECT_EQ(seen.bools, (std::vector<bool>{true, false, true}));
  ASSERT_EQ(seen.tensors.size(), 2u);
  EXPECT_TRUE(seen.tensors[0].is_same(a));
  EXPECT_TRUE(seen.tensors[1].is_same(b));
  ASSERT_EQ(seen.optional_tensors.size(), 2u);
  EXPECT_FALSE(seen.optional_tensors[0].has_value());
  EXPECT_TRUE(seen.optional_tensors[1]->is_same(b));
  EXPECT_EQ(seen.strings, (std::vector<std::string>{"mean", "sum"}));
  EXPECT_EQ(seen.scalars, (std::vector<Scalar>{Scalar(int64_t{2}), Scalar(2.5)}));
  EXPECT_EQ(seen.dtypes, (std::vector<ScalarType>{ScalarType::Half, ScalarType::Long}));
  if (with_optionals) {
    EXPECT_EQ(seen.maybe_doubles, (std::vector<double>{4.0}));
    EXPECT_EQ(seen.maybe_bools, (std::vector<bool>{false}));
  } else {
    EXPECT_EQ(seen.maybe_doubles, std::nullopt);
    EXPECT_EQ(seen.maybe_bools, std::nullopt);
  }
}

TEST_F(ArrayRefCallTest, UnboxedKernelWithViewsCalledBoxed) {
  auto r1 = def(kListsSchema);
  Seen seen;
  auto r2 = impl("test::lists", DispatchKey::CPU,
                 KernelFunction::make_from_unboxed(recording_kernel(&seen)));
  const Tensor a = Tensor::empty({1}), b = Tensor::empty({2});
  for (bool with_optionals : {true, false}) {
    seen = Seen();
    Stack stack;
    core::push(stack, std::vector<int64_t>{1, 2, 3}, std::vector<double>{0.5, 1.5},
         std::vector<bool>{true, false, true}, std::vector<Tensor>{a, b},
         std::vector<std::optional<Tensor>>{std::nullopt, b},
         IValue::list({IValue("mean"), IValue("sum")}),
         IValue::list({IValue(Scalar(int64_t{2})), IValue(Scalar(2.5))}),
         IValue::list({IValue(ScalarType::Half), IValue(ScalarType::Long)}),
         with_optionals ? IValue(std::vector<double>{4.0}) : IValue(),
         with_optionals ? IValue(std::vector<bool>{false}) : IValue());
    handle("test::lists").call_boxed(&stack);
    expect_seen(seen, a, b, with_optionals);
    ASSERT_EQ(stack.size(), 1u) << "the arguments are replaced by the return";
    ASSERT_EQ(stack[0].to_tensor_list().size(), 2u);
    EXPECT_TRUE(stack[0].to_tensor_list()[0].is_same(a));
  }
}

TEST_F(ArrayRefCallTest, UnboxedKernelWithViewsCalledUnboxedDirectly) {
  auto r1 = def(kListsSchema);
  Seen seen;
  auto r2 = impl("test::lists", DispatchKey::CPU,
                 KernelFunction::make_from_unboxed(recording_kernel(&seen)));
  const Tensor a = Tensor::empty({1}), b = Tensor::empty({2});
  const std::vector<Tensor> tensors{a, b};
  const bool bools[] = {true, false, true};
  const std::vector<std::string_view> names{"mean", "sum"};
  const std::vector<Scalar> scalars{Scalar(int64_t{2}), Scalar(2.5)};
  const std::vector<double> four{4.0};
  const bool no[] = {false};
  const std::vector<Tensor> got = handle("test::lists").typed<ListsSignature>().call(
      {1, 2, 3}, {0.5, 1.5}, bools, tensors, {std::nullopt, b}, names, scalars,
      {ScalarType::Half, ScalarType::Long}, ArrayRef<double>(four), ArrayRef<bool>(no));
  expect_seen(seen, a, b, /*with_optionals=*/true);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got[1].is_same(b));
}

// A boxed kernel that returns the IValue kinds of its ten arguments: what each view was boxed as.
void boxed_kinds(const OperatorHandle&, keys::DispatchKeySet, Stack* stack) {
  std::string kinds;
  for (size_t i = stack->size() - 10; i < stack->size(); ++i) {
    if (!kinds.empty()) kinds += ' ';
    kinds += (*stack)[i].kind_name();
  }
  core::drop(*stack, 10);
  stack->push_back(IValue(kinds));
}

TEST_F(ArrayRefCallTest, ViewsAreBoxedForABoxedKernel) {
  auto r1 = def(
      "test::kinds(int[] i, float[] d, bool[] b, Tensor[] t, Tensor?[] ot, str[] s, Scalar[] sc, "
      "ScalarType[] st, float[]? od, bool[]? ob) -> str");
  auto r2 = impl("test::kinds", DispatchKey::CPU, KernelFunction::make_from_boxed(&boxed_kinds));
  const Tensor a = Tensor::empty({1});
  const bool bools[] = {true};
  const std::vector<std::string_view> names{"x"};
  const std::string kinds =
      handle("test::kinds")
          .typed<std::string(IntArrayRef, ArrayRef<double>, ArrayRef<bool>, TensorList,
                             ArrayRef<std::optional<Tensor>>, ArrayRef<std::string_view>,
                             ArrayRef<Scalar>, ArrayRef<ScalarType>, std::optional<ArrayRef<double>>,
                             std::optional<ArrayRef<bool>>)>()
          .call({1}, {0.5}, bools, a, {a}, names, {Scalar(1.0)}, {ScalarType::Float}, std::nullopt,
                ArrayRef<bool>(bools));
  EXPECT_EQ(kinds, "int[] float[] bool[] Tensor[] Tensor?[] list list list None bool[]");
}

TEST_F(ArrayRefCallTest, KeysAreExtractedFromTensorListViews) {
  auto r1 = def("test::keys(Tensor[] a, Tensor?[] b, Tensor[]? c) -> int");
  std::vector<std::string> trace;
  auto recorder = [&trace](std::string name) {
    return KernelFunction::make_from_unboxed(
        [&trace, name](TensorList, ArrayRef<std::optional<Tensor>>, std::optional<TensorList>) {
          trace.push_back(name);
          return int64_t{0};
        });
  };
  auto r2 = impl("test::keys", DispatchKey::CPU, recorder("cpu"));
  auto r3 = impl("test::keys", DispatchKey::CUDA, recorder("cuda"));
  Tensor cuda = Tensor::empty({1});
  cuda.set_key_set({DispatchKey::CUDA, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCUDA});
  const Tensor cpu = Tensor::empty({1});
  const auto op = handle("test::keys")
                      .typed<int64_t(TensorList, ArrayRef<std::optional<Tensor>>,
                                     std::optional<TensorList>)>();
  op.call({cpu}, {}, std::nullopt);
  op.call({cpu, cuda}, {}, std::nullopt);
  op.call({}, {std::nullopt, cuda}, std::nullopt);
  op.call({}, {}, TensorList(cuda));
  EXPECT_EQ(trace, (std::vector<std::string>{"cpu", "cuda", "cuda", "cuda"}));
}

}  // namespace
}  // namespace schemac::dispatch
