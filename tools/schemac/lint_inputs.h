// What lint, gen, parse --source and the server read through the command line's reader: each
// input's .schemac.yaml. Which files lint reads is lib/engine's inputs.h.
#pragma once

#include <string>

#include "schemac/config/provider.h"

namespace schemac::tool {

// The .schemac.yaml of each input (`forced`: --config), read as the CLI reads its inputs (binary
// and non-UTF-8 text refused, with why); every rule of the engine may be named in it.
config::ConfigProvider config_provider(const std::string& forced = "");

}  // namespace schemac::tool
