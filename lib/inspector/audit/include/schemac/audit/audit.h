// The rules of `dispatch-inspect audit`, over lib/inspector/inspect's report model (report.h)
// alone, so that they judge every runtime's operators alike. Each rule reads an operator's computed
// table (what a call would reach) or its registrations (what was registered where), never a
// runtime. Their findings in text and JSON are here too (the SARIF form is the tool's).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "schemac/inspect/report.h"

namespace schemac::audit {

using inspect::report::Library;
using inspect::report::OperatorState;

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

// The findings over `operators` operators. Text: "SITE: warning: OPERATOR: MESSAGE [RULE]" and
// an indented "why:" line per finding, then a count. JSON: {"operators": N, "findings":
// [{"rule","operator","site","message","why"}]}.
std::string audit_text(const std::vector<Finding>& findings, size_t operators);
nlohmann::ordered_json audit_json(const std::vector<Finding>& findings, size_t operators);

}  // namespace schemac::audit
