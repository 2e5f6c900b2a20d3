// Operator lookup with suggestions (operator_lookup.h).
#include "operator_lookup.h"
#include "schemac/support/did_you_mean.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace schemac::inspect {
namespace {


// "aten::add.Tensor" -> "add"
std::string_view base_name(std::string_view full) {
  if (const size_t ns = full.rfind("::"); ns != std::string_view::npos) full.remove_prefix(ns + 2);
  return full.substr(0, full.find('.'));
}

}  // namespace

std::vector<std::string> similar_operator_names(const dispatch::Dispatcher& dispatcher, std::string_view name) {
  // Same base name (another namespace or overload) ranks first; then plain edit distance.
  std::vector<std::string> same_base, others;
  for (const dispatch::OperatorEntry* op : dispatcher.operators()) {
    std::string full = op->full_name();
    (base_name(full) == base_name(name) && full != name ? same_base : others).push_back(std::move(full));
  }
  std::vector<std::string> out(same_base.begin(), same_base.begin() + std::min<size_t>(same_base.size(), 3));
  if (out.size() < 3) {
    const std::vector<std::string_view> candidates(others.begin(), others.end());
    const size_t max_distance = std::max<size_t>(3, name.size() / 3);
    for (std::string& close : schema::closest_names(name, candidates, max_distance, 3 - out.size())) {
      out.push_back(std::move(close));
    }
  }
  return out;
}

const dispatch::OperatorEntry* find_operator_or_explain(std::string_view name, std::ostream& err) {
  dispatch::Dispatcher& dispatcher = dispatch::Dispatcher::singleton();
  if (const dispatch::OperatorEntry* op = dispatcher.find(name)) return op;
  err << fmt::format("dispatch-inspect: error: unknown operator '{}'\n", name);
  const std::vector<std::string> similar = similar_operator_names(dispatcher, name);
  if (!similar.empty()) {
    err << fmt::format("note: did you mean '{}'?\n", fmt::join(similar, "', '"));
  } else if (dispatcher.operators().empty()) {
    err << "note: no operators are registered; load a library with --load LIB\n";
  } else {
    err << "note: 'dispatch-inspect ops' lists the known operators\n";
  }
  return nullptr;
}

}  // namespace schemac::inspect
