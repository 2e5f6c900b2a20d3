// The rules of `dispatch-inspect audit`, over the report model (report.h) alone, so that they
// judge libtorch's operators and ours alike. Each rule reads an operator's computed table (what a
// call would reach) or its registrations (what was registered where), never a runtime.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/inspect/render.h"
#include "schemac/inspect/report.h"
#include "schemac/rules/rules.h"

namespace schemac::audit {

using inspect::report::Json;
using inspect::report::Library;
using inspect::report::OperatorState;

// A rule of the registry's audit family (lib/common/rules: its id, severity and summary, what it
// flags), and why it matters.
struct AuditRule {
  rules::Rule rule;
  std::string_view why;  // one line, lower-case
};

struct Finding {
  rules::Rule rule;
  std::string op;
  std::string site;  // where the kernel (or the schema) at fault was registered, FILE:LINE, or ""
  std::string message;  // lower-case, no final period
};

// Every rule, in the order findings are listed for one operator.
std::span<const AuditRule> audit_rules();
const AuditRule& audit_rule(rules::Rule rule);

// The findings on one operator, and on a library (operator by operator, in its order).
std::vector<Finding> audit_operator(const OperatorState& op);
std::vector<Finding> audit_library(const Library& library);

// An empty (or ambiguous) entry of an operator's table that a call the operator needs would
// reach, so that the call fails there: the key, and why. A backend with no kernel at all is no
// such entry (the operator is not built for it: a call with its tensors fails, as it should).
// Needed: the Autograd key of a backend that has a kernel (a tensor of it reaches the Autograd key
// first), Meta when a backend has a kernel (meta tensors, FakeTensor and torch.compile), and any
// ambiguous entry. The same judgements as the autograd-fallthrough, missing-meta and
// ambiguous-kernel rules, for the entries that fail rather than fall through.
struct FailingEntry {
  std::string key;
  std::string why;
};
std::vector<FailingEntry> failing_entries(const OperatorState& op);

// The findings of `audit` over `operators` operators. Text: "SITE: warning: OPERATOR: MESSAGE
// [RULE]" and an indented "why:" line per finding, then a count. JSON: {"operators": N, "findings":
// [{"rule","operator","site","message","why"}]}.
std::string audit_text(const std::vector<Finding>& findings, size_t operators);
Json audit_json(const std::vector<Finding>& findings, size_t operators);

}  // namespace schemac::audit
