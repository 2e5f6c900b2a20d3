#include "schemac/core/device.h"

#include <charconv>

#include <fmt/format.h>

namespace schemac::core {

std::string_view to_string(DeviceType t) { return t == DeviceType::CUDA ? "cuda" : "cpu"; }

std::optional<Device> Device::parse(std::string_view text) {
  if (text == "cpu") return Device(DeviceType::CPU);
  if (text == "cuda") return Device(DeviceType::CUDA);
  constexpr std::string_view kCudaPrefix = "cuda:";
  if (!text.starts_with(kCudaPrefix)) return std::nullopt;
  const std::string_view digits = text.substr(kCudaPrefix.size());
  if (digits.empty() || digits.size() > 4) return std::nullopt;
  int index = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size() || index < 0) return std::nullopt;
  if (digits.size() > 1 && digits.front() == '0') return std::nullopt;  // no leading zeros
  return Device(DeviceType::CUDA, static_cast<int16_t>(index));
}

std::string Device::to_string() const {
  if (!has_index() || is_cpu()) return std::string(core::to_string(type_));
  return fmt::format("{}:{}", core::to_string(type_), index_);
}

}  // namespace schemac::core
