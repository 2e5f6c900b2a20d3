// The one decision of a finding's severity (rules.h, `decide`).
#include "schemac/rules/rules.h"

namespace schemac::rules {

Verdict decide(const RuleDef& rule, const Circumstances& c) {
  Verdict v{rule.severity, Because::rule};
  // The profile: in it or not, and its severity there.
  if (c.profile == Profile::extension) {
    if (!rule.profiles.extension) return {std::nullopt, Because::profile};
    if (rule.profiles.extension_severity && *rule.profiles.extension_severity != v.severity)
      v = {rule.profiles.extension_severity, Because::profile};
  } else if (!rule.profiles.in_tree) {
    return {std::nullopt, Because::profile};
  }
  // The release: whether its torchgen has the rule, and whether it is an error there.
  if (c.release) {
    if (!rule.releases.contains(*c.release)) return {std::nullopt, Because::release};
    if (rule.releases.error_until && *c.release <= *rule.releases.error_until &&
        v.severity != Severity::error)
      v = {Severity::error, Because::release};
  }
  // A vendor's subset file: torchgen reads it with its grouping workarounds.
  if (c.vendor_subset && rule.subset_warning && v.severity == Severity::error)
    v = {Severity::warning, Because::vendor_subset};
  // The configuration has the last word.
  if (c.configured && *c.configured != v.severity) v = {c.configured, Because::configured};
  return v;
}

}  // namespace schemac::rules
