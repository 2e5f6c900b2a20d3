// A bump allocator whose first block lives inside the object itself: a small load costs no heap
// allocation at all, a larger one takes blocks from the heap (each twice as large as the last) as
// it goes. Nothing is freed piecemeal; every block goes when the arena does, which is why only
// trivially destructible objects belong in one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>

namespace schemac::support {

template <std::size_t kInitialBytes>
class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    while (blocks_) {
      Block* next = blocks_->next;
      ::operator delete(blocks_);
      blocks_ = next;
    }
  }

  // Room for `count` characters, to be written by the caller.
  char* allocate_chars(std::size_t count) {
    return static_cast<char*>(allocate(count == 0 ? 1 : count, 1));
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
    return new (allocate(sizeof(T), alignof(T))) T(value);
  }
  template <typename T>
  std::span<const T> copy(std::span<const T> values) {
    static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);
    if (values.empty()) return {};
    T* out = static_cast<T*>(allocate(values.size_bytes(), alignof(T)));
    std::memcpy(static_cast<void*>(out), values.data(), values.size_bytes());
    return {out, values.size()};
  }

 private:
  // A block taken from the heap when the room left is too small.
  struct Block {
    Block* next;
    std::size_t size;
  };

  // `size` bytes aligned to `align` (a power of two no larger than max_align_t's): bumps a pointer.
  void* allocate(std::size_t size, std::size_t align) {
    const std::uintptr_t at = (next_ + align - 1) & ~(std::uintptr_t{align} - 1);
    if (at + size > end_) return allocate_block(size, align);
    next_ = at + size;
    return reinterpret_cast<void*>(at);
  }
  // Room for at least `size` bytes in a new block, twice as large as the last one.
  [[gnu::noinline]] void* allocate_block(std::size_t size, std::size_t align) {
    const std::size_t bytes = std::max(2 * (blocks_ ? blocks_->size : kInitialBytes), size + align);
    auto* block = static_cast<Block*>(::operator new(sizeof(Block) + bytes));
    block->next = blocks_;
    block->size = bytes;
    blocks_ = block;
    next_ = reinterpret_cast<std::uintptr_t>(block + 1);
    end_ = next_ + bytes;
    return allocate(size, align);
  }

  Block* blocks_ = nullptr;
  alignas(std::max_align_t) std::byte initial_[kInitialBytes];
  std::uintptr_t next_ = reinterpret_cast<std::uintptr_t>(initial_);
  std::uintptr_t end_ = reinterpret_cast<std::uintptr_t>(initial_) + kInitialBytes;
};

}  // namespace schemac::support
