#include "schemac/core/storage.h"

#include <algorithm>

#include <fmt/format.h>

namespace schemac::core {

Storage::Impl::~Impl() {
  if (allocator != nullptr) {
    allocator->deallocate(data, device);
  } else if (deleter) {
    deleter(data);
  }
}

Storage Storage::allocate(std::size_t nbytes, Device device) {
  Allocator* allocator = get_allocator(device.type());
  if (allocator == nullptr)
    throw AllocationError(fmt::format(
        "no allocator is registered for device '{}' (is the kernels library with CUDA loaded?)",
        device.to_string()));
  auto impl = std::make_shared<Impl>();
  impl->device = device;
  impl->allocator = allocator;
  impl->data = allocator->allocate(nbytes, device);
  impl->nbytes = nbytes;
  return Storage(std::move(impl));
}

Storage Storage::from_external(void* data, std::size_t nbytes, Device device,
                               std::function<void(void*)> deleter) {
  auto impl = std::make_shared<Impl>();
  impl->data = data;
  impl->nbytes = nbytes;
  impl->device = device;
  impl->deleter = std::move(deleter);
  return Storage(std::move(impl));
}

void Storage::resize(std::size_t nbytes) {
  if (!impl_) throw AllocationError("cannot resize an undefined storage");
  if (nbytes == impl_->nbytes) return;
  if (impl_->allocator == nullptr)
    throw AllocationError(
        fmt::format("cannot resize external storage of {} bytes on {} to {} bytes", impl_->nbytes,
                    impl_->device.to_string(), nbytes));
  Allocator* allocator = impl_->allocator;
  void* fresh = allocator->allocate(nbytes, impl_->device);
  try {
    allocator->copy_within(fresh, impl_->data, std::min(nbytes, impl_->nbytes), impl_->device);
  } catch (...) {
    allocator->deallocate(fresh, impl_->device);
    throw;
  }
  allocator->deallocate(impl_->data, impl_->device);
  impl_->data = fresh;
  impl_->nbytes = nbytes;
}

}  // namespace schemac::core
