// The layering kernels of lib/kernels (lib/kernels/layering/): kernels on non-backend keys that
// show how PyTorch stacks functionality above the backend kernels.
//
//   Autograd         the operators of examples/ops.yaml that return a new tensor (add.Tensor,
//                    mul, relu, sum, mean, mm, transpose, view, softmax): records a minimal
//                    graph node (operator, inputs) on a thread-local tape while a TapeRecording
//                    is active, then redispatches below autograd, with the autograd keys
//                    excluded for the nested calls (an ExcludeDispatchKeyGuard).
//   ADInplaceOrView  the views (transpose, view): redispatches below ADInplaceOrView, then bumps
//                    the version counter of every tensor the operator wrote to, unless the
//                    backend kernel already did. In-place and out= operators return references,
//                    which these boxed kernels cannot hand to typed callers: they are not layered
//                    yet, and their backend kernels bump the version counter themselves.
//   AutocastCUDA     mm: casts float32 inputs to float16 and redispatches below autocast.
#pragma once

#include <string>
#include <vector>

namespace schemac::kernels {

// One recorded call: the operator and a description of each tensor input ("cpu:float32[2, 3]").
struct TapeNode {
  std::string op;
  std::vector<std::string> inputs;
};

// Records the Autograd kernels' nodes on this thread for its scope (nested scopes share the
// tape). Without one, the Autograd kernels only redispatch.
class TapeRecording {
 public:
  TapeRecording();
  ~TapeRecording();
  TapeRecording(const TapeRecording&) = delete;
  TapeRecording& operator=(const TapeRecording&) = delete;
  // The nodes recorded on this thread since the outermost scope began, oldest first.
  const std::vector<TapeNode>& nodes() const;
};

}  // namespace schemac::kernels
