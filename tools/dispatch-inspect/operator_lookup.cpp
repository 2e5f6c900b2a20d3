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
  struct Candidate {
    size_t score;
    std::string name;
  };
  std::vector<Candidate> candidates;
  for (const dispatch::OperatorEntry* op : dispatcher.operators()) {
    std::string full = op->full_name();
    // Same base name (another namespace or overload) ranks first; then plain edit distance.
    const size_t score = base_name(full) == base_name(name) ? 0 : 1 + schema::edit_distance(full, name);
    const size_t limit = std::max<size_t>(3, name.size() / 3) + 1;
    if (score <= limit) candidates.push_back({score, std::move(full)});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
  std::vector<std::string> out;
  for (size_t i = 0; i < candidates.size() && i < 3; ++i) out.push_back(candidates[i].name);
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
