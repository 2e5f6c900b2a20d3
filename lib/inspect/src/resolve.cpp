// The resolve walk over any runtime (resolve.h).
#include "schemac/inspect/resolve.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace schemac::inspect {
namespace {

const report::TableRow kMissing{"", false, "", report::Reason::Missing, false, ""};

// Why the chain stops at `key`'s `entry`, or "" when the kernel passes the call on.
std::string chain_end(const Runtime& rt, Key key, const report::TableRow& entry) {
  if (entry.reason == report::Reason::Missing)
    return fmt::format("no kernel for {}: the call fails here", rt.key_name(key));
  if (entry.reason == report::Reason::AmbiguousAutogradOther)
    return "ambiguous AutogradOther entry: the call fails here";
  if (report::is_composite(entry.reason))
    return "a composite kernel: it calls other operators instead of redispatching";
  if (key == rt.undefined()) return "the Undefined entry: nothing is below it";
  if (rt.kind_of(key) == KeyKind::Backend) return "a backend kernel: it computes the result";
  return "";
}

// What `key`'s kernel passes on of `ks` when it calls below itself.
KeySet passed_on(const Runtime& rt, Key key, KeySet ks, const Call& call) {
  switch (rt.kind_of(key)) {
    case KeyKind::Autograd: return ks & rt.after_autograd();
    case KeyKind::ADInplaceOrView:
    case KeyKind::Autocast:
    case KeyKind::Python:
    case KeyKind::Functionalize: return ks - rt.functionality_of(key);
    case KeyKind::BackendSelect:
      if (!call.takes_tensors) {
        // The backend of the options (TensorOptions' device), and nothing else: the factory
        // kernel redispatches on that key alone.
        if (const auto backend = rt.parse_key(device_key_name(call.device)))
          return rt.set_of(*backend);
      }
      return ks - rt.functionality_of(key);
    default: return ks & rt.full_after(key);
  }
}

// The set without the functionalities whose entry for the set's highest backend is a
// fallthrough (the operator's non-fallthrough mask); their keys in `skipped`.
KeySet without_fallthroughs(const Runtime& rt,
                            const std::map<std::string, const report::TableRow*>& rows, KeySet ks,
                            std::vector<std::string>* skipped) {
  KeySet out = ks;
  for (Key k : rt.keys_in(ks)) {
    const std::string name = rt.key_name(k);
    const auto found = rows.find(name);
    if (found == rows.end() || !found->second->fallthrough) continue;
    // A per-backend functionality falls through only where its highest backend's entry does.
    if (rt.highest((ks & rt.functionality_of(k)) | (ks & rt.backend_bits())) != k) continue;
    out = out - rt.functionality_of(k);
    if (skipped != nullptr) skipped->push_back(name);
  }
  return out;
}

std::string joined(const Runtime& rt, const std::vector<Key>& keys) {
  std::vector<std::string> names;
  for (Key k : keys) names.push_back(rt.key_name(k));
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

std::string device_key_name(std::string_view device) {
  static const std::map<std::string_view, std::string_view> keys = {
      {"cpu", "CPU"}, {"cuda", "CUDA"}, {"meta", "Meta"}, {"xpu", "XPU"},
      {"mps", "MPS"}, {"hpu", "HPU"},   {"xla", "XLA"},   {"lazy", "Lazy"},
      {"hip", "HIP"}, {"ipu", "IPU"},   {"ve", "VE"}};
  const auto found = keys.find(device);
  return found == keys.end() ? "" : std::string(found->second);
}

CallKeySet call_key_set(const Runtime& rt, const Call& call) {
  // The runtime's dispatcher computes it, as for a real call (trace's): excluding AutogradCPU
  // leaves CPU, a backend bit being shared by all of the backend's functionalities.
  CallKeySet out{rt.with_thread_local(call.keys, call.included, call.excluded), {}};
  // Named key by key: with backend bits shared, a difference of sets can leave a functionality
  // bit alone, which names no key.
  const std::vector<Key> given = rt.keys_in(call.keys),
                         with_local = rt.keys_in(call.keys | call.included),
                         result = rt.keys_in(out.keys);
  std::vector<Key> added, dropped;
  for (Key k : result)
    if (std::find(given.begin(), given.end(), k) == given.end()) added.push_back(k);
  for (Key k : with_local)
    if (std::find(result.begin(), result.end(), k) == result.end()) dropped.push_back(k);
  if (!added.empty())
    out.notes.push_back(
        fmt::format("added by thread-local state: {} (the included set)", joined(rt, added)));
  if (!dropped.empty()) {
    const bool autocast = std::any_of(dropped.begin(), dropped.end(),
                                      [&](Key k) { return rt.kind_of(k) == KeyKind::Autocast; });
    out.notes.push_back(
        fmt::format("dropped by thread-local state: {} (the excluded set{})", joined(rt, dropped),
                    autocast ? "; autocast is off: --autocast DEVICE turns it on" : ""));
  }
  return out;
}

report::Resolution resolve(const Runtime& rt, const report::Table& table, const Call& call) {
  std::map<std::string, const report::TableRow*> rows;
  for (const report::TableRow& row : table.rows) rows[row.key] = &row;
  report::Resolution r;
  r.op = table.op;
  CallKeySet start = call_key_set(rt, call);
  r.key_set = rt.set_text(start.keys);
  r.notes = std::move(start.notes);
  KeySet ks = without_fallthroughs(rt, rows, start.keys, &r.skipped);
  for (int guard = 0; guard < 256; ++guard) {
    const Key key = rt.highest(ks);
    const auto found = rows.find(rt.key_name(key));
    const report::TableRow& entry = found == rows.end() ? kMissing : *found->second;
    r.chain.push_back({rt.key_name(key), rt.set_text(ks), entry.has_kernel, entry.kernel,
                       entry.reason, entry.site});
    if (std::string end = chain_end(rt, key, entry); !end.empty()) {
      r.fails = report::is_failure(entry.reason);
      r.end = std::move(end);
      break;
    }
    ks = without_fallthroughs(rt, rows, passed_on(rt, key, ks, call), nullptr);
  }
  return r;
}

bool parse_key_list(const Runtime& rt, std::string_view text, KeySet& out, std::string& error) {
  out = KeySet();
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view name = text.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) {
      const std::optional<Key> key = rt.parse_key(name);
      if (!key) {
        error = fmt::format("unknown dispatch key '{}'", name);
        if (std::string close = rt.suggest_key(name); !close.empty())
          error += fmt::format("\nnote: did you mean '{}'?", close);
        return false;
      }
      if (!rt.is_runtime_key(*key)) {
        error = fmt::format(
            "'{}' is not a runtime key; a key set holds runtime keys such as CPU or AutogradCPU",
            name);
        return false;
      }
      out = out | rt.set_of(*key);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return true;
}

}  // namespace schemac::inspect
