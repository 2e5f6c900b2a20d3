// CUDA device memory for tensors: an allocator registered with the runtime when this library is
// loaded, device selection and byte copies.
#include <string>

#include "cuda_check.cuh"
#include "launch.h"
#include "schemac/core/allocator.h"

namespace schemac::kernels::cuda {
namespace {

class CudaAllocator final : public core::Allocator {
 public:
  void* allocate(std::size_t nbytes, core::Device device) override {
    if (nbytes == 0) return nullptr;
    set_device(device.index() < 0 ? 0 : device.index());
    void* ptr = nullptr;
    const cudaError_t status = cudaMalloc(&ptr, nbytes);
    if (status != cudaSuccess) {
      cudaGetLastError();  // clear the sticky error state
      throw core::AllocationError("cannot allocate " + std::to_string(nbytes) + " bytes on " +
                                  device.to_string() + ": " + cudaGetErrorString(status));
    }
    return ptr;
  }
  void deallocate(void* ptr, core::Device) noexcept override {
    if (ptr != nullptr) cudaFree(ptr);
  }
  void copy_within(void* dst, const void* src, std::size_t nbytes, core::Device device) override {
    set_device(device.index() < 0 ? 0 : device.index());
    copy_bytes(dst, src, nbytes, CopyKind::DeviceToDevice);
  }
  std::string_view name() const override { return "cuda (cudaMalloc)"; }
};

CudaAllocator g_allocator;

// Registers the allocator when the library is loaded and takes it back when it is unloaded.
struct Registration {
  core::Allocator* previous;
  Registration() : previous(core::set_allocator(core::DeviceType::CUDA, &g_allocator)) {}
  ~Registration() { core::set_allocator(core::DeviceType::CUDA, previous); }
} g_registration;

}  // namespace

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

void set_device(int index) { check(cudaSetDevice(index), "selecting the CUDA device"); }

void copy_bytes(void* dst, const void* src, std::size_t nbytes, CopyKind kind) {
  if (nbytes == 0) return;
  const cudaMemcpyKind k = kind == CopyKind::HostToDevice   ? cudaMemcpyHostToDevice
                           : kind == CopyKind::DeviceToHost ? cudaMemcpyDeviceToHost
                                                            : cudaMemcpyDeviceToDevice;
  check(cudaMemcpy(dst, src, nbytes, k), "copy_");
}

DevicePlan to_device_plan(const LoopPlan& plan) {
  if (plan.shape.size() > static_cast<std::size_t>(kMaxDims))
    throw core::TensorError("a CUDA element-wise kernel takes at most " + std::to_string(kMaxDims) +
                            " dimensions after merging, got " + std::to_string(plan.shape.size()));
  DevicePlan out;
  out.ndim = static_cast<int>(plan.shape.size());
  out.nops = plan.num_operands;
  out.numel = plan.numel;
  for (int d = 0; d < out.ndim; ++d) {
    out.sizes[d] = plan.shape[d];
    for (int k = 0; k < out.nops; ++k) out.strides[d][k] = plan.strides[d][k];
  }
  for (int k = 0; k < out.nops; ++k) out.data[k] = plan.data[k];
  return out;
}

}  // namespace schemac::kernels::cuda

namespace schemac::kernels {
int cuda_device_count() { return cuda::device_count(); }
}  // namespace schemac::kernels
