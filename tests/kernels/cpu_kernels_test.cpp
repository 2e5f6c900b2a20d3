// Every CPU kernel against plain reference loops, for contiguous, strided, transposed and
// broadcast inputs and the dtypes that matter.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "kernel_test_util.h"
#include "schemac/gemm/gemm.h"
#include "schemac/kernels/cpu_features.h"
#include "schemac/kernels/native_functions.h"
#include "schemac/support/thread_pool.h"

namespace schemac::kernels {

using core::IntArrayRef, core::MemoryFormat, core::Scalar, core::ScalarType, core::Tensor,
    support::parallel_for;

namespace {

using gemm::CpuIsa, gemm::detected_isa, gemm::set_mm_isa;
using testing::gapped;
using testing::sample;
using testing::transposed_layout;
using testing::unravel;
using testing::value_at;
using testing::values;

// Tolerance for comparing a kernel's result with a double-precision reference.
double tolerance(ScalarType t) {
  switch (t) {
    case ScalarType::Half: return 2e-3;
    case ScalarType::BFloat16: return 1e-2;
    case ScalarType::Float: return 1e-5;
    default: return 1e-12;
  }
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, ScalarType t,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const double tol = tolerance(t);
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i;
      continue;
    }
    ASSERT_NEAR(got[i], want[i], tol * std::max(1.0, std::abs(want[i]))) << what << " at " << i;
  }
}

// Reference: element i of `t` broadcast to `shape` (row-major over shape).
double broadcast_value(const Tensor& t, IntArrayRef shape, int64_t linear) {
  const auto index = unravel(linear, shape);
  std::vector<int64_t> own(t.dim());
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t sd = static_cast<int64_t>(shape.size()) - t.dim() + d;
    own[d] = t.size(d) == 1 ? 0 : index[sd];
  }
  int64_t flat = 0;
  for (int64_t d = 0; d < t.dim(); ++d) flat = flat * t.size(d) + own[d];
  return value_at(t, flat);
}

// Reference broadcasting of two shapes (they are known to be compatible here).
std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t sa = i + a.size() < n ? 1 : a[i + a.size() - n];
    const int64_t sb = i + b.size() < n ? 1 : b[i + b.size() - n];
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

double round_to(ScalarType t, double v) {
  Tensor one = Tensor::empty({}, {t});
  testing::set_values(one, {v});
  return value_at(one, 0);
}

const ScalarType kAllTypes[] = {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                                ScalarType::BFloat16, ScalarType::Int, ScalarType::Long, ScalarType::Bool};

// ## Layout variants of an input

enum class Layout2 { Contiguous, Gapped, Transposed };
const char* name(Layout2 l) {
  return l == Layout2::Contiguous ? "contiguous" : l == Layout2::Gapped ? "gapped" : "transposed";
}
Tensor with_layout(const Tensor& t, Layout2 l) {
  switch (l) {
    case Layout2::Contiguous: return t;
    case Layout2::Gapped: return gapped(t);
    case Layout2::Transposed: return t.dim() >= 2 ? transposed_layout(t) : gapped(t);
  }
  return t;
}

// ## add / mul

struct BinaryShapes {
  std::vector<int64_t> a, b;
};
const BinaryShapes kBinaryShapes[] = {
    {{5, 7}, {5, 7}},       {{5, 7}, {7}},       {{5, 1}, {1, 7}},   {{3, 1, 4}, {2, 1}},
    {{2, 3, 4}, {}},        {{}, {3, 4}},        {{0, 3}, {3}},      {{1000}, {1000}},
    {{64, 1031}, {64, 1031}},  // large enough for several threads, odd length
};

TEST(CpuAdd, MatchesReferenceForShapesLayoutsAndTypes) {
  for (ScalarType t : kAllTypes) {
    for (const auto& shapes : kBinaryShapes) {
      for (Layout2 la : {Layout2::Contiguous, Layout2::Gapped, Layout2::Transposed}) {
        const Tensor a0 = sample(shapes.a, t, 1);
        const Tensor b0 = sample(shapes.b, t, 2);
        const Tensor a = with_layout(a0, la);
        const Tensor b = with_layout(b0, Layout2::Gapped);
        const Scalar alpha = t == ScalarType::Bool ? Scalar(true) : Scalar(2);
        const Tensor out = add_cpu(a, b, alpha);
        const auto shape = broadcast_shapes(shapes.a, shapes.b);
        ASSERT_EQ(out.sizes().vec(), shape);
        ASSERT_EQ(out.dtype(), t);
        std::vector<double> want(out.numel());
        for (int64_t i = 0; i < out.numel(); ++i) {
          const double x = broadcast_value(a0, shape, i), y = broadcast_value(b0, shape, i);
          want[i] = t == ScalarType::Bool ? double(x != 0 || y != 0) : round_to(t, x + 2 * y);
        }
        expect_close(values(out), want, t,
                     fmt::format("add {} {} {}", core::to_string(t), to_string(IntArrayRef(shapes.a)), name(la)));
      }
    }
  }
}

TEST(CpuAdd, LongFloatRunsWithAnyAlignment) {
  // Operands together larger than cache_resident_bytes() take the streaming-store path; offsets
  // 0..3 vary the alignment.
  const int64_t n = cache_resident_bytes() / 12 + 4096 + 7;
  const Tensor a = sample({n + 3}, ScalarType::Float, 31);
  const Tensor b = sample({n + 3}, ScalarType::Float, 37);
  const auto av = values(a), bv = values(b);
  for (int64_t offset = 0; offset < 4; ++offset) {
    const Tensor x = a.as_strided({n}, {1}, offset);
    const Tensor y = b.as_strided({n}, {1}, 3 - offset);
    Tensor out = Tensor::empty({n + 3}).as_strided({n}, {1}, offset);
    add_out_cpu(x, y, 0.5, out);
    const float* o = static_cast<const float*>(out.data_ptr());
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(o[i], static_cast<float>(av[i + offset]) + 0.5f * static_cast<float>(bv[i + 3 - offset])) << i;
    const Tensor m = mul_cpu(x, y);
    for (int64_t i = 0; i < n; i += 997) ASSERT_EQ(value_at(m, i), av[i + offset] * bv[i + 3 - offset]) << i;
  }
}

TEST(CpuAdd, AlphaAndPromotion) {
  const Tensor i = sample({4}, ScalarType::Int);
  const Tensor f = sample({4}, ScalarType::Float, 3);
  const Tensor r = add_cpu(i, f, Scalar(0.5));
  EXPECT_EQ(r.dtype(), ScalarType::Float);
  for (int64_t k = 0; k < 4; ++k) EXPECT_DOUBLE_EQ(value_at(r, k), value_at(i, k) + 0.5 * value_at(f, k));
  // A 0-d double does not widen a float tensor; a 0-d float makes an int tensor float.
  const Tensor zero_d = sample({}, ScalarType::Double);
  EXPECT_EQ(add_cpu(f, zero_d, 1).dtype(), ScalarType::Float);
  EXPECT_EQ(add_cpu(i, sample({}, ScalarType::Float), 1).dtype(), ScalarType::Float);
  EXPECT_EQ(add_cpu(i, sample({}, ScalarType::Long), 1).dtype(), ScalarType::Int);
  EXPECT_EQ(add_cpu(sample({2}, ScalarType::Half), sample({2}, ScalarType::BFloat16), 1).dtype(), ScalarType::Float);
}

TEST(CpuAdd, ErrorsNameTheProblem) {
  const Tensor i = sample({4}, ScalarType::Long);
  try {
    add_cpu(i, i, Scalar(0.5));
    FAIL();
  } catch (const core::TensorError& e) {
    EXPECT_STREQ(e.what(),
                 "add: for integral input tensors, argument alpha must not be a floating point number (got 0.5)");
  }
  try {
    add_cpu(sample({2, 3}, ScalarType::Float), sample({4}, ScalarType::Float), 1);
    FAIL();
  } catch (const core::TensorError& e) {
    EXPECT_STREQ(e.what(),
                 "the size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1 "
                 "(shapes [2, 3] and [4])");
  }
  Tensor l = sample({4}, ScalarType::Long);
  EXPECT_THROW(add_cpu_(l, sample({4}, ScalarType::Float), 1), core::TensorError);  // float into int64
  Tensor small = sample({1, 4}, ScalarType::Float);
  EXPECT_THROW(add_cpu_(small, sample({3, 4}, ScalarType::Float), 1), core::TensorError);  // no resize
}

TEST(CpuAdd, InPlaceAndOutVariants) {
  Tensor self = gapped(sample({3, 5}, ScalarType::Float));
  const auto before = values(self);
  const Tensor other = sample({5}, ScalarType::Float, 9);
  const uint32_t version = self.version();
  Tensor& same = add_cpu_(self, other, 3);
  EXPECT_TRUE(same.is_same(self));
  EXPECT_EQ(self.version(), version) << "the ADInplaceOrView kernel bumps it, not the backend (layering_test)";
  for (int64_t i = 0; i < 15; ++i) EXPECT_FLOAT_EQ(value_at(self, i), before[i] + 3 * value_at(other, i % 5));

  Tensor out = Tensor::empty({1}, {ScalarType::Double});
  add_out_cpu(sample({3, 5}, ScalarType::Float), other, 1, out);  // resized; float result into double
  EXPECT_EQ(out.sizes(), IntArrayRef({3, 5}));
  EXPECT_EQ(out.dtype(), ScalarType::Double);
  EXPECT_DOUBLE_EQ(value_at(out, 7), value_at(sample({3, 5}, ScalarType::Float), 7) + value_at(other, 2));
}

TEST(CpuAdd, ChannelsLastInputGivesChannelsLastOutput) {
  Tensor x = Tensor::empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast);
  testing::set_values(x, testing::sample_values(x.numel(), ScalarType::Float, 4));
  const Tensor r = add_cpu(x, x, 1);
  EXPECT_TRUE(r.is_contiguous(MemoryFormat::ChannelsLast));
  for (int64_t i = 0; i < x.numel(); ++i) EXPECT_FLOAT_EQ(value_at(r, i), 2 * value_at(x, i));
}

TEST(CpuMul, MatchesReference) {
  for (ScalarType t : kAllTypes) {
    for (const auto& shapes : kBinaryShapes) {
      const Tensor a0 = sample(shapes.a, t, 5);
      const Tensor b0 = sample(shapes.b, t, 6);
      const Tensor out = mul_cpu(with_layout(a0, Layout2::Transposed), b0);
      const auto shape = broadcast_shapes(shapes.a, shapes.b);
      std::vector<double> want(out.numel());
      for (int64_t i = 0; i < out.numel(); ++i)
        want[i] = round_to(t, broadcast_value(a0, shape, i) * broadcast_value(b0, shape, i));
      expect_close(values(out), want, t, fmt::format("mul {}", core::to_string(t)));
    }
  }
}

// ## relu

TEST(CpuRelu, MatchesReferenceAndKeepsNaN) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
                       ScalarType::Int, ScalarType::Long}) {
    for (Layout2 l : {Layout2::Contiguous, Layout2::Gapped, Layout2::Transposed}) {
      const Tensor x0 = sample({37, 41}, t, 7);
      const Tensor r = relu_cpu(with_layout(x0, l));
      std::vector<double> want = values(x0);
      for (double& v : want) v = std::max(v, 0.0);
      expect_close(values(r), want, t, fmt::format("relu {} {}", core::to_string(t), name(l)));
      Tensor in_place = with_layout(x0, l);
      relu_cpu_(in_place);
      expect_close(values(in_place), want, t, "relu_");
    }
  }
  Tensor n = Tensor::empty({2});
  n.data_ptr<float>()[0] = std::nanf("");
  n.data_ptr<float>()[1] = -1.0f;
  const Tensor r = relu_cpu(n);
  EXPECT_TRUE(std::isnan(r.data_ptr<float>()[0]));
  EXPECT_EQ(r.data_ptr<float>()[1], 0.0f);
  EXPECT_THROW(relu_cpu(sample({2}, ScalarType::Bool)), core::TensorError);
}

// ## fill_ and copy_

TEST(CpuFill, AnyStridesAndTypes) {
  for (ScalarType t : kAllTypes) {
    Tensor x = gapped(sample({4, 6}, t));
    fill_cpu_(x, Scalar(3));
    for (double v : values(x)) EXPECT_EQ(v, t == ScalarType::Bool ? 1.0 : 3.0);
  }
  Tensor base = Tensor::empty({4, 4});
  fill_cpu_(base, 0);
  Tensor column = base.select(1, 2);
  fill_cpu_(column, 1.5);
  EXPECT_EQ(values(base)[2], 1.5);
  EXPECT_EQ(values(base)[3], 0.0);
  column.bump_version();
  EXPECT_EQ(base.version(), 1u) << "views share the version counter";
}

TEST(CpuCopy, ConvertsBetweenEveryPairOfTypes) {
  for (ScalarType from : kAllTypes) {
    for (ScalarType to : kAllTypes) {
      const Tensor src = sample({3, 7}, from, 11);
      Tensor dst = transposed_layout(sample({3, 7}, to));
      copy_cpu_(dst, src, false);
      std::vector<double> want = values(src);
      for (double& v : want)
        v = to == ScalarType::Bool ? double(v != 0) : core::is_integral(to, false) ? std::trunc(v) : v;
      expect_close(values(dst), want, to, fmt::format("copy {} -> {}", core::to_string(from), core::to_string(to)));
    }
  }
}

TEST(CpuCopy, BroadcastsTheSource) {
  Tensor dst = Tensor::empty({3, 4}, {ScalarType::Long});
  copy_cpu_(dst, sample({4}, ScalarType::Long, 2), false);
  const auto row = values(sample({4}, ScalarType::Long, 2));
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(value_at(dst, i), row[i % 4]);
  EXPECT_THROW(copy_cpu_(dst, sample({3}, ScalarType::Long), false), core::TensorError);
}

TEST(CpuCopy, ChannelsLastRoundTripForSeveralShapesAndWidths) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::Double, ScalarType::Bool}) {
    for (const std::vector<int64_t>& shape :
         {std::vector<int64_t>{2, 64, 7, 9}, {1, 3, 5, 5}, {3, 100, 33, 2}, {2, 9, 1, 70}}) {
      const Tensor nchw = sample(shape, t, 21);
      const Tensor nhwc = contiguous(nchw, MemoryFormat::ChannelsLast);
      ASSERT_TRUE(nhwc.is_contiguous(MemoryFormat::ChannelsLast));
      EXPECT_EQ(values(nhwc), values(nchw)) << core::to_string(t) << to_string(IntArrayRef(shape));
      const Tensor back = contiguous(nhwc, MemoryFormat::Contiguous);
      EXPECT_TRUE(back.is_contiguous());
      EXPECT_EQ(values(back), values(nchw));
    }
  }
}

// The AVX2 path (channel counts that are multiples of 8; spatial sizes with and without a tail
// of fewer than 16 columns), and one tensor large enough for the streaming stores (source and
// destination together, 34 MB, larger than cache_resident_bytes() on machines of up to 8 CPUs).
TEST(CpuCopy, ChannelsLastFloatBlocksTailsAndStreaming) {
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{2, 8, 3, 17}, {1, 16, 4, 4}, {3, 24, 5, 33},
                                            {1, 1024, 2, 9}, {5, 64, 115, 115}}) {
    const Tensor nchw = Tensor::empty(shape, {ScalarType::Float});
    auto* data = static_cast<float*>(nchw.data_ptr());
    for (int64_t i = 0; i < nchw.numel(); ++i) data[i] = static_cast<float>(i % 1000003);
    const Tensor nhwc = contiguous(nchw, MemoryFormat::ChannelsLast);
    ASSERT_TRUE(nhwc.is_contiguous(MemoryFormat::ChannelsLast));
    const int64_t n = shape[0], c = shape[1], hw = shape[2] * shape[3];
    const auto* in = static_cast<const float*>(nchw.data_ptr());
    const auto* out = static_cast<const float*>(nhwc.data_ptr());
    int64_t mismatches = 0;
    for (int64_t b = 0; b < n; ++b)
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t p = 0; p < hw; ++p) mismatches += in[(b * c + ch) * hw + p] != out[(b * hw + p) * c + ch];
    EXPECT_EQ(mismatches, 0) << to_string(IntArrayRef(shape));
  }
}

// ## Reductions

// Reference sum over `dims` of a tensor (row-major values).
std::vector<double> reference_reduce(const Tensor& x, const std::vector<int64_t>& dims, bool mean) {
  std::vector<bool> reduced(x.dim(), dims.empty());
  for (int64_t d : dims) reduced[core::wrap_dim(d, x.dim())] = true;
  std::vector<int64_t> out_sizes;
  int64_t count = 1;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (!reduced[d]) out_sizes.push_back(x.size(d));
    else count *= x.size(d);
  }
  std::vector<double> out(core::checked_numel(out_sizes), 0.0);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const auto index = unravel(i, x.sizes());
    int64_t o = 0;
    for (int64_t d = 0, k = 0; d < x.dim(); ++d)
      if (!reduced[d]) o = o * out_sizes[k++] + index[d];
    out[o] += value_at(x, i);
  }
  if (mean)
    for (double& v : out) v /= static_cast<double>(count);
  return out;
}

struct ReduceCase {
  std::vector<int64_t> shape;
  std::vector<int64_t> dims;
};
const ReduceCase kReduceCases[] = {
    {{6, 7}, {1}},        {{6, 7}, {0}},     {{6, 7}, {}},          {{4, 5, 6}, {0, 2}},
    {{4, 5, 6}, {-1}},    {{4, 5, 6}, {1}},  {{3, 100000}, {1}},    {{100000, 3}, {0}},
    {{2, 0, 3}, {1}},     {{5}, {0}},
};

TEST(CpuSum, MatchesReferenceForDimsLayoutsAndTypes) {
  for (ScalarType t : kAllTypes) {
    for (const auto& c : kReduceCases) {
      for (Layout2 l : {Layout2::Contiguous, Layout2::Transposed}) {
        const Tensor x0 = sample(c.shape, t, 13);
        const Tensor x = with_layout(x0, l);
        const Tensor s = sum_dim_cpu(x, IntArrayRef(c.dims), false, std::nullopt);
        const ScalarType expected_type = core::is_floating_point(t) ? t : ScalarType::Long;
        ASSERT_EQ(s.dtype(), expected_type);
        auto want = reference_reduce(x0, c.dims, false);
        for (double& v : want) v = round_to(expected_type, v);
        expect_close(values(s), want, expected_type == ScalarType::Half || expected_type == ScalarType::BFloat16
                                          ? ScalarType::Float : expected_type,
                     fmt::format("sum {} {} dims {} {}", core::to_string(t), to_string(IntArrayRef(c.shape)),
                                 to_string(IntArrayRef(c.dims)), name(l)));
      }
    }
  }
}

TEST(CpuSum, KeepdimDtypeAndErrors) {
  const Tensor x = sample({2, 3, 4}, ScalarType::Int);
  const Tensor k = sum_dim_cpu(x, IntArrayRef({1}), true, std::nullopt);
  EXPECT_EQ(k.sizes(), IntArrayRef({2, 1, 4}));
  const Tensor d = sum_dim_cpu(x, std::nullopt, false, ScalarType::Double);
  EXPECT_EQ(d.dtype(), ScalarType::Double);
  EXPECT_EQ(d.dim(), 0);
  EXPECT_DOUBLE_EQ(value_at(d, 0), reference_reduce(x, {}, false)[0]);
  try {
    sum_dim_cpu(x, IntArrayRef({1, -2}), false, std::nullopt);
    FAIL();
  } catch (const core::TensorError& e) {
    EXPECT_STREQ(e.what(), "sum: dim 1 appears multiple times in the list of dims [1, -2]");
  }
  EXPECT_THROW(sum_dim_cpu(x, IntArrayRef({3}), false, std::nullopt), core::TensorError);
}

TEST(CpuSum, LongFloatRowIsAccurate) {
  Tensor x = Tensor::empty({1 << 22});
  fill_cpu_(x, 0.1);
  const Tensor s = sum_dim_cpu(x, std::nullopt, false, std::nullopt);
  EXPECT_NEAR(value_at(s, 0), 0.1f * double(1 << 22), 1.0);  // a running float sum is off by ~1e4
}

TEST(CpuMean, MatchesReferenceAndRejectsIntegers) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16}) {
    for (const auto& c : kReduceCases) {
      const Tensor x = sample(c.shape, t, 17);
      const Tensor m = mean_dim_cpu(gapped(x), IntArrayRef(c.dims), false, std::nullopt);
      auto want = reference_reduce(x, c.dims, true);
      for (double& v : want) v = round_to(t, v);
      expect_close(values(m), want, t, "mean");
    }
  }
  EXPECT_EQ(value_at(mean_dim_cpu(sample({4}, ScalarType::Int), std::nullopt, false, ScalarType::Float), 0),
            reference_reduce(sample({4}, ScalarType::Int), {}, true)[0]);
  try {
    mean_dim_cpu(sample({4}, ScalarType::Long), std::nullopt, false, std::nullopt);
    FAIL();
  } catch (const core::TensorError& e) {
    EXPECT_STREQ(e.what(), "mean: could not infer output dtype; input dtype must be floating point, got int64");
  }
  EXPECT_TRUE(std::isnan(value_at(mean_dim_cpu(Tensor::empty({0}), std::nullopt, false, std::nullopt), 0)));
}

// ## softmax

TEST(CpuSoftmax, MatchesReferenceOnEveryDim) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16}) {
    const Tensor x = sample({3, 4, 5}, t, 19);
    for (int64_t dim : {0, 1, 2, -1}) {
      const Tensor y = softmax_cpu(transposed_layout(x), dim, std::nullopt);
      ASSERT_EQ(y.sizes(), x.sizes());
      const int64_t d = core::wrap_dim(dim, 3);
      std::vector<double> want(x.numel());
      for (int64_t i = 0; i < x.numel(); ++i) {
        auto index = unravel(i, x.sizes());
        double total = 0, xi = value_at(x, i);
        for (int64_t j = 0; j < x.size(d); ++j) {
          index[d] = j;
          total += std::exp(value_at(x, x.element_offset(index) /* contiguous */ ) - xi);
        }
        want[i] = round_to(t, 1.0 / total);
      }
      expect_close(values(y), want, t == ScalarType::Double ? ScalarType::Float : t,
                   fmt::format("softmax {} dim {}", core::to_string(t), dim));
    }
  }
  const Tensor as_double = softmax_cpu(sample({2, 3}, ScalarType::Float), 1, ScalarType::Double);
  EXPECT_EQ(as_double.dtype(), ScalarType::Double);
  EXPECT_THROW(softmax_cpu(sample({2}, ScalarType::Long), 0, std::nullopt), core::TensorError);
}

// ## mm and matmul

std::vector<double> reference_mm(const Tensor& a, const Tensor& b) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  const auto av = values(a), bv = values(b);
  std::vector<double> out(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) out[i * n + j] += av[i * k + p] * bv[p * n + j];
  return out;
}

struct MmShape {
  int64_t m, k, n;
};
// {12, 520, 64}: whole micro-tiles only, summed over three blocks of K.
const MmShape kMmShapes[] = {{1, 1, 1}, {7, 5, 3}, {6, 32, 32}, {33, 300, 65}, {12, 520, 64}, {130, 17, 200}, {4, 0, 3}, {0, 4, 3}};

TEST(CpuMm, MatchesReferenceForEveryIsaLayoutAndType) {
  for (CpuIsa isa : {CpuIsa::Baseline, CpuIsa::Avx2, CpuIsa::Avx512}) {
    if (isa > detected_isa()) continue;
    set_mm_isa(isa);
    for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
                         ScalarType::Int, ScalarType::Long}) {
      for (const auto& s : kMmShapes) {
        for (Layout2 l : {Layout2::Contiguous, Layout2::Transposed, Layout2::Gapped}) {
          const Tensor a = sample({s.m, s.k}, t, 23);
          const Tensor b = sample({s.k, s.n}, t, 29);
          const Tensor c = mm_cpu(with_layout(a, l), with_layout(b, l == Layout2::Transposed ? Layout2::Gapped : l));
          ASSERT_EQ(c.sizes(), IntArrayRef({s.m, s.n}));
          auto want = reference_mm(a, b);
          for (double& v : want) v = round_to(t, v);
          expect_close(values(c), want, t == ScalarType::Float ? ScalarType::Half : t,
                       fmt::format("mm {} {} {}x{}x{} {}", to_string(isa), core::to_string(t), s.m, s.k, s.n, name(l)));
        }
      }
    }
  }
  set_mm_isa(detected_isa());
}

TEST(CpuMm, Errors) {
  EXPECT_THROW(mm_cpu(sample({2, 3}, ScalarType::Float), sample({2, 3}, ScalarType::Float)), core::TensorError);
  EXPECT_THROW(mm_cpu(sample({2, 3}, ScalarType::Float), sample({3, 2}, ScalarType::Double)), core::TensorError);
  EXPECT_THROW(mm_cpu(sample({3}, ScalarType::Float), sample({3, 2}, ScalarType::Float)), core::TensorError);
}

TEST(CpuMatmul, VectorAndMatrixCombinations) {
  const Tensor m = sample({3, 4}, ScalarType::Double, 1);
  const Tensor v = sample({4}, ScalarType::Double, 2);
  const Tensor w = sample({3}, ScalarType::Double, 3);
  const Tensor mv = matmul(m, v);
  EXPECT_EQ(mv.sizes(), IntArrayRef({3}));
  const Tensor vm = matmul(w, m);
  EXPECT_EQ(vm.sizes(), IntArrayRef({4}));
  const Tensor dot = matmul(v, v);
  EXPECT_EQ(dot.dim(), 0);
  double want = 0;
  for (double x : values(v)) want += x * x;
  EXPECT_DOUBLE_EQ(value_at(dot, 0), want);
  for (int64_t i = 0; i < 3; ++i) {
    double r = 0;
    for (int64_t j = 0; j < 4; ++j) r += value_at(m, i * 4 + j) * value_at(v, j);
    EXPECT_DOUBLE_EQ(value_at(mv, i), r);
  }
  EXPECT_THROW(matmul(sample({2, 2, 2}, ScalarType::Float), m), core::TensorError);
}

// ## Views, factories, composites

TEST(CpuViews, TransposeViewContiguous) {
  const Tensor x = sample({2, 3}, ScalarType::Float);
  const Tensor t = transpose(x, 0, 1);
  EXPECT_TRUE(t.is_alias_of(x));
  EXPECT_EQ(value_at(t, 1), value_at(x, 3));
  EXPECT_TRUE(view(x, {3, 2}).is_alias_of(x));
  EXPECT_THROW(view(t, {6}), core::TensorError);
  const Tensor c = contiguous(t, MemoryFormat::Contiguous);
  EXPECT_FALSE(c.is_alias_of(x));
  EXPECT_EQ(values(c), values(t));
  EXPECT_TRUE(contiguous(x, MemoryFormat::Contiguous).is_same(x)) << "already contiguous: the same tensor";
}

TEST(CpuFactory, EmptyHonoursOptions) {
  const Tensor e = empty_cpu({2, 3, 4, 5}, ScalarType::Half, std::nullopt, std::nullopt, std::nullopt,
                             MemoryFormat::ChannelsLast);
  EXPECT_EQ(e.dtype(), ScalarType::Half);
  EXPECT_TRUE(e.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(empty_cpu({3}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt).dtype(),
            ScalarType::Float);
  EXPECT_THROW(empty_cpu({3}, std::nullopt, std::nullopt, core::Device(core::DeviceType::CUDA, 0), std::nullopt,
                         std::nullopt),
               core::TensorError);
}

// ## Thread pool

TEST(ThreadPool, CoversTheRangeOnceAndRethrows) {
  std::vector<int> hits(100000, 0);
  parallel_for(0, 100000, 1000, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) ++hits[i];
  });
  EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), 100000);
  EXPECT_THROW(parallel_for(0, 100000, 10, [](int64_t b, int64_t) {
                 if (b > 0) throw std::runtime_error("chunk failed");
                 throw std::runtime_error("first chunk failed");
               }),
               std::runtime_error);
  // Nested calls run serially inside a chunk.
  std::atomic<int64_t> total{0};
  parallel_for(0, 4, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      parallel_for(0, 1000, 1, [&](int64_t bb, int64_t ee) { total += ee - bb; });
  });
  EXPECT_EQ(total.load(), 4000);
  EXPECT_GE(support::num_threads(), 1);
}

}  // namespace
}  // namespace schemac::kernels
