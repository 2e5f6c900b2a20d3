// Every CUDA kernel against its CPU counterpart (itself tested against reference loops), on
// contiguous, strided and broadcast inputs. Without a GPU every test skips and says why.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "kernel_test_util.h"
#include "schemac/kernels/native_functions.h"

namespace schemac::kernels {

using core::IntArrayRef, core::Scalar, core::ScalarType, core::Tensor;

namespace {

using testing::gapped;
using testing::sample;
using testing::transposed_layout;
using testing::values;

const core::Device kGpu(core::DeviceType::CUDA, 0);

class Cuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0)
      GTEST_SKIP() << "no CUDA device: cuda_device_count() is 0 (built without CUDA, or no GPU present)";
  }
};

Tensor gpu(const Tensor& t) { return to_device(t, kGpu); }
Tensor cpu(const Tensor& t) { return to_device(t, core::kCPU); }

void expect_same(const Tensor& got_gpu, const Tensor& want_cpu, double tol, const std::string& what) {
  ASSERT_TRUE(got_gpu.is_cuda()) << what;
  ASSERT_EQ(got_gpu.sizes(), want_cpu.sizes()) << what;
  ASSERT_EQ(got_gpu.dtype(), want_cpu.dtype()) << what;
  const auto got = values(cpu(got_gpu));
  const auto want = values(want_cpu);
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i;
      continue;
    }
    ASSERT_NEAR(got[i], want[i], tol * std::max(1.0, std::abs(want[i]))) << what << " at " << i;
  }
}

const ScalarType kTypes[] = {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
                             ScalarType::Int, ScalarType::Long, ScalarType::Bool};

TEST_F(Cuda, EmptyCopyRoundTripAndKeys) {
  const Tensor e = empty_cuda({2, 3}, ScalarType::Float, std::nullopt, kGpu, std::nullopt, std::nullopt);
  EXPECT_TRUE(e.is_cuda());
  EXPECT_TRUE(e.key_set().has(keys::DispatchKey::CUDA));
  for (ScalarType from : kTypes) {
    for (ScalarType to : kTypes) {
      const Tensor x = sample({5, 7}, from, 3);
      Tensor dst = gpu(transposed_layout(sample({5, 7}, to)));
      copy_cuda_(dst, gpu(x), false);                 // device to device, with conversion
      Tensor want = transposed_layout(sample({5, 7}, to));
      copy_cpu_(want, x, false);
      expect_same(dst, want, 0, "copy");
      Tensor host = Tensor::empty({5, 7}, {to});
      copy_cuda_(host, gpu(x), false);                // device to host, with conversion
      EXPECT_EQ(values(host), values(want));
    }
  }
  Tensor broadcast_dst = gpu(sample({3, 4}, ScalarType::Float));
  copy_cuda_(broadcast_dst, sample({4}, ScalarType::Float, 8), false);  // host to device, broadcast
  Tensor want = sample({3, 4}, ScalarType::Float);
  copy_cpu_(want, sample({4}, ScalarType::Float, 8), false);
  expect_same(broadcast_dst, want, 0, "copy broadcast");
}

TEST_F(Cuda, FillAddMulRelu) {
  for (ScalarType t : kTypes) {
    const Tensor a = sample({33, 65}, t, 1);
    const Tensor b = sample({65}, t, 2);
    const Scalar alpha = t == ScalarType::Bool ? Scalar(true) : Scalar(2);
    expect_same(add_cuda(gpu(transposed_layout(a)), gpu(b), alpha), add_cpu(a, b, alpha), 1e-2, "add");
    expect_same(mul_cuda(gpu(gapped(a)), gpu(b)), mul_cpu(a, b), 1e-2, "mul");
    Tensor in_place = gpu(a);
    add_cuda_(in_place, gpu(b), alpha);
    expect_same(in_place, add_cpu(a, b, alpha), 1e-2, "add_");
    Tensor out = gpu(Tensor::empty({1}, {t}));
    add_out_cuda(gpu(a), gpu(b), alpha, out);
    expect_same(out, add_cpu(a, b, alpha), 1e-2, "add.out");
    Tensor filled = gpu(gapped(a));
    fill_cuda_(filled, Scalar(1));
    Tensor filled_cpu = gapped(a);
    fill_cpu_(filled_cpu, Scalar(1));
    expect_same(filled, filled_cpu, 0, "fill_");
    if (t != ScalarType::Bool) {
      expect_same(relu_cuda(gpu(transposed_layout(a))), relu_cpu(a), 0, "relu");
      Tensor r = gpu(a);
      relu_cuda_(r);
      expect_same(r, relu_cpu(a), 0, "relu_");
    }
  }
  // A large contiguous add exercises the vectorised path.
  const Tensor big = sample({1 << 20}, ScalarType::Float, 5);
  expect_same(add_cuda(gpu(big), gpu(big), 1), add_cpu(big, big, 1), 0, "big add");
}

TEST_F(Cuda, Reductions) {
  for (ScalarType t : kTypes) {
    const Tensor x = sample({6, 50, 7}, t, 4);
    for (const std::vector<int64_t>& dims : {std::vector<int64_t>{}, {0}, {1}, {2}, {0, 2}}) {
      expect_same(sum_dim_cuda(gpu(transposed_layout(x)), IntArrayRef(dims), true, std::nullopt),
                  sum_dim_cpu(x, IntArrayRef(dims), true, std::nullopt), 1e-2, "sum");
      if (core::is_floating_point(t))
        expect_same(mean_dim_cuda(gpu(x), IntArrayRef(dims), false, std::nullopt),
                    mean_dim_cpu(x, IntArrayRef(dims), false, std::nullopt), 1e-2, "mean");
    }
  }
}

TEST_F(Cuda, SoftmaxAndMm) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16}) {
    const Tensor x = sample({4, 9, 300}, t, 6);
    for (int64_t dim : {0, 1, 2})
      expect_same(softmax_cuda(gpu(x), dim, std::nullopt), softmax_cpu(x, dim, std::nullopt), 1e-2, "softmax");
  }
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::Long}) {
    const Tensor a = sample({70, 130}, t, 7);
    const Tensor b = sample({130, 33}, t, 8);
    expect_same(mm_cuda(gpu(transposed_layout(a)), gpu(b)), mm_cpu(a, b), 1e-2, "mm");
    expect_same(matmul(gpu(a), gpu(b)), mm_cpu(a, b), 1e-2, "matmul");
  }
  // Several 128 x 128 tiles of C with partial ones at the edges, k not a multiple of the tile's 8,
  // each operand both contiguous and transposed.
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::BFloat16, ScalarType::Long}) {
    const Tensor a = sample({300, 261}, t, 9);
    const Tensor b = sample({261, 200}, t, 10);
    const Tensor want = mm_cpu(a, b);
    expect_same(mm_cuda(gpu(a), gpu(b)), want, 1e-2, "mm, tiles");
    expect_same(mm_cuda(gpu(transposed_layout(a)), gpu(transposed_layout(b))), want, 1e-2, "mm, tiles, transposed");
  }
}

}  // namespace
}  // namespace schemac::kernels
