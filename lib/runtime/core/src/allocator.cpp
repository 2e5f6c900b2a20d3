#include "schemac/core/allocator.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace schemac::core {
namespace {

class CpuAllocator final : public Allocator {
 public:
  void* allocate(std::size_t nbytes, Device device) override {
    if (nbytes == 0) return nullptr;
    // aligned_alloc wants a multiple of the alignment.
    const std::size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    if (rounded < nbytes)
      throw AllocationError(
          fmt::format("cannot allocate {} bytes on {}", nbytes, device.to_string()));
    void* ptr = std::aligned_alloc(kCpuAlignment, rounded);
    if (ptr == nullptr)
      throw AllocationError(
          fmt::format("out of memory: cannot allocate {} bytes on {}", nbytes, device.to_string()));
    return ptr;
  }
  void deallocate(void* ptr, Device) noexcept override { std::free(ptr); }
  void copy_within(void* dst, const void* src, std::size_t nbytes, Device) override {
    if (nbytes != 0) std::memcpy(dst, src, nbytes);
  }
  std::string_view name() const override { return "cpu (64-byte aligned)"; }
};

std::array<std::atomic<Allocator*>, kNumDeviceTypes>& allocators() {
  static std::array<std::atomic<Allocator*>, kNumDeviceTypes> table{&cpu_allocator(), nullptr};
  return table;
}

}  // namespace

Allocator& cpu_allocator() {
  static CpuAllocator allocator;
  return allocator;
}

Allocator* set_allocator(DeviceType type, Allocator* allocator) {
  return allocators()[static_cast<std::size_t>(type)].exchange(allocator);
}

Allocator* get_allocator(DeviceType type) {
  return allocators()[static_cast<std::size_t>(type)].load(std::memory_order_acquire);
}

}  // namespace schemac::core
