// Dict<K, V>: the C++ type of a schema `Dict(K, V)` argument or return (`Dict(str, Tensor)` ->
// Dict<std::string, Tensor>). Entries keep their insertion order, as PyTorch's dictionaries do
// and as an IValue of kind Dict stores them; a key appears at most once (inserting it again
// replaces its value in place). Lookups are linear: operator arguments hold a handful of
// entries. Keys are the types PyTorch allows (str, int, float, bool, Tensor); tensors compare by
// identity (the same handle), as in an IValue.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "schemac/core/tensor.h"

namespace schemac::core {

template <class K, class V>
class Dict {
 public:
  using key_type = K;
  using mapped_type = V;
  using value_type = std::pair<K, V>;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  Dict() = default;
  Dict(std::initializer_list<value_type> entries) {
    for (const value_type& e : entries) insert_or_assign(e.first, e.second);
  }

  // Adds the entry at the end, or replaces the value of an existing key where it is.
  void insert_or_assign(K key, V value) {
    for (value_type& e : entries_) {
      if (equal(e.first, key)) {
        e.second = std::move(value);
        return;
      }
    }
    entries_.emplace_back(std::move(key), std::move(value));
  }

  const V* find(const K& key) const {
    for (const value_type& e : entries_)
      if (equal(e.first, key)) return &e.second;
    return nullptr;
  }
  bool contains(const K& key) const { return find(key) != nullptr; }
  const V& at(const K& key) const {
    if (const V* v = find(key)) return *v;
    throw std::out_of_range("Dict::at: no such key");
  }

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }

  friend bool operator==(const Dict& a, const Dict& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!equal(a.entries_[i].first, b.entries_[i].first) ||
          !equal(a.entries_[i].second, b.entries_[i].second))
        return false;
    }
    return true;
  }

 private:
  template <class T>
  static bool equal(const T& a, const T& b) {
    if constexpr (std::is_same_v<T, Tensor>) {
      return a.is_same(b);
    } else {
      return a == b;
    }
  }
  std::vector<value_type> entries_;
};

}  // namespace schemac::core
