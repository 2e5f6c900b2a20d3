// `schemac lsp [--docs-url URL]`: a Language Server Protocol server on stdin/stdout (lib/lsp),
// with each document's .schemac.yaml (tools/cli/config_files.h) and suppression comments applied.
// Nothing but protocol messages goes to stdout. Exit 0 after a shutdown request and an exit
// notification, 1 when the client exits without shutting down or the input ends.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli.h"
#include "commands.h"
#include "config_files.h"
#include "report.h"
#include "rule_help.h"
#include "schemac/diagnostics/suppressions.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/lsp/server.h"
#include "schemac/sources/lint.h"
#include "schemac/support/version.h"

namespace schemac::tool {
namespace {

struct LspOptions {
  std::string docs_url;   // --docs-url; else each document's config's docs-url; else no links
  std::string rule_docs;  // --rule-docs (older): one page's URL, a rule's link is URL#rule-id
};

// The rules a .schemac.yaml may name, as for `schemac lint`.
std::vector<diagnostics::RuleInfo> known_rules() {
  std::vector<diagnostics::RuleInfo> rules(lint::lint_rule_catalog().begin(),
                                           lint::lint_rule_catalog().end());
  for (const diagnostics::RuleInfo& rule : sources::source_rule_catalog()) rules.push_back(rule);
  rules.push_back(diagnostics::unused_suppression_rule());
  return rules;
}

int run_lsp(const LspOptions& options) {
  std::ios::sync_with_stdio(false);
  lsp::ServerOptions server;
  server.analysis.rule_docs = options.rule_docs;
  // Each document's nearest .schemac.yaml, read once (an edited config applies after a restart).
  auto configs = std::make_shared<cli::ConfigFiles>("", known_rules());
  server.analysis.config_for = [configs](const std::string& path) {
    std::vector<diagnostics::Diagnostic> problems;  // a bad config is `schemac lint`'s to report
    return configs->for_input(path, problems);
  };
  // A rule's link: its entry in the published docs (--docs-url, else each document's
  // `docs-url:`), or none: never a path of the machine that built schemac. Every rule the server
  // reports has its entry in lint-rules.md.
  if (server.analysis.rule_docs.empty())
    server.analysis.rule_docs = docs_page_url(options.docs_url, "lint-rules.md");
  server.version = std::string(support::kVersion);
  return lsp::serve(std::cin, std::cout, std::move(server));
}

}  // namespace

std::function<int()> bind_lsp_command(CLI::App* cmd) {
  auto options = std::make_shared<LspOptions>();
  cmd->add_option("--docs-url", options->docs_url, kDocsUrlHelp);
  cmd->add_option("--rule-docs", options->rule_docs,
                  "older form: the URL of a published docs/lint-rules.md; a diagnostic's link is "
                  "URL#rule-id");
  return [options] {
    if (!checked_docs_url("schemac lsp", options->docs_url) ||
        !checked_docs_url("schemac lsp", options->rule_docs))
      return cli::kExitUsage;
    return run_lsp(*options);
  };
}

}  // namespace schemac::tool
