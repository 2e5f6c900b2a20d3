// A custom op's schema inferred from its Python function, as torch.library.infer_schema does:
// each parameter's hint through the parameter table (see python_hints.h), `*` before the first
// keyword-only one, defaults as PyTorch writes them, mutated Tensors annotated Tensor(aN!) with N
// the parameter's index, and the return hint through the return table. What PyTorch rejects is
// an error; what cannot be known without running the file (a hint or default defined in another
// file, mutates_args held in a variable) is reported as such and gives no schema.
#pragma once

#include <optional>
#include <vector>

#include "schemac/custom_op_inference/inference_problem.h"
#include "schemac/custom_op_inference/python_module.h"
#include "schemac/custom_op_inference/python_values.h"

namespace schemac::custom_op_inference {

struct InferredSignature {
  std::optional<tokens::MappedText> signature;  // "(Tensor x, *, SymInt n=1) -> Tensor"
  std::vector<InferenceProblem> problems;
};

// The function whose `def` token is at `def_token`, registered as operator `op` (for messages).
InferredSignature infer_signature(const PythonModule& module, size_t def_token,
                                  const MutatesArgs& mutates,
                                  tokens::SourcePosition mutates_position, const std::string& op);

}  // namespace schemac::custom_op_inference
