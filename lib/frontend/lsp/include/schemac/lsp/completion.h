// Completion of what a registration names from a fixed set: dispatch keys (under `dispatch:` in
// YAML; in C++ the key argument of TORCH_LIBRARY_IMPL and after `DispatchKey::`; in Python the key
// string of `Library.impl` or `dispatch_key=`), tags (after `tags:`) and the fields of a
// native_functions.yaml entry (at an entry's key column).
#pragma once

#include <nlohmann/json.hpp>

#include "schemac/lsp/document.h"
#include "schemac/lsp/text_positions.h"

namespace schemac::lsp {

// A CompletionList ({"isIncomplete": false, "items": [...]}); empty items where nothing fits.
nlohmann::json completion(const Document& document, Position position);

}  // namespace schemac::lsp
