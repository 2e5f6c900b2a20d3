#include "registration_rules.h"

#include <algorithm>
#include <array>
#include <string_view>

#include <fmt/format.h>

#include "schemac/keys/dispatch_key_names.h"
#include "schemac/rules/rules.h"
#include "schemac/sources/lint.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::sources {
namespace {

using diagnostics::Diagnostic;
using diagnostics::Note;
using diagnostics::Severity;

// The device types torch.library.impl and register_kernel take (c10::DeviceType's names, and
// impl's "default" for CompositeExplicitAutograd).
constexpr auto kDeviceTypes = std::to_array<std::string_view>(
    {"cpu",  "cuda", "mkldnn", "opengl",        "opencl", "ideep",  "hip", "ve",
     "fpga", "maia", "xla",    "lazy",          "vulkan", "metal",  "xpu", "mps",
     "meta", "hpu",  "mtia",   "privateuseone", "ipu",    "default"});

bool is_device_type(std::string_view name) {
  return std::find(kDeviceTypes.begin(), kDeviceTypes.end(), name) != kDeviceTypes.end();
}

std::string suggestion(const KeyUse& key) {
  std::vector<std::string_view> names;
  if (key.device_type) names.assign(kDeviceTypes.begin(), kDeviceTypes.end());
  for (const keys::DispatchKeyName& known : keys::dispatch_key_names()) {
    names.push_back(known.name);
  }
  std::vector<std::string> best = support::closest_names(key.name, names, 2);
  return best.empty() ? "" : best.front();
}

}  // namespace

void check_keys(const std::string& path, const ScanResult& scan, std::vector<Diagnostic>& out) {
  for (const KeyUse& key : scan.keys) {
    if (keys::find_dispatch_key(key.name) || (key.device_type && is_device_type(key.name))) {
      continue;
    }
    Diagnostic diagnostic;
    diagnostic.rule = rules::unknown_dispatch_key;
    diagnostic.location = diagnostics::Location::at(path, key.position.line, key.position.column,
                                                    static_cast<uint32_t>(key.name.size()));
    diagnostic.message =
        key.device_type
            ? fmt::format("'{}' is neither a device type (cpu, cuda, ...) nor a dispatch key",
                          key.name)
            : fmt::format("'{}' is not a dispatch key", key.name);
    std::string closest = suggestion(key);
    if (!closest.empty()) diagnostic.message += fmt::format("; did you mean '{}'?", closest);
    out.push_back(std::move(diagnostic));
  }
}

}  // namespace schemac::sources
