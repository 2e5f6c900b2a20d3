// The stable C ABI (schemac/stable/abi.h): C entry points over the C++ runtime.
//
// A SchemacTensor is a `Tensor*`. Handles the runtime lends to a kernel point at the Tensor
// inside the IValue on the stack (no allocation); handles given to the caller are heap Tensors
// released by schemac_tensor_release().
#include "schemac/stable/abi.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "schemac/core/tensor.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/library.h"
#include "schemac/dispatch/operator_handle.h"

using namespace schemac::core;
using namespace schemac::dispatch;
using namespace schemac::keys;

namespace {

thread_local std::string last_error;

SchemacStatus fail(SchemacStatus status, std::string message) {
  last_error = std::move(message);
  return status;
}

Tensor* as_tensor(SchemacTensor t) { return reinterpret_cast<Tensor*>(t); }
SchemacTensor to_handle(Tensor* t) { return reinterpret_cast<SchemacTensor>(t); }
SchemacTensor new_handle(Tensor t) { return to_handle(new Tensor(std::move(t))); }

std::optional<ScalarType> to_scalar_type(int32_t dtype) {
  switch (dtype) {
    case SCHEMAC_DTYPE_FLOAT32: return ScalarType::Float;
    case SCHEMAC_DTYPE_FLOAT64: return ScalarType::Double;
    case SCHEMAC_DTYPE_FLOAT16: return ScalarType::Half;
    case SCHEMAC_DTYPE_BFLOAT16: return ScalarType::BFloat16;
    case SCHEMAC_DTYPE_INT32: return ScalarType::Int;
    case SCHEMAC_DTYPE_INT64: return ScalarType::Long;
    case SCHEMAC_DTYPE_BOOL: return ScalarType::Bool;
    default: return std::nullopt;
  }
}

int32_t to_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return SCHEMAC_DTYPE_FLOAT32;
    case ScalarType::Double: return SCHEMAC_DTYPE_FLOAT64;
    case ScalarType::Half: return SCHEMAC_DTYPE_FLOAT16;
    case ScalarType::BFloat16: return SCHEMAC_DTYPE_BFLOAT16;
    case ScalarType::Int: return SCHEMAC_DTYPE_INT32;
    case ScalarType::Long: return SCHEMAC_DTYPE_INT64;
    case ScalarType::Bool: return SCHEMAC_DTYPE_BOOL;
  }
  return -1;
}

// ## Converting between StableValue slots and IValues, by schema type

enum class SlotKind { Tensor, Int, Bool, Double };

struct SlotType {
  SlotKind kind;
  bool optional;
};

// The stable encoding of an argument's type, or nothing when a 64-bit slot cannot hold it.
std::optional<SlotType> slot_type(const ArgumentSignature& arg) {
  const std::string_view t = arg.leaf;
  const bool optional = arg.optional;
  if (t == "Tensor") return SlotType{SlotKind::Tensor, optional};
  if (t == "int" || t == "SymInt" || t == "ScalarType" || t == "Layout" || t == "MemoryFormat")
    return SlotType{SlotKind::Int, optional};
  if (t == "bool" || t == "SymBool") return SlotType{SlotKind::Bool, optional};
  if (t == "float" || t == "SymFloat") return SlotType{SlotKind::Double, optional};
  return std::nullopt;
}

SlotType require_slot_type(const OperatorHandle& op, const ArgumentSignature& arg, size_t index,
                           const char* what) {
  if (auto t = slot_type(arg)) return *t;
  throw DispatchError(
      fmt::format("{} {} ('{}') of operator '{}' has a type that the stable ABI cannot "
                  "pass in a 64-bit slot",
                  what, index, arg.name, op.full_name()));
}

// A slot the runtime lends: tensors point into the IValue, which must outlive the slot.
StableValue lend(IValue& v, SlotType t) {
  if (v.is_none()) return t.kind == SlotKind::Tensor ? 0 : SCHEMAC_NONE_VALUE;
  switch (t.kind) {
    case SlotKind::Tensor: return schemac_value_from_tensor(to_handle(&v.to_tensor_ref()));
    case SlotKind::Int: return static_cast<StableValue>(v.to_int());
    case SlotKind::Bool: return v.to_bool() ? 1 : 0;
    case SlotKind::Double: return schemac_value_from_double(v.to_double());
  }
  return 0;
}

// A slot handed over with ownership (a tensor result becomes a new heap handle).
StableValue give(IValue&& v, SlotType t) {
  if (t.kind == SlotKind::Tensor) {
    if (v.is_none()) return 0;
    return schemac_value_from_tensor(new_handle(std::move(v).to_tensor()));
  }
  return lend(v, t);
}

// An IValue from a slot. Tensors: `owned` slots are consumed (their heap handle freed), borrowed
// ones copied.
IValue from_slot(StableValue s, SlotType t, bool owned) {
  if (t.kind == SlotKind::Tensor) {
    Tensor* handle = as_tensor(schemac_value_to_tensor(s));
    if (handle == nullptr) return t.optional ? IValue() : IValue(Tensor());
    IValue v(owned ? std::move(*handle) : *handle);
    if (owned) delete handle;
    return v;
  }
  if (t.optional && s == SCHEMAC_NONE_VALUE) return IValue();
  switch (t.kind) {
    case SlotKind::Int: return IValue(static_cast<int64_t>(s));
    case SlotKind::Bool: return IValue(s != 0);
    case SlotKind::Double: return IValue(schemac_value_to_double(s));
    case SlotKind::Tensor: break;
  }
  return IValue();
}

// ## A stable kernel seen from the runtime: a boxed functor that converts by the schema.
class StableKernel final : public BoxedKernelFunctor {
 public:
  StableKernel(SchemacBoxedKernel plain, SchemacBoxedKernelWithContext with_context, void* context)
      : plain_(plain), with_context_(with_context), context_(context) {}

  void operator()(const OperatorHandle& op, DispatchKeySet, Stack* stack) override {
    const OperatorSignature& schema = op.schema();
    const size_t num_args = schema.arguments.size();
    const size_t num_outputs = schema.returns.size();
    require_stack_size(*stack, num_args, "the arguments of a stable kernel");
    IValue* args = stack->data() + stack->size() - num_args;
    std::vector<StableValue> slots(std::max(num_args, num_outputs), 0);
    for (size_t i = 0; i < num_args; ++i)
      slots[i] = lend(args[i], require_slot_type(op, schema.arguments[i], i, "argument"));
    std::vector<SlotType> out_types;
    for (size_t i = 0; i < num_outputs; ++i)
      out_types.push_back(require_slot_type(op, schema.returns[i], i, "return"));
    last_error.clear();
    if (plain_ != nullptr) {
      plain_(slots.data(), num_args, num_outputs);
    } else {
      with_context_(context_, slots.data(), num_args, num_outputs);
    }
    if (!last_error.empty()) {
      std::string message = std::exchange(last_error, {});
      throw DispatchError(fmt::format("stable kernel of '{}' failed: {}", op.full_name(), message));
    }
    // Take the outputs before dropping the arguments they may borrow from.
    std::vector<IValue> outputs;
    outputs.reserve(num_outputs);
    for (size_t i = 0; i < num_outputs; ++i)
      outputs.push_back(from_slot(slots[i], out_types[i], true));
    stack->resize(stack->size() - num_args);
    for (IValue& v : outputs) stack->push_back(std::move(v));
  }

 private:
  SchemacBoxedKernel plain_;
  SchemacBoxedKernelWithContext with_context_;
  void* context_;
};

// A key name from C: NULL, "" or "CatchAll" is the catch-all (no key).
struct ParsedKey {
  bool ok = true;
  std::optional<DispatchKey> key;
};
ParsedKey parse_key(const char* name) {
  if (name == nullptr || name[0] == '\0') return {};
  if (std::strcmp(name, "CatchAll") == 0 || std::strcmp(name, "catchall") == 0) return {};
  const std::optional<DispatchKey> k = parse_dispatch_key(name);
  return ParsedKey{k.has_value(), k};
}

template <class F>
SchemacStatus guarded(SchemacStatus on_error, F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    return fail(on_error, e.what());
  }
}

}  // namespace

struct SchemacLibraryOpaque {
  Library library;
};

struct SchemacPluginOpaque {
  void* dl = nullptr;
  SchemacPluginUnregisterFn unregister = nullptr;
};

namespace {

// Plugins stay mapped after they are unloaded: a call that reached one of their kernels just
// before the unload may still be running its code, and the dispatch tables keep every entry they
// ever published. Each handle here holds one dlopen reference, kept for the life of the process;
// loading such a plugin again drops the extra reference that dlopen took.
std::mutex kept_mutex;
std::set<void*>& kept_mapped() {
  static auto* handles = new std::set<void*>();  // never destroyed: see above
  return *handles;
}

}  // namespace

extern "C" {

uint32_t schemac_abi_version(void) { return SCHEMAC_ABI_VERSION; }

SchemacStatus schemac_check_abi_version(uint32_t plugin_version) {
  const uint32_t major = plugin_version >> 16, minor = plugin_version & 0xffff;
  if (major == SCHEMAC_ABI_VERSION_MAJOR && minor <= SCHEMAC_ABI_VERSION_MINOR) return SCHEMAC_OK;
  const bool newer = major > SCHEMAC_ABI_VERSION_MAJOR ||
                     (major == SCHEMAC_ABI_VERSION_MAJOR && minor > SCHEMAC_ABI_VERSION_MINOR);
  return fail(
      SCHEMAC_ERROR_VERSION,
      fmt::format(
          "built for schemac ABI version {}.{}, but this runtime provides version {}.{}; {}", major,
          minor, SCHEMAC_ABI_VERSION_MAJOR, SCHEMAC_ABI_VERSION_MINOR,
          newer ? "it needs a newer runtime" : "rebuild it against this runtime's abi.h"));
}

const char* schemac_last_error(void) { return last_error.c_str(); }

void schemac_set_error(const char* message) {
  last_error = message != nullptr && message[0] != '\0' ? message : "unknown error";
}

StableValue schemac_value_from_double(double v) {
  StableValue s;
  std::memcpy(&s, &v, sizeof s);
  return s;
}

double schemac_value_to_double(StableValue s) {
  double v;
  std::memcpy(&v, &s, sizeof v);
  return v;
}

// ## Tensors

SchemacStatus schemac_tensor_empty(const int64_t* sizes, int64_t ndim, int32_t dtype,
                                   SchemacTensor* out) {
  if (out == nullptr || ndim < 0 || (ndim > 0 && sizes == nullptr))
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT,
                "schemac_tensor_empty: null output, or sizes missing");
  const auto type = to_scalar_type(dtype);
  if (!type)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT,
                fmt::format("schemac_tensor_empty: unknown dtype {}", dtype));
  return guarded(SCHEMAC_ERROR_INVALID_ARGUMENT, [&] {
    *out = new_handle(
        Tensor::empty(IntArrayRef(sizes, static_cast<size_t>(ndim)), TensorOptions{*type, kCPU}));
    return SCHEMAC_OK;
  });
}

SchemacStatus schemac_tensor_retain(SchemacTensor t, SchemacTensor* out) {
  if (t == nullptr || out == nullptr)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT, "schemac_tensor_retain: null handle");
  *out = new_handle(*as_tensor(t));
  return SCHEMAC_OK;
}

void schemac_tensor_release(SchemacTensor t) { delete as_tensor(t); }

int64_t schemac_tensor_dim(SchemacTensor t) {
  return t && as_tensor(t)->defined() ? as_tensor(t)->dim() : -1;
}
int64_t schemac_tensor_size(SchemacTensor t, int64_t dim) {
  if (!t || !as_tensor(t)->defined()) return -1;
  const int64_t n = as_tensor(t)->dim();
  if (dim < -n || dim >= n) return -1;
  return as_tensor(t)->size(dim);
}
int64_t schemac_tensor_numel(SchemacTensor t) {
  return t && as_tensor(t)->defined() ? as_tensor(t)->numel() : -1;
}
int32_t schemac_tensor_dtype(SchemacTensor t) {
  return t && as_tensor(t)->defined() ? to_dtype(as_tensor(t)->dtype()) : -1;
}
int32_t schemac_tensor_is_contiguous(SchemacTensor t) {
  return t && as_tensor(t)->defined() && as_tensor(t)->is_contiguous() ? 1 : 0;
}
void* schemac_tensor_data_ptr(SchemacTensor t) {
  return t && as_tensor(t)->defined() ? as_tensor(t)->data_ptr() : nullptr;
}

// ## Libraries

SchemacStatus schemac_library_create(int32_t kind, const char* ns, const char* dispatch_key,
                                     const char* file, uint32_t line, SchemacLibrary* out) {
  if (out == nullptr || ns == nullptr || kind < 0 || kind > 2)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT,
                "schemac_library_create: bad kind, namespace or output");
  const ParsedKey key = parse_key(dispatch_key);
  if (!key.ok)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT,
                fmt::format("schemac_library_create: unknown dispatch key '{}'", dispatch_key));
  return guarded(SCHEMAC_ERROR_REGISTRATION, [&] {
    const Library::Kind k = kind == 0   ? Library::Kind::Def
                            : kind == 1 ? Library::Kind::Impl
                                        : Library::Kind::Fragment;
    *out = new SchemacLibraryOpaque{Library(k, ns, key.key, file ? file : "<stable abi>", line)};
    return SCHEMAC_OK;
  });
}

void schemac_library_destroy(SchemacLibrary lib) { delete lib; }

SchemacStatus schemac_library_def(SchemacLibrary lib, const char* schema) {
  if (lib == nullptr || schema == nullptr)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT, "schemac_library_def: null argument");
  return guarded(SCHEMAC_ERROR_REGISTRATION, [&] {
    lib->library.def(schema);
    return SCHEMAC_OK;
  });
}

static SchemacStatus impl_stable(SchemacLibrary lib, const char* op_name, const char* dispatch_key,
                                 std::shared_ptr<StableKernel> kernel) {
  if (lib == nullptr || op_name == nullptr)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT, "schemac_library_impl: null argument");
  const ParsedKey key = parse_key(dispatch_key);
  if (!key.ok)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT,
                fmt::format("schemac_library_impl: unknown dispatch key '{}'", dispatch_key));
  return guarded(SCHEMAC_ERROR_REGISTRATION, [&] {
    KernelFunction k = KernelFunction::make_from_boxed_functor(std::move(kernel));
    if (dispatch_key == nullptr) {
      lib->library.impl(op_name, std::move(k));
    } else if (key.key) {
      lib->library.impl(op_name, *key.key, std::move(k));
    } else {
      lib->library.impl(op_name, DispatchKey::CompositeImplicitAutograd, std::move(k));
    }
    return SCHEMAC_OK;
  });
}

SchemacStatus schemac_library_impl(SchemacLibrary lib, const char* op_name,
                                   const char* dispatch_key, SchemacBoxedKernel kernel) {
  if (kernel == nullptr)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT, "schemac_library_impl: null kernel");
  return impl_stable(lib, op_name, dispatch_key,
                     std::make_shared<StableKernel>(kernel, nullptr, nullptr));
}

SchemacStatus schemac_library_impl_with_context(SchemacLibrary lib, const char* op_name,
                                                const char* dispatch_key,
                                                SchemacBoxedKernelWithContext kernel,
                                                void* context) {
  if (kernel == nullptr)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT, "schemac_library_impl_with_context: null kernel");
  return impl_stable(lib, op_name, dispatch_key,
                     std::make_shared<StableKernel>(nullptr, kernel, context));
}

SchemacStatus schemac_library_fallback(SchemacLibrary lib, SchemacBoxedKernel kernel) {
  if (lib == nullptr)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT, "schemac_library_fallback: null library");
  return guarded(SCHEMAC_ERROR_REGISTRATION, [&] {
    lib->library.fallback(kernel == nullptr
                              ? KernelFunction::make_fallthrough()
                              : KernelFunction::make_from_boxed_functor(
                                    std::make_shared<StableKernel>(kernel, nullptr, nullptr)));
    return SCHEMAC_OK;
  });
}

// ## Calls

SchemacStatus schemac_call(const char* op_name, StableValue* stack, uint64_t num_args,
                           uint64_t num_outputs) {
  if (op_name == nullptr || (stack == nullptr && (num_args > 0 || num_outputs > 0)))
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT, "schemac_call: null operator name or stack");
  const auto op = OperatorHandle::find(op_name);
  if (!op)
    return fail(SCHEMAC_ERROR_NOT_FOUND,
                fmt::format("schemac_call: no operator named '{}'", op_name));
  // Read once: another thread may undefine the operator (a plugin unloading) at any moment.
  const OperatorSignature* defined = op->entry().schema();
  if (defined == nullptr)
    return fail(SCHEMAC_ERROR_NOT_FOUND,
                fmt::format("schemac_call: operator '{}' is not defined", op_name));
  return guarded(SCHEMAC_ERROR_CALL, [&] {
    const OperatorSignature& schema = *defined;
    if (num_args != schema.arguments.size() || num_outputs != schema.returns.size())
      return fail(SCHEMAC_ERROR_INVALID_ARGUMENT,
                  fmt::format("schemac_call: '{}' takes {} arguments and returns {} values, but "
                              "the call passes {} and "
                              "expects {}",
                              op->full_name(), schema.arguments.size(), schema.returns.size(),
                              num_args, num_outputs));
    Stack values;
    values.reserve(num_args);
    for (size_t i = 0; i < num_args; ++i)
      values.push_back(
          from_slot(stack[i], require_slot_type(*op, schema.arguments[i], i, "argument"), false));
    std::vector<SlotType> out_types;
    for (size_t i = 0; i < num_outputs; ++i)
      out_types.push_back(require_slot_type(*op, schema.returns[i], i, "return"));
    op->call_boxed(&values);
    if (values.size() != num_outputs)
      return fail(SCHEMAC_ERROR_CALL, fmt::format("schemac_call: '{}' left {} values, expected {}",
                                                  op->full_name(), values.size(), num_outputs));
    for (size_t i = 0; i < num_outputs; ++i) stack[i] = give(std::move(values[i]), out_types[i]);
    return SCHEMAC_OK;
  });
}

// ## Plugins

SchemacStatus schemac_plugin_load(const char* path, SchemacPlugin* out) {
  if (path == nullptr || out == nullptr)
    return fail(SCHEMAC_ERROR_INVALID_ARGUMENT, "schemac_plugin_load: null argument");
  void* dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    const char* why = dlerror();
    return fail(SCHEMAC_ERROR_NOT_FOUND,
                fmt::format("cannot load plugin '{}': {}", path, why ? why : "unknown error"));
  }
  auto version =
      reinterpret_cast<SchemacPluginAbiVersionFn>(dlsym(dl, SCHEMAC_PLUGIN_ABI_VERSION_SYMBOL));
  auto reg = reinterpret_cast<SchemacPluginRegisterFn>(dlsym(dl, SCHEMAC_PLUGIN_REGISTER_SYMBOL));
  auto unreg =
      reinterpret_cast<SchemacPluginUnregisterFn>(dlsym(dl, SCHEMAC_PLUGIN_UNREGISTER_SYMBOL));
  if (version == nullptr || reg == nullptr || unreg == nullptr) {
    dlclose(dl);
    return fail(
        SCHEMAC_ERROR_INVALID_ARGUMENT,
        fmt::format(
            "'{}' is not a schemac plugin: it does not export {}, {} and {} (define them with "
            "SCHEMAC_STABLE_PLUGIN())",
            path, SCHEMAC_PLUGIN_ABI_VERSION_SYMBOL, SCHEMAC_PLUGIN_REGISTER_SYMBOL,
            SCHEMAC_PLUGIN_UNREGISTER_SYMBOL));
  }
  if (schemac_check_abi_version(version()) != SCHEMAC_OK) {
    std::string why = last_error;
    dlclose(dl);
    return fail(SCHEMAC_ERROR_VERSION, fmt::format("refusing plugin '{}': {}", path, why));
  }
  last_error.clear();
  if (reg() != SCHEMAC_OK) {
    std::string why = last_error.empty() ? "unknown error" : last_error;
    unreg();  // undoes what registered before the failure
    dlclose(dl);
    return fail(SCHEMAC_ERROR_REGISTRATION,
                fmt::format("plugin '{}' failed to register: {}", path, why));
  }
  {
    std::lock_guard<std::mutex> lock(kept_mutex);
    if (kept_mapped().count(dl) != 0) dlclose(dl);  // the kept reference maps it already
  }
  *out = new SchemacPluginOpaque{dl, unreg};
  return SCHEMAC_OK;
}

// Undoes the plugin's registrations; its code stays mapped (see kept_mapped).
void schemac_plugin_unload(SchemacPlugin plugin) {
  if (plugin == nullptr) return;
  plugin->unregister();
  {
    std::lock_guard<std::mutex> lock(kept_mutex);
    kept_mapped().insert(plugin->dl);
  }
  delete plugin;
}

}  // extern "C"
