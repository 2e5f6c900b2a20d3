// A custom op's schema inferred from its Python function, as torch.library.infer_schema does:
// each parameter's hint through the parameter table (see python_hints.h), `*` before the first
// keyword-only one, defaults as PyTorch writes them, mutated Tensors annotated Tensor(aN!) with N
// the parameter's index, and the return hint through the return table. From 2.13 custom_op's
// tags shape the schema: torch.Tag.inplace returns Tensor(aN!) of the first argument, torch.Tag.out
// the keyword-only out arguments' Tensor(aN!). What PyTorch rejects is an error; what cannot be
// known without running the file (a hint or default defined in another file, mutates_args held in
// a variable) is reported as such and gives no schema.
#pragma once

#include <optional>
#include <vector>

#include "schemac/custom_op_inference/inference_problem.h"
#include "schemac/custom_op_inference/python_module.h"
#include "schemac/custom_op_inference/python_values.h"
#include "schemac/torch_releases/torch_release.h"

namespace schemac::custom_op_inference {

struct InferredSignature {
  std::optional<tokens::MappedText> signature;  // "(Tensor x, *, SymInt n=1) -> Tensor"
  std::vector<InferenceProblem> problems;
};

// What the registering call adds to the function's hints.
struct InferenceContext {
  // The release whose torch infers the schema (--torch-version, the config's torch-version).
  torch_releases::TorchVersion release = torch_releases::kNewestTorchVersion;
  // custom_op's tags= (none given: none).
  CustomOpTags tags;
  // torch.library.custom_op and triton_op, which make a CustomOpDef: it refuses keyword-only
  // Tensor parameters unless the op is tagged torch.Tag.out. Helpers that define the schema
  // through Library.define do not.
  bool custom_op_def = false;
};

// The function whose `def` token is at `def_token`, registered as operator `op` (for messages).
InferredSignature infer_signature(const PythonModule& module, size_t def_token,
                                  const MutatesArgs& mutates,
                                  tokens::SourcePosition mutates_position, const std::string& op,
                                  const InferenceContext& context = {});

}  // namespace schemac::custom_op_inference
