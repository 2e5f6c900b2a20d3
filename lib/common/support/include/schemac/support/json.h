// The project's one JSON library, nlohmann-json: every JSON and SARIF output is built as a Json
// value and printed with to_json_text, never escaped by hand, so it is valid JSON whatever the
// names and messages hold (quotes, control characters, bytes that are not UTF-8).
//
// Targets that include this header link nlohmann_json::nlohmann_json (header-only).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace schemac::support {

// Objects keep their members in the order they were added (the outputs' documented order).
using Json = nlohmann::ordered_json;

// Compact JSON text, as {"a":1,"b":[true,null]}: no spaces, no newline. Non-ASCII text stays
// UTF-8; bytes that are not UTF-8 become U+FFFD.
inline std::string to_json_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace schemac::support
