#include "registration_rules.h"

#include <algorithm>
#include <array>
#include <string_view>

#include <fmt/format.h>

#include "schemac/keys/dispatch_key_names.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/check.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::sources {
namespace {

using diagnostics::Diagnostic;
using diagnostics::Note;
using diagnostics::Severity;

// What torch.library.impl and register_kernel take besides the device types (schema's one list):
// impl's "default", for CompositeExplicitAutograd.
constexpr std::string_view kDefaultDeviceType = "default";

// The c10::DeviceType constants C++'s `m.impl("op", torch::kCUDA, fn)` takes, without the `k`.
constexpr auto kDeviceConstants = std::to_array<std::string_view>(
    {"CPU", "CUDA", "HIP", "FPGA", "ORT", "XLA", "MPS", "Meta", "Vulkan", "Metal", "XPU", "HPU",
     "VE", "Lazy", "IPU", "MTIA", "MAIA", "PrivateUse1"});

bool is_device_type(std::string_view name) {
  const std::span<const std::string_view> types = schema::device_type_names();
  return name == kDefaultDeviceType || std::find(types.begin(), types.end(), name) != types.end();
}

// A C++ device constant: written `k` + name.
bool is_device_constant(const KeyUse& key) {
  return !key.written.empty() && key.written.size() == key.name.size() + 1 &&
         key.written[0] == 'k' && std::string_view(key.written).substr(1) == key.name;
}

bool known(const KeyUse& key) {
  if (is_device_constant(key)) {
    return std::find(kDeviceConstants.begin(), kDeviceConstants.end(), key.name) !=
           kDeviceConstants.end();
  }
  return keys::find_dispatch_key(key.name) || (key.device_type && is_device_type(key.name));
}

std::string suggestion(const KeyUse& key) {
  std::vector<std::string_view> names;
  if (is_device_constant(key)) {
    names.assign(kDeviceConstants.begin(), kDeviceConstants.end());
    std::vector<std::string> best = support::closest_names(key.name, names, 2);
    return best.empty() ? "" : best.front();
  }
  if (key.device_type) {
    names.assign(schema::device_type_names().begin(), schema::device_type_names().end());
    names.push_back(kDefaultDeviceType);
  }
  for (const keys::DispatchKeyName& known : keys::dispatch_key_names()) {
    names.push_back(known.name);
  }
  std::vector<std::string> best = support::closest_names(key.name, names, 2);
  return best.empty() ? "" : best.front();
}

}  // namespace

void check_keys(const std::string& path, const ScanResult& scan, std::vector<Diagnostic>& out) {
  for (const KeyUse& key : scan.keys) {
    if (known(key)) continue;
    bool constant = is_device_constant(key);
    Diagnostic diagnostic;
    diagnostic.rule = rules::unknown_dispatch_key;
    auto length = static_cast<uint32_t>(key.written.empty() ? key.name.size() : key.written.size());
    diagnostic.location =
        diagnostics::Location::at(path, key.position.line, key.position.column, length);
    diagnostic.message =
        constant ? fmt::format("'{}' is not a device type constant (kCPU, kCUDA, ...)", key.written)
        : key.device_type
            ? fmt::format("'{}' is neither a device type (cpu, cuda, ...) nor a dispatch key",
                          key.name)
            : fmt::format("'{}' is not a dispatch key", key.name);
    std::string closest = suggestion(key);
    if (constant && !closest.empty()) closest = "k" + closest;
    if (!closest.empty()) {
      diagnostic.message += fmt::format("; did you mean '{}'?", closest);
      // Only where the name is written as it is: the fix replaces exactly those bytes.
      if (!key.written.empty()) diagnostic.fix = diagnostics::FixHint{diagnostic.location, closest};
    }
    out.push_back(std::move(diagnostic));
  }
}

}  // namespace schemac::sources
