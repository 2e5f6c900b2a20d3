// Tensor: a refcounted handle to a strided view of a Storage, with sizes, strides (in elements),
// a storage offset, an element type, a device and the dispatch key set derived from them.
//
// Copying a Tensor is cheap (one atomic increment) and shares everything; a default-constructed
// Tensor is undefined (`defined()` is false). Views (as_strided, transpose, permute, view,
// expand) make a new handle over the same storage and share the version counter, which in-place
// operations bump.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "schemac/core/array_ref.h"
#include "schemac/core/device.h"
#include "schemac/core/scalar_type.h"
#include "schemac/core/storage.h"
#include "schemac/keys/dispatch_key_set.h"

namespace schemac::core {

using keys::DispatchKeySet, keys::to_string;

// Raised for an invalid tensor operation (bad dimension, incompatible view, wrong dtype...).
class TensorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "[2, 3]".
std::string to_string(IntArrayRef values);

enum class Layout : int8_t { Strided };
std::string_view to_string(Layout layout);  // "torch.strided"

// The memory format an operator is asked to produce. Preserve keeps the input's format.
enum class MemoryFormat : int8_t { Contiguous, ChannelsLast, Preserve };
std::string_view to_string(MemoryFormat format);  // "contiguous_format", "channels_last", ...

// What a factory makes: an element type and a device.
struct TensorOptions {
  ScalarType dtype = ScalarType::Float;
  Device device = kCPU;

  TensorOptions with_dtype(ScalarType t) const { return {t, device}; }
  TensorOptions with_device(Device d) const { return {dtype, d}; }
};

// Contiguous (row-major) strides for `sizes`; size-0 and size-1 dimensions get the stride they
// would have were they larger, as torch does.
std::vector<int64_t> contiguous_strides(IntArrayRef sizes);
// Strides of a 4-d (N, C, H, W) tensor laid out as N, H, W, C in memory.
std::vector<int64_t> channels_last_strides(IntArrayRef sizes);
// The product of `sizes` (1 for none); throws TensorError on a negative size or overflow.
int64_t checked_numel(IntArrayRef sizes);
// The dimension `dim` (negative counts from the end) as an index into `ndim` dimensions; throws
// TensorError naming the valid range. A 0-d tensor accepts -1 and 0.
int64_t wrap_dim(int64_t dim, int64_t ndim);

// The runtime key set of a dense tensor on `device`: {Dense<backend>, ADInplaceOrView,
// Autograd<backend>, Autocast<backend>}, as torch gives its tensors.
DispatchKeySet key_set_for(Device device);

// What a handle touches on every copy and every dispatch: the reference count and the dispatch
// key set. They head the shared state (TensorImpl, private to tensor.cpp) so that copies,
// destruction and key extraction compile inline, with no call into the library.
class TensorImpl;

class TensorImplHead {
 public:
  std::atomic<long> refcount{1};
  DispatchKeySet keys;

 protected:
  TensorImplHead() = default;
  ~TensorImplHead() = default;
};

namespace detail {
// Destroys the shared state whose last handle went away.
void destroy_tensor_impl(TensorImplHead* impl) noexcept;
}  // namespace detail

class Tensor {
 public:
  Tensor() = default;
  Tensor(const Tensor& other) noexcept : impl_(other.impl_) { retain(impl_); }
  Tensor(Tensor&& other) noexcept : impl_(other.impl_) { other.impl_ = nullptr; }
  Tensor& operator=(const Tensor& other) noexcept {
    retain(other.impl_);
    release(std::exchange(impl_, other.impl_));
    return *this;
  }
  Tensor& operator=(Tensor&& other) noexcept {
    if (this != &other) release(std::exchange(impl_, std::exchange(other.impl_, nullptr)));
    return *this;
  }
  ~Tensor() { release(impl_); }

  // ## Factories (memory is uninitialised)
  static Tensor empty(IntArrayRef sizes, TensorOptions options = {},
                      MemoryFormat format = MemoryFormat::Contiguous);
  static Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
  // A tensor over an existing storage (sizes and strides are checked against its size).
  static Tensor from_storage(Storage storage, ScalarType dtype, IntArrayRef sizes,
                             IntArrayRef strides, int64_t storage_offset = 0);

  // ## Identity
  bool defined() const { return impl_ != nullptr; }
  // How many handles share this tensor's implementation (0 when undefined).
  long use_count() const;
  // Whether both handles refer to the same tensor (not just the same storage).
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }
  // Whether both tensors view the same storage.
  bool is_alias_of(const Tensor& other) const;

  // ## Shape and layout (a defined tensor is required from here on)
  int64_t dim() const;
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t size(int64_t dim) const;    // dim may be negative
  int64_t stride(int64_t dim) const;  // dim may be negative
  int64_t numel() const;
  int64_t storage_offset() const;
  ScalarType dtype() const;
  ScalarType scalar_type() const { return dtype(); }
  std::size_t element_size() const;
  Device device() const;
  Layout layout() const { return Layout::Strided; }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  const Storage& storage() const;
  // Contiguous: row-major with no gaps. ChannelsLast: a 4-d tensor laid out N, H, W, C.
  // Preserve is not a layout and gives false. Size-1 dimensions may have any stride.
  bool is_contiguous(MemoryFormat format = MemoryFormat::Contiguous) const;
  // ChannelsLast when the tensor is channels_last-contiguous but not contiguous, else Contiguous
  // (the format `empty_like(..., Preserve)` should produce for a dense tensor).
  MemoryFormat suggest_memory_format() const;
  // The tensor's dispatch keys (empty for an undefined tensor).
  DispatchKeySet key_set() const { return impl_ ? impl_->keys : DispatchKeySet(); }
  // Replaces the key set (for wrapper tensors and tests of layering kernels).
  void set_key_set(DispatchKeySet keys);

  // ## Data
  // The address of the first element (storage data + offset * element size).
  void* data_ptr() const;
  // Typed access; throws TensorError when T is not the element type.
  template <typename T>
  T* data_ptr() const {
    check_dtype(scalar_type_of<T>());
    return static_cast<T*>(data_ptr());
  }
  // The element at `index` of a CPU tensor; throws TensorError on a bad index, device or type.
  template <typename T>
  T item_at(IntArrayRef index) const {
    check_dtype(scalar_type_of<T>());
    return static_cast<const T*>(cpu_data_ptr())[element_offset(index)];
  }
  // The offset, in elements from data_ptr(), of the element at `index`.
  int64_t element_offset(IntArrayRef index) const;

  // ## Views (share storage and version counter)
  Tensor as_strided(IntArrayRef sizes, IntArrayRef strides) const;
  Tensor as_strided(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor permute(IntArrayRef dims) const;
  // One size may be -1 (inferred). Throws TensorError when the strides cannot express the shape.
  Tensor view(IntArrayRef sizes) const;
  // Broadcasts size-1 dimensions (and new leading ones) to `sizes` with stride 0; -1 keeps a size.
  Tensor expand(IntArrayRef sizes) const;
  // The single element along `dim` at `index`, dropping that dimension.
  Tensor select(int64_t dim, int64_t index) const;
  // A view of the same tensor that is a new handle (like torch's alias()).
  Tensor alias() const;

  // ## In-place metadata
  // Gives the tensor `sizes` with contiguous strides (or channels_last ones), growing the storage
  // when it is too small (its old bytes are kept). Bumps nothing: callers of in-place ops do.
  void resize_(IntArrayRef sizes, MemoryFormat format = MemoryFormat::Contiguous);

  // ## Version counter (shared by views)
  uint32_t version() const;
  void bump_version() const;

  // ## Autograd slot
  // An opaque per-tensor record for an autograd layer (not shared by views). Null by default.
  const std::shared_ptr<void>& autograd_meta() const;
  void set_autograd_meta(std::shared_ptr<void> meta) const;

  // "cpu:float32[2, 3]" (or "undefined").
  std::string describe() const;

  TensorImplHead* unsafe_impl() const { return impl_; }

 private:
  static void retain(TensorImplHead* impl) noexcept {
    if (impl) impl->refcount.fetch_add(1, std::memory_order_relaxed);
  }
  static void release(TensorImplHead* impl) noexcept {
    if (impl && impl->refcount.fetch_sub(1, std::memory_order_acq_rel) == 1)
      detail::destroy_tensor_impl(impl);
  }
  explicit Tensor(TensorImplHead* impl) : impl_(impl) {}  // adopts one reference
  TensorImpl* body() const;  // impl_ as the whole shared state (tensor.cpp)
  const TensorImpl& checked() const;
  void check_dtype(ScalarType t) const;
  const void* cpu_data_ptr() const;
  Tensor make_view(std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset) const;

  TensorImplHead* impl_ = nullptr;
};

}  // namespace schemac::core
