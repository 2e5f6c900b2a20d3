// The findings of `dispatch-inspect audit` in text and JSON (audit.h).
#include <fmt/format.h>

#include "schemac/audit/audit.h"

namespace schemac::audit {

using namespace inspect::report;

std::string audit_text(const std::vector<Finding>& findings, size_t operators) {
  std::string out;
  for (const Finding& f : findings) {
    out += fmt::format("{}{}: {}: {} [{}]\n", f.site.empty() ? "" : f.site + ": ", "warning", f.op,
                       f.message, f.rule.name());
    out += fmt::format("  why: {}\n", audit_rule(f.rule).why);
  }
  out += fmt::format("{} finding{} in {} operator{}\n", findings.size(),
                     findings.size() == 1 ? "" : "s", operators, operators == 1 ? "" : "s");
  return out;
}

Json audit_json(const std::vector<Finding>& findings, size_t operators) {
  Json list = Json::array();
  for (const Finding& f : findings)
    list.push_back(Json{{"rule", f.rule.name()},
                        {"operator", f.op},
                        {"site", f.site},
                        {"message", f.message},
                        {"why", audit_rule(f.rule).why}});
  return Json{{"operators", operators}, {"findings", std::move(list)}};
}

}  // namespace schemac::audit
