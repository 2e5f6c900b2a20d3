// Text, torch-style and JSON renderings of computed tables and registration state.
#include "schemac/dispatch/table_format.h"

#include <fmt/format.h>

#include <algorithm>

#include "schemac/schema/printer.h"

namespace schemac::dispatch {
namespace {

std::string kernel_kinds(const KernelFunction& kernel) {
  std::string out;
  if (kernel.is_valid()) out += "boxed ";
  if (kernel.has_unboxed()) out += "unboxed ";
  return out;
}

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
    if (!e.kernel.is_valid() && !options.all_keys) continue;
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
  std::string out = fmt::format("{{\"operator\":{},\"entries\":[", json_string(op.full_name()));
  bool first = true;
  for (int slot = 0; slot < kNumRuntimeEntries; ++slot) {
    const TableEntry& e = op.entry_at_slot(slot);
    if (!e.kernel.is_valid() && !options.all_keys) continue;
    if (!first) out += ",";
    first = false;
    out += fmt::format("{{\"key\":{},\"kernel\":{},\"reason\":{},\"fallthrough\":{},\"site\":{}}}",
                       json_string(to_string(runtime_key_for_slot(slot))),
                       e.kernel.is_valid() ? json_string(e.debug) : "null", json_string(to_string(e.reason)),
                       e.kernel.is_fallthrough() ? "true" : "false",
                       e.site.empty() ? "null" : json_string(e.site));
  }
  return out + "]}\n";
}

std::string alias_kind_text(const OperatorDefinition& def) {
  if (!def.alias_kind) return fmt::format("{} (default)", to_string(AliasAnalysisKind::CONSERVATIVE));
  return std::string(to_string(*def.alias_kind));
}

std::string inferred_text(const AnnotatedKernel& k) {
  return k.inferred ? schema::print_schema(*k.inferred) : "(none)";
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
  std::string out = fmt::format("{{\"name\":{}", json_string(op.full_name()));
  if (const auto& def = op.definition()) {
    out += fmt::format(",\"schema\":{},\"debug\":{},\"site\":{},\"alias_analysis\":{}", json_string(def->schema_text),
                       json_string(def->debug), json_string(def->site), json_string(alias_kind_text(*def)));
  } else {
    out += ",\"schema\":null,\"debug\":null,\"site\":null,\"alias_analysis\":null";
  }
  out += ",\"kernels\":[";
  bool first = true;
  for (DispatchKey key : op.keys_with_kernels()) {
    const auto& list = op.kernels(key);
    for (size_t i = 0; i < list.size(); ++i) {
      if (!first) out += ",";
      first = false;
      out += fmt::format("{{\"key\":{},\"alias\":{},\"active\":{},\"debug\":{},\"site\":{},\"inferred\":{}}}",
                         json_string(to_string(key)), is_alias_key(key) ? "true" : "false",
                         i == 0 ? "true" : "false", json_string(list[i].debug), json_string(list[i].site),
                         list[i].inferred ? json_string(schema::print_schema(*list[i].inferred)) : "null");
    }
  }
  return out + "]}\n";
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

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        else
          out += c;
    }
  }
  return out + "\"";
}

}  // namespace schemac::dispatch
