// The norm operators' binding file: a fragment's kernels, and an operator registered through
// c10's older RegisterOperators API.
#include <torch/library.h>

#include "fastops/kernels.h"

TORCH_LIBRARY_IMPL(fastops, CPU, m) { m.impl("rms_norm", &fastops::norm::rms_norm); }

static auto legacy = torch::RegisterOperators().op(
    "fastops_legacy::add_one(Tensor input) -> Tensor",
    torch::RegisterOperators::options().kernel<decltype(fastops::add_one), &fastops::add_one>(
        c10::DispatchKey::CPU));
