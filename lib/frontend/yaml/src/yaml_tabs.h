// YAML indents with spaces only. Parsers report tabs late and vaguely, so the loader finds them
// first (yaml-tab, at the first tab of each line's indentation).
#pragma once

#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/yaml/yaml_loader.h"

namespace schemac::yaml {

void report_tab_indentation(const YamlDocument& doc,
                            std::vector<diagnostics::Diagnostic>& diagnostics);

}  // namespace schemac::yaml
