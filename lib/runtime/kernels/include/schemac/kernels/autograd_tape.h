// The layering kernels of lib/runtime/kernels (lib/runtime/kernels/layering/): kernels on
// non-backend keys that show how PyTorch stacks functionality above the backend kernels.
//
//   Autograd         every operator of examples/ops.yaml with a tensor argument except the
//                    composites: records a minimal graph node (operator, tensor inputs) on a
//                    thread-local tape while a TapeRecording is active, then redispatches below
//                    autograd, with the autograd keys excluded for the nested calls (an
//                    ExcludeDispatchKeyGuard).
//   ADInplaceOrView  the views (transpose, view) and the in-place and out= operators (fill_,
//                    copy_, add_, relu_, add.out): redispatches below ADInplaceOrView (excluding
//                    it for nested calls), then bumps the version counter of every tensor the
//                    operator wrote, once per call. Backend kernels never bump it, so a write
//                    through the dispatcher counts once and a direct kernel call not at all.
//   AutocastCUDA     mm: casts float32 inputs to float16 and redispatches below autocast.
//
// The operators that return a new tensor get boxed kernels; the in-place and out= ones return the
// `Tensor&` they wrote, which only a typed (unboxed) kernel can hand back to a typed caller.
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
