// Hover on an operator definition: on a `func:` line of a YAML file, or on the schema string of
// a `m.def(...)` / `Library.define(...)` / `custom_op(...)` call, the canonical schema and the
// C++ signature its kernels are written with for PyTorch (torchgen's native signature, as `schemac
// gen --target torch` declares them).
#pragma once

#include <nlohmann/json.hpp>

#include "schemac/lsp/document.h"
#include "schemac/lsp/text_positions.h"

namespace schemac::lsp {

// A Hover object ({"contents": MarkupContent markdown}), or null when `position` is not on a
// definition whose schema parses.
nlohmann::json hover(const Document& document, Position position);

}  // namespace schemac::lsp
