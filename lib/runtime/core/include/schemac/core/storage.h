// The memory under tensors: one allocation on one device, shared by every tensor that views it.
// Storage is a refcounted handle; copying it shares the memory.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "schemac/core/allocator.h"
#include "schemac/core/device.h"

namespace schemac::core {

class Storage {
 public:
  // An undefined storage (no memory).
  Storage() = default;

  // `nbytes` bytes from the allocator registered for `device`'s type; throws AllocationError.
  static Storage allocate(std::size_t nbytes, Device device);
  // Memory owned elsewhere: `deleter(data)` runs when the last handle goes (if it is set).
  static Storage from_external(void* data, std::size_t nbytes, Device device,
                               std::function<void(void*)> deleter);

  bool defined() const { return impl_ != nullptr; }
  void* data() const { return impl_ ? impl_->data : nullptr; }
  std::size_t nbytes() const { return impl_ ? impl_->nbytes : 0; }
  Device device() const { return impl_ ? impl_->device : Device(); }
  long use_count() const { return impl_.use_count(); }
  bool is_same(const Storage& other) const { return impl_ == other.impl_; }

  // Grows (or shrinks) the allocation to `nbytes`, keeping the first min(old, new) bytes; every
  // handle sees the new memory. Throws AllocationError; external storage cannot be resized.
  void resize(std::size_t nbytes);

 private:
  struct Impl {
    void* data = nullptr;
    std::size_t nbytes = 0;
    Device device;
    Allocator* allocator = nullptr;      // null for external memory
    std::function<void(void*)> deleter;  // for external memory
    Impl() = default;
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    ~Impl();
  };
  explicit Storage(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

}  // namespace schemac::core
