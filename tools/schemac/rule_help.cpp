#include "commands.h"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.h"
#include "schemac/rules/rule_help.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::tool {

int print_rule_help(std::string_view id) {
  if (std::optional<rules::RuleHelp> help = rules::find_rule_help(id)) {
    fmt::print("{}", help->text);
    return cli::kExitOk;
  }
  const std::vector<std::string> ids = rules::documented_rule_ids();
  std::vector<std::string_view> names(ids.begin(), ids.end());
  cli::error("schemac help", "unknown command or rule '{}'", id);
  if (std::optional<std::string> guess = support::did_you_mean(id, names))
    fmt::print(stderr, "note: did you mean '{}'?\n", *guess);
  fmt::print(stderr,
             "note: 'schemac help COMMAND' or 'schemac help RULE'; 'schemac lint "
             "--list-rules' lists the rules\n");
  return cli::kExitUsage;
}

}  // namespace schemac::tool
