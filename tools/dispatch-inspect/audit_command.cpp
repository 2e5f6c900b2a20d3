// `dispatch-inspect audit`: the rules of lib/inspector/audit over the operators the loaded
// libraries registered (every operator when none is loaded), in the chosen runtime; exit 1 on
// findings.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <vector>

#include "commands.h"
#include "library_loader.h"
#include "runtime.h"
#include "schemac/audit/audit.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/inspect/names.h"
#include "schemac/inspect/operator_glob.h"
#include "schemac/inspect/render.h"
#include "schemac/support/version.h"

namespace schemac::inspect {
namespace {

struct AuditOptions {
  std::vector<std::string> libraries;
  std::string format = "text";
  std::string op;  // --op: an operator or a glob; "" audits them all
};

// Keeps the operators of `library` that `pattern` names (a name or a glob); false after saying
// why none is left.
bool keep_named(const std::string& pattern, report::Library& library) {
  std::vector<std::string> names;
  for (const report::OperatorState& op : library.operators) names.push_back(op.summary.name);
  report::OperatorLookup found = report::find_operators(pattern, names);
  std::cerr << found.error;
  if (found.names.empty()) return false;
  const std::vector<std::string>& kept = found.names;
  std::erase_if(library.operators, [&](const report::OperatorState& op) {
    return !std::binary_search(kept.begin(), kept.end(), op.summary.name);
  });
  return true;
}

// "FILE:LINE" as a location (line 0 when the site has no line number).
diagnostics::Location location_of(const std::string& site) {
  const size_t colon = site.rfind(':');
  uint32_t line = 0;
  if (colon != std::string::npos) {
    const char* end = site.data() + site.size();
    if (std::from_chars(site.data() + colon + 1, end, line).ptr == end && line > 0)
      return diagnostics::Location::at(site.substr(0, colon), line, 1);
  }
  return diagnostics::Location{site};
}

std::string audit_sarif(const std::vector<audit::Finding>& findings) {
  std::vector<diagnostics::RuleInfo> rules;
  for (const audit::AuditRule& rule : audit::audit_rules())
    rules.push_back({rule.rule.name(), rule.rule.def().severity, rule.rule.def().summary});
  std::vector<diagnostics::Diagnostic> diagnostics;
  for (const audit::Finding& f : findings) {
    diagnostics::Diagnostic d{f.rule.def().severity,
                              std::string(f.rule.name()),
                              location_of(f.site),
                              f.op + ": " + f.message,
                              {},
                              std::nullopt};
    d.notes.push_back({{}, "why: " + std::string(audit::audit_rule(f.rule).why)});
    diagnostics.push_back(std::move(d));
  }
  return diagnostics::render_sarif(diagnostics,
                                   {"dispatch-inspect", std::string(support::kVersion), "", rules});
}

int run_audit(const AuditOptions& o) {
  report::Request request;
  request.kind = "library";
  request.libraries = o.libraries;
  report::Response answer = ask(request);
  if (answer.status != cli::kExitOk) return answer.status;
  if (!o.op.empty() && !keep_named(o.op, answer.library)) return cli::kExitProblems;
  const std::vector<audit::Finding> findings = audit::audit_library(answer.library);
  const size_t operators = answer.library.operators.size();
  if (o.format == "json") {
    std::cout << with_answerer(report::json_text(audit::audit_json(findings, operators)) + "\n",
                               o.format);
  } else if (o.format == "sarif") {
    std::cout << audit_sarif(findings);
  } else {
    std::cout << with_answerer(audit::audit_text(findings, operators), o.format);
  }
  return findings.empty() ? cli::kExitOk : cli::kExitProblems;
}

}  // namespace

std::function<int()> bind_audit_command(CLI::App* sub) {
  auto options = std::make_shared<AuditOptions>();
  sub->add_option("--load", options->libraries, kLoadHelp)->allow_extra_args(false);
  cli::add_format_option(
      sub, options->format, {"text", "json", "sarif"},
      "text (one finding per line, with why it matters), json, or sarif (SARIF 2.1.0)");
  add_runtime_option(sub);
  sub->add_option("--op", options->op,
                  "audit only this operator, or the operators a glob matches ('myops::*')");
  return [options] { return run_audit(*options); };
}

}  // namespace schemac::inspect
