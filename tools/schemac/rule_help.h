// `schemac help RULE`: a rule's documentation (lib/rules' rule_help.h, whose names the commands
// that print rule help use through this header) or an unknown-rule error with a did-you-mean.
#pragma once

#include <string_view>

#include "schemac/rules/rule_help.h"

namespace schemac::tool {

using rules::docs_page_url, rules::find_rule_help, rules::rule_help_uri, rules::RuleHelp;

// `schemac help TOPIC` for a topic that is not a subcommand: prints the rule's documentation and
// returns 0, or says the rule is unknown (with a did-you-mean) and returns 2.
int print_rule_help(std::string_view id);

}  // namespace schemac::tool
