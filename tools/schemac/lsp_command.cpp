// `schemac lsp [--stdio] [--debounce MS] [--docs-url URL]`: a Language Server Protocol server on
// stdin/stdout (lib/frontend/lsp), with each document's .schemac.yaml
// (lib/frontend/config/provider.h, through the lint engine) and suppression comments applied.
// `--stdio` (what VS Code's client and others pass) names the one transport there is;
// `--clientProcessId` is accepted and ignored. Nothing but protocol messages goes to stdout. Exit 0
// after a shutdown request and an exit notification, 1 when the client exits without shutting down
// or the input ends.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli.h"
#include "commands.h"
#include "schemac/engine/documents.h"
#include "schemac/lsp/server.h"
#include "schemac/support/version.h"
#include "shared_options.h"

namespace schemac::tool {
namespace {

struct LspOptions {
  std::string docs_url;   // --docs-url; else each document's config's docs-url; else no links
  std::string rule_docs;  // --rule-docs (older): one page's URL, a rule's link is URL#rule-id
  bool stdio = false;     // the only transport: accepted for the clients that pass it
  std::string client_process_id;
  int debounce_ms = 15;
};

int run_lsp(const LspOptions& options) {
  std::ios::sync_with_stdio(false);
  lsp::ServerOptions server;
  server.analysis.rule_docs = options.rule_docs;
  server.analysis.docs_url = options.docs_url;
  // Each document's nearest .schemac.yaml, read again when it changes on disk.
  server.analysis.configs = std::make_shared<config::ConfigProvider>(engine::config_provider());
  server.analysis.project_context = true;
  server.version = std::string(support::kVersion);
  server.debounce = std::chrono::milliseconds(options.debounce_ms);
  server.input_fd = 0;
  return lsp::serve(std::cin, std::cout, std::move(server));
}

}  // namespace

std::function<int()> bind_lsp_command(CLI::App* cmd) {
  auto options = std::make_shared<LspOptions>();
  cmd->add_option("--docs-url", options->docs_url, kDocsUrlHelp);
  cmd->add_option("--rule-docs", options->rule_docs,
                  "older form: the URL of a published docs/lint-rules.md; a diagnostic's link is "
                  "URL#rule-id");
  cmd->add_flag("--stdio", options->stdio,
                "talk over stdin and stdout (the default and only transport; editors' clients "
                "pass it)");
  cmd->add_option("--clientProcessId", options->client_process_id,
                  "the editor's process id (accepted from clients that pass it, unused)");
  cmd->add_option("--debounce", options->debounce_ms,
                  "milliseconds the input must stay quiet after an edit before the document is "
                  "linted again (a burst of edits is linted once)")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();

  return [options] {
    if (!checked_docs_url("schemac lsp", options->docs_url) ||
        !checked_docs_url("schemac lsp", options->rule_docs))
      return cli::kExitUsage;
    return run_lsp(*options);
  };
}

}  // namespace schemac::tool
