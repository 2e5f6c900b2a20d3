// What each rule is, for `schemac help RULE`, SARIF's rule help, `--list-rules --format json` and
// any other front end that shows a rule: all of it read from the rule table (rule_table.h) — its
// summary, its severity in each profile, the releases that have it, who reports it, whether it
// has fix-its and where it is documented — and where a published copy of the documentation has
// it (a --docs-url / `docs-url:` base URL + the rule's page + '#' + id). The documentation pages
// are checked against the table (tests/rules); the program never reads them. No path of the
// machine that built schemac appears in anything these return.
#pragma once

#include <string>
#include <string_view>

#include "schemac/rules/rules.h"

namespace schemac::rules {

// Who reports the rules of `family`: "schemac lint (YAML files)", "schemac compat", ...
std::string_view family_reporter(Family family);

// The rule's severity in each profile, or the one severity of a rule outside lint's profiles:
// "error (in-tree), warning (extension)", "warning", "error (in-tree only)".
std::string severity_text(const RuleDef& rule);

// The releases whose torchgen has the rule: "every release", "1.13 and later", "1.13 and later;
// an error up to 2.9".
std::string release_text(const ReleaseWindow& releases);

// What `schemac help RULE` prints: "ID: SUMMARY" then one indented line each for who reports it,
// its severity, its releases (lint's YAML and schema rules), its fix-its and its documentation
// anchor ("docs/lint-rules.md#ID"). Ends with a newline.
std::string rule_help_text(const RuleDef& rule);

// `docs_url` (a base URL; a '/' is added when missing) + `page`; empty when `docs_url` is.
std::string docs_page_url(std::string_view docs_url, std::string_view page);

// `docs_url` + the page of the rule's family + '#' + id (rules.h's doc_anchor); empty when
// `docs_url` is empty or `id` names no rule.
std::string rule_help_uri(std::string_view docs_url, std::string_view id);

}  // namespace schemac::rules
