// Parse results as JSON, the objects `schemac parse --json` prints one per line (a documented
// output other programs read), for any front end that hands a parsed schema to another program.
#pragma once

#include <string>

#include "schemac/schema/parser.h"
#include "schemac/sources/scan.h"

namespace schemac::schema_json {

// {"ok":true,"canonical":...,"schema":{"name","overload","arguments","returns","is_vararg",
// "is_varret"},"warnings":[...]} or {"ok":false,"error":...,"column":...,"rule":...,
// "warnings":[...]}; an argument is {"name","type","default","kwarg_only","alias"}, its alias
// PyTorch's c10::AliasInfo ({"before","after","write"}, a list's element under "contained").
// Columns count from 1 in the schema text.
std::string parse_result_json(const schema::ParseResult& result);

// The object of a schema found in registration code (`parse --source --json`): the above, with
// `file`, `line`, `column` (where the string starts) and `namespace` (null when unknown); an
// error's place in the file is `error_line` / `error_column`, a warning's `source_line` /
// `source_column`.
std::string found_schema_json(const std::string& path, const sources::FoundSchema& found,
                              const schema::ParseResult& result);

}  // namespace schemac::schema_json
