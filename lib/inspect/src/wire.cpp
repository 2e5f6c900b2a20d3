// The JSON form of requests and responses (wire.h): every member of every struct, by name.
#include "schemac/inspect/wire.h"

namespace schemac::inspect::report {

// A reason travels as its text (reason.cpp's one table); any other value reads as missing.
inline void to_json(nlohmann::json& json, const Reason& reason) {
  json = std::string(reason_text(reason));
}
inline void from_json(const nlohmann::json& json, Reason& reason) {
  const std::string* text = json.get_ptr<const std::string*>();
  reason = text ? parse_reason(*text).value_or(Reason::Missing) : Reason::Missing;
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TableRow, key, has_kernel, kernel, reason,
                                                fallthrough, site)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Table, op, kernel_names, rows)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DumpKernel, key, alias, active, debug, site,
                                                has_inferred, inferred, kinds)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Dump, name, has_schema, schema, debug, site,
                                                alias_analysis, kernels)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ResolveStep, key, key_set, has_kernel, kernel,
                                                reason, site)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Resolution, op, key_set, notes, skipped, chain, end,
                                                fails)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OperatorSummary, name, has_schema, schema, site,
                                                keys)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Operators, operators)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OperatorState, summary, table, dump, chains,
                                                takes_tensors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WalkRules, keys, bits, functionality, end, masks,
                                                mask, undefined, sets, end_reasons, end_texts,
                                                end_fails, factory_key, factory_set, notes,
                                                autocast_keys)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Library, operators, walk)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Request, kind, libraries, op, all_keys, keys,
                                                include, exclude, autocast, device, key_sets)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Response, status, operators, table, dump,
                                                resolution, library)

namespace {

// Whether `json` holds a fraction anywhere. The wire has none, and nlohmann converts one to an
// int member (a status) with undefined behaviour when it is out of range (fuzz_table_diff).
bool has_fraction(const nlohmann::json& json) {
  std::vector<const nlohmann::json*> pending = {&json};
  while (!pending.empty()) {
    const nlohmann::json* value = pending.back();
    pending.pop_back();
    if (value->is_number_float()) return true;
    if (value->is_structured())
      for (const nlohmann::json& item : *value) pending.push_back(&item);
  }
  return false;
}

template <typename T>
bool parse(const std::string& text, T& out) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || has_fraction(json)) return false;
  try {
    out = json.get<T>();
  } catch (const nlohmann::json::exception&) {
    return false;
  }
  return true;
}

}  // namespace

nlohmann::json to_wire(const Request& request) { return request; }
nlohmann::json to_wire(const Response& response) { return response; }
bool from_wire(const std::string& text, Request& request) { return parse(text, request); }
bool from_wire(const std::string& text, Response& response) { return parse(text, response); }

}  // namespace schemac::inspect::report
