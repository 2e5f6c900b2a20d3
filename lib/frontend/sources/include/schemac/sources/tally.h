// What reading registration code looked at, so that "found nothing" is visible: the files read
// and the operators found in each form. `lint` and `parse --source` end with its line.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "schemac/sources/registration_lint.h"

namespace schemac::sources {

struct FormTally {
  size_t files = 0;
  size_t literal = 0;    // schema strings: m.def("..."), Library.define, custom_op(schema=...)
  size_t inferred = 0;   // schemas from a Python function's type hints (custom_op, triton_op)
  size_t helper = 0;     // schemas registered through a helper (direct_register_custom_op, ...)
  size_t legacy = 0;     // c10's RegisterOperators (and torch::jit's) schema strings
  size_t name_only = 0;  // named without a schema: PyTorch infers it when the library loads
  size_t unread = 0;     // Python operators whose name or schema needs the code to run
};

FormTally tally(std::span<const ScannedFile> files);

// "registration code: 3 files; schemas checked: 10 literal, 2 inferred, 1 helper, 1 legacy API;
// 3 name-only (inferred when the library loads)", and ", N not readable statically" when some.
std::string tally_line(const FormTally& tally);

}  // namespace schemac::sources
