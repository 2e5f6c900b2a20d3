// `schemac lsp [--rule-docs URL]`: a Language Server Protocol server on stdin/stdout (lib/lsp),
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
#include "schemac/diagnostics/suppressions.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/lsp/server.h"
#include "schemac/sources/lint.h"
#include "schemac/support/version.h"

namespace schemac::tool {
namespace {

struct LspOptions {
  std::string rule_docs = SCHEMAC_RULE_DOCS;
};

// The rules a .schemac.yaml may name, as for `schemac lint`.
std::vector<diagnostics::RuleInfo> known_rules() { return lint::lint_run_rules(); }

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
  server.version = std::string(support::kVersion);
  return lsp::serve(std::cin, std::cout, std::move(server));
}

}  // namespace

std::function<int()> bind_lsp_command(CLI::App* cmd) {
  auto options = std::make_shared<LspOptions>();
  cmd->add_option("--rule-docs", options->rule_docs,
                  "the URL of the rule documentation (docs/lint-rules.md); a diagnostic's link is "
                  "URL#rule-id")
      ->capture_default_str();
  return [options] { return run_lsp(*options); };
}

}  // namespace schemac::tool
