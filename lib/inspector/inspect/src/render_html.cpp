// The report page (render_html.h): the library as JSON with a string table, spliced into the
// page's HTML with its style and script (html_assets.h).
#include "schemac/inspect/render_html.h"

#include <unordered_map>
#include <unordered_set>

#include "schemac/inspect/html_assets.h"
#include "schemac/inspect/names.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect::report {
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
  Json out{{"name", op.summary.name},
           {"schema", op.summary.has_schema ? s.add(op.summary.schema) : -1},
           {"site", s.optional(op.summary.site)},
           {"rows", std::move(rows)},
           {"regs", std::move(regs)},
           {"chains", std::move(chains)}};
  if (!op.takes_tensors) out["factory"] = 1;
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
  Json factory = Json::array();
  if (!w.factory_key.empty()) factory = Json::array({s.add(w.factory_key), w.factory_set});
  return Json{{"keys", indices(w.keys)},
              {"bits", w.bits},
              {"func", w.functionality},
              {"mask", w.mask},
              {"end", indices(w.end)},
              {"masks", w.masks},
              {"undefined", indices(w.undefined)},
              {"sets", w.sets},
              {"reason_ends", std::move(reason_ends)},
              {"factory", std::move(factory)},
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

std::vector<ChainKeySet> page_key_sets() {
  return {{"CPU without autograd", "CPU"},
          {"CPU with autograd", tensor_keys("cpu")},
          {"CUDA without autograd", "CUDA"},
          {"CUDA with autograd", tensor_keys("cuda")}};
}

std::string library_html(const Library& library, const PageInfo& page) {
  StringTable strings;
  Json key_sets = Json::array();
  for (const ChainKeySet& set : page.key_sets)
    key_sets.push_back(Json{{"label", set.label}, {"keys", set.keys}});
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
                  {"key_sets", key_sets},
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
  out += "</script>\n<script>\n" + std::string(page_script()) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace schemac::inspect::report
