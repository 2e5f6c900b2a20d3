// lint's rules that look at one schema alone — out= and in-place conventions, mutable returns,
// Python keywords as argument names — for schemas that have no native-functions entry around
// them (C++ and Python registration code). The rules are the entry rules themselves, run on a
// one-entry file made for the schema; their findings are placed by offset in the schema text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::schema {

struct SchemaConventionNote {
  uint32_t offset = 0;  // into the schema text
  std::string message;
};

struct SchemaConventionFinding {
  std::string rule;  // out-annotation, out-position, out-name, out-return, inplace-self,
                     // mutable-return, python-keyword-argument
  uint32_t offset = 0;
  uint32_t length = 0;
  std::string message;
  std::vector<SchemaConventionNote> notes;
};

// The findings for `schema` (one that parses); none for one that does not.
std::vector<SchemaConventionFinding> check_schema_conventions(std::string_view schema);

}  // namespace schemac::schema
