// The rules of `dispatch-inspect audit`, over the report model (report.h) alone, so that they
// judge libtorch's operators and ours alike. Each rule reads an operator's computed table (what a
// call would reach) or its registrations (what was registered where), never a runtime.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/inspect/report.h"

namespace schemac::inspect::report {

struct AuditRule {
  std::string_view id;
  std::string_view description;  // one line, lower-case: what the rule flags
  std::string_view why;          // one line, lower-case: why it matters
};

struct Finding {
  std::string_view rule;
  std::string op;
  std::string site;  // where the kernel (or the schema) at fault was registered, FILE:LINE, or ""
  std::string message;  // lower-case, no final period
};

// Every rule, in the order findings are listed for one operator.
std::span<const AuditRule> audit_rules();
const AuditRule& audit_rule(std::string_view id);

// The findings on one operator, and on a library (operator by operator, in its order).
std::vector<Finding> audit_operator(const OperatorState& op);
std::vector<Finding> audit_library(const Library& library);

}  // namespace schemac::inspect::report
