// The tensor core: handles, storage sharing, views and their strides, contiguity, key sets,
// version counters, the 16-bit float types, Scalar and Device.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "schemac/core/tensor.h"

namespace schemac::dispatch {

using core::BFloat16, core::Device, core::DeviceType, core::Half, core::IntArrayRef,
    core::MemoryFormat, core::Scalar, core::ScalarType, core::Tensor, core::TensorError,
    core::can_cast, core::element_size, core::parse_scalar_type, core::to_string,
    keys::DispatchKey, keys::DispatchKeySet, keys::to_string;

namespace {

// ## Handles

TEST(TensorHandle, DefaultIsUndefinedAndCopiesShare) {
  Tensor undefined;
  EXPECT_FALSE(undefined.defined());
  EXPECT_EQ(undefined.use_count(), 0);
  EXPECT_EQ(undefined.describe(), "undefined");
  EXPECT_THROW(undefined.sizes(), TensorError);

  Tensor a = Tensor::empty({2, 3});
  EXPECT_TRUE(a.defined());
  EXPECT_EQ(a.use_count(), 1);
  Tensor b = a;
  EXPECT_EQ(a.use_count(), 2);
  EXPECT_TRUE(b.is_same(a));
  Tensor c = std::move(b);
  EXPECT_FALSE(b.defined());  // NOLINT: moved-from is undefined by contract
  EXPECT_EQ(a.use_count(), 2);
  c = Tensor();
  EXPECT_EQ(a.use_count(), 1);
}

TEST(TensorHandle, DescribeNamesDeviceDtypeAndSizes) {
  EXPECT_EQ(Tensor::empty({2, 3}).describe(), "cpu:float32[2, 3]");
  EXPECT_EQ(Tensor::empty({}, {ScalarType::Long}).describe(), "cpu:int64[]");
}

// ## Factories and layout

TEST(TensorLayout, EmptyIsContiguousWithRowMajorStrides) {
  Tensor t = Tensor::empty({2, 3, 4}, {ScalarType::Double});
  EXPECT_EQ(t.sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_EQ(t.strides(), IntArrayRef({12, 4, 1}));
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.element_size(), 8u);
  EXPECT_EQ(t.storage().nbytes(), 24u * 8u);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_FALSE(t.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % core::kCpuAlignment, 0u);
}

TEST(TensorLayout, ChannelsLastStridesAndContiguity) {
  Tensor t = Tensor::empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast);
  EXPECT_EQ(t.strides(), IntArrayRef({60, 1, 15, 3}));
  EXPECT_TRUE(t.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t.suggest_memory_format(), MemoryFormat::ChannelsLast);
  // A permuted NHWC tensor is channels_last too.
  Tensor nhwc = Tensor::empty({2, 4, 5, 3});
  EXPECT_TRUE(nhwc.permute({0, 3, 1, 2}).is_contiguous(MemoryFormat::ChannelsLast));
  // With C == 1 both layouts coincide.
  Tensor one_channel = Tensor::empty({2, 1, 4, 5});
  EXPECT_TRUE(one_channel.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_TRUE(one_channel.is_contiguous());
}

TEST(TensorLayout, ContiguityIgnoresSizeOneStridesAndEmptyTensors) {
  Tensor t = Tensor::empty({3, 1, 4});
  EXPECT_TRUE(t.as_strided({3, 1, 4}, {4, 99, 1}).is_contiguous());
  EXPECT_TRUE(Tensor::empty({0, 5}).is_contiguous());
  EXPECT_FALSE(t.transpose(0, 2).is_contiguous());
}

TEST(TensorLayout, FactoryErrorsNameTheValue) {
  try {
    Tensor::empty({2, -1});
    FAIL() << "expected an error";
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(), "negative dimension -1 in sizes [2, -1]");
  }
  EXPECT_THROW(Tensor::empty({2, 3}, {}, MemoryFormat::ChannelsLast), TensorError);
  EXPECT_THROW(Tensor::empty_strided({2, 3}, {1}), TensorError);
  EXPECT_THROW(Tensor::empty({1}, {ScalarType::Float, Device(DeviceType::CUDA, 0)}), core::AllocationError)
      << "no CUDA allocator is registered without the kernels library";
}

// ## Views

TEST(TensorViews, TransposeSharesStorageAndVersion) {
  Tensor t = Tensor::empty({2, 3});
  Tensor v = t.transpose(0, 1);
  EXPECT_EQ(v.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(v.strides(), IntArrayRef({1, 3}));
  EXPECT_TRUE(v.is_alias_of(t));
  EXPECT_FALSE(v.is_same(t));
  EXPECT_EQ(v.data_ptr(), t.data_ptr());
  EXPECT_EQ(t.version(), 0u);
  v.bump_version();
  EXPECT_EQ(t.version(), 1u);
  EXPECT_EQ(Tensor::empty({2}).version(), 0u) << "a new tensor has its own counter";
}

TEST(TensorViews, AsStridedChecksTheStorageBounds) {
  Tensor t = Tensor::empty({6});
  Tensor v = t.as_strided({2, 2}, {3, 1}, 1);
  EXPECT_EQ(v.storage_offset(), 1);
  EXPECT_EQ(static_cast<float*>(v.data_ptr()), static_cast<float*>(t.data_ptr()) + 1);
  EXPECT_THROW(t.as_strided({2, 3}, {3, 1}, 1), TensorError);
  EXPECT_THROW(t.as_strided({2}, {-1}), TensorError);
}

struct ViewCase {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  std::vector<int64_t> request;
  std::vector<int64_t> expected_sizes;   // empty: the view must fail
  std::vector<int64_t> expected_strides;
};

class TensorViewShapes : public ::testing::TestWithParam<ViewCase> {};

TEST_P(TensorViewShapes, StridesFollowTheMemory) {
  const ViewCase& c = GetParam();
  int64_t extent = 1;
  for (std::size_t i = 0; i < c.sizes.size(); ++i) extent += (c.sizes[i] - 1) * c.strides[i];
  Tensor base = Tensor::empty({std::max<int64_t>(extent, 1)}).as_strided(c.sizes, c.strides, 0);
  if (c.expected_sizes.empty()) {
    EXPECT_THROW(base.view(c.request), TensorError);
    return;
  }
  Tensor v = base.view(c.request);
  EXPECT_EQ(v.sizes().vec(), c.expected_sizes);
  EXPECT_EQ(v.strides().vec(), c.expected_strides);
}

INSTANTIATE_TEST_SUITE_P(
    Table, TensorViewShapes,
    ::testing::Values(ViewCase{{2, 3, 4}, {12, 4, 1}, {6, 4}, {6, 4}, {4, 1}},
                      ViewCase{{2, 3, 4}, {12, 4, 1}, {-1}, {24}, {1}},
                      ViewCase{{2, 3, 4}, {12, 4, 1}, {2, -1, 2}, {2, 6, 2}, {12, 2, 1}},
                      ViewCase{{2, 3, 4}, {12, 4, 1}, {1, 24, 1}, {1, 24, 1}, {24, 1, 1}},
                      // transposed (3, 2) of a (2, 3): cannot be flattened
                      ViewCase{{3, 2}, {1, 3}, {6}, {}, {}},
                      // transposed but splitting a dimension is fine
                      ViewCase{{4, 2}, {1, 4}, {2, 2, 2}, {2, 2, 2}, {2, 1, 4}},
                      // a gap between rows: rows stay separate
                      ViewCase{{2, 3}, {4, 1}, {2, 3, 1}, {2, 3, 1}, {4, 1, 1}},
                      ViewCase{{2, 3}, {4, 1}, {6}, {}, {}},
                      // wrong element count, two inferred sizes
                      ViewCase{{2, 3}, {3, 1}, {5}, {}, {}},
                      ViewCase{{2, 3}, {3, 1}, {-1, -1}, {}, {}}));

TEST(TensorViews, PermuteExpandSelect) {
  Tensor t = Tensor::empty({2, 3, 4});
  Tensor p = t.permute({2, 0, 1});
  EXPECT_EQ(p.sizes(), IntArrayRef({4, 2, 3}));
  EXPECT_EQ(p.strides(), IntArrayRef({1, 12, 4}));
  EXPECT_THROW(t.permute({0, 0, 1}), TensorError);

  Tensor row = Tensor::empty({1, 4});
  Tensor e = row.expand({3, 2, 4});
  EXPECT_EQ(e.sizes(), IntArrayRef({3, 2, 4}));
  EXPECT_EQ(e.strides(), IntArrayRef({0, 0, 1}));
  EXPECT_THROW(row.expand({3, 5}), TensorError);

  Tensor s = t.select(1, -1);
  EXPECT_EQ(s.sizes(), IntArrayRef({2, 4}));
  EXPECT_EQ(s.storage_offset(), 8);
  EXPECT_THROW(t.select(1, 3), TensorError);
}

TEST(TensorViews, WrapDimMessage) {
  try {
    Tensor::empty({2, 3}).transpose(0, 2);
    FAIL();
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(), "dimension out of range (expected to be in range of [-2, 1], but got 2)");
  }
}

TEST(TensorViews, ResizeGrowsStorageAndKeepsBytes) {
  Tensor t = Tensor::empty({2}, {ScalarType::Int});
  t.data_ptr<int32_t>()[0] = 7;
  t.data_ptr<int32_t>()[1] = 9;
  t.resize_({3, 4});
  EXPECT_EQ(t.sizes(), IntArrayRef({3, 4}));
  EXPECT_GE(t.storage().nbytes(), 48u);
  EXPECT_EQ(t.data_ptr<int32_t>()[1], 9);
  EXPECT_THROW(t.data_ptr<float>(), TensorError);
}

// ## Key sets

TEST(TensorKeys, CpuTensorCarriesBackendAutogradAndAutocastKeys) {
  const DispatchKeySet keys = Tensor::empty({1}).key_set();
  EXPECT_TRUE(keys.has(DispatchKey::CPU));
  EXPECT_TRUE(keys.has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(keys.has(DispatchKey::AutogradCPU));
  EXPECT_TRUE(keys.has(DispatchKey::AutocastCPU));
  EXPECT_FALSE(keys.has(DispatchKey::AutocastCUDA));
  EXPECT_EQ(keys, (DispatchKeySet{DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU,
                                  DispatchKey::AutocastCPU}));
}

TEST(TensorKeys, CudaKeySetAndViewsInheritKeys) {
  const DispatchKeySet cuda = core::key_set_for(Device(DeviceType::CUDA, 0));
  EXPECT_TRUE(cuda.has(DispatchKey::CUDA));
  EXPECT_TRUE(cuda.has(DispatchKey::AutogradCUDA));
  EXPECT_TRUE(cuda.has(DispatchKey::AutocastCUDA));
  EXPECT_FALSE(cuda.has(DispatchKey::AutocastCPU));
  Tensor t = Tensor::empty({2, 2});
  EXPECT_EQ(t.transpose(0, 1).key_set(), t.key_set());
}

// ## Element types

TEST(ScalarTypes, NamesSizesAndParsing) {
  for (ScalarType t : core::kAllScalarTypes) {
    EXPECT_EQ(parse_scalar_type(to_string(t)), t);
  }
  EXPECT_EQ(element_size(ScalarType::BFloat16), 2u);
  EXPECT_EQ(element_size(ScalarType::Bool), 1u);
  EXPECT_EQ(parse_scalar_type("half"), ScalarType::Half);
  EXPECT_EQ(parse_scalar_type("complex64"), std::nullopt);
}

struct PromoteCase {
  ScalarType a, b, result;
};

TEST(ScalarTypes, PromotionTable) {
  const PromoteCase cases[] = {
      {ScalarType::Bool, ScalarType::Int, ScalarType::Int},
      {ScalarType::Int, ScalarType::Long, ScalarType::Long},
      {ScalarType::Long, ScalarType::Half, ScalarType::Half},
      {ScalarType::Half, ScalarType::BFloat16, ScalarType::Float},
      {ScalarType::BFloat16, ScalarType::Float, ScalarType::Float},
      {ScalarType::Float, ScalarType::Double, ScalarType::Double},
      {ScalarType::Bool, ScalarType::Bool, ScalarType::Bool},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(core::promote_types(c.a, c.b), c.result) << to_string(c.a) << " with " << to_string(c.b);
    EXPECT_EQ(core::promote_types(c.b, c.a), c.result);
  }
  EXPECT_FALSE(can_cast(ScalarType::Float, ScalarType::Long));
  EXPECT_FALSE(can_cast(ScalarType::Int, ScalarType::Bool));
  EXPECT_TRUE(can_cast(ScalarType::Long, ScalarType::Half));
}

TEST(HalfFloat, RoundTripsAndRoundsToNearestEven) {
  const float exact[] = {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f /* smallest normal */,
                         5.960464477539063e-08f /* smallest subnormal */, 0.333251953125f};
  for (float f : exact) EXPECT_EQ(static_cast<float>(Half(f)), f) << f;
  EXPECT_EQ(Half(1.0f).bits, 0x3c00);
  EXPECT_EQ(Half(65520.0f).bits, 0x7c00) << "rounds up to infinity";
  EXPECT_EQ(Half(1.0f + 1.0f / 2048).bits, 0x3c00) << "a tie goes to the even mantissa";
  EXPECT_EQ(Half(1.0f + 3.0f / 2048).bits, 0x3c02);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(static_cast<float>(Half(1e-9f)), 0.0f);
  // Every half value converts to float and back unchanged.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    Half h;
    h.bits = static_cast<uint16_t>(bits);
    const float f = h;
    if (std::isnan(f)) continue;
    ASSERT_EQ(Half(f).bits, h.bits) << bits;
  }
}

TEST(BFloat16Float, RoundsToNearestEven) {
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(BFloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(static_cast<float>(BFloat16(1.00390625f)), 1.0f) << "a tie goes to the even mantissa";
  EXPECT_EQ(static_cast<float>(BFloat16(1.01171875f)), 1.015625f);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(ScalarValue, KindsConversionsAndPrinting) {
  EXPECT_TRUE(Scalar(2).is_integral());
  EXPECT_TRUE(Scalar(2.5).is_floating_point());
  EXPECT_TRUE(Scalar(true).is_boolean());
  EXPECT_EQ(Scalar(2.5).to<int32_t>(), 2);
  EXPECT_EQ(Scalar(3).to<double>(), 3.0);
  EXPECT_EQ(static_cast<float>(Scalar(1.5).to<Half>()), 1.5f);
  EXPECT_EQ(Scalar(2).to_string(), "2");
  EXPECT_EQ(Scalar(2.0).to_string(), "2.");
  EXPECT_EQ(Scalar(2.5).to_string(), "2.5");
  EXPECT_EQ(Scalar(false).to_string(), "False");
  EXPECT_EQ(Scalar(2).type(), ScalarType::Long);
  EXPECT_FALSE(Scalar(1) == Scalar(1.0));
}

// ## Devices

TEST(Devices, ParseAndPrint) {
  EXPECT_EQ(Device::parse("cpu"), Device(DeviceType::CPU));
  EXPECT_EQ(Device::parse("cuda:1"), Device(DeviceType::CUDA, 1));
  EXPECT_EQ(Device::parse("cuda")->to_string(), "cuda");
  EXPECT_EQ(Device(DeviceType::CUDA, 3).to_string(), "cuda:3");
  for (const char* bad : {"", "gpu", "cuda:", "cuda:-1", "cuda:01", "cuda:x", "cpu:0", "cuda:99999"})
    EXPECT_EQ(Device::parse(bad), std::nullopt) << bad;
}

TEST(Storages, ExternalMemoryRunsTheDeleterOnce) {
  int deleted = 0;
  float buffer[4] = {1, 2, 3, 4};
  {
    core::Storage s = core::Storage::from_external(buffer, sizeof buffer, core::kCPU, [&](void*) { ++deleted; });
    Tensor t = Tensor::from_storage(s, ScalarType::Float, {2, 2}, {2, 1});
    EXPECT_EQ(t.item_at<float>({1, 0}), 3.0f);
    EXPECT_THROW(Tensor::from_storage(s, ScalarType::Float, {3, 2}, {2, 1}), TensorError);
    EXPECT_THROW(t.resize_({8}), core::AllocationError);
  }
  EXPECT_EQ(deleted, 1);
}

}  // namespace
}  // namespace schemac::dispatch
