// Why a custom op's schema was not inferred: what inference reports beside (or instead of) the
// schema.
#pragma once

#include <string>

#include "schemac/tokens/mapped_text.h"

namespace schemac::custom_op_inference {

// A custom op whose schema could not be inferred from its type hints: PyTorch rejects the
// function (`rejected`), or what the schema needs is not known without running the file.
struct InferenceProblem {
  tokens::SourcePosition position;
  std::string message;
  bool rejected = true;
};

}  // namespace schemac::custom_op_inference
