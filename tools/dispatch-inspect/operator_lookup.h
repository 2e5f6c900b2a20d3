// Finding the operator a subcommand names, with a "did you mean" note when there is none.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "schemac/dispatch/dispatcher.h"

namespace schemac::inspect {

// Every operator's full name ("ns::op.overload").
std::vector<std::string> operator_names(const dispatch::Dispatcher& dispatcher);

// The operator `name` in the process-wide registry, or nullptr after printing
// "dispatch-inspect: error: unknown operator 'NAME'" and a did-you-mean note on `err`.
const dispatch::OperatorEntry* find_operator_or_explain(std::string_view name, std::ostream& err);

}  // namespace schemac::inspect
