// Memory for tensor storage, one allocator per device type. The CPU allocator (64-byte aligned)
// is built in; the CUDA allocator lives in the kernels library, which registers it when it is
// loaded, so this runtime needs no CUDA itself.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "schemac/core/device.h"

namespace schemac::core {

// Raised when memory cannot be had, or no allocator serves the device asked for.
class AllocationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Returns memory for `nbytes` bytes (nullptr for 0 bytes) on device `device`, or throws
  // AllocationError naming the device and the size.
  virtual void* allocate(std::size_t nbytes, Device device) = 0;
  // Gives back what allocate returned for the same device; nullptr is ignored.
  virtual void deallocate(void* ptr, Device device) noexcept = 0;
  // Copies `nbytes` bytes between two allocations of this allocator on `device`.
  virtual void copy_within(void* dst, const void* src, std::size_t nbytes, Device device) = 0;
  virtual std::string_view name() const = 0;
};

// The alignment of every CPU allocation, in bytes.
inline constexpr std::size_t kCpuAlignment = 64;

// Installs `allocator` for `type` and returns the one it replaces (nullptr if none). The caller
// keeps `allocator` alive while tensors allocated by it may exist. Thread-safe.
Allocator* set_allocator(DeviceType type, Allocator* allocator);
// The allocator for `type`, or nullptr when none is registered (e.g. CUDA without the kernels
// library). Thread-safe.
Allocator* get_allocator(DeviceType type);

// The built-in CPU allocator.
Allocator& cpu_allocator();

}  // namespace schemac::core
