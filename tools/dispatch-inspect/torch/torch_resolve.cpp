// Resolving a key set against libtorch's computed table (torch_resolve.h).
#include "torch_resolve.h"

#include <map>

#include <c10/core/DispatchKeySet.h>

namespace schemac::inspect::torch_runtime {
namespace {

std::string chain_end(const ResolveStep& step) {
  const std::string& reason = step.entry.reason;
  if (reason == "missing") return "no kernel for " + std::string(c10::toString(step.key)) + ": the call fails here";
  if (reason == "ambiguous autogradother") return "ambiguous AutogradOther entry: the call fails here";
  if (reason == "math kernel" || reason == "nested kernel")
    return "a composite kernel: it calls other operators instead of redispatching";
  if (step.key == c10::DispatchKey::Undefined) return "the Undefined entry: nothing is below it";
  if (c10::isIncludedInAlias(step.key, c10::DispatchKey::CompositeExplicitAutograd))
    return "a backend kernel: it computes the result";
  return "";
}

}  // namespace

Resolution resolve(const c10::OperatorHandle& op, c10::DispatchKeySet keys, c10::DispatchKeySet included,
                   c10::DispatchKeySet excluded) {
  std::map<std::string, TableRow> table;
  for (TableRow& row : computed_table(op, /*all_keys=*/true)) table[row.key] = std::move(row);
  Resolution r;
  r.after_tls = (keys | included) - excluded;
  c10::DispatchKeySet ks = r.after_tls;
  for (int guard = 0; guard < 256; ++guard) {
    const c10::DispatchKey k = ks.highestPriorityTypeId();
    const TableRow& entry = table[c10::toString(k)];
    if (k != c10::DispatchKey::Undefined && entry.fallthrough) {
      if (r.chain.empty()) r.skipped.push_back(k);
      ks = ks - c10::DispatchKeySet(k);  // the functionality goes, the backend bits stay
      continue;
    }
    ResolveStep step{k, ks, entry};
    if (step.entry.key.empty()) step.entry.key = c10::toString(k);
    r.chain.push_back(step);
    if (std::string end = chain_end(step); !end.empty()) {
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
        error = "'" + name + "' is not a runtime key; a key set holds runtime keys such as CPU or AutogradCPU";
        return false;
      }
      out = out | c10::DispatchKeySet(key);
    }
    start = comma + 1;
  }
  return true;
}

}  // namespace schemac::inspect::torch_runtime
