// `schemac parse --source FILE...`: the schemas written in C++ and Python registration code
// (lib/sources finds them), printed like `schemac parse` prints schemas, each with the file, line
// and column where its string starts and the namespace it registers into. Each file's .schemac.yaml
// applies to the schemas' problems, as in `schemac lint` (lib/engine's apply_configs).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "build_macros.h"
#include "schemac/config/config.h"
#include "schemac/schema/parser.h"
#include "schemac/sources/scan.h"

namespace schemac::tool {

struct ParseSourcesOptions {
  std::vector<std::string> files;
  bool json = false;
  bool yaml = false;  // --format yaml: the registrations as native-functions YAML (lib/adopt)
  bool werror = false;
  bool verbose = false;  // list the registration calls whose schema could not be read statically
  BuildMacroOptions macros;  // -D, -U (with each file's .schemac.yaml's defines)
};

int run_parse_sources(const ParseSourcesOptions& options);

// A C++ or Python file's bytes, whatever their encoding (the scanner takes any bytes: a Latin-1
// comment must not hide the file's schemas); prints "COMMAND: error: cannot read 'PATH': WHY"
// when the file is missing, a folder, unreadable or binary (a NUL byte), as for YAML.
std::optional<std::string> read_source_file(std::string_view command, const std::string& path);

}  // namespace schemac::tool
