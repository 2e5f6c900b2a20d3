// IValue, Scalar and Generator: accessors that can fail, equality, and printing.
#include "schemac/core/ivalue.h"
#include "schemac/core/ivalue_conversions.h"

#include <algorithm>

#include <fmt/format.h>

#include "schemac/core/stack.h"

namespace schemac::core {

using keys::DispatchKeySet;

// ## Generator

struct Generator::State {
  uint64_t seed;
  uint64_t counter = 0;
  DispatchKeySet key_set;
};

Generator Generator::make(uint64_t seed, DispatchKeySet key_set) {
  Generator g;
  g.state_ = std::make_shared<State>(State{seed, 0, key_set});
  return g;
}

static void check_defined(const std::shared_ptr<void>& state) {
  if (!state) throw IValueError("the generator is undefined");
}

uint64_t Generator::seed() const {
  check_defined(state_);
  return state_->seed;
}

void Generator::set_seed(uint64_t seed) {
  check_defined(state_);
  state_->seed = seed;
  state_->counter = 0;
}

uint64_t Generator::next_u64() {
  check_defined(state_);
  // splitmix64 over seed + counter * golden gamma.
  uint64_t z = state_->seed + (++state_->counter) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

DispatchKeySet Generator::key_set() const { return state_ ? state_->key_set : DispatchKeySet(); }

// ## IValue

std::string_view to_string(IValueKind kind) {
  switch (kind) {
    case IValueKind::None: return "None";
    case IValueKind::Tensor: return "Tensor";
    case IValueKind::Int: return "int";
    case IValueKind::Double: return "float";
    case IValueKind::Bool: return "bool";
    case IValueKind::Complex: return "complex";
    case IValueKind::String: return "str";
    case IValueKind::Device: return "Device";
    case IValueKind::Generator: return "Generator";
    case IValueKind::IntList: return "int[]";
    case IValueKind::DoubleList: return "float[]";
    case IValueKind::BoolList: return "bool[]";
    case IValueKind::TensorList: return "Tensor[]";
    case IValueKind::OptionalTensorList: return "Tensor?[]";
    case IValueKind::GenericList: return "list";
    case IValueKind::Tuple: return "tuple";
    case IValueKind::Dict: return "Dict";
  }
  return "unknown";
}

IValue::IValue(Scalar s) : IValue() {
  switch (s.kind()) {
    case Scalar::Kind::Integer: *this = IValue(s.to_int64()); break;
    case Scalar::Kind::Floating: *this = IValue(s.to_double()); break;
    case Scalar::Kind::Boolean: *this = IValue(s.to_bool()); break;
  }
}

Scalar IValue::to_scalar() const {
  switch (kind_) {
    case IValueKind::Int: return Scalar(payload_.i);
    case IValueKind::Double: return Scalar(payload_.d);
    case IValueKind::Bool: return Scalar(payload_.b);
    default:
      throw IValueError(fmt::format("expected a value of type Scalar but got {}", kind_name()));
  }
}

void IValue::wrong_kind(IValueKind want) const {
  throw IValueError(
      fmt::format("expected a value of type {} but got {}", core::to_string(want), kind_name()));
}

DispatchKeySet IValue::container_key_set() const {
  switch (kind_) {
    case IValueKind::Generator: return to_generator().key_set();
    case IValueKind::TensorList: {
      DispatchKeySet ks;
      for (const Tensor& t : to_tensor_list())
        if (t.defined()) ks |= t.key_set();
      return ks;
    }
    case IValueKind::OptionalTensorList: {
      DispatchKeySet ks;
      for (const std::optional<Tensor>& t : to_optional_tensor_list())
        if (t && t->defined()) ks |= t->key_set();
      return ks;
    }
    default: return DispatchKeySet();
  }
}

template <class T>
static bool lists_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a == b;
}

// Equal lengths and each pair of items equal by `same`.
template <class T, class Same>
static bool lists_equal(const std::vector<T>& a, const std::vector<T>& b, Same same) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), same);
}

static bool same_tensor(const Tensor& a, const Tensor& b) {
  return a.defined() == b.defined() && (!a.defined() || a.is_same(b));
}

bool operator==(const IValue& a, const IValue& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case IValueKind::None: return true;
    case IValueKind::Tensor: return same_tensor(a.payload_.tensor, b.payload_.tensor);
    case IValueKind::Int: return a.payload_.i == b.payload_.i;
    case IValueKind::Double: return a.payload_.d == b.payload_.d;
    case IValueKind::Bool: return a.payload_.b == b.payload_.b;
    case IValueKind::Complex: return a.to_complex() == b.to_complex();
    case IValueKind::String: return a.to_string() == b.to_string();
    case IValueKind::Device: return a.payload_.device == b.payload_.device;
    case IValueKind::Generator: return a.to_generator() == b.to_generator();
    case IValueKind::IntList: return lists_equal(a.to_int_list(), b.to_int_list());
    case IValueKind::DoubleList: return lists_equal(a.to_double_list(), b.to_double_list());
    case IValueKind::BoolList: return lists_equal(a.to_bool_list(), b.to_bool_list());
    case IValueKind::TensorList:
      return lists_equal(a.to_tensor_list(), b.to_tensor_list(), same_tensor);
    case IValueKind::OptionalTensorList:
      return lists_equal(a.to_optional_tensor_list(), b.to_optional_tensor_list(),
                         [](const std::optional<Tensor>& x, const std::optional<Tensor>& y) {
                           return x.has_value() == y.has_value() && (!x || same_tensor(*x, *y));
                         });
    case IValueKind::GenericList: return lists_equal(a.to_list(), b.to_list());
    case IValueKind::Tuple: return lists_equal(a.to_tuple(), b.to_tuple());
    case IValueKind::Dict:
      return lists_equal(a.to_dict(), b.to_dict(), [](const auto& x, const auto& y) {
        return x.first == y.first && x.second == y.second;
      });
  }
  return false;
}

static std::string format_double(double d) {
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".eni") == std::string::npos) s += ".";
  return s;
}

template <class T, class F>
static std::string join(const std::vector<T>& items, F&& one, std::string_view open,
                        std::string_view close) {
  std::string out(open);
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += one(items[i]);
  }
  out += close;
  return out;
}

std::string IValue::repr() const {
  switch (kind_) {
    case IValueKind::None: return "None";
    case IValueKind::Tensor: return payload_.tensor.defined() ? "Tensor" : "Tensor(undefined)";
    case IValueKind::Int: return fmt::format("{}", payload_.i);
    case IValueKind::Double: return format_double(payload_.d);
    case IValueKind::Bool: return payload_.b ? "True" : "False";
    case IValueKind::Complex: {
      const auto c = to_complex();
      return fmt::format("({}{:+}j)", c.real(), c.imag());
    }
    case IValueKind::String: return fmt::format("'{}'", to_string());
    case IValueKind::Device: return payload_.device.to_string();
    case IValueKind::Generator: return "Generator";
    case IValueKind::IntList:
      return join(
          to_int_list(), [](int64_t v) { return fmt::format("{}", v); }, "[", "]");
    case IValueKind::DoubleList: return join(to_double_list(), format_double, "[", "]");
    case IValueKind::BoolList: {
      std::vector<int> bits(to_bool_list().begin(), to_bool_list().end());
      return join(
          bits, [](int b) { return std::string(b ? "True" : "False"); }, "[", "]");
    }
    case IValueKind::TensorList:
      return join(
          to_tensor_list(), [](const Tensor&) { return std::string("Tensor"); }, "[", "]");
    case IValueKind::OptionalTensorList:
      return join(
          to_optional_tensor_list(),
          [](const std::optional<Tensor>& t) { return std::string(t ? "Tensor" : "None"); }, "[",
          "]");
    case IValueKind::GenericList:
      return join(
          to_list(), [](const IValue& v) { return v.repr(); }, "[", "]");
    case IValueKind::Tuple: {
      const std::string_view close = to_tuple().size() == 1 ? ",)" : ")";
      return join(
          to_tuple(), [](const IValue& v) { return v.repr(); }, "(", close);
    }
    case IValueKind::Dict:
      return join(
          to_dict(),
          [](const std::pair<IValue, IValue>& e) {
            return e.first.repr() + ": " + e.second.repr();
          },
          "{", "}");
  }
  return "?";
}

// ## Stack helpers

void require_stack_size(const Stack& stack, size_t n, std::string_view what) {
  if (stack.size() < n)
    throw IValueError(fmt::format("{}: expected at least {} values on the stack but it holds {}",
                                  what, n, stack.size()));
}

IValue& peek(Stack& stack, size_t depth) {
  require_stack_size(stack, depth + 1, "peek");
  return stack[stack.size() - 1 - depth];
}

const IValue& peek(const Stack& stack, size_t depth) {
  require_stack_size(stack, depth + 1, "peek");
  return stack[stack.size() - 1 - depth];
}

IValue pop(Stack& stack) {
  require_stack_size(stack, 1, "pop");
  IValue v = std::move(stack.back());
  stack.pop_back();
  return v;
}

void drop(Stack& stack, size_t n) {
  require_stack_size(stack, n, "drop");
  stack.resize(stack.size() - n);
}

namespace boxing {
void throw_tuple_size_mismatch(size_t expected, size_t found) {
  throw IValueError(
      fmt::format("expected a tuple of {} elements, found one of {}", expected, found));
}
void throw_not_none(const IValue& found) {
  throw IValueError(fmt::format("expected None, found {}", found.kind_name()));
}
}  // namespace boxing

}  // namespace schemac::core
