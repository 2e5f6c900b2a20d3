// fastops::norm's kernels and fastops::add_one.
#include "fastops/kernels.h"

namespace fastops {
namespace norm {

std::tuple<at::Tensor, at::Tensor> rms_norm(const at::Tensor& input, double eps) {
  at::Tensor rms = (input * input).mean(-1, true).add(eps).rsqrt();
  return {input * rms, rms};
}

}  // namespace norm

at::Tensor add_one(const at::Tensor& input) { return input + 1; }

}  // namespace fastops
