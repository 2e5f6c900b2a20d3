// Hover on an operator definition: on a `func:` line of a YAML file, on the schema string of a
// `m.def(...)` / `Library.define(...)` call, or on a Python `custom_op` / `triton_op` function
// (the schema inferred from its type hints, as torch.library.infer_schema gives it), the
// canonical schema and the C++ signature its kernels are written with for PyTorch (torchgen's
// native signature, as `schemac gen --target torch` declares them); on an `m.impl(...)`, the
// operator it implements, its key and kernel.
#pragma once

#include <nlohmann/json.hpp>

#include "schemac/lsp/document.h"
#include "schemac/lsp/text_positions.h"
#include "schemac/sources/scan.h"

namespace schemac::lsp {

// A Hover object ({"contents": MarkupContent markdown}), or null when `position` is not on a
// definition whose schema parses nor on an implementation. Registration code is read with
// `options` (the document's config's custom-op-helpers: and defines:).
nlohmann::json hover(const Document& document, Position position,
                     const sources::ScanOptions& options = {});

}  // namespace schemac::lsp
