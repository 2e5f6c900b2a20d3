// Each input's .schemac.yaml, for lint, gen, parse --source and lsp: lib/engine's inputs.h.
#pragma once

#include "schemac/engine/inputs.h"

namespace schemac::tool {

using engine::config_provider;

}  // namespace schemac::tool
