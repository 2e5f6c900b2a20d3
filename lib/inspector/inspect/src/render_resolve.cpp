// Resolutions in text and JSON (render.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/inspect/render.h"

namespace schemac::inspect::report {
namespace {

std::string kernel_text(const ResolveStep& s) { return s.has_kernel ? s.kernel : "(missing)"; }
Json kernel_json(const ResolveStep& s) { return s.has_kernel ? Json(s.kernel) : Json(); }

}  // namespace

std::string resolution_text(const Resolution& r) {
  std::string out = fmt::format("operator: {}\nkey set: {}\n", r.op, r.key_set);
  for (const std::string& note : r.notes) out += note + "\n";
  if (!r.skipped.empty())
    out += fmt::format("skipped (fallthrough): {}\n", fmt::join(r.skipped, ", "));
  const ResolveStep& win = r.chain.front();
  out += fmt::format("winner: {}\nkernel: {}\nreason: {}\nsite: {}\n", win.key, kernel_text(win),
                     reason_text(win.reason), win.site.empty() ? "-" : win.site);
  std::vector<std::string> keys;
  for (const ResolveStep& s : r.chain) keys.push_back(s.key);
  out += fmt::format("chain: {}\n", fmt::join(keys, " -> "));
  for (size_t i = 0; i < r.chain.size(); ++i) {
    const ResolveStep& s = r.chain[i];
    out += fmt::format("  {}. {}: {} [{}] with {}\n", i + 1, s.key, kernel_text(s),
                       reason_text(s.reason), s.key_set);
  }
  out += fmt::format("end: {}\n", r.end);
  for (const std::string& note : r.call_notes) out += fmt::format("note: {}\n", note);
  return out;
}

Json resolution_json(const Resolution& r) {
  Json steps = Json::array();
  for (const ResolveStep& s : r.chain) {
    steps.push_back(Json{{"key", s.key},
                         {"kernel", kernel_json(s)},
                         {"reason", reason_text(s.reason)},
                         {"site", s.site.empty() ? Json() : Json(s.site)},
                         {"key_set", s.key_set}});
  }
  const ResolveStep& win = r.chain.front();
  return Json{{"operator", r.op},
              {"key_set", r.key_set},
              {"thread_local", r.notes},
              {"skipped", r.skipped},
              {"winner", win.key},
              {"kernel", kernel_json(win)},
              {"reason", reason_text(win.reason)},
              {"chain", std::move(steps)},
              {"end", r.end},
              {"notes", r.call_notes}};
}

}  // namespace schemac::inspect::report
