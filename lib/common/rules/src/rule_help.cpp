// Each rule's help, from its line of the rule table (rule_help.h).
#include "schemac/rules/rule_help.h"

#include <string>

namespace schemac::rules {
namespace {

std::string_view severity_word(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: break;
  }
  return "note";
}

std::string release_name(Release release) {
  return std::to_string(release.major) + "." + std::to_string(release.minor);
}

}  // namespace

std::string_view family_reporter(Family family) {
  switch (family) {
    case Family::yaml: return "schemac lint (native-functions, backend and executorch YAML)";
    case Family::schema:
      return "schemac lint and schemac parse (function schemas, in YAML and registration code)";
    case Family::source: return "schemac lint (C++ and Python registration code)";
    case Family::lint_meta: return "schemac lint (suppression comments and .schemac.yaml)";
    case Family::gen: return "schemac gen";
    case Family::compat: return "schemac compat";
    case Family::parse: return "schemac parse --source";
    case Family::audit: return "dispatch-inspect audit (a built library's dispatch tables)";
  }
  return "schemac";
}

std::string severity_text(const RuleDef& rule) {
  const bool lint_profiles =
      rule.family == Family::yaml || rule.family == Family::schema || rule.family == Family::source;
  if (!lint_profiles) return std::string(severity_word(rule.severity));
  const Verdict in_tree = decide(rule, {Profile::in_tree, {}, false, {}});
  const Verdict extension = decide(rule, {Profile::extension, {}, false, {}});
  if (!extension.severity)
    return std::string(severity_word(*in_tree.severity)) + " (in-tree profile only)";
  if (!in_tree.severity)
    return std::string(severity_word(*extension.severity)) + " (extension profile only)";
  if (in_tree.severity == extension.severity) return std::string(severity_word(rule.severity));
  return std::string(severity_word(*in_tree.severity)) + " (in-tree), " +
         std::string(severity_word(*extension.severity)) + " (extension)";
}

std::string release_text(const ReleaseWindow& releases) {
  std::string out = releases.since ? release_name(*releases.since) + " and later" : "every release";
  if (releases.until) {
    out = (releases.since ? release_name(*releases.since) : std::string("every release")) +
          " up to " + release_name(*releases.until);
  }
  if (releases.error_until) out += "; an error up to " + release_name(*releases.error_until);
  return out;
}

std::string rule_help_text(const RuleDef& rule) {
  std::string out = std::string(rule.id) + ": " + std::string(rule.summary) + "\n";
  out += "  reported by: " + std::string(family_reporter(rule.family)) + "\n";
  out += "  severity: " + severity_text(rule) + "\n";
  if (rule.family == Family::yaml || rule.family == Family::schema)
    out += "  releases: " + release_text(rule.releases) + "\n";
  if (rule.subset_warning) out += "  in a vendor's subset of PyTorch's operators: a warning\n";
  if (rule.fixable) out += "  fix-it: some findings carry one (schemac lint --fix)\n";
  out += "  documented: docs/" + doc_anchor(rule) + "\n";
  return out;
}

std::string docs_page_url(std::string_view docs_url, std::string_view page) {
  if (docs_url.empty()) return "";
  return std::string(docs_url) + (docs_url.ends_with('/') ? "" : "/") + std::string(page);
}

std::string rule_help_uri(std::string_view docs_url, std::string_view id) {
  const RuleDef* rule = find_rule(id);
  if (docs_url.empty() || rule == nullptr) return "";
  return docs_page_url(docs_url, doc_page(rule->family)) + "#" + std::string(id);
}

}  // namespace schemac::rules
