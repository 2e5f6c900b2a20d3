// The resolve walk over any runtime (resolve.h).
#include "schemac/inspect/resolve.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>

#include "schemac/inspect/names.h"

namespace schemac::inspect {
namespace {

const report::TableRow kMissing{"", false, "", report::Reason::Missing, false, ""};

// The walk's sentences, with "{key}" or "{keys}" standing for the key or keys they name.
constexpr std::string_view kUndefinedEnd = "the Undefined entry: nothing is below it";
constexpr std::string_view kBackendEnd = "a backend kernel: it computes the result";
constexpr std::string_view kAddedNote = "added by thread-local state: {keys} (the included set)";
constexpr std::string_view kDroppedNote =
    "dropped by thread-local state: {keys} (the excluded set{autocast})";
constexpr std::string_view kAutocastNote = "; autocast is off: --autocast DEVICE turns it on";
constexpr std::string_view kUnknownKey = "unknown dispatch key '{key}'";
constexpr std::string_view kNotRuntimeKey =
    "'{key}' is not a runtime key; a key set holds runtime keys such as CPU or AutogradCPU";
constexpr std::string_view kNoTensorArgument =
    "'{op}' takes no tensor argument, so no tensor's keys reach a call of it (--keys, --tensor "
    "and --inference-tensor do not apply; --device is its options' device)";
constexpr std::string_view kNoDeviceArgument =
    "'{op}' takes no Device argument, so --device does not apply (its tensors' keys choose its "
    "kernel)";
constexpr std::string_view kDeviceUnread =
    "--device {device}: no BackendSelect kernel in this chain reads it, so the tensors' keys chose "
    "the kernels, which get the device as an argument";

// Why the chain stops at an entry of this reason whatever its key, or "".
std::string_view reason_end(report::Reason reason) {
  if (reason == report::Reason::Missing) return "no kernel for {key}: the call fails here";
  if (reason == report::Reason::AmbiguousAutogradOther)
    return "ambiguous AutogradOther entry: the call fails here";
  if (report::is_composite(reason))
    return "a composite kernel: it calls other operators instead of redispatching";
  return "";
}

std::string hex(KeySet set) { return fmt::format("{:x}", set.bits); }

std::string with(std::string_view text, std::string_view hole, std::string_view value) {
  std::string out(text);
  if (const size_t at = out.find(hole); at != std::string::npos)
    out.replace(at, hole.size(), value);
  return out;
}

// How `key`'s kernel leaves the chain: `end` says why the chain ends there, else the kernel passes
// on ks & mask. An autograd kernel passes on ks & after_autograd_keyset; ADInplaceOrView,
// autocast, Python and Functionalize kernels ks without their own key; any other non-backend
// kernel ks & FULL_AFTER(key) (BackendSelect: a set of its own, select_set, & that mask).
struct Leave {
  std::string_view end;
  KeySet mask;
};
Leave leave_at(const Runtime& rt, Key key) {
  if (key == rt.undefined()) return {kUndefinedEnd, {}};
  switch (rt.kind_of(key)) {
    case KeyKind::Backend: return {kBackendEnd, {}};
    case KeyKind::Autograd: return {"", rt.after_autograd()};
    case KeyKind::ADInplaceOrView:
    case KeyKind::Autocast:
    case KeyKind::Python:
    case KeyKind::Functionalize: return {"", KeySet{~uint64_t{0}} - rt.functionality_of(key)};
    default: return {"", rt.full_after(key)};
  }
}

// The backend key set of a device's tensors (cpu when none is given), or nullopt.
std::optional<KeySet> device_set(const Runtime& rt, const std::string& device) {
  const auto backend = rt.parse_key(device_key_name(device.empty() ? "cpu" : device));
  return backend ? std::optional(rt.set_of(*backend)) : std::nullopt;
}

// What a BackendSelect kernel passes on (torchgen's): the backend of the options' device alone
// for an operator without tensor arguments; else that backend and the tensors' keys under the
// thread-local sets, below BackendSelect (mask).
KeySet select_set(const Runtime& rt, const Call& call, KeySet mask) {
  const KeySet options = device_set(rt, call.device).value_or(KeySet{});
  if (!call.takes_tensors) return options;
  return rt.with_thread_local(call.keys | options, call.included, call.excluded) & mask;
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
  if (!added.empty()) out.notes.push_back(with(kAddedNote, "{keys}", joined(rt, added)));
  if (!dropped.empty()) {
    const bool autocast = std::any_of(dropped.begin(), dropped.end(),
                                      [&](Key k) { return rt.kind_of(k) == KeyKind::Autocast; });
    out.notes.push_back(with(with(kDroppedNote, "{keys}", joined(rt, dropped)), "{autocast}",
                             autocast ? kAutocastNote : ""));
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
  bool selected = false;
  for (int guard = 0; guard < 256; ++guard) {
    const Key key = rt.highest(ks);
    const auto found = rows.find(rt.key_name(key));
    const report::TableRow& entry = found == rows.end() ? kMissing : *found->second;
    r.chain.push_back({rt.key_name(key), rt.set_text(ks), entry.has_kernel, entry.kernel,
                       entry.reason, entry.site});
    const Leave leave = leave_at(rt, key);
    const std::string_view end = reason_end(entry.reason);
    if (!end.empty() || !leave.end.empty()) {
      r.fails = report::is_failure(entry.reason);
      r.end = end.empty() ? std::string(leave.end) : with(end, "{key}", rt.key_name(key));
      break;
    }
    const bool select = rt.kind_of(key) == KeyKind::BackendSelect;
    selected = selected || select;
    ks = without_fallthroughs(rt, rows, select ? select_set(rt, call, leave.mask) : ks & leave.mask,
                              nullptr);
  }
  if (!call.device.empty() && !selected)
    r.call_notes.push_back(with(kDeviceUnread, "{device}", call.device));
  return r;
}

std::string call_refusal(const std::string& op, bool takes_tensors, bool takes_device,
                         bool has_keys, bool has_device) {
  if (!takes_tensors && has_keys) return with(kNoTensorArgument, "{op}", op);
  if (!takes_device && has_device) return with(kNoDeviceArgument, "{op}", op);
  return "";
}

bool Runtime::takes_device(const std::string& name) const {
  return schema_takes_device(dump(name).schema);
}

std::string Runtime::suggest_key(std::string_view name) const {
  // Only what a key set takes: a runtime key (an alias key such as Autograd is refused).
  std::vector<std::string> runtime_keys;
  for (const std::string& known : key_names())
    if (const std::optional<Key> key = parse_key(known); key && is_runtime_key(*key))
      runtime_keys.push_back(known);
  return report::closest_name(name, runtime_keys);
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
        error = with(kUnknownKey, "{key}", name);
        if (std::string close = rt.suggest_key(name); !close.empty())
          error += fmt::format("\nnote: did you mean '{}'?", close);
        return false;
      }
      if (!rt.is_runtime_key(*key)) {
        error = with(kNotRuntimeKey, "{key}", name);
        return false;
      }
      out = out | rt.set_of(*key);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return true;
}

report::WalkRules walk_rules(const Runtime& rt, const report::Table& table) {
  report::WalkRules w;
  KeySet every;
  for (const report::TableRow& row : table.rows) {
    const std::optional<Key> key = rt.parse_key(row.key);
    if (key && rt.is_runtime_key(*key)) every = every | rt.set_of(*key);
  }
  std::map<uint64_t, int> masks;
  for (Key key : rt.keys_in(every)) {
    w.keys.push_back(rt.key_name(key));
    w.bits.push_back(hex(rt.set_of(key)));
    w.functionality.push_back(hex(rt.functionality_of(key)));
    const Leave leave = leave_at(rt, key);
    w.end.emplace_back(leave.end);
    const bool passes_on = leave.end.empty();
    if (passes_on && masks.emplace(leave.mask.bits, static_cast<int>(w.masks.size())).second)
      w.masks.push_back(hex(leave.mask));
    w.mask.push_back(passes_on ? masks.at(leave.mask.bits) : -1);
    if (rt.kind_of(key) == KeyKind::Autocast) w.autocast_keys.push_back(rt.key_name(key));
    if (rt.kind_of(key) == KeyKind::BackendSelect) w.select_key = rt.key_name(key);
  }
  for (const char* device : {"cpu", "cuda", "meta"}) {
    const std::optional<KeySet> set = device_set(rt, device);
    KeySet tensor;
    std::string error;
    if (!set || !parse_key_list(rt, report::tensor_keys(device), tensor, error)) continue;
    w.devices.emplace_back(device);
    w.device_sets.push_back(hex(*set));
    w.tensor_sets.push_back(hex(tensor));
  }
  for (const char* device : {"cpu", "cuda", "xpu"}) {
    const std::optional<Key> key = rt.parse_key(report::autocast_key_name(device));
    if (!key || !rt.is_runtime_key(*key)) continue;
    w.autocast_devices.emplace_back(device);
    w.autocast_sets.push_back(hex(rt.set_of(*key)));
  }
  const InferenceMode inference = inference_mode(rt);
  w.inference_not_included = hex(inference.not_included);
  w.inference_excluded = hex(inference.excluded);
  w.undefined = {rt.key_name(rt.undefined()), std::string(kUndefinedEnd)};
  w.sets = {hex(rt.backend_bits()), hex(rt.default_included()), hex(rt.default_excluded())};
  for (int r = 0; r <= static_cast<int>(report::Reason::Missing); ++r) {
    const auto reason = static_cast<report::Reason>(r);
    if (reason_end(reason).empty()) continue;
    w.end_reasons.emplace_back(report::reason_text(reason));
    w.end_texts.emplace_back(reason_end(reason));
    w.end_fails.push_back(report::is_failure(reason) ? 1 : 0);
  }
  w.notes = {std::string(kAddedNote),        std::string(kDroppedNote),
             std::string(kAutocastNote),     std::string(kUnknownKey),
             std::string(kNotRuntimeKey),    std::string(kNoTensorArgument),
             std::string(kNoDeviceArgument), std::string(kDeviceUnread)};
  for (const std::string& name : rt.key_names()) {
    const std::optional<Key> key = rt.parse_key(name);
    (key && !rt.is_runtime_key(*key) ? w.other_keys : w.key_names).push_back(name);
  }
  return w;
}

InferenceMode inference_mode(const Runtime& rt) {
  InferenceMode out;
  if (const std::optional<Key> view = rt.parse_key("ADInplaceOrView"))
    out.not_included = rt.functionality_of(*view);
  for (Key key : rt.keys_in(KeySet{~uint64_t{0}}))
    if (rt.kind_of(key) == KeyKind::Autograd)
      out.excluded = out.excluded | rt.functionality_of(key);
  return out;
}

bool schema_takes_device(std::string_view schema) {
  size_t at = schema.find('(');
  if (at == std::string_view::npos) return false;
  // Each argument's type is its text up to the first space outside brackets.
  int depth = 0;
  bool in_type = true;
  std::string type;
  for (++at; at < schema.size() && depth >= 0; ++at) {
    const char c = schema[at];
    if ((c == ',' || c == ')') && depth == 0) {
      if (type == "Device" || type == "Device?") return true;
      if (c == ')') break;
      type.clear();
      in_type = true;
      continue;
    }
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ' ' && depth == 0) {
      in_type = type.empty() || type == "*";
      if (type == "*") type.clear();
      continue;
    }
    if (in_type) type += c;
  }
  return false;
}

}  // namespace schemac::inspect
