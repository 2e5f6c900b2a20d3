// empty.memory_format on the CPU.
#include <fmt/format.h>

#include "schemac/kernels/native_functions.h"

namespace schemac::kernels {

Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> /*layout*/,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  if (device && !device->is_cpu())
    throw dispatch::TensorError(fmt::format("empty_cpu: asked for a tensor on {}", device->to_string()));
  if (pin_memory.value_or(false))
    throw dispatch::TensorError("empty_cpu: pinned memory is not supported");
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  if (format == MemoryFormat::Preserve)
    throw dispatch::TensorError("empty: preserve_format is not a valid memory format for a new tensor");
  return Tensor::empty(size, {dtype.value_or(ScalarType::Float), dispatch::kCPU}, format);
}

}  // namespace schemac::kernels
