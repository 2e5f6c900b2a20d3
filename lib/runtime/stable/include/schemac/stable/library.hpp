// A header-only C++ wrapper over the stable C ABI (abi.h), for plugins.
//
// Everything here is inline and hidden inside the plugin, and talks to the runtime only through
// the C functions of abi.h, so a plugin built with it keeps loading into later runtimes of the
// same ABI major version.
//
//   static void scale(StableValue* stack, uint64_t, uint64_t) { ... }
//
//   SCHEMAC_STABLE_LIBRARY(myplugin, m) {
//     m.def("scale(Tensor self, float factor) -> Tensor");
//   }
//   SCHEMAC_STABLE_LIBRARY_IMPL(myplugin, CPU, m) {
//     m.impl("scale", &scale);
//   }
//   SCHEMAC_STABLE_PLUGIN()   // once per plugin: the entry points the runtime's loader calls
//
// The blocks do not register while the plugin is being opened: the loader first checks the
// plugin's ABI version, then calls its register entry point, which runs the blocks in order.
#ifndef SCHEMAC_STABLE_LIBRARY_HPP
#define SCHEMAC_STABLE_LIBRARY_HPP

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "schemac/stable/abi.h"

// Hidden: each plugin has its own copy of these inline functions and their static state.
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

namespace schemac::stable {

// A failed C call, with the runtime's message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void check(SchemacStatus status) {
  if (status != SCHEMAC_OK) throw Error(schemac_last_error());
}

// A tensor handle: owned (released when this object goes away) or borrowed (an argument slot).
class Tensor {
 public:
  Tensor() = default;
  // The tensor in an argument slot, borrowed for the kernel call.
  static Tensor borrow(StableValue slot) { return Tensor(schemac_value_to_tensor(slot), false); }
  // Takes ownership of a handle (a tensor an operator call returned).
  static Tensor adopt(StableValue slot) { return Tensor(schemac_value_to_tensor(slot), true); }
  static Tensor empty(const std::vector<int64_t>& sizes,
                      SchemacDType dtype = SCHEMAC_DTYPE_FLOAT32) {
    SchemacTensor h = nullptr;
    check(schemac_tensor_empty(sizes.data(), static_cast<int64_t>(sizes.size()), dtype, &h));
    return Tensor(h, true);
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  Tensor(Tensor&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)), owned_(o.owned_) {}
  Tensor& operator=(Tensor&& o) noexcept {
    if (this != &o) {
      reset();
      handle_ = std::exchange(o.handle_, nullptr);
      owned_ = o.owned_;
    }
    return *this;
  }
  ~Tensor() { reset(); }

  bool defined() const { return handle_ != nullptr && schemac_tensor_dim(handle_) >= 0; }
  SchemacTensor get() const { return handle_; }
  int64_t dim() const { return schemac_tensor_dim(handle_); }
  int64_t size(int64_t d) const { return schemac_tensor_size(handle_, d); }
  int64_t numel() const { return schemac_tensor_numel(handle_); }
  SchemacDType dtype() const { return static_cast<SchemacDType>(schemac_tensor_dtype(handle_)); }
  bool is_contiguous() const { return schemac_tensor_is_contiguous(handle_) != 0; }
  template <class T>
  T* data() const {
    return static_cast<T*>(schemac_tensor_data_ptr(handle_));
  }
  std::vector<int64_t> sizes() const {
    std::vector<int64_t> out;
    for (int64_t d = 0; d < dim(); ++d) out.push_back(size(d));
    return out;
  }
  // An owned handle to the same tensor.
  Tensor retain() const {
    SchemacTensor h = nullptr;
    check(schemac_tensor_retain(handle_, &h));
    return Tensor(h, true);
  }
  // The slot value that hands this tensor to the caller (for an output slot). A borrowed tensor
  // is retained first, so returning an argument is safe.
  StableValue into_slot() && {
    if (!owned_) return std::move(retain()).into_slot();
    owned_ = false;
    return schemac_value_from_tensor(std::exchange(handle_, nullptr));
  }
  // The slot value that lends this tensor (for an argument slot of a call).
  StableValue as_argument() const { return schemac_value_from_tensor(handle_); }

 private:
  Tensor(SchemacTensor h, bool owned) : handle_(h), owned_(owned) {}
  void reset() {
    if (owned_ && handle_ != nullptr) schemac_tensor_release(handle_);
    handle_ = nullptr;
  }
  SchemacTensor handle_ = nullptr;
  bool owned_ = false;
};

// Calls the operator "ns::op[.overload]": arguments in stack[0..num_args), returns in
// stack[0..num_outputs) (tensors owned by the caller: wrap them with Tensor::adopt).
inline void call(const char* op, StableValue* stack, uint64_t num_args, uint64_t num_outputs) {
  check(schemac_call(op, stack, num_args, num_outputs));
}

class Library {
 public:
  enum Kind : int32_t { Def = 0, Impl = 1, Fragment = 2 };
  Library(Kind kind, const char* ns, const char* dispatch_key, const char* file, uint32_t line) {
    check(schemac_library_create(kind, ns, dispatch_key, file, line, &lib_));
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  ~Library() { schemac_library_destroy(lib_); }

  Library& def(const char* schema) {
    check(schemac_library_def(lib_, schema));
    return *this;
  }
  // A kernel for the library's key (a def library: the catch-all).
  Library& impl(const char* op, SchemacBoxedKernel kernel) {
    check(schemac_library_impl(lib_, op, nullptr, kernel));
    return *this;
  }
  Library& impl(const char* op, const char* dispatch_key, SchemacBoxedKernel kernel) {
    check(schemac_library_impl(lib_, op, dispatch_key, kernel));
    return *this;
  }
  // nullptr: a fallthrough fallback.
  Library& fallback(SchemacBoxedKernel kernel) {
    check(schemac_library_fallback(lib_, kernel));
    return *this;
  }

 private:
  SchemacLibrary lib_ = nullptr;
};

namespace detail {

struct Block {
  void (*fn)(Library&);
  Library::Kind kind;
  const char* ns;
  const char* dispatch_key;
  const char* file;
  uint32_t line;
};

inline std::vector<Block>& blocks() {
  static std::vector<Block> all;
  return all;
}

inline std::vector<std::unique_ptr<Library>>& libraries() {
  static std::vector<std::unique_ptr<Library>> all;
  return all;
}

struct AddBlock {
  explicit AddBlock(Block b) { blocks().push_back(b); }
};

// Undoes every registration of the plugin, newest library first.
inline void unregister_all() noexcept {
  while (!libraries().empty()) libraries().pop_back();
}

// Runs every block; on failure reports the error through schemac_set_error.
inline SchemacStatus register_all() noexcept {
  try {
    for (const Block& b : blocks()) {
      libraries().push_back(
          std::make_unique<Library>(b.kind, b.ns, b.dispatch_key, b.file, b.line));
      b.fn(*libraries().back());
    }
    return SCHEMAC_OK;
  } catch (const std::exception& e) {
    schemac_set_error(e.what());
    return SCHEMAC_ERROR_REGISTRATION;
  }
}

}  // namespace detail
}  // namespace schemac::stable

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#define SCHEMAC_STABLE_CONCAT_INNER(a, b) a##b
#define SCHEMAC_STABLE_CONCAT(a, b) SCHEMAC_STABLE_CONCAT_INNER(a, b)

#define SCHEMAC_STABLE_BLOCK(kind, ns, key, m, uid)                                              \
  static void SCHEMAC_STABLE_CONCAT(schemac_stable_block_, uid)(::schemac::stable::Library&);    \
  static const ::schemac::stable::detail::AddBlock SCHEMAC_STABLE_CONCAT(                        \
      schemac_stable_add_, uid)(::schemac::stable::detail::Block{                                \
      &SCHEMAC_STABLE_CONCAT(schemac_stable_block_, uid), ::schemac::stable::Library::kind, #ns, \
      key, __FILE__, __LINE__});                                                                 \
  static void SCHEMAC_STABLE_CONCAT(schemac_stable_block_, uid)(::schemac::stable::Library & m)

#define SCHEMAC_STABLE_LIBRARY(ns, m) \
  SCHEMAC_STABLE_BLOCK(Def, ns, nullptr, m, SCHEMAC_STABLE_CONCAT(ns##_def_, __COUNTER__))
#define SCHEMAC_STABLE_LIBRARY_FRAGMENT(ns, m) \
  SCHEMAC_STABLE_BLOCK(Fragment, ns, nullptr, m, SCHEMAC_STABLE_CONCAT(ns##_fragment_, __COUNTER__))
#define SCHEMAC_STABLE_LIBRARY_IMPL(ns, k, m) \
  SCHEMAC_STABLE_BLOCK(Impl, ns, #k, m, SCHEMAC_STABLE_CONCAT(ns##_##k##_impl_, __COUNTER__))

// The plugin's entry points; use once per plugin, in one source file.
#define SCHEMAC_STABLE_PLUGIN()                                               \
  extern "C" SCHEMAC_ABI_EXPORT uint32_t schemac_plugin_abi_version(void) {   \
    return SCHEMAC_ABI_VERSION;                                               \
  }                                                                           \
  extern "C" SCHEMAC_ABI_EXPORT SchemacStatus schemac_plugin_register(void) { \
    return ::schemac::stable::detail::register_all();                         \
  }                                                                           \
  extern "C" SCHEMAC_ABI_EXPORT void schemac_plugin_unregister(void) {        \
    ::schemac::stable::detail::unregister_all();                              \
  }

#endif  // SCHEMAC_STABLE_LIBRARY_HPP
