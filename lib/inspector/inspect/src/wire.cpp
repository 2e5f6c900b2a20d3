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
                                                fails, call_notes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OperatorSummary, name, has_schema, schema, site,
                                                keys)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Operators, operators)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OperatorState, summary, table, dump, chains,
                                                takes_tensors, takes_device)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WalkRules, keys, bits, functionality, end, masks,
                                                mask, undefined, sets, end_reasons, end_texts,
                                                end_fails, select_key, devices, device_sets,
                                                tensor_sets, autocast_devices, autocast_sets,
                                                inference_not_included, inference_excluded, notes,
                                                autocast_keys, other_keys, key_names)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Library, operators, walk)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CallSpec, keys, tensors, inference_tensors, include,
                                                exclude, autocast, inference_mode, device)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Request, kind, libraries, op, all_keys, call,
                                                several, calls)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Response, status, operators, table, dump,
                                                resolution, library, refused)

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

// `json` as a T, when it is one.
template <typename T>
bool parse_json(const nlohmann::json& json, T& out) {
  if (!json.is_object() || has_fraction(json)) return false;
  try {
    out = json.get<T>();
  } catch (const nlohmann::json::exception&) {
    return false;
  }
  return true;
}

nlohmann::json parsed(std::string_view text) {
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace

nlohmann::json to_wire(const CallSpec& call) { return call; }
nlohmann::json to_wire(const Request& request) { return request; }
nlohmann::json to_wire(const Response& response) { return response; }
bool from_wire(const std::string& text, Request& request) {
  return parse_json(parsed(text), request);
}

bool from_wire(const std::string& text, Response& response) {
  ResponseReader reader;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = std::string_view(text).substr(start, end - start);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos && !reader.add_line(line))
      return false;
    start = end + 1;
  }
  std::optional<Response> read = reader.finish();
  if (!read) return false;
  response = std::move(*read);
  return true;
}

std::string operator_line(const OperatorState& op) {
  return nlohmann::json{{"operator", op}}.dump() + "\n";
}

std::string response_line(const Response& response) { return to_wire(response).dump() + "\n"; }

bool ResponseReader::add_line(std::string_view line) {
  if (complete_) return false;
  nlohmann::json json = parsed(line);
  if (json.is_object() && json.size() == 1 && json.contains("operator"))
    return parse_json(json["operator"], operators_.emplace_back());
  if (!parse_json(json, response_)) return false;
  complete_ = true;
  return true;
}

std::optional<Response> ResponseReader::finish() {
  if (!complete_) return std::nullopt;
  if (!operators_.empty()) response_.library.operators = std::move(operators_);
  return std::move(response_);
}

}  // namespace schemac::inspect::report
