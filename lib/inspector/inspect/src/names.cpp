// Operator and key names shared by the adapters (names.h).
#include "schemac/inspect/names.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/inspect/operator_glob.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::inspect::report {
namespace {

// "aten::add.Tensor" -> "add"
std::string_view base_name(std::string_view full) {
  if (const size_t ns = full.rfind("::"); ns != std::string_view::npos) full.remove_prefix(ns + 2);
  return full.substr(0, full.find('.'));
}

// "ns::name" or "ns::name.overload" for a name's namespace, name and overload (in the form
// torch.ops spells: "default" is the overload without a name).
std::string full_name(std::string_view ns, std::string_view name, std::string_view overload) {
  std::string out = fmt::format("{}::{}", ns, name);
  if (!overload.empty() && overload != "default") out += fmt::format(".{}", overload);
  return out;
}

// The readings of a typed name, most likely first: "ns::name[.overload]" strings.
std::vector<std::string> readings(std::string_view typed) {
  constexpr std::string_view kTorchOps = "torch.ops.", kDefaultNamespace = "aten";
  if (typed.starts_with(kTorchOps)) typed.remove_prefix(kTorchOps.size());
  if (const size_t colons = typed.find("::"); colons != std::string_view::npos) {
    const std::string_view rest = typed.substr(colons + 2);
    const size_t dot = rest.find('.');
    return {full_name(typed.substr(0, colons), rest.substr(0, dot),
                      dot == std::string_view::npos ? "" : rest.substr(dot + 1))};
  }
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t dot = typed.find('.', start);
    parts.push_back(typed.substr(start, dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (parts.size() == 3) return {full_name(parts[0], parts[1], parts[2])};
  if (parts.size() == 2)
    return {full_name(parts[0], parts[1], ""), full_name(kDefaultNamespace, parts[0], parts[1])};
  if (parts.size() == 1) return {full_name(kDefaultNamespace, parts[0], "")};
  return {std::string(typed)};
}

}  // namespace

bool is_full_operator_name(std::string_view typed) {
  const size_t colons = typed.find("::");
  return colons != std::string_view::npos && typed.find('.', colons) != std::string_view::npos &&
         !typed.ends_with(".default") && !typed.starts_with("torch.ops.");
}

OperatorMatch match_operator(std::string_view typed, const std::vector<std::string>& known) {
  OperatorMatch out;
  const std::vector<std::string> candidates = readings(typed);
  out.spelled = candidates.front();
  const auto has = [&known](std::string_view name) {
    return std::find(known.begin(), known.end(), name) != known.end();
  };
  if (has(typed)) {
    out.names = {std::string(typed)};
    return out;
  }
  for (const std::string& name : candidates) {
    if (has(name)) {
      out.names = {name};
      return out;
    }
  }
  // A name without an overload: the packet of its overloads.
  for (const std::string& name : candidates) {
    if (name.find('.', name.find("::")) != std::string::npos) continue;
    for (const std::string& full : known)
      if (full.starts_with(name + ".")) out.names.push_back(full);
    if (!out.names.empty()) {
      std::sort(out.names.begin(), out.names.end());
      out.packet = true;
      out.spelled = name;
      return out;
    }
  }
  return out;
}

OperatorLookup find_operators(std::string_view typed, const std::vector<std::string>& known) {
  OperatorLookup out;
  if (is_operator_glob(typed)) {
    GlobExpansion found = expand_operator_glob(typed, known);
    out.several = true;
    if (!found.ok()) {
      out.error = fmt::format("dispatch-inspect: error: {}\n", found.error);
      if (!found.note.empty()) out.error += fmt::format("note: {}\n", found.note);
    }
    out.names = std::move(found.names);
    return out;
  }
  OperatorMatch found = match_operator(typed, known);
  if (found.names.empty()) out.error = unknown_operator_error(found.spelled, known);
  if (found.packet)
    out.note = fmt::format("note: '{}' is an overload packet: its {} overloads follow ({})\n",
                           typed, found.names.size(), fmt::join(found.names, ", "));
  out.names = std::move(found.names);
  out.several = found.packet;
  return out;
}

OperatorLookup find_operators(const std::vector<std::string>& typed,
                              const std::vector<std::string>& known) {
  OperatorLookup all;
  all.several = typed.size() > 1;
  std::unordered_set<std::string> seen;  // a name several arguments match is listed once
  for (const std::string& one : typed) {
    OperatorLookup found = find_operators(std::string_view(one), known);
    all.note += found.note;
    if (found.names.empty()) {
      all.names.clear();
      all.error = std::move(found.error);
      return all;
    }
    all.several = all.several || found.several;
    for (std::string& name : found.names)
      if (seen.insert(name).second) all.names.push_back(std::move(name));
  }
  return all;
}

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
