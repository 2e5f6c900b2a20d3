// IValue: the boxed value the dispatcher moves through stacks. One IValue holds any value a
// schema argument or return can have:
//
//   schema type              IValue kind       C++ accessor
//   ----------------------   ---------------   -------------------------------------------
//   (None, absent optional)  None              is_none()
//   Tensor                   Tensor            to_tensor()
//   int, SymInt              Int               to_int()
//   ScalarType, Layout,      Int               to_enum<E>() (stored as their integer value,
//   MemoryFormat                                as PyTorch does)
//   float, SymFloat          Double            to_double()
//   bool, SymBool            Bool              to_bool()
//   complex                  Complex           to_complex()
//   Scalar                   Int/Double/Bool   to_scalar() (a Scalar, from scalar_type.h, is
//                                               stored as the kind of number it holds)
//   str                      String            to_string_view(), to_string()
//   Device                   Device            to_device()
//   Generator                Generator         to_generator()
//   int[]                    IntList           to_int_list()
//   float[]                  DoubleList        to_double_list()
//   bool[]                   BoolList          to_bool_list()
//   Tensor[]                 TensorList        to_tensor_list()
//   Tensor?[]                OptionalTensorList to_optional_tensor_list()
//   any other list           GenericList       to_list()        (e.g. str[], Scalar[], int?[])
//   tuple returns, (T, U)    Tuple             to_tuple()
//   Dict(K, V)               Dict              to_dict() (entries in insertion order)
//
// Kernels see tuples as std::tuple<...>, dictionaries as Dict<K, V> (dict.h) and `None` as
// std::monostate; boxing.h converts between those and IValues.
//
// An IValue is 16 bytes: a payload and a tag. Numbers, tensors and devices are stored inline;
// strings, lists, tuples, complex numbers and generators live in an immutable, reference-counted
// heap object shared between copies. Accessing the wrong kind throws IValueError naming the kind
// that was expected and the kind that was found.
#pragma once

#include <atomic>
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "schemac/core/device.h"
#include "schemac/core/dict.h"
#include "schemac/core/scalar_type.h"
#include "schemac/core/tensor.h"
#include "schemac/keys/dispatch_key_set.h"

namespace schemac::core {

using keys::DispatchKeySet, keys::to_string;

class IValue;

// A wrong-kind access, or a stack that is too short.
class IValueError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A minimal random generator: a seed, a counter-based stream (splitmix64) and the dispatch key
// set it contributes to key extraction (its backend, or CustomRNGKeyId for a custom one).
// A handle: copies share the state. Default-constructed = undefined.
class Generator {
 public:
  Generator() = default;
  static Generator make(uint64_t seed, DispatchKeySet key_set);
  bool defined() const { return state_ != nullptr; }
  uint64_t seed() const;
  void set_seed(uint64_t seed);
  uint64_t next_u64();  // the next number of the stream; not thread-safe
  DispatchKeySet key_set() const;
  friend bool operator==(const Generator& a, const Generator& b) { return a.state_ == b.state_; }

 private:
  struct State;
  std::shared_ptr<State> state_;
};

// The kinds an IValue can hold.
enum class IValueKind : uint8_t {
  None,
  Tensor,
  Int,
  Double,
  Bool,
  Complex,
  String,
  Device,
  Generator,
  IntList,
  DoubleList,
  BoolList,
  TensorList,
  OptionalTensorList,
  GenericList,
  Tuple,
  Dict,
};
std::string_view to_string(IValueKind kind);

namespace detail {
// The shared, immutable heap part of string, list, tuple, complex and generator values.
struct IValueObject {
  std::atomic<uint32_t> refs{1};
  virtual ~IValueObject() = default;
};
template <class T>
struct IValueBox final : IValueObject {
  explicit IValueBox(T v) : value(std::move(v)) {}
  T value;
};
}  // namespace detail

class IValue {
 public:
  IValue() noexcept : kind_(IValueKind::None) { payload_.i = 0; }
  IValue(std::nullopt_t) noexcept : IValue() {}
  IValue(Tensor t) : kind_(IValueKind::Tensor) { new (&payload_.tensor) Tensor(std::move(t)); }
  IValue(int64_t v) noexcept : kind_(IValueKind::Int) { payload_.i = v; }
  IValue(int v) noexcept : IValue(int64_t{v}) {}
  IValue(double v) noexcept : kind_(IValueKind::Double) { payload_.d = v; }
  IValue(bool v) noexcept : kind_(IValueKind::Bool) { payload_.b = v; }
  IValue(std::complex<double> v) : IValue(IValueKind::Complex, v) {}
  IValue(Scalar s);
  IValue(std::string v) : IValue(IValueKind::String, std::move(v)) {}
  IValue(std::string_view v) : IValue(std::string(v)) {}
  IValue(const char* v) : IValue(std::string(v)) {}
  IValue(Device d) noexcept : kind_(IValueKind::Device) { new (&payload_.device) Device(d); }
  IValue(Generator g) : IValue(IValueKind::Generator, std::move(g)) {}
  IValue(std::vector<int64_t> v) : IValue(IValueKind::IntList, std::move(v)) {}
  IValue(std::vector<double> v) : IValue(IValueKind::DoubleList, std::move(v)) {}
  IValue(std::vector<bool> v) : IValue(IValueKind::BoolList, std::move(v)) {}
  IValue(std::vector<Tensor> v) : IValue(IValueKind::TensorList, std::move(v)) {}
  IValue(std::vector<std::optional<Tensor>> v)
      : IValue(IValueKind::OptionalTensorList, std::move(v)) {}
  // ScalarType, Layout, MemoryFormat and other enums: stored as their integer value.
  template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
  IValue(E e) noexcept : IValue(static_cast<int64_t>(e)) {}
  // An optional is None or its value.
  template <class T>
  IValue(std::optional<T> v) : IValue() {
    if (v) *this = IValue(std::move(*v));
  }
  static IValue list(std::vector<IValue> items) {
    return IValue(IValueKind::GenericList, std::move(items));
  }
  static IValue tuple(std::vector<IValue> items) {
    return IValue(IValueKind::Tuple, std::move(items));
  }
  // A dictionary (`Dict(K, V)`): its entries in insertion order, keys assumed distinct.
  static IValue dict(std::vector<std::pair<IValue, IValue>> entries) {
    return IValue(IValueKind::Dict, std::move(entries));
  }

  IValue(const IValue& other) : kind_(other.kind_) { copy_payload(other); }
  IValue(IValue&& other) noexcept : kind_(other.kind_) { move_payload(std::move(other)); }
  IValue& operator=(const IValue& other) {
    if (this != &other) {
      IValue tmp(other);
      *this = std::move(tmp);
    }
    return *this;
  }
  IValue& operator=(IValue&& other) noexcept {
    if (this != &other) {
      destroy();
      kind_ = other.kind_;
      move_payload(std::move(other));
    }
    return *this;
  }
  ~IValue() { destroy(); }

  IValueKind kind() const { return kind_; }
  std::string_view kind_name() const { return core::to_string(kind_); }
  bool is_none() const { return kind_ == IValueKind::None; }
  bool is_tensor() const { return kind_ == IValueKind::Tensor; }
  bool is_int() const { return kind_ == IValueKind::Int; }
  bool is_double() const { return kind_ == IValueKind::Double; }
  bool is_bool() const { return kind_ == IValueKind::Bool; }
  bool is_complex() const { return kind_ == IValueKind::Complex; }
  bool is_scalar() const { return is_int() || is_double() || is_bool(); }
  bool is_string() const { return kind_ == IValueKind::String; }
  bool is_device() const { return kind_ == IValueKind::Device; }
  bool is_generator() const { return kind_ == IValueKind::Generator; }
  bool is_int_list() const { return kind_ == IValueKind::IntList; }
  bool is_double_list() const { return kind_ == IValueKind::DoubleList; }
  bool is_bool_list() const { return kind_ == IValueKind::BoolList; }
  bool is_tensor_list() const { return kind_ == IValueKind::TensorList; }
  bool is_optional_tensor_list() const { return kind_ == IValueKind::OptionalTensorList; }
  bool is_list() const { return kind_ == IValueKind::GenericList; }
  bool is_tuple() const { return kind_ == IValueKind::Tuple; }
  bool is_dict() const { return kind_ == IValueKind::Dict; }

  const Tensor& to_tensor() const& {
    if (kind_ != IValueKind::Tensor) wrong_kind(IValueKind::Tensor);
    return payload_.tensor;
  }
  // A mutable reference, for kernels that take `Tensor&` (out= arguments).
  Tensor& to_tensor_ref() & {
    if (kind_ != IValueKind::Tensor) wrong_kind(IValueKind::Tensor);
    return payload_.tensor;
  }
  Tensor to_tensor() && {
    if (kind_ != IValueKind::Tensor) wrong_kind(IValueKind::Tensor);
    return std::move(payload_.tensor);
  }
  int64_t to_int() const {
    if (kind_ != IValueKind::Int) wrong_kind(IValueKind::Int);
    return payload_.i;
  }
  double to_double() const {
    if (kind_ != IValueKind::Double) wrong_kind(IValueKind::Double);
    return payload_.d;
  }
  bool to_bool() const {
    if (kind_ != IValueKind::Bool) wrong_kind(IValueKind::Bool);
    return payload_.b;
  }
  std::complex<double> to_complex() const {
    return boxed<std::complex<double>>(IValueKind::Complex);
  }
  Scalar to_scalar() const;
  template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
  E to_enum() const {
    return static_cast<E>(to_int());
  }
  const std::string& to_string() const { return boxed<std::string>(IValueKind::String); }
  std::string_view to_string_view() const { return to_string(); }
  Device to_device() const {
    if (kind_ != IValueKind::Device) wrong_kind(IValueKind::Device);
    return payload_.device;
  }
  const Generator& to_generator() const { return boxed<Generator>(IValueKind::Generator); }
  const std::vector<int64_t>& to_int_list() const {
    return boxed<std::vector<int64_t>>(IValueKind::IntList);
  }
  const std::vector<double>& to_double_list() const {
    return boxed<std::vector<double>>(IValueKind::DoubleList);
  }
  const std::vector<bool>& to_bool_list() const {
    return boxed<std::vector<bool>>(IValueKind::BoolList);
  }
  const std::vector<Tensor>& to_tensor_list() const {
    return boxed<std::vector<Tensor>>(IValueKind::TensorList);
  }
  const std::vector<std::optional<Tensor>>& to_optional_tensor_list() const {
    return boxed<std::vector<std::optional<Tensor>>>(IValueKind::OptionalTensorList);
  }
  const std::vector<IValue>& to_list() const {
    return boxed<std::vector<IValue>>(IValueKind::GenericList);
  }
  const std::vector<IValue>& to_tuple() const {
    return boxed<std::vector<IValue>>(IValueKind::Tuple);
  }
  const std::vector<std::pair<IValue, IValue>>& to_dict() const {
    return boxed<std::vector<std::pair<IValue, IValue>>>(IValueKind::Dict);
  }

  // The union of the key sets of the tensors (and generators) inside this value: what key
  // extraction takes from a Tensor, Tensor?, Tensor[] or Tensor?[] argument. Empty otherwise.
  DispatchKeySet dispatch_key_set() const {
    return kind_ == IValueKind::Tensor ? payload_.tensor.key_set() : container_key_set();
  }

  // Structural equality for numbers, strings, devices and containers; tensors and generators
  // compare by identity (the same handle).
  friend bool operator==(const IValue& a, const IValue& b);

  // A short human-readable rendering, for error messages and tests: `None`, `3`, `2.5`,
  // `True`, `'abc'`, `[1, 2]`, `(1, 'a')`, `Tensor`.
  std::string repr() const;

 private:
  template <class T>
  IValue(IValueKind kind, T value) : kind_(kind) {
    payload_.object = new detail::IValueBox<T>(std::move(value));
  }
  template <class T>
  const T& boxed(IValueKind want) const {
    if (kind_ != want) wrong_kind(want);
    return static_cast<const detail::IValueBox<T>*>(payload_.object)->value;
  }
  bool holds_object() const { return kind_ >= IValueKind::Complex && kind_ != IValueKind::Device; }
  void copy_payload(const IValue& other) {
    if (kind_ == IValueKind::Tensor) {
      new (&payload_.tensor) Tensor(other.payload_.tensor);
    } else if (kind_ == IValueKind::Device) {
      new (&payload_.device) Device(other.payload_.device);
    } else {
      payload_.raw = other.payload_.raw;
      if (holds_object()) payload_.object->refs.fetch_add(1, std::memory_order_relaxed);
    }
  }
  void move_payload(IValue&& other) noexcept {
    if (kind_ == IValueKind::Tensor) {
      new (&payload_.tensor) Tensor(std::move(other.payload_.tensor));
      other.payload_.tensor.~Tensor();
    } else if (kind_ == IValueKind::Device) {
      new (&payload_.device) Device(other.payload_.device);
    } else {
      payload_.raw = other.payload_.raw;
    }
    other.kind_ = IValueKind::None;
    other.payload_.i = 0;
  }
  void destroy() noexcept {
    if (kind_ == IValueKind::Tensor) {
      payload_.tensor.~Tensor();
    } else if (holds_object()) {
      if (payload_.object->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
        delete payload_.object;
    }
  }
  [[noreturn]] void wrong_kind(IValueKind want) const;
  DispatchKeySet container_key_set() const;  // dispatch_key_set() of anything but a tensor

  struct Raw {
    uint64_t word;
  };
  union Payload {
    Payload() : i(0) {}
    ~Payload() {}
    int64_t i;
    double d;
    bool b;
    Raw raw;
    detail::IValueObject* object;
    Tensor tensor;
    Device device;
  } payload_;
  IValueKind kind_;
};

}  // namespace schemac::core
