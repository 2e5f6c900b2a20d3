// Text, torch-style and JSON renderings of computed tables and registration state.
#include "table_format.h"

#include <fmt/format.h>

#include <algorithm>

#include "schemac/support/json.h"

namespace schemac::dispatch {
namespace {

std::string kernel_kinds(const KernelFunction& kernel) {
  std::string out;
  if (kernel.is_valid()) out += "boxed ";
  if (kernel.has_unboxed()) out += "unboxed ";
  return out;
}

// Whether the table lists slot's row: a kernel (or --all-keys) and a key the caller shows.
bool listed(const TableEntry& e, DispatchKey key, const TableOptions& options) {
  if (!e.kernel.is_valid() && !options.all_keys) return false;
  return !options.show_key || options.show_key(key);
}

// A JSON string, or null for an empty text.
Json string_or_null(const std::string& text) { return text.empty() ? Json() : Json(text); }

std::string torch_table(const OperatorEntry& op) {
  std::string out;
  for (int slot = 0; slot < kNumRuntimeEntries; ++slot) {
    const TableEntry& e = op.entry_at_slot(slot);
    if (!e.kernel.is_valid()) continue;
    out += fmt::format("{}: {}{} [{}]\n", to_string(runtime_key_for_slot(slot)),
                       e.kernel.is_fallthrough() ? "fallthrough " : "", e.debug, to_string(e.reason));
  }
  return out;
}

std::string text_table(const OperatorEntry& op, const TableOptions& options) {
  struct Row {
    std::string key, kernel, reason, site;
  };
  std::vector<Row> rows;
  for (int slot = 0; slot < kNumRuntimeEntries; ++slot) {
    const TableEntry& e = op.entry_at_slot(slot);
    if (!listed(e, runtime_key_for_slot(slot), options)) continue;
    std::string reason(to_string(e.reason));
    if (e.kernel.is_fallthrough()) reason += " (fallthrough)";
    rows.push_back({std::string(to_string(runtime_key_for_slot(slot))), e.kernel.is_valid() ? e.debug : "-",
                    reason, e.site.empty() ? "-" : e.site});
  }
  size_t key_width = 3, kernel_width = 6, reason_width = 6;
  for (const Row& r : rows) {
    key_width = std::max(key_width, r.key.size());
    kernel_width = std::max(kernel_width, r.kernel.size());
    reason_width = std::max(reason_width, r.reason.size());
  }
  std::string out = fmt::format("{}\n", op.full_name());
  out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "key", key_width, "kernel", kernel_width, "reason",
                     reason_width, "site");
  for (const Row& r : rows)
    out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", r.key, key_width, r.kernel, kernel_width, r.reason,
                       reason_width, r.site);
  return out;
}

std::string json_table(const OperatorEntry& op, const TableOptions& options) {
  Json entries = Json::array();
  for (int slot = 0; slot < kNumRuntimeEntries; ++slot) {
    const TableEntry& e = op.entry_at_slot(slot);
    const DispatchKey key = runtime_key_for_slot(slot);
    if (!listed(e, key, options)) continue;
    entries.push_back(Json{{"key", to_string(key)},
                           {"kernel", e.kernel.is_valid() ? Json(e.debug) : Json()},
                           {"reason", to_string(e.reason)},
                           {"fallthrough", e.kernel.is_fallthrough()},
                           {"site", string_or_null(e.site)}});
  }
  return to_json_text(Json{{"operator", op.full_name()}, {"entries", std::move(entries)}}) + "\n";
}

std::string alias_kind_text(const OperatorDefinition& def) {
  if (!def.alias_kind) return fmt::format("{} (default)", to_string(AliasAnalysisKind::CONSERVATIVE));
  return std::string(to_string(*def.alias_kind));
}

std::string inferred_text(const AnnotatedKernel& k) {
  return k.inferred ? k.inferred->text : "(none)";
}

std::string torch_dump(const OperatorEntry& op) {
  std::string out = fmt::format("name: {}\n", op.full_name());
  if (const auto& def = op.definition()) {
    out += fmt::format("schema: {}\ndebug: {}\nalias analysis kind: {}\n", def->schema_text, def->debug,
                       alias_kind_text(*def));
  } else {
    out += "schema: (none)\n";
  }
  for (DispatchKey key : op.keys_with_kernels()) {
    const auto& list = op.kernels(key);
    for (size_t i = 0; i < list.size(); ++i)
      out += fmt::format("{}{}{}: {} :: {} [ {}]\n", to_string(key), is_alias_key(key) ? "[alias]" : "",
                         i > 0 ? " (inactive)" : "", list[i].debug, inferred_text(list[i]),
                         kernel_kinds(list[i].kernel));
  }
  return out;
}

std::string json_dump(const OperatorEntry& op) {
  Json out{{"name", op.full_name()}};
  const auto& def = op.definition();
  out["schema"] = def ? Json(def->schema_text) : Json();
  out["debug"] = def ? Json(def->debug) : Json();
  out["site"] = def ? Json(def->site) : Json();
  out["alias_analysis"] = def ? Json(alias_kind_text(*def)) : Json();
  Json kernels = Json::array();
  for (DispatchKey key : op.keys_with_kernels()) {
    const auto& list = op.kernels(key);
    for (size_t i = 0; i < list.size(); ++i) {
      kernels.push_back(Json{{"key", to_string(key)},
                             {"alias", is_alias_key(key)},
                             {"active", i == 0},
                             {"debug", list[i].debug},
                             {"site", list[i].site},
                             {"inferred", list[i].inferred ? Json(list[i].inferred->text) : Json()}});
    }
  }
  out["kernels"] = std::move(kernels);
  return to_json_text(out) + "\n";
}

}  // namespace

std::optional<TableFormat> parse_table_format(std::string_view name) {
  if (name == "text") return TableFormat::Text;
  if (name == "torch") return TableFormat::Torch;
  if (name == "json") return TableFormat::Json;
  return std::nullopt;
}

std::string format_table(const OperatorEntry& op, TableFormat format, const TableOptions& options) {
  switch (format) {
    case TableFormat::Torch: return torch_table(op);
    case TableFormat::Json: return json_table(op, options);
    case TableFormat::Text: break;
  }
  return text_table(op, options);
}

std::string format_dump(const OperatorEntry& op, TableFormat format) {
  return format == TableFormat::Json ? json_dump(op) : torch_dump(op);
}

}  // namespace schemac::dispatch
