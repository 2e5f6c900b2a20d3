#include "schemac/core/tensor.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace schemac::core {

using keys::DispatchKey, keys::DispatchKeySet;

// The shared state behind Tensor handles. Sizes, strides and offset are per view; storage and the
// version counter are shared with the tensor's views.
class TensorImpl : public TensorImplHead {
 public:
  Storage storage;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;
  int64_t numel = 0;
  ScalarType dtype = ScalarType::Float;
  std::shared_ptr<std::atomic<uint32_t>> version;
  std::shared_ptr<void> autograd_meta;
};

// ## Free helpers

std::string to_string(IntArrayRef values) {
  return fmt::format("[{}]", fmt::join(values.begin(), values.end(), ", "));
}

std::string_view to_string(Layout) { return "torch.strided"; }

std::string_view to_string(MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous: return "contiguous_format";
    case MemoryFormat::ChannelsLast: return "channels_last";
    case MemoryFormat::Preserve: return "preserve_format";
  }
  return "unknown";
}

std::vector<int64_t> contiguous_strides(IntArrayRef sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t running = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    if (__builtin_mul_overflow(running, std::max<int64_t>(sizes[i], 1), &running))
      throw TensorError(fmt::format("sizes {} overflow a 64-bit stride", to_string(sizes)));
  }
  return strides;
}

std::vector<int64_t> channels_last_strides(IntArrayRef sizes) {
  if (sizes.size() != 4)
    throw TensorError(
        fmt::format("channels_last needs a 4-d tensor, got sizes {}", to_string(sizes)));
  const int64_t c = std::max<int64_t>(sizes[1], 1);
  const int64_t h = std::max<int64_t>(sizes[2], 1);
  const int64_t w = std::max<int64_t>(sizes[3], 1);
  return {h * w * c, 1, w * c, c};
}

int64_t checked_numel(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s < 0)
      throw TensorError(fmt::format("negative dimension {} in sizes {}", s, to_string(sizes)));
    if (s != 0 && n > std::numeric_limits<int64_t>::max() / s)
      throw TensorError(fmt::format("sizes {} have too many elements", to_string(sizes)));
    n *= s;
  }
  return n;
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  const int64_t range = std::max<int64_t>(ndim, 1);
  if (dim < -range || dim >= range)
    throw TensorError(
        fmt::format("dimension out of range (expected to be in range of [{}, {}], but got {})",
                    -range, range - 1, dim));
  return dim < 0 ? dim + range : dim;
}

DispatchKeySet key_set_for(Device device) {
  if (device.is_cuda())
    return DispatchKeySet{DispatchKey::CUDA, DispatchKey::ADInplaceOrView,
                          DispatchKey::AutogradCUDA, DispatchKey::AutocastCUDA};
  return DispatchKeySet{DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU,
                        DispatchKey::AutocastCPU};
}

namespace {

// Bytes a view needs from the start of its storage; 0 for an empty view.
std::size_t required_bytes(IntArrayRef sizes, IntArrayRef strides, int64_t offset,
                           ScalarType dtype) {
  int64_t last = offset;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return 0;
    last += (sizes[i] - 1) * strides[i];
  }
  return static_cast<std::size_t>(last + 1) * element_size(dtype);
}

// Sizes and strides any tensor may have: as many of each, a representable element count, no
// negative stride.
void check_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides) {
  if (sizes.size() != strides.size())
    throw TensorError(fmt::format("sizes {} and strides {} have different lengths",
                                  to_string(sizes), to_string(strides)));
  checked_numel(sizes);
  for (int64_t s : strides)
    if (s < 0)
      throw TensorError(fmt::format("negative strides are not supported: {}", to_string(strides)));
}

void check_view_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t offset, ScalarType dtype,
                         const Storage& storage) {
  check_sizes_and_strides(sizes, strides);
  if (offset < 0) throw TensorError(fmt::format("negative storage offset {}", offset));
  const std::size_t needed = required_bytes(sizes, strides, offset, dtype);
  if (needed > storage.nbytes())
    throw TensorError(fmt::format(
        "sizes {}, strides {} and storage offset {} of {} need {} bytes, but the storage has {}",
        to_string(sizes), to_string(strides), offset, to_string(dtype), needed, storage.nbytes()));
}

TensorImpl* new_impl(Storage storage, ScalarType dtype, std::vector<int64_t> sizes,
                     std::vector<int64_t> strides, int64_t offset) {
  auto* impl = new TensorImpl;
  impl->keys = key_set_for(storage.device());
  impl->storage = std::move(storage);
  impl->dtype = dtype;
  impl->numel = checked_numel(sizes);
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->storage_offset = offset;
  impl->version = std::make_shared<std::atomic<uint32_t>>(0);
  return impl;
}

// The strides that let a tensor with `old_sizes` / `old_strides` be viewed as `new_sizes`, or
// nullopt. Memory is split into chunks of dimensions that are contiguous with each other; each
// chunk must be covered exactly by a run of the new dimensions.
std::optional<std::vector<int64_t>> view_strides(IntArrayRef old_sizes, IntArrayRef old_strides,
                                                 IntArrayRef new_sizes, int64_t numel) {
  const auto n = static_cast<int64_t>(new_sizes.size());
  if (numel == 0) return contiguous_strides(new_sizes);
  struct Dim {
    int64_t size, stride;
  };
  std::vector<Dim> old;
  for (std::size_t d = 0; d < old_sizes.size(); ++d)
    if (old_sizes[d] != 1) old.push_back({old_sizes[d], old_strides[d]});

  std::vector<int64_t> strides(new_sizes.size(), 1);
  int64_t view_d = n - 1;
  auto i = static_cast<int64_t>(old.size()) - 1;
  while (i >= 0) {
    const int64_t base = old[i].stride;
    int64_t chunk_numel = old[i].size;
    int64_t j = i - 1;
    while (j >= 0 && old[j].stride == old[j + 1].stride * old[j + 1].size) {
      chunk_numel *= old[j].size;
      --j;
    }
    int64_t covered = 1;
    while (view_d >= 0 && covered < chunk_numel) {
      strides[view_d] = base * covered;
      covered *= new_sizes[view_d];
      --view_d;
    }
    if (covered != chunk_numel) return std::nullopt;
    // Size-1 dimensions between chunks take the stride of the chunk's outer edge.
    while (view_d >= 0 && new_sizes[view_d] == 1 && j >= 0) {
      strides[view_d] = base * covered;
      --view_d;
    }
    i = j;
  }
  for (; view_d >= 0; --view_d) {
    if (new_sizes[view_d] != 1) return std::nullopt;
    strides[view_d] = view_d + 1 < n ? strides[view_d + 1] * new_sizes[view_d + 1] : 1;
  }
  return strides;
}

}  // namespace

// ## Handle management

void detail::destroy_tensor_impl(TensorImplHead* impl) noexcept {
  delete static_cast<TensorImpl*>(impl);
}

TensorImpl* Tensor::body() const { return static_cast<TensorImpl*>(impl_); }

long Tensor::use_count() const {
  return impl_ ? impl_->refcount.load(std::memory_order_relaxed) : 0;
}

const TensorImpl& Tensor::checked() const {
  if (!impl_) throw TensorError("the tensor is undefined");
  return *body();
}

void Tensor::check_dtype(ScalarType t) const {
  if (checked().dtype != t)
    throw TensorError(fmt::format("expected a tensor of type {}, got {}", to_string(t),
                                  to_string(body()->dtype)));
}

// ## Factories

Tensor Tensor::empty(IntArrayRef sizes, TensorOptions options, MemoryFormat format) {
  std::vector<int64_t> strides;
  switch (format) {
    case MemoryFormat::Contiguous:
    case MemoryFormat::Preserve: strides = contiguous_strides(sizes); break;
    case MemoryFormat::ChannelsLast: strides = channels_last_strides(sizes); break;
  }
  return empty_strided(sizes, strides, options);
}

Tensor Tensor::empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  check_sizes_and_strides(sizes, strides);
  Device device = options.device;
  if (device.is_cuda() && !device.has_index()) device = Device(DeviceType::CUDA, 0);
  Storage storage = Storage::allocate(required_bytes(sizes, strides, 0, options.dtype), device);
  return Tensor(new_impl(std::move(storage), options.dtype, sizes.vec(), strides.vec(), 0));
}

Tensor Tensor::from_storage(Storage storage, ScalarType dtype, IntArrayRef sizes,
                            IntArrayRef strides, int64_t storage_offset) {
  if (!storage.defined()) throw TensorError("cannot make a tensor over an undefined storage");
  check_view_geometry(sizes, strides, storage_offset, dtype, storage);
  return Tensor(new_impl(std::move(storage), dtype, sizes.vec(), strides.vec(), storage_offset));
}

// ## Shape and layout

bool Tensor::is_alias_of(const Tensor& other) const {
  return impl_ && other.impl_ && body()->storage.is_same(other.body()->storage);
}

int64_t Tensor::dim() const { return static_cast<int64_t>(checked().sizes.size()); }
IntArrayRef Tensor::sizes() const { return checked().sizes; }
IntArrayRef Tensor::strides() const { return checked().strides; }
int64_t Tensor::size(int64_t d) const {
  return checked().sizes.empty() ? 1 : body()->sizes[wrap_dim(d, dim())];
}
int64_t Tensor::stride(int64_t d) const {
  return checked().strides.empty() ? 1 : body()->strides[wrap_dim(d, dim())];
}
int64_t Tensor::numel() const { return checked().numel; }
int64_t Tensor::storage_offset() const { return checked().storage_offset; }
ScalarType Tensor::dtype() const { return checked().dtype; }
std::size_t Tensor::element_size() const { return core::element_size(checked().dtype); }
Device Tensor::device() const { return checked().storage.device(); }
const Storage& Tensor::storage() const { return checked().storage; }
void Tensor::set_key_set(DispatchKeySet keys) {
  checked();
  impl_->keys = keys;
}

bool Tensor::is_contiguous(MemoryFormat format) const {
  const TensorImpl& t = checked();
  if (t.numel == 0) {
    return format == MemoryFormat::Contiguous ||
           (format == MemoryFormat::ChannelsLast && t.sizes.size() == 4);
  }
  auto dense_in_order = [&](std::initializer_list<std::size_t> inner_to_outer) {
    int64_t expected = 1;
    for (std::size_t d : inner_to_outer) {
      if (t.sizes[d] == 1) continue;
      if (t.strides[d] != expected) return false;
      expected *= t.sizes[d];
    }
    return true;
  };
  switch (format) {
    case MemoryFormat::Contiguous: {
      int64_t expected = 1;
      for (std::size_t d = t.sizes.size(); d-- > 0;) {
        if (t.sizes[d] == 1) continue;
        if (t.strides[d] != expected) return false;
        expected *= t.sizes[d];
      }
      return true;
    }
    case MemoryFormat::ChannelsLast: return t.sizes.size() == 4 && dense_in_order({1, 3, 2, 0});
    case MemoryFormat::Preserve: return false;
  }
  return false;
}

MemoryFormat Tensor::suggest_memory_format() const {
  if (dim() == 4 && !is_contiguous() && is_contiguous(MemoryFormat::ChannelsLast))
    return MemoryFormat::ChannelsLast;
  return MemoryFormat::Contiguous;
}

// ## Data

void* Tensor::data_ptr() const {
  const TensorImpl& t = checked();
  if (t.storage.data() == nullptr) return nullptr;
  return static_cast<char*>(t.storage.data()) +
         static_cast<std::size_t>(t.storage_offset) * core::element_size(t.dtype);
}

const void* Tensor::cpu_data_ptr() const {
  if (!checked().storage.device().is_cpu())
    throw TensorError(fmt::format("cannot read elements of a tensor on {} from the host",
                                  body()->storage.device().to_string()));
  return data_ptr();
}

int64_t Tensor::element_offset(IntArrayRef index) const {
  const TensorImpl& t = checked();
  if (index.size() != t.sizes.size())
    throw TensorError(fmt::format("index {} has {} entries for a {}-d tensor", to_string(index),
                                  index.size(), t.sizes.size()));
  int64_t offset = 0;
  for (std::size_t d = 0; d < index.size(); ++d) {
    int64_t i = index[d];
    if (i < -t.sizes[d] || i >= t.sizes[d])
      throw TensorError(
          fmt::format("index {} is out of bounds for dimension {} with size {}", i, d, t.sizes[d]));
    if (i < 0) i += t.sizes[d];
    offset += i * t.strides[d];
  }
  return offset;
}

// ## Views

Tensor Tensor::make_view(std::vector<int64_t> sizes, std::vector<int64_t> strides,
                         int64_t offset) const {
  const TensorImpl& t = checked();
  auto* impl = new TensorImpl;
  impl->storage = t.storage;
  impl->dtype = t.dtype;
  impl->keys = t.keys;
  impl->numel = checked_numel(sizes);
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->storage_offset = offset;
  impl->version = t.version;
  return Tensor(impl);
}

Tensor Tensor::as_strided(IntArrayRef sizes, IntArrayRef strides) const {
  return as_strided(sizes, strides, storage_offset());
}

Tensor Tensor::as_strided(IntArrayRef sizes, IntArrayRef strides, int64_t offset) const {
  check_view_geometry(sizes, strides, offset, checked().dtype, body()->storage);
  return make_view(sizes.vec(), strides.vec(), offset);
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  const int64_t n = dim();
  const int64_t a = wrap_dim(dim0, n);
  const int64_t b = wrap_dim(dim1, n);
  std::vector<int64_t> sizes = body()->sizes;
  std::vector<int64_t> strides = body()->strides;
  if (n > 0) {
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
  }
  return make_view(std::move(sizes), std::move(strides), body()->storage_offset);
}

Tensor Tensor::permute(IntArrayRef dims) const {
  const int64_t n = dim();
  if (static_cast<int64_t>(dims.size()) != n)
    throw TensorError(fmt::format("permute: dims {} do not match the {} dimensions of the tensor",
                                  to_string(dims), n));
  std::vector<int64_t> sizes(n), strides(n);
  std::vector<bool> seen(n, false);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = wrap_dim(dims[i], n);
    if (seen[d])
      throw TensorError(
          fmt::format("permute: dimension {} appears twice in {}", d, to_string(dims)));
    seen[d] = true;
    sizes[i] = body()->sizes[d];
    strides[i] = body()->strides[d];
  }
  return make_view(std::move(sizes), std::move(strides), body()->storage_offset);
}

Tensor Tensor::view(IntArrayRef requested) const {
  const TensorImpl& t = checked();
  std::vector<int64_t> sizes = requested.vec();
  int64_t inferred = -1;
  int64_t known = 1;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == -1) {
      if (inferred >= 0)
        throw TensorError(
            fmt::format("view: only one dimension can be inferred in {}", to_string(requested)));
      inferred = static_cast<int64_t>(d);
    } else if (sizes[d] < 0) {
      throw TensorError(fmt::format("view: invalid size {} in {}", sizes[d], to_string(requested)));
    } else {
      known *= sizes[d];
    }
  }
  if (inferred >= 0) {
    if (known == 0 || t.numel % known != 0)
      throw TensorError(fmt::format("view: shape {} is invalid for input of size {}",
                                    to_string(requested), t.numel));
    sizes[inferred] = t.numel / known;
  }
  if (checked_numel(sizes) != t.numel)
    throw TensorError(fmt::format("view: shape {} is invalid for input of size {}",
                                  to_string(requested), t.numel));
  auto strides = view_strides(t.sizes, t.strides, sizes, t.numel);
  if (!strides)
    throw TensorError(
        fmt::format("view: shape {} is not compatible with the input's sizes {} and strides {} (a "
                    "dimension spans two "
                    "non-contiguous parts); make the tensor contiguous first",
                    to_string(requested), to_string(t.sizes), to_string(t.strides)));
  return make_view(std::move(sizes), std::move(*strides), t.storage_offset);
}

Tensor Tensor::expand(IntArrayRef requested) const {
  const TensorImpl& t = checked();
  const auto n = static_cast<int64_t>(requested.size());
  const auto old_n = static_cast<int64_t>(t.sizes.size());
  if (n < old_n)
    throw TensorError(
        fmt::format("expand: the number of sizes {} must be at least the tensor's {} dimensions",
                    to_string(requested), old_n));
  std::vector<int64_t> sizes(n), strides(n);
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t old_i = i - (n - old_n);
    int64_t want = requested[i];
    if (old_i >= 0) {
      const int64_t have = t.sizes[old_i];
      if (want == -1) want = have;
      if (have == want) {
        sizes[i] = have;
        strides[i] = t.strides[old_i];
      } else if (have == 1 && want >= 0) {
        sizes[i] = want;
        strides[i] = 0;
      } else {
        throw TensorError(
            fmt::format("expand: size {} of dimension {} cannot be expanded to {} (sizes {} to {})",
                        have, old_i, want, to_string(t.sizes), to_string(requested)));
      }
    } else {
      if (want < 0)
        throw TensorError(
            fmt::format("expand: size {} is invalid for a new leading dimension", want));
      sizes[i] = want;
      strides[i] = 0;
    }
  }
  return make_view(std::move(sizes), std::move(strides), t.storage_offset);
}

Tensor Tensor::select(int64_t d, int64_t index) const {
  const TensorImpl& t = checked();
  if (t.sizes.empty()) throw TensorError("select: cannot select from a 0-d tensor");
  const int64_t w = wrap_dim(d, dim());
  const int64_t size = t.sizes[w];
  if (index < -size || index >= size)
    throw TensorError(fmt::format("select: index {} is out of range for dimension {} with size {}",
                                  index, w, size));
  if (index < 0) index += size;
  std::vector<int64_t> sizes = t.sizes;
  std::vector<int64_t> strides = t.strides;
  const int64_t offset = t.storage_offset + index * strides[w];
  sizes.erase(sizes.begin() + w);
  strides.erase(strides.begin() + w);
  return make_view(std::move(sizes), std::move(strides), offset);
}

Tensor Tensor::alias() const {
  const TensorImpl& t = checked();
  return make_view(t.sizes, t.strides, t.storage_offset);
}

// ## In-place metadata

void Tensor::resize_(IntArrayRef sizes, MemoryFormat format) {
  checked();
  std::vector<int64_t> strides = format == MemoryFormat::ChannelsLast ? channels_last_strides(sizes)
                                                                      : contiguous_strides(sizes);
  const int64_t numel = checked_numel(sizes);
  const std::size_t needed = required_bytes(sizes, strides, body()->storage_offset, body()->dtype);
  if (needed > body()->storage.nbytes()) body()->storage.resize(needed);
  body()->sizes = sizes.vec();
  body()->strides = std::move(strides);
  body()->numel = numel;
}

// ## Version counter and autograd slot

uint32_t Tensor::version() const { return checked().version->load(std::memory_order_relaxed); }
void Tensor::bump_version() const { checked().version->fetch_add(1, std::memory_order_relaxed); }

const std::shared_ptr<void>& Tensor::autograd_meta() const { return checked().autograd_meta; }
void Tensor::set_autograd_meta(std::shared_ptr<void> meta) const {
  checked();
  body()->autograd_meta = std::move(meta);
}

std::string Tensor::describe() const {
  if (!impl_) return "undefined";
  return fmt::format("{}:{}{}", body()->storage.device().to_string(), to_string(body()->dtype),
                     to_string(IntArrayRef(body()->sizes)));
}

}  // namespace schemac::core
