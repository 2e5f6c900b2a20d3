// Resolving a key set against libtorch's computed table (torch_resolve.h).
#include "torch_resolve.h"

#include <map>
#include <sstream>

#include <c10/core/DispatchKeySet.h>

namespace schemac::inspect::torch_runtime {
namespace {

std::string chain_end(c10::DispatchKey key, const report::TableRow& entry) {
  const std::string& reason = entry.reason;
  if (reason == "missing")
    return "no kernel for " + std::string(c10::toString(key)) + ": the call fails here";
  if (reason == "ambiguous autogradother")
    return "ambiguous AutogradOther entry: the call fails here";
  if (reason == "math kernel" || reason == "nested kernel")
    return "a composite kernel: it calls other operators instead of redispatching";
  if (key == c10::DispatchKey::Undefined) return "the Undefined entry: nothing is below it";
  if (c10::isIncludedInAlias(key, c10::DispatchKey::CompositeExplicitAutograd))
    return "a backend kernel: it computes the result";
  return "";
}

std::string set_text(c10::DispatchKeySet ks) {
  std::ostringstream out;
  out << ks;
  return out.str();
}

}  // namespace

report::Resolution resolve(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                           c10::DispatchKeySet included, c10::DispatchKeySet excluded) {
  return resolve(table_of(op, /*all_keys=*/true), keys, included, excluded);
}

report::Resolution resolve(const report::Table& table, c10::DispatchKeySet keys,
                           c10::DispatchKeySet included, c10::DispatchKeySet excluded) {
  std::map<std::string, const report::TableRow*> rows;
  for (const report::TableRow& row : table.rows) rows[row.key] = &row;
  const report::TableRow missing{"", false, "", "missing", false, ""};
  report::Resolution r;
  r.op = table.op;
  c10::DispatchKeySet ks = (keys | included) - excluded;
  r.key_set = set_text(ks);
  for (int guard = 0; guard < 256; ++guard) {
    const c10::DispatchKey k = ks.highestPriorityTypeId();
    const auto found = rows.find(c10::toString(k));
    const report::TableRow& entry = found == rows.end() ? missing : *found->second;
    if (k != c10::DispatchKey::Undefined && entry.fallthrough) {
      if (r.chain.empty()) r.skipped.emplace_back(c10::toString(k));
      ks = ks - c10::DispatchKeySet(k);  // the functionality goes, the backend bits stay
      continue;
    }
    r.chain.push_back(
        {c10::toString(k), set_text(ks), entry.has_kernel, entry.kernel, entry.reason, entry.site});
    if (std::string end = chain_end(k, entry); !end.empty()) {
      r.fails = entry.reason == "missing" || entry.reason == "ambiguous autogradother";
      r.end = std::move(end);
      break;
    }
    ks = ks & c10::DispatchKeySet(c10::DispatchKeySet::FULL_AFTER, k);
  }
  return r;
}

bool parse_key_list(const std::string& text, c10::DispatchKeySet& out, std::string& error) {
  out = c10::DispatchKeySet();
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string name = text.substr(start, comma - start);
    while (!name.empty() && name.front() == ' ') name.erase(0, 1);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (!name.empty()) {
      c10::DispatchKey key;
      try {
        key = c10::parseDispatchKey(name);
      } catch (const std::exception&) {
        error = "unknown dispatch key '" + name + "'";
        return false;
      }
      if (c10::isAliasDispatchKey(key) || key == c10::DispatchKey::Undefined) {
        error = "'" + name +
                "' is not a runtime key; a key set holds runtime keys such as CPU or AutogradCPU";
        return false;
      }
      out = out | c10::DispatchKeySet(key);
    }
    start = comma + 1;
  }
  return true;
}

}  // namespace schemac::inspect::torch_runtime
