// IValue: every kind round-trips through its accessor, wrong-kind access names both kinds,
// copies share heap objects, equality and printing, and the stack helpers.
#include "schemac/core/ivalue.h"

#include <gtest/gtest.h>

#include "schemac/core/stack.h"

namespace schemac::dispatch {

using core::Generator, core::IValue, core::IValueError, core::IValueKind, core::Layout,
    core::MemoryFormat, core::Scalar, core::ScalarType, core::Stack, core::Tensor, core::peek,
    keys::DispatchKey, keys::DispatchKeySet;

namespace {

Tensor cpu_tensor() { return Tensor::empty({1}, core::TensorOptions{ScalarType::Float, core::kCPU}); }

struct KindCase {
  const char* label;
  IValue value;
  IValueKind kind;
  const char* repr;
};

TEST(IValue, EveryKindHasItsKindAndRepr) {
  const std::vector<KindCase> cases = {
      {"none", IValue(), IValueKind::None, "None"},
      {"nullopt", IValue(std::nullopt), IValueKind::None, "None"},
      {"int", IValue(int64_t{3}), IValueKind::Int, "3"},
      {"int literal", IValue(-7), IValueKind::Int, "-7"},
      {"double", IValue(2.5), IValueKind::Double, "2.5"},
      {"whole double", IValue(2.0), IValueKind::Double, "2."},
      {"bool", IValue(true), IValueKind::Bool, "True"},
      {"complex", IValue(std::complex<double>(1, -2)), IValueKind::Complex, "(1-2j)"},
      {"string", IValue("abc"), IValueKind::String, "'abc'"},
      {"device", IValue(core::Device(core::DeviceType::CUDA, 1)), IValueKind::Device, "cuda:1"},
      {"memory format", IValue(MemoryFormat::ChannelsLast), IValueKind::Int, "1"},
      {"int list", IValue(std::vector<int64_t>{1, 2}), IValueKind::IntList, "[1, 2]"},
      {"double list", IValue(std::vector<double>{0.5}), IValueKind::DoubleList, "[0.5]"},
      {"bool list", IValue(std::vector<bool>{true, false}), IValueKind::BoolList, "[True, False]"},
      {"tensor", IValue(cpu_tensor()), IValueKind::Tensor, "Tensor"},
      {"tensor list", IValue(std::vector<Tensor>{cpu_tensor()}), IValueKind::TensorList, "[Tensor]"},
      {"optional tensor list", IValue(std::vector<std::optional<Tensor>>{std::nullopt, cpu_tensor()}),
       IValueKind::OptionalTensorList, "[None, Tensor]"},
      {"generic list", IValue::list({IValue("a"), IValue()}), IValueKind::GenericList, "['a', None]"},
      {"tuple", IValue::tuple({IValue(1), IValue("x")}), IValueKind::Tuple, "(1, 'x')"},
      {"one-tuple", IValue::tuple({IValue(1)}), IValueKind::Tuple, "(1,)"},
      {"dict", IValue::dict({{IValue("a"), IValue(1)}, {IValue("b"), IValue()}}), IValueKind::Dict,
       "{'a': 1, 'b': None}"},
      {"optional int", IValue(std::optional<int64_t>(4)), IValueKind::Int, "4"},
      {"generator", IValue(Generator::make(1, DispatchKeySet(DispatchKey::CPU))), IValueKind::Generator,
       "Generator"},
  };
  for (const KindCase& c : cases) {
    SCOPED_TRACE(c.label);
    EXPECT_EQ(c.value.kind(), c.kind);
    EXPECT_EQ(c.value.repr(), c.repr);
  }
}

TEST(IValue, AccessorsReturnWhatWasStored) {
  EXPECT_EQ(IValue(int64_t{1} << 40).to_int(), int64_t{1} << 40);
  EXPECT_EQ(IValue(-0.25).to_double(), -0.25);
  EXPECT_FALSE(IValue(false).to_bool());
  EXPECT_EQ(IValue(std::string("hi")).to_string(), "hi");
  EXPECT_EQ(IValue(std::string_view("sv")).to_string_view(), "sv");
  EXPECT_EQ(IValue(core::Device(core::DeviceType::CPU)).to_device(), core::kCPU);
  EXPECT_EQ(IValue(ScalarType::Double).to_enum<ScalarType>(), ScalarType::Double);
  EXPECT_EQ(IValue(MemoryFormat::ChannelsLast).to_enum<MemoryFormat>(), MemoryFormat::ChannelsLast);
  EXPECT_EQ(IValue(Layout::Strided).to_enum<Layout>(), Layout::Strided);
  EXPECT_EQ(IValue(std::complex<double>(0, 1)).to_complex(), std::complex<double>(0, 1));
  EXPECT_EQ(IValue(std::vector<int64_t>{4, 5}).to_int_list(), (std::vector<int64_t>{4, 5}));
  const Tensor t = cpu_tensor();
  EXPECT_TRUE(IValue(t).to_tensor().is_same(t));
  EXPECT_EQ(IValue::tuple({IValue(1), IValue(2.0)}).to_tuple().size(), 2u);
}

TEST(IValue, ScalarsAreStoredAsTheirKindOfNumber) {
  EXPECT_TRUE(IValue(Scalar(3)).is_int());
  EXPECT_TRUE(IValue(Scalar(1.5)).is_double());
  EXPECT_TRUE(IValue(Scalar(true)).is_bool());
  EXPECT_EQ(IValue(7).to_scalar(), Scalar(int64_t{7}));
  EXPECT_EQ(IValue(0.5).to_scalar(), Scalar(0.5));
  EXPECT_THROW(IValue("x").to_scalar(), IValueError);
}

TEST(IValue, WrongKindNamesBothKinds) {
  try {
    (void)IValue("abc").to_int();
    FAIL() << "no exception";
  } catch (const IValueError& e) {
    EXPECT_STREQ(e.what(), "expected a value of type int but got str");
  }
  EXPECT_THROW((void)IValue(1).to_tensor(), IValueError);
  EXPECT_THROW((void)IValue().to_int_list(), IValueError);
  EXPECT_THROW((void)IValue(1.0).to_bool(), IValueError);
}

TEST(IValue, CopiesShareAndMovesEmpty) {
  IValue a(std::vector<int64_t>{1, 2, 3});
  IValue b = a;
  EXPECT_EQ(&a.to_int_list(), &b.to_int_list());  // one shared heap object
  IValue c = std::move(a);
  EXPECT_TRUE(a.is_none());  // NOLINT: moved-from is None by contract
  EXPECT_EQ(c, b);
  const Tensor t = cpu_tensor();
  {
    IValue tv(t);
    IValue copy = tv;
    EXPECT_EQ(t.use_count(), 3);
  }
  EXPECT_EQ(t.use_count(), 1);
  b = IValue("now a string");  // assignment releases the list
  EXPECT_EQ(b.to_string(), "now a string");
}

TEST(IValue, EqualityIsStructuralForValuesAndIdentityForTensors) {
  EXPECT_EQ(IValue(1), IValue(int64_t{1}));
  EXPECT_NE(IValue(1), IValue(1.0));
  EXPECT_EQ(IValue::list({IValue(1), IValue("a")}), IValue::list({IValue(1), IValue("a")}));
  EXPECT_NE(IValue::list({IValue(1)}), IValue::tuple({IValue(1)}));
  const Tensor t = cpu_tensor();
  EXPECT_EQ(IValue(t), IValue(t));
  EXPECT_NE(IValue(t), IValue(cpu_tensor()));
}

TEST(IValue, DispatchKeySetComesFromTensorsAndGenerators) {
  const Tensor t = cpu_tensor();
  EXPECT_EQ(IValue(t).dispatch_key_set(), t.key_set());
  EXPECT_EQ(IValue(std::vector<Tensor>{t}).dispatch_key_set(), t.key_set());
  EXPECT_EQ(IValue(std::vector<std::optional<Tensor>>{std::nullopt}).dispatch_key_set(),
            DispatchKeySet());
  EXPECT_EQ(IValue(Tensor()).dispatch_key_set(), DispatchKeySet());
  EXPECT_EQ(IValue(3).dispatch_key_set(), DispatchKeySet());
  const DispatchKeySet rng{DispatchKey::CustomRNGKeyId};
  EXPECT_EQ(IValue(Generator::make(0, rng)).dispatch_key_set(), rng);
}

TEST(Generator, SameSeedSameStream) {
  Generator a = Generator::make(42, DispatchKeySet(DispatchKey::CPU));
  Generator b = Generator::make(42, DispatchKeySet(DispatchKey::CPU));
  EXPECT_EQ(a.next_u64(), b.next_u64());
  const uint64_t second = a.next_u64();
  EXPECT_NE(second, a.next_u64());
  a.set_seed(42);
  b.set_seed(42);
  EXPECT_EQ(a.next_u64(), b.next_u64());
  EXPECT_THROW((void)Generator().seed(), IValueError);
}

TEST(Stack, PushPeekPopDrop) {
  Stack s;
  core::push(s, 1, 2.5, "three");
  EXPECT_EQ(peek(s, 0).to_string(), "three");
  EXPECT_EQ(peek(s, 2).to_int(), 1);
  EXPECT_EQ(core::pop(s).to_string(), "three");
  core::drop(s, 2);
  EXPECT_TRUE(s.empty());
  EXPECT_THROW(core::pop(s), IValueError);
  EXPECT_THROW(peek(s, 0), IValueError);
  core::push(s, 1);
  try {
    core::drop(s, 2);
    FAIL();
  } catch (const IValueError& e) {
    EXPECT_STREQ(e.what(), "drop: expected at least 2 values on the stack but it holds 1");
  }
}

// `Dict(str, Tensor)`, `(int, int)?` and `None` values, as schemas with those types need.
TEST(IValue, HoldsDictsTuplesAndNone) {
  IValue d = IValue::dict({{IValue("w"), IValue(int64_t{3})}});
  ASSERT_TRUE(d.is_dict());
  ASSERT_EQ(d.to_dict().size(), 1u);
  EXPECT_EQ(d.to_dict()[0].first.to_string(), "w");
  EXPECT_EQ(d.to_dict()[0].second.to_int(), 3);
  IValue copy = d;  // shares the entries
  EXPECT_EQ(copy, d);
  EXPECT_NE(d, IValue::dict({}));
  EXPECT_THROW(IValue(1).to_dict(), IValueError);
  EXPECT_TRUE(IValue(std::optional<int64_t>()).is_none());
}

}  // namespace
}  // namespace schemac::dispatch
