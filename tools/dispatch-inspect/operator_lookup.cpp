// Operator lookup with suggestions (operator_lookup.h).
#include "operator_lookup.h"
#include "report/names.h"

#include <ostream>

namespace schemac::inspect {

std::vector<std::string> operator_names(const dispatch::Dispatcher& dispatcher) {
  std::vector<std::string> names;
  for (const dispatch::OperatorEntry* op : dispatcher.operators()) names.push_back(op->full_name());
  return names;
}

const dispatch::OperatorEntry* find_operator_or_explain(std::string_view name, std::ostream& err) {
  dispatch::Dispatcher& dispatcher = dispatch::Dispatcher::singleton();
  if (const dispatch::OperatorEntry* op = dispatcher.find(name)) return op;
  err << report::unknown_operator_error(name, operator_names(dispatcher));
  return nullptr;
}

}  // namespace schemac::inspect
