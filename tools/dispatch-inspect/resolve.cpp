// Resolving a key set against an operator's table, and the redispatch chain (resolve.h).
#include "resolve.h"

#include <fmt/format.h>

#include "schemac/dispatch/operator_handle.h"

namespace schemac::inspect {

using dispatch::EntryReason;
using keys::DispatchKey;
using keys::DispatchKeySet;

namespace {

// Why the chain stops at `key`'s `entry`, or "" when the kernel would redispatch below itself.
std::string chain_end(DispatchKey key, const dispatch::TableEntry& e) {
  if (e.reason == EntryReason::Missing)
    return fmt::format("no kernel for {}: the call fails here", to_string(key));
  if (e.reason == EntryReason::AmbiguousAutogradOther)
    return "ambiguous AutogradOther entry: the call fails here";
  if (e.reason == EntryReason::MathKernel || e.reason == EntryReason::NestedKernel)
    return "a composite kernel: it calls other operators instead of redispatching";
  if (key == DispatchKey::Undefined) return "the Undefined entry: nothing is below it";
  if (keys::is_backend_dispatch_key(key)) return "a backend kernel: it computes the result";
  return "";
}

report::ResolveStep step_of(DispatchKey key, DispatchKeySet ks, const dispatch::TableEntry& e) {
  return {std::string(to_string(key)),        std::string(to_string(ks)),       e.kernel.is_valid(),
          e.kernel.is_valid() ? e.debug : "", std::string(to_string(e.reason)), e.site};
}

}  // namespace

report::Resolution resolve(const dispatch::OperatorEntry& op, DispatchKeySet keys,
                           DispatchKeySet included, DispatchKeySet excluded) {
  report::Resolution r;
  r.op = op.full_name();
  const DispatchKeySet after_tls = (keys | included) - excluded;
  r.key_set = to_string(after_tls);
  DispatchKeySet ks = after_tls & op.non_fallthrough_keys(after_tls);
  for (DispatchKey k : after_tls)
    if (!ks.has(k))
      r.skipped.emplace_back(to_string(k));  // a fallthrough entry: dispatch goes past it
  for (int guard = 0; guard < keys::kNumRuntimeEntries; ++guard) {
    const DispatchKey key = ks.highest_priority_key();
    const dispatch::TableEntry& entry = op.entry_for(ks);
    r.chain.push_back(step_of(key, ks, entry));
    if (std::string end = chain_end(key, entry); !end.empty()) {
      r.fails = entry.reason == EntryReason::Missing ||
                entry.reason == EntryReason::AmbiguousAutogradOther;
      r.end = std::move(end);
      break;
    }
    ks = ks & dispatch::keys_below(key);
    ks = ks & op.non_fallthrough_keys(ks);
  }
  return r;
}

bool parse_key_list(std::string_view text, DispatchKeySet& out, std::string& error) {
  out = DispatchKeySet();
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view name = text.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) {
      const auto key = keys::parse_dispatch_key(name);
      if (!key) {
        error = fmt::format("unknown dispatch key '{}'", name);
        if (std::string close = keys::suggest_dispatch_key(name); !close.empty())
          error += fmt::format("\nnote: did you mean '{}'?", close);
        return false;
      }
      if (keys::is_alias_key(*key) || !keys::is_runtime_key(*key)) {
        error = fmt::format(
            "'{}' is not a runtime key; a key set holds runtime keys such as CPU or AutogradCPU",
            name);
        return false;
      }
      out = out.add(*key);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return true;
}

}  // namespace schemac::inspect
