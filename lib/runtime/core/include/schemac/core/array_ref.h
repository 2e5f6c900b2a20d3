// ArrayRef<T>: a read-only, non-owning view of contiguous elements (a pointer and a size), the
// parameter type of list arguments: `int[]` is IntArrayRef, `Tensor[]` is TensorList, `float[]`
// is ArrayRef<double>, and so on.
//
// An ArrayRef binds to a std::vector, a std::array, a C array, a std::span, braces, a single
// element, or a pointer and a size, without copying. It does not own its elements: whatever it
// was made from must outlive it, so keep it to parameters (a view made from braces dies with the
// full-expression that made it).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace schemac::core {

template <class T>
class ArrayRef {
 public:
  using value_type = T;
  using const_iterator = const T*;
  using iterator = const T*;
  using size_type = std::size_t;

  constexpr ArrayRef() = default;
  // One element, viewed in place.
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}  // NOLINT: implicit
  constexpr ArrayRef(const T* data, std::size_t size) : data_(data), size_(size) {}
  template <class A>
  requires(!std::is_same_v<T, bool>)  // std::vector<bool> packs its bits: nothing to view
      ArrayRef(const std::vector<T, A>& v)
      : data_(v.data()), size_(v.size()) {}  // NOLINT
  template <std::size_t N>
  constexpr ArrayRef(const std::array<T, N>& a) : data_(a.data()), size_(N) {}  // NOLINT
  template <std::size_t N>
  constexpr ArrayRef(const T (&a)[N]) : data_(a), size_(N) {}                     // NOLINT
  constexpr ArrayRef(std::span<const T> s) : data_(s.data()), size_(s.size()) {}  // NOLINT
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"  // the list outlives the call: by design
#endif
  constexpr ArrayRef(std::initializer_list<T> list)  // NOLINT: implicit
      : data_(list.begin()), size_(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T* data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& operator[](std::size_t i) const { return data_[i]; }
  // Bounds-checked element access; throws std::out_of_range naming the index and the size.
  const T& at(std::size_t i) const {
    if (i >= size_) {
      throw std::out_of_range("index " + std::to_string(i) + " out of range for a list of " +
                              std::to_string(size_));
    }
    return data_[i];
  }
  constexpr const T& front() const { return data_[0]; }
  constexpr const T& back() const { return data_[size_ - 1]; }

  // The `n` elements from `start`; throws std::out_of_range when they are not all there.
  ArrayRef slice(std::size_t start, std::size_t n) const {
    if (start > size_ || n > size_ - start) {
      throw std::out_of_range("slice from " + std::to_string(start) + " of " + std::to_string(n) +
                              " elements out of range for a list of " + std::to_string(size_));
    }
    return ArrayRef(data_ + start, n);
  }
  // The elements from `start` to the end.
  ArrayRef slice(std::size_t start) const {
    return slice(start, start <= size_ ? size_ - start : 0);
  }

  // An owning copy.
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(ArrayRef a, ArrayRef b) {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (!(a.data_[i] == b.data_[i])) return false;
    }
    return true;
  }

 private:
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Deduction from the things a view is made from.
template <class T>
ArrayRef(const T*, std::size_t) -> ArrayRef<T>;
template <class T, class A>
ArrayRef(const std::vector<T, A>&) -> ArrayRef<T>;
template <class T, std::size_t N>
ArrayRef(const std::array<T, N>&) -> ArrayRef<T>;

template <class T>
struct IsArrayRef : std::false_type {};
template <class T>
struct IsArrayRef<ArrayRef<T>> : std::true_type {};
template <class T>
inline constexpr bool kIsArrayRef = IsArrayRef<std::remove_cvref_t<T>>::value;

// Sizes, strides and dimension lists (`int[]`, `SymInt[]`).
using IntArrayRef = ArrayRef<int64_t>;

class Tensor;
// `Tensor[]` parameters (`Tensor?[]` ones are ArrayRef<std::optional<Tensor>>).
using TensorList = ArrayRef<Tensor>;

}  // namespace schemac::core
