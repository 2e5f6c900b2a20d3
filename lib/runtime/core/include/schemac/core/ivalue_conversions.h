// Conversions between IValues and the C++ types kernels take and return, for the boxing adapters
// (schemac/dispatch/boxing.h lists the types):
//
//   * `FromIValue<T>::get(v)` reads an argument: T, or a reference into `v` where that avoids a
//     copy (tensors, lists viewed as ArrayRef);
//   * `take<T>(std::move(v))` moves a value out of a stack slot;
//   * `to_ivalue(x)` makes the IValue of a C++ value (an argument pushed for a boxed call, or a
//     kernel's return).
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "schemac/core/array_ref.h"
#include "schemac/core/dict.h"
#include "schemac/core/ivalue.h"

namespace schemac::core::boxing {

template <class T>
inline constexpr bool kAlwaysFalse = false;

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
struct IsTuple : std::false_type {};
template <class... T>
struct IsTuple<std::tuple<T...>> : std::true_type {};
template <class T>
struct IsDict : std::false_type {};
template <class K, class V>
struct IsDict<Dict<K, V>> : std::true_type {};

[[noreturn]] void throw_tuple_size_mismatch(size_t expected, size_t found);
[[noreturn]] void throw_not_none(const IValue& found);

// ## IValue -> C++ (an argument a kernel receives)
// `FromIValue<T>::get(v)` returns T or a reference into `v` (no copy for tensors and lists).
template <class T, class Enable = void>
struct FromIValue {
  static_assert(kAlwaysFalse<T>, "unsupported kernel parameter type for boxing");
};
template <>
struct FromIValue<IValue> {
  static IValue& get(IValue& v) { return v; }
};
template <>
struct FromIValue<Tensor> {
  static Tensor& get(IValue& v) { return v.to_tensor_ref(); }
};
template <>
struct FromIValue<int64_t> {
  static int64_t get(IValue& v) { return v.to_int(); }
};
template <>
struct FromIValue<double> {
  static double get(IValue& v) { return v.to_double(); }
};
template <>
struct FromIValue<bool> {
  static bool get(IValue& v) { return v.to_bool(); }
};
template <>
struct FromIValue<std::complex<double>> {
  static std::complex<double> get(IValue& v) { return v.to_complex(); }
};
template <>
struct FromIValue<Scalar> {
  static Scalar get(IValue& v) { return v.to_scalar(); }
};
template <>
struct FromIValue<std::string> {
  static const std::string& get(IValue& v) { return v.to_string(); }
};
template <>
struct FromIValue<std::string_view> {
  static std::string_view get(IValue& v) { return v.to_string_view(); }
};
template <>
struct FromIValue<Device> {
  static Device get(IValue& v) { return v.to_device(); }
};
template <>
struct FromIValue<Generator> {
  static const Generator& get(IValue& v) { return v.to_generator(); }
};
template <class E>
struct FromIValue<E, std::enable_if_t<std::is_enum_v<E>>> {
  static E get(IValue& v) { return v.to_enum<E>(); }
};
template <>
struct FromIValue<std::vector<int64_t>> {
  static const std::vector<int64_t>& get(IValue& v) { return v.to_int_list(); }
};
template <>
struct FromIValue<std::vector<double>> {
  static const std::vector<double>& get(IValue& v) { return v.to_double_list(); }
};
template <>
struct FromIValue<std::vector<bool>> {
  static const std::vector<bool>& get(IValue& v) { return v.to_bool_list(); }
};
template <>
struct FromIValue<std::vector<Tensor>> {
  static const std::vector<Tensor>& get(IValue& v) { return v.to_tensor_list(); }
};
template <>
struct FromIValue<std::vector<std::optional<Tensor>>> {
  static const std::vector<std::optional<Tensor>>& get(IValue& v) {
    return v.to_optional_tensor_list();
  }
};
template <>
struct FromIValue<std::vector<IValue>> {
  static const std::vector<IValue>& get(IValue& v) { return v.to_list(); }
};
template <class T>
struct FromIValue<std::vector<T>> {  // any other list: a generic list converted element-wise
  static std::vector<T> get(IValue& v) {
    std::vector<T> out;
    out.reserve(v.to_list().size());
    for (const IValue& item : v.to_list()) {
      IValue copy = item;
      out.emplace_back(FromIValue<T>::get(copy));
    }
    return out;
  }
};
template <class T>
struct FromIValue<std::optional<T>> {
  static std::optional<T> get(IValue& v) {
    if (v.is_none()) return std::nullopt;
    return std::optional<T>(FromIValue<T>::get(v));
  }
};

// ### List views (ArrayRef parameters)
// The elements of a list argument converted to T, owned for the length of one kernel call: the
// adapter passes it where the kernel takes ArrayRef<T>, as a temporary of the call expression.
template <class T>
class ListArgument {
 public:
  explicit ListArgument(std::vector<T> items) : items_(std::move(items)) {}
  operator ArrayRef<T>() const { return ArrayRef<T>(items_.data(), items_.size()); }  // NOLINT

 private:
  std::vector<T> items_;
};
template <>
class ListArgument<bool> {  // std::vector<bool> packs its bits: unpack them into an array
 public:
  explicit ListArgument(const std::vector<bool>& bits)
      : items_(std::make_unique<bool[]>(bits.size())), size_(bits.size()) {
    std::copy(bits.begin(), bits.end(), items_.get());
  }
  operator ArrayRef<bool>() const { return ArrayRef<bool>(items_.get(), size_); }  // NOLINT

 private:
  std::unique_ptr<bool[]> items_;
  std::size_t size_;
};

// An optional list argument that had to be converted (see ListArgument).
template <class T>
class OptionalListArgument {
 public:
  OptionalListArgument() = default;
  explicit OptionalListArgument(ListArgument<T> list) : list_(std::move(list)) {}
  operator std::optional<ArrayRef<T>>() const {  // NOLINT
    if (!list_) return std::nullopt;
    return ArrayRef<T>(*list_);
  }

 private:
  std::optional<ListArgument<T>> list_;
};

// Whether the IValue of a T list holds a std::vector<T> that can be viewed in place.
template <class T>
inline constexpr bool kListViewableInPlace =
    std::is_same_v<T, int64_t> || std::is_same_v<T, double> || std::is_same_v<T, Tensor> ||
    std::is_same_v<T, std::optional<Tensor>> || std::is_same_v<T, IValue>;

template <class T>
struct FromIValue<ArrayRef<T>> {
  static auto get(IValue& v) {
    if constexpr (std::is_same_v<T, int64_t>) {
      return ArrayRef<T>(v.to_int_list());
    } else if constexpr (std::is_same_v<T, double>) {
      return ArrayRef<T>(v.to_double_list());
    } else if constexpr (std::is_same_v<T, Tensor>) {
      return ArrayRef<T>(v.to_tensor_list());
    } else if constexpr (std::is_same_v<T, std::optional<Tensor>>) {
      return ArrayRef<T>(v.to_optional_tensor_list());
    } else if constexpr (std::is_same_v<T, IValue>) {
      return ArrayRef<T>(v.to_list());
    } else {
      static_assert(!kListViewableInPlace<T>);
      return ListArgument<T>(FromIValue<std::vector<T>>::get(v));
    }
  }
};
template <class T>
struct FromIValue<std::optional<ArrayRef<T>>> {
  static auto get(IValue& v) {
    if constexpr (kListViewableInPlace<T>) {
      if (v.is_none()) return std::optional<ArrayRef<T>>();
      return std::optional<ArrayRef<T>>(FromIValue<ArrayRef<T>>::get(v));
    } else {
      if (v.is_none()) return OptionalListArgument<T>();
      return OptionalListArgument<T>(FromIValue<ArrayRef<T>>::get(v));
    }
  }
};

// ### Tuples, dictionaries and None
// `(int, Tensor)` -> std::tuple<int64_t, Tensor>, `Dict(str, Tensor)` -> Dict<std::string,
// Tensor>, `None` -> std::monostate. Their elements are owned values (std::string, std::vector,
// nested tuples and dicts), converted from copies of the IValues inside.
template <class T>
T owned_from_ivalue(const IValue& item) {
  IValue copy = item;
  return T(FromIValue<T>::get(copy));
}
template <class... T>
struct FromIValue<std::tuple<T...>> {
  static std::tuple<T...> get(IValue& v) {
    const std::vector<IValue>& items = v.to_tuple();
    if (items.size() != sizeof...(T)) throw_tuple_size_mismatch(sizeof...(T), items.size());
    return get_items(items, std::index_sequence_for<T...>());
  }
  template <size_t... I>
  static std::tuple<T...> get_items(const std::vector<IValue>& items, std::index_sequence<I...>) {
    return std::tuple<T...>(owned_from_ivalue<T>(items[I])...);
  }
};
template <class K, class V>
struct FromIValue<Dict<K, V>> {
  static Dict<K, V> get(IValue& v) {
    Dict<K, V> out;
    for (const auto& [key, value] : v.to_dict())
      out.insert_or_assign(owned_from_ivalue<K>(key), owned_from_ivalue<V>(value));
    return out;
  }
};
template <>
struct FromIValue<std::monostate> {
  static std::monostate get(IValue& v) {
    if (!v.is_none()) throw_not_none(v);
    return {};
  }
};

// Takes ownership of the value (used for results of boxed kernels called unboxed).
template <class T>
T take(IValue&& v) {
  if constexpr (std::is_same_v<T, Tensor>) {
    return std::move(v).to_tensor();
  } else {
    return T(FromIValue<T>::get(v));
  }
}

// ## C++ -> IValue (an argument pushed for a boxed call, or a return)
template <class T>
IValue to_ivalue(T&& value) {
  using D = std::remove_cvref_t<T>;
  if constexpr (kIsArrayRef<D>) {
    return to_ivalue(value.vec());
  } else if constexpr (IsVector<D>::value && !std::is_constructible_v<IValue, D>) {
    std::vector<IValue> items;
    items.reserve(value.size());
    for (auto&& item : value) items.push_back(to_ivalue(item));
    return IValue::list(std::move(items));
  } else if constexpr (IsOptional<D>::value) {
    if (!value) return IValue();
    return to_ivalue(*std::forward<T>(value));
  } else if constexpr (IsTuple<D>::value) {
    std::vector<IValue> items;
    items.reserve(std::tuple_size_v<D>);
    std::apply([&items](auto&&... item) { (items.push_back(to_ivalue(item)), ...); }, value);
    return IValue::tuple(std::move(items));
  } else if constexpr (IsDict<D>::value) {
    std::vector<std::pair<IValue, IValue>> entries;
    entries.reserve(value.size());
    for (const auto& [key, item] : value) entries.emplace_back(to_ivalue(key), to_ivalue(item));
    return IValue::dict(std::move(entries));
  } else if constexpr (std::is_same_v<D, std::monostate>) {
    return IValue();
  } else {
    return IValue(D(std::forward<T>(value)));
  }
}

}  // namespace schemac::core::boxing
