// The report page (render_html.h): the library as JSON with a string table, spliced into the
// page's HTML with its style and script (html_assets.h).
#include "schemac/report_page/render_html.h"

#include <unordered_map>
#include <unordered_set>

#include "schemac/audit/audit.h"
#include "schemac/inspect/answer.h"
#include "schemac/inspect/names.h"
#include "schemac/inspect/render.h"
#include "schemac/inspect/resolve.h"
#include "schemac/report_page/html_assets.h"

namespace schemac::report_page {

using namespace inspect::report;
using inspect::device_key_name;
namespace {

// Every string of the page once; the data refers to them by index.
class StringTable {
 public:
  int add(const std::string& text) {
    const auto [at, added] = index_.emplace(text, static_cast<int>(strings_.size()));
    if (added) strings_.push_back(text);
    return at->second;
  }
  // -1 for "" (no site, no schema).
  int optional(const std::string& text) { return text.empty() ? -1 : add(text); }
  Json take() { return std::move(strings_); }

 private:
  std::unordered_map<std::string, int> index_;
  Json strings_ = Json::array();
};

Json chain_json(const Resolution& r, StringTable& s) {
  Json skipped = Json::array();
  for (const std::string& key : r.skipped) skipped.push_back(s.add(key));
  Json steps = Json::array();
  for (const ResolveStep& step : r.chain) {
    steps.push_back(Json::array(
        {s.add(step.key), s.add(step.key_set), step.has_kernel ? s.add(step.kernel) : -1,
         s.add(std::string(reason_text(step.reason))), s.optional(step.site)}));
  }
  return Json::array(
      {s.add(r.key_set), std::move(skipped), std::move(steps), s.add(r.end), r.fails ? 1 : 0});
}

Json operator_json(const OperatorState& op, const OperatorCalls* calls, StringTable& s) {
  Json rows = Json::array();
  for (const TableRow& row : op.table.rows) {
    if (!row.has_kernel && row.reason == Reason::Missing) continue;
    rows.push_back(Json::array({s.add(row.key), row.has_kernel ? s.add(row.kernel) : -1,
                                s.add(std::string(reason_text(row.reason))), s.optional(row.site),
                                row.fallthrough ? 1 : 0}));
  }
  Json regs = Json::array();
  for (const DumpKernel& k : op.dump.kernels) {
    regs.push_back(Json::array({s.add(k.key), s.add(k.debug), s.optional(k.site),
                                k.has_inferred ? s.add(k.inferred) : -1, s.add(k.kinds),
                                (k.alias ? 1 : 0) | (k.active ? 0 : 2)}));
  }
  Json chains = Json::array();
  for (const Resolution& r : op.chains) chains.push_back(chain_json(r, s));
  Json needs = Json::array();
  for (const audit::FailingEntry& entry : audit::failing_entries(op))
    needs.push_back(Json::array({s.add(entry.key), s.add(entry.why)}));
  Json out{{"name", op.summary.name},
           {"schema", op.summary.has_schema ? s.add(op.summary.schema) : -1},
           {"site", s.optional(op.summary.site)},
           {"rows", std::move(rows)},
           {"regs", std::move(regs)},
           {"chains", std::move(chains)},
           {"needs", std::move(needs)}};
  if (!op.takes_tensors) out["factory"] = 1;
  if (op.takes_device) out["device"] = 1;
  if (calls != nullptr && !calls->unknown.empty()) {
    out["calls_unknown"] = s.add(calls->unknown);
  } else if (calls != nullptr) {
    Json names = Json::array();
    for (const std::string& name : calls->calls) names.push_back(s.add(name));
    out["calls"] = std::move(names);
  }
  return out;
}

// The walk's rules (report.h's WalkRules), keys and sentences as string indices; empty for a
// library without operators.
Json walk_json(const WalkRules& w, StringTable& s) {
  if (w.keys.empty()) return Json::object();
  const auto indices = [&s](const std::vector<std::string>& texts) {
    Json out = Json::array();
    for (const std::string& text : texts) out.push_back(s.optional(text));
    return out;
  };
  Json reason_ends = Json::array();
  for (size_t i = 0; i < w.end_reasons.size(); ++i)
    reason_ends.push_back(
        Json::array({s.add(w.end_reasons[i]), s.add(w.end_texts[i]), w.end_fails[i]}));
  Json devices = Json::array(), autocast_devices = Json::array();
  for (size_t i = 0; i < w.devices.size(); ++i)
    devices.push_back(Json::array({w.devices[i], w.device_sets[i], w.tensor_sets[i]}));
  for (size_t i = 0; i < w.autocast_devices.size(); ++i)
    autocast_devices.push_back(Json::array({w.autocast_devices[i], w.autocast_sets[i]}));
  return Json{{"keys", indices(w.keys)},
              {"bits", w.bits},
              {"func", w.functionality},
              {"mask", w.mask},
              {"end", indices(w.end)},
              {"masks", w.masks},
              {"undefined", indices(w.undefined)},
              {"sets", w.sets},
              {"reason_ends", std::move(reason_ends)},
              {"select", s.optional(w.select_key)},
              {"devices", std::move(devices)},
              {"autocast_devices", std::move(autocast_devices)},
              {"inference", Json::array({w.inference_not_included, w.inference_excluded})},
              {"notes", indices(w.notes)},
              {"autocast", indices(w.autocast_keys)},
              {"other", indices(w.other_keys)},
              {"names", indices(w.key_names)}};
}

// Every runtime key the tables list (each lists them all, "missing" rows too), in table order.
Json runtime_keys(const Library& library, StringTable& s) {
  Json keys = Json::array();
  std::unordered_set<std::string> seen;
  for (const OperatorState& op : library.operators) {
    for (const TableRow& row : op.table.rows)
      if (seen.insert(row.key).second) keys.push_back(s.add(row.key));
  }
  return keys;
}

// "CPU" for "cpu", "Meta" for "meta": a device as PyTorch's keys spell it.
std::string device_label(std::string_view device) {
  const std::string key = device_key_name(device);
  return key.empty() ? std::string(device) : key;
}

std::string html_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// JSON that can stand inside <script>: no '<', so no "</script>" or "<!--" (only strings hold one).
std::string script_safe(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (char c : json) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

}  // namespace

std::vector<PageCall> page_calls() {
  std::vector<PageCall> out;
  for (const char* device : {"cpu", "cuda", "meta"}) {
    PageCall& tensor = out.emplace_back();
    tensor.label = device_label(device) + " tensor";
    tensor.call.tensors = {device};
  }
  PageCall& inference = out.emplace_back();
  inference.label = "CPU, inference mode";
  inference.call.inference_tensors = {"cpu"};
  inference.call.inference_mode = true;
  return out;
}

std::string library_html(const Library& library, const PageInfo& page) {
  StringTable strings;
  // Each preset as resolve's options, and as an operator without tensor arguments takes it (with
  // a Device argument, and without): answer.h's call_for_operator.
  Json presets = Json::array();
  for (const PageCall& call : page.presets)
    presets.push_back(Json{{"label", call.label},
                           {"call", to_wire(call.call)},
                           {"factory", to_wire(inspect::call_for_operator(call.call, false, true))},
                           {"bare", to_wire(inspect::call_for_operator(call.call, false, false))}});
  Json keys = runtime_keys(library, strings);
  std::unordered_map<std::string, const OperatorCalls*> calls;
  for (const OperatorCalls& c : page.calls) calls[c.op] = &c;
  Json operators = Json::array();
  for (const OperatorState& op : library.operators) {
    const auto found = calls.find(op.summary.name);
    operators.push_back(operator_json(op, found == calls.end() ? nullptr : found->second, strings));
  }
  const Json data{{"title", page.title},
                  {"runtime", page.runtime},
                  {"generator", page.generator},
                  {"libraries", page.libraries},
                  {"presets", std::move(presets)},
                  {"calls_note", page.calls_note},
                  {"keys", std::move(keys)},
                  {"walk", walk_json(library.walk, strings)},
                  {"operators", std::move(operators)},
                  {"strings", strings.take()}};
  const std::string title = html_escaped(page.title);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + title + "</title>\n<style>\n" + std::string(page_style()) +
         "</style>\n</head>\n<body>\n";
  out += "<header>\n<h1 id=\"title\">" + title + "</h1>\n" + std::string(page_controls());
  out += "<script type=\"application/json\" id=\"report-data\">";
  out += script_safe(json_text(data));
  out += "</script>\n<script>\n" + std::string(page_walk_script()) + "</script>\n<script>\n" +
         std::string(page_script()) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace schemac::report_page
