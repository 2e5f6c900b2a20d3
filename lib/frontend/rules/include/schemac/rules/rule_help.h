// What each rule's documentation says, for `schemac help RULE`, SARIF's rule help and any other
// front end that shows a rule: the rule's row in the rule tables of docs/lint-rules.md,
// docs/sources.md and docs/compat.md (embedded at build time by
// lib/frontend/rules/embed_docs.cmake, so a program needs no docs folder), and where a published
// copy of those pages has it (a --docs-url / `docs-url:` base URL + page + '#' + id). No path of
// the machine that built schemac appears in anything these return.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::rules {

struct RuleDocPage {
  std::string_view name;  // "lint-rules.md"
  std::string_view text;
};
// The embedded pages (generated: rule_doc_pages.cpp in lib/frontend/rules' build folder).
std::span<const RuleDocPage> rule_doc_pages();

struct RuleHelp {
  std::string id;
  std::string page;     // the page whose table has the rule, e.g. "lint-rules.md"
  std::string section;  // the heading above the table
  std::string text;     // what `schemac help RULE` prints: the row's columns, one per line
};

// The documentation of `id`, or nothing when no table documents it.
std::optional<RuleHelp> find_rule_help(std::string_view id);

// Every rule id the tables document, sorted, for did-you-mean.
std::vector<std::string> documented_rule_ids();

// `docs_url` (a base URL; a '/' is added when missing) + `page`; empty when `docs_url` is.
std::string docs_page_url(std::string_view docs_url, std::string_view page);

// `docs_url` (a base URL; a '/' is added when missing) + the rule's page + '#' + id; the page is
// lint-rules.md for a rule no table documents. Empty when `docs_url` is.
std::string rule_help_uri(std::string_view docs_url, std::string_view id);

}  // namespace schemac::rules
