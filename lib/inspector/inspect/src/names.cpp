// Operator and key names shared by the adapters (names.h).
#include "schemac/inspect/names.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/support/did_you_mean.h"

namespace schemac::inspect::report {
namespace {

// "aten::add.Tensor" -> "add"
std::string_view base_name(std::string_view full) {
  if (const size_t ns = full.rfind("::"); ns != std::string_view::npos) full.remove_prefix(ns + 2);
  return full.substr(0, full.find('.'));
}

}  // namespace

std::vector<std::string> operator_names(const Operators& operators) {
  std::vector<std::string> names;
  for (const OperatorSummary& op : operators.operators) names.push_back(op.name);
  return names;
}

std::vector<std::string> similar_operator_names(const std::vector<std::string>& known,
                                                std::string_view name) {
  // Same base name (another namespace or overload) ranks first, the nearest spelling first (ties
  // in name order, whatever order the runtime lists its operators in); then plain edit distance.
  std::vector<std::string> same_base, others;
  for (const std::string& full : known)
    (base_name(full) == base_name(name) && full != name ? same_base : others).push_back(full);
  std::sort(same_base.begin(), same_base.end());
  const std::vector<std::string_view> same(same_base.begin(), same_base.end());
  std::vector<std::string> out =
      support::closest_names(name, same, std::numeric_limits<size_t>::max(), 3);
  if (out.size() < 3) {
    const std::vector<std::string_view> candidates(others.begin(), others.end());
    const size_t max_distance = std::max<size_t>(3, name.size() / 3);
    for (std::string& close :
         support::closest_names(name, candidates, max_distance, 3 - out.size()))
      out.push_back(std::move(close));
  }
  return out;
}

std::string unknown_operator_error(std::string_view name, const std::vector<std::string>& known) {
  std::string out = fmt::format("dispatch-inspect: error: unknown operator '{}'\n", name);
  const std::vector<std::string> similar = similar_operator_names(known, name);
  if (!similar.empty())
    return out + fmt::format("note: did you mean '{}'?\n", fmt::join(similar, "', '"));
  if (known.empty())
    return out + "note: no operators are registered; load a library with --load LIB\n";
  return out + "note: 'dispatch-inspect ops' lists the known operators\n";
}

std::string closest_name(std::string_view name, const std::vector<std::string>& known) {
  const std::vector<std::string_view> candidates(known.begin(), known.end());
  std::vector<std::string> close =
      support::closest_names(name, candidates, std::max<size_t>(2, name.size() / 3), 1);
  return close.empty() ? "" : close.front();
}

std::string autocast_key_name(std::string_view device) {
  std::string key = "Autocast";
  for (char c : device) key += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return key;
}

std::string tensor_keys(std::string_view device) {
  if (device == "cpu") return "CPU,ADInplaceOrView,AutogradCPU,AutocastCPU";
  if (device == "cuda") return "CUDA,ADInplaceOrView,AutogradCUDA,AutocastCUDA";
  if (device == "meta") return "Meta,ADInplaceOrView,AutogradMeta";
  return "";
}

}  // namespace schemac::inspect::report
