// The renderers of the report model (report.h): one per format, the same for every runtime.
//   text   for people: aligned columns, "key: value" lines
//   torch  PyTorch's own printing (torch._C._dispatch_dump_table, torch._C._dispatch_dump)
//   json   compact JSON, members in the documented order (docs/dispatch-inspect.md)
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "schemac/inspect/columns.h"
#include "schemac/inspect/report.h"

namespace schemac::inspect::report {

using Json = nlohmann::ordered_json;

// Compact JSON text, bytes that are not UTF-8 replaced (as schemac::to_json_text).
std::string json_text(const Json& value);

// The computed table. Text: aligned columns key, kernel, reason, site (key, reason, registered
// where the runtime keeps no kernel names). Torch: `Key: [fallthrough ]<kernel> [<reason>]` per
// row that has a kernel. JSON: {"operator", "entries":
// [{"key","kernel","reason","fallthrough","site"}]}.
std::string table_text(const Table& table, size_t columns = kTextColumns);
std::string table_torch(const Table& table);
Json table_json(const Table& table);

// Pictures. The table as Graphviz DOT or Mermaid: a node per runtime key, an edge to its kernel
// labelled and coloured by the reason (black direct, blue default backend, darkgreen math,
// purple autograd, orange fallback, gray dashed fallthrough, red missing or ambiguous).
std::string table_dot(const Table& table);
std::string table_mermaid(const Table& table);

// The registration state. Torch (and text, the same): `_dispatch_dump`'s lines. JSON: {"name",
// "schema","debug","site","alias_analysis","kernels":[{"key","alias","active","debug","site","inferred"}]}.
std::string dump_torch(const Dump& dump);
Json dump_json(const Dump& dump);

// A resolution: "key set:", "skipped (fallthrough):", "winner:", ..., the chain, "end:".
std::string resolution_text(const Resolution& resolution);
Json resolution_json(const Resolution& resolution);
// The redispatch chain as a picture: a node per step (key, kernel, reason, the key set it
// dispatched on), then why it ends.
std::string resolution_dot(const Resolution& resolution);
std::string resolution_mermaid(const Resolution& resolution);

// The operators: one schema per line (or "NAME (no schema: ...)"); JSON {"operators": [...]}.
std::string operators_text(const Operators& operators);
Json operators_json(const Operators& operators);

}  // namespace schemac::inspect::report
