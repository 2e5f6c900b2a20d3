// empty.memory_format on the CPU.
#include <fmt/format.h>

#include "schemac/kernels/native_functions.h"

namespace schemac::kernels {

using core::MemoryFormat, core::ScalarType, core::Tensor;

Tensor empty_cpu(core::IntArrayRef size, std::optional<ScalarType> dtype,
                 std::optional<core::Layout> /*layout*/, std::optional<core::Device> device,
                 std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  if (device && !device->is_cpu())
    throw core::TensorError(
        fmt::format("empty_cpu: asked for a tensor on {}", device->to_string()));
  if (pin_memory.value_or(false))
    throw core::TensorError("empty_cpu: pinned memory is not supported");
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  if (format == MemoryFormat::Preserve)
    throw core::TensorError("empty: preserve_format is not a valid memory format for a new tensor");
  return Tensor::empty(size, {dtype.value_or(ScalarType::Float), core::kCPU}, format);
}

}  // namespace schemac::kernels
