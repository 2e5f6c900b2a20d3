// The block of storage a parsed FunctionSchema points into (see the top of model.h). Private to
// lib/schema: the parser fills one per schema, set_operator_name extends one.
//
// It is an arena: a monotonic buffer whose first part lives inside the object itself, so that a
// typical schema (its text, element types, aliases and defaults) costs one allocation in all,
// and a long one takes more memory from the heap as it goes. Nothing in it is ever freed piecemeal,
// which is why only trivially destructible objects go in.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <memory_resource>
#include <span>
#include <string_view>
#include <type_traits>

namespace schemac::schema {

class SchemaStorage {
 public:
  // `parent`: a storage this one extends, kept alive as long as this one is.
  explicit SchemaStorage(std::shared_ptr<const SchemaStorage> parent = nullptr)
      : parent_(std::move(parent)),
        arena_(initial_, sizeof(initial_), std::pmr::new_delete_resource()) {}
  SchemaStorage(const SchemaStorage&) = delete;
  SchemaStorage& operator=(const SchemaStorage&) = delete;

  // Room for `count` characters, to be written by the caller.
  char* allocate_chars(std::size_t count) {
    return static_cast<char*>(arena_.allocate(count == 0 ? 1 : count, 1));
  }
  std::string_view copy(std::string_view text) { return copy_padded(text, 0); }
  // A copy followed by `padding` NUL bytes (not part of the view), for scanners that read ahead.
  std::string_view copy_padded(std::string_view text, std::size_t padding) {
    char* chars = allocate_chars(text.size() + padding);
    if (!text.empty()) std::memcpy(chars, text.data(), text.size());
    std::memset(chars + text.size(), 0, padding);
    return {chars, text.size()};
  }
  template <typename T>
  const T* copy(const T& value) {
    static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);
    return new (arena_.allocate(sizeof(T), alignof(T))) T(value);
  }
  template <typename T>
  std::span<const T> copy(std::span<const T> values) {
    static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);
    if (values.empty()) return {};
    T* out = static_cast<T*>(arena_.allocate(values.size_bytes(), alignof(T)));
    std::memcpy(static_cast<void*>(out), values.data(), values.size_bytes());
    return {out, values.size()};
  }

 private:
  // Enough for the text and pieces of most schemas of PyTorch's corpus, while keeping the whole
  // object (with shared_ptr's control block) small enough for malloc's per-thread cache.
  static constexpr std::size_t kInitialBytes = 832;

  std::shared_ptr<const SchemaStorage> parent_;
  alignas(std::max_align_t) std::byte initial_[kInitialBytes];
  std::pmr::monotonic_buffer_resource arena_;
};

}  // namespace schemac::schema
