// The boundary between the CUDA kernels' host logic (cuda/ops.cpp, plain C++) and the .cu files
// that launch device code. Nothing here needs CUDA headers; launch errors are thrown as
// dispatch::TensorError naming the operator and CUDA's message.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/loop_plan.h"
#include "schemac/core/scalar_type.h"

namespace schemac::kernels::cuda {

using core::ScalarType;

using core::Scalar;
using core::ScalarType;

inline constexpr int kMaxDims = 16;

// A LoopPlan in a form a kernel can take by value.
struct DevicePlan {
  int ndim = 0;
  int nops = 0;
  int64_t numel = 0;
  int64_t sizes[kMaxDims] = {};                  // dimension 0 innermost
  int64_t strides[kMaxDims][kMaxOperands] = {};  // bytes
  char* data[kMaxOperands] = {};
};
// Throws TensorError when the plan has more than kMaxDims dimensions after merging.
DevicePlan to_device_plan(const LoopPlan& plan);

// ## Runtime
int device_count();
void set_device(int index);
enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };
void copy_bytes(void* dst, const void* src, std::size_t nbytes, CopyKind kind);

// ## Element-wise (every operand of the plan has the dtype given, except convert's source)
void convert_elements(ScalarType dst, ScalarType src, const DevicePlan& plan);  // dst, src
void fill(ScalarType t, const DevicePlan& plan, const core::Scalar& value);     // operands: dst
enum class BinaryOp { Add, Mul };
void binary(BinaryOp op, ScalarType t, const DevicePlan& plan,
            const core::Scalar& alpha);           // out, a, b
void relu(ScalarType t, const DevicePlan& plan);  // out, in

// ## Rows: `rows` contiguous rows of `len` elements
void reduce_rows(ScalarType t, const void* in, void* out, int64_t rows, int64_t len, bool mean);
void softmax_rows(ScalarType t, const void* in, void* out, int64_t rows, int64_t len);

// ## mm: C (m x n, contiguous) = A (m x k, strides in elements) * B (k x n)
void mm(ScalarType t, const void* a, int64_t a_row, int64_t a_col, const void* b, int64_t b_row,
        int64_t b_col, void* c, int64_t m, int64_t n, int64_t k);

}  // namespace schemac::kernels::cuda
