// schemac: reads operator declarations (function schemas in native_functions.yaml-style files),
// checks them, and generates the C++ registration code.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli.h"
#include "commands.h"
#include "schemac/rules/rule_help.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::tool {
namespace {

// `schemac help TOPIC` for a topic that is not a subcommand: prints the rule's help, made from
// its line of the rule table (lib/common/rules' rule_help.h), and returns 0, or says the rule
// is unknown (with a did-you-mean among the table's ids) and returns 2.
int print_rule_help(std::string_view id) {
  if (const rules::RuleDef* rule = rules::find_rule(id)) {
    fmt::print("{}", rules::rule_help_text(*rule));
    return cli::kExitOk;
  }
  std::vector<std::string_view> names;
  for (const rules::RuleDef& rule : rules::all_rules()) names.push_back(rule.id);
  cli::error("schemac help", "unknown command or rule '{}'", id);
  if (std::optional<std::string> guess = support::did_you_mean(id, names))
    fmt::print(stderr, "note: did you mean '{}'?\n", *guess);
  fmt::print(stderr,
             "note: 'schemac help COMMAND' or 'schemac help RULE'; 'schemac lint "
             "--list-rules' lists the rules\n");
  return cli::kExitUsage;
}

}  // namespace
}  // namespace schemac::tool

int main(int argc, char** argv) {
  CLI::App app{
      "schemac: check PyTorch-style operator schemas and generate their registration code"};
  app.require_subcommand(1);
  app.footer(
      "Run 'schemac SUBCOMMAND --help' for the options and examples of each subcommand, and\n"
      "'schemac help RULE' for what a rule checks and why.\n"
      "Exit codes: 0 success, 1 problems found in the input, 2 usage or I/O errors.");
  schemac::cli::add_commands(app, schemac::tool::schemac_commands());
  return schemac::cli::run_app(app, "schemac", argc, argv, schemac::tool::print_rule_help);
}
