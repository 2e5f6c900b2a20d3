// `schemac parse --source FILE...`: the schemas written in C++ and Python registration code
// (lib/engine reads the files as lint does, under each one's .schemac.yaml), printed like
// `schemac parse` prints schemas, each with the file, line and column where its string starts;
// --format yaml writes the registrations as native-functions YAML (lib/adopt).
#pragma once

#include <string>
#include <vector>

#include "build_macros.h"

namespace schemac::tool {

struct ParseSourcesOptions {
  std::vector<std::string> files;
  bool json = false;
  bool yaml = false;  // --format yaml
  bool werror = false;
  bool verbose = false;      // list the registration calls whose schema is not a literal
  BuildMacroOptions macros;  // -D, -U (with each file's .schemac.yaml's defines)
};

int run_parse_sources(const ParseSourcesOptions& options);

}  // namespace schemac::tool
