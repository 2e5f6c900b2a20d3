// The dispatch part of compat: an operator must keep a kernel for every backend it had one for.
// A composite alias key (or, in a native-functions file, no dispatch section at all, which means
// CompositeImplicitAutograd) covers every backend; otherwise the listed keys are the backends
// covered (registration code without an m.impl: none). An entry with a
// structured_delegate and no dispatch section has the kernels of its delegate.
#include <algorithm>

#include <fmt/format.h>

#include "compat_internal.h"
#include "schemac/keys/dispatch_key_names.h"
#include "schemac/rules/rules.h"

namespace schemac::compat {
namespace {

struct CoveredKey {
  std::string name;  // the canonical key (synonyms resolved)
  const native_functions::DispatchEntry* entry = nullptr;
};

struct Coverage {
  bool known = true;  // false when the file does not say (manual registration, no delegate)
  bool every_backend = false;
  std::string every_backend_because;  // "CompositeExplicitAutograd", ...
  diagnostics::Location every_backend_location;
  std::vector<CoveredKey> keys;  // when not every backend
};

// The delegate's kernels plus the entry's own (add.Tensor delegates the dense backends to
// add.out and lists its sparse kernels itself).
Coverage coverage_of(const Side& side, const native_functions::NativeFunction& function,
                     bool follow_delegate = true) {
  Coverage coverage;
  if (function.structured_delegate) {
    auto it = side.operators->find(function.structured_delegate->name);
    if (!follow_delegate || it == side.operators->end()) {
      coverage.known = false;
      return coverage;
    }
    coverage = coverage_of(side, *it->second, false);
  } else if (!function.has_dispatch) {
    if (side.kernels_listed) return coverage;  // registration code without m.impl: no kernel
    if (function.manual_kernel_registration) {
      coverage.known = false;
      return coverage;
    }
    coverage.every_backend = true;
    coverage.every_backend_because = "no dispatch section (CompositeImplicitAutograd)";
    coverage.every_backend_location = function.location;
    return coverage;
  }
  for (const native_functions::DispatchEntry& entry : function.dispatch) {
    std::string name = entry.key.name;
    const keys::DispatchKeyName* known = keys::find_dispatch_key(name);
    if (known && known->kind == keys::DispatchKeyKind::synonym) {
      name = known->same_as.empty() ? std::string("CompositeImplicitAutograd")
                                    : std::string(known->same_as);
    }
    if (keys::is_every_backend_composite_key(name)) {
      if (!coverage.every_backend) {
        coverage.every_backend = true;
        coverage.every_backend_because = entry.key.name;
        coverage.every_backend_location = entry.key.location;
      }
      continue;
    }
    coverage.keys.push_back(CoveredKey{std::move(name), &entry});
  }
  return coverage;
}

std::string key_list(const Coverage& coverage) {
  if (coverage.keys.empty()) return "no backend";
  std::string out;
  for (const CoveredKey& key : coverage.keys) {
    if (!out.empty()) out += ", ";
    out += key.name;
  }
  return out;
}

}  // namespace

void compare_dispatch(const Side& old_side, const Side& new_side, Findings& findings) {
  Coverage old_coverage = coverage_of(old_side, *old_side.function);
  Coverage new_coverage = coverage_of(new_side, *new_side.function);
  if (!old_coverage.known || !new_coverage.known || new_coverage.every_backend) return;
  const std::string op = old_side.schema().op.full();
  diagnostics::Location where = new_side.file->field_location(*new_side.function, "dispatch");
  if (old_coverage.every_backend) {
    findings.report(
        rules::removed_backend, op, where,
        fmt::format("'{}' no longer has a kernel for every backend: NEW dispatches only to {}", op,
                    key_list(new_coverage)),
        old_coverage.every_backend_location,
        fmt::format("OLD covers every backend through {}", old_coverage.every_backend_because));
    return;
  }
  for (const CoveredKey& key : old_coverage.keys) {
    bool kept = std::any_of(new_coverage.keys.begin(), new_coverage.keys.end(),
                            [&](const CoveredKey& k) { return k.name == key.name; });
    if (kept) continue;
    findings.report(
        rules::removed_backend, op, where,
        fmt::format("'{}' no longer has a kernel for backend '{}'", op, key.name),
        key.entry->key.location,
        fmt::format("OLD registers '{}' for {} here", key.entry->kernel.name, key.name));
  }
}

}  // namespace schemac::compat
