// Where a tensor's memory lives: a device type (cpu, cuda) and an index ("cuda:1").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace schemac::core {

enum class DeviceType : int8_t { CPU, CUDA };
inline constexpr int kNumDeviceTypes = 2;

std::string_view to_string(DeviceType t);  // "cpu", "cuda"

class Device {
 public:
  // A CPU device has index -1 (there is one); a CUDA device without an index means "the current
  // device", which this runtime takes to be device 0.
  constexpr Device() = default;
  constexpr explicit Device(DeviceType type, int16_t index = -1) : type_(type), index_(index) {}

  // Parses "cpu", "cuda", "cuda:N" (N a non-negative decimal); nullopt for anything else.
  static std::optional<Device> parse(std::string_view text);

  constexpr DeviceType type() const { return type_; }
  constexpr int16_t index() const { return index_; }
  constexpr bool has_index() const { return index_ >= 0; }
  constexpr bool is_cpu() const { return type_ == DeviceType::CPU; }
  constexpr bool is_cuda() const { return type_ == DeviceType::CUDA; }

  // "cpu", "cuda", "cuda:0".
  std::string to_string() const;

  friend constexpr bool operator==(Device a, Device b) {
    return a.type_ == b.type_ && a.index_ == b.index_;
  }

 private:
  DeviceType type_ = DeviceType::CPU;
  int16_t index_ = -1;
};

inline constexpr Device kCPU{DeviceType::CPU};

}  // namespace schemac::core

template <>
struct std::hash<schemac::core::Device> {
  std::size_t operator()(schemac::core::Device d) const noexcept {
    return (static_cast<std::size_t>(d.type()) << 16) ^ static_cast<uint16_t>(d.index());
  }
};
