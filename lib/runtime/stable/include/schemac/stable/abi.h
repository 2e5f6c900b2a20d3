/* The stable C ABI of the schemac dispatcher runtime.
 *
 * An operator library (a "plugin") built against this header alone keeps loading into later
 * runtimes: it sees only opaque handles, 64-bit stack slots and C functions, never a C++ type.
 *
 * ## Versioning
 * SCHEMAC_ABI_VERSION is the version this header describes: (major << 16) | minor. A runtime
 * accepts a plugin whose major version equals its own and whose minor version is not newer than
 * its own (minor versions only add functions). A plugin reports the version it was built for
 * through schemac_plugin_abi_version(), which SCHEMAC_STABLE_PLUGIN (library.hpp) defines;
 * schemac_abi_version() tells the plugin which runtime it runs in.
 *
 * ## Values: StableValue
 * A stack slot is 64 bits. What it holds is given by the schema type of its position:
 *   Tensor, Tensor?              a SchemacTensor handle (0: None, or an undefined tensor)
 *   int, SymInt, bool            the integer (bool: 0 or 1)
 *   ScalarType, Layout,          the enum's integer value
 *   MemoryFormat
 *   float                        the bits of a double (schemac_value_from_double / _to_double)
 *   int?, bool?, float?, ...     the value, or SCHEMAC_NONE_VALUE for None
 * Other schema types (lists, strings, Scalar, Device, Generator) have no stable encoding in this
 * version: calling an operator that uses them through this ABI is an error naming the argument.
 *
 * ## Ownership
 * A tensor handle in an argument slot is borrowed for the duration of the kernel call. A tensor
 * handle a kernel writes into an output slot is owned by the caller, who releases it with
 * schemac_tensor_release(). Handles returned by schemac_tensor_* functions are owned by the
 * caller.
 *
 * ## Kernels
 * A boxed kernel reads num_args slots from stack[0..num_args) and writes num_outputs slots to
 * stack[0..num_outputs) (the stack has max(num_args, num_outputs) slots).
 *
 * ## Errors
 * Every function returns SCHEMAC_OK (0) or an error code; schemac_last_error() returns the
 * message of the last error on the calling thread (valid until the next call on that thread).
 * A kernel reports an error by calling schemac_set_error() and returning; the runtime raises it
 * as a DispatchError in the caller.
 */
#ifndef SCHEMAC_STABLE_ABI_H
#define SCHEMAC_STABLE_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SCHEMAC_ABI_VERSION_MAJOR 1
#define SCHEMAC_ABI_VERSION_MINOR 0
#define SCHEMAC_ABI_VERSION ((SCHEMAC_ABI_VERSION_MAJOR << 16) | SCHEMAC_ABI_VERSION_MINOR)

#if defined(__GNUC__)
#define SCHEMAC_ABI_EXPORT __attribute__((visibility("default")))
#else
#define SCHEMAC_ABI_EXPORT
#endif

typedef uint64_t StableValue;
typedef int32_t SchemacStatus;

#define SCHEMAC_OK 0
#define SCHEMAC_ERROR_INVALID_ARGUMENT 1
#define SCHEMAC_ERROR_NOT_FOUND 2
#define SCHEMAC_ERROR_REGISTRATION 3
#define SCHEMAC_ERROR_CALL 4
#define SCHEMAC_ERROR_VERSION 5

/* None, for optional non-tensor slots. */
#define SCHEMAC_NONE_VALUE ((StableValue)0x8000000000000000ULL)

/* Opaque handles. */
typedef struct SchemacTensorOpaque* SchemacTensor;
typedef struct SchemacLibraryOpaque* SchemacLibrary;

/* A boxed kernel. `context` is the pointer given at registration. */
typedef void (*SchemacBoxedKernel)(StableValue* stack, uint64_t num_args, uint64_t num_outputs);
typedef void (*SchemacBoxedKernelWithContext)(void* context, StableValue* stack, uint64_t num_args,
                                              uint64_t num_outputs);

/* Element types of tensors. The numbering is part of the ABI and never changes; the runtime
 * maps it to its own ScalarType. */
typedef enum SchemacDType {
  SCHEMAC_DTYPE_FLOAT32 = 0,
  SCHEMAC_DTYPE_FLOAT64 = 1,
  SCHEMAC_DTYPE_FLOAT16 = 2,
  SCHEMAC_DTYPE_BFLOAT16 = 3,
  SCHEMAC_DTYPE_INT32 = 4,
  SCHEMAC_DTYPE_INT64 = 5,
  SCHEMAC_DTYPE_BOOL = 6
} SchemacDType;

/* ## Version */
SCHEMAC_ABI_EXPORT uint32_t schemac_abi_version(void);
/* SCHEMAC_OK when a plugin built for `plugin_version` may load; otherwise SCHEMAC_ERROR_VERSION
 * with the reason in schemac_last_error(). */
SCHEMAC_ABI_EXPORT SchemacStatus schemac_check_abi_version(uint32_t plugin_version);

/* ## Errors */
SCHEMAC_ABI_EXPORT const char* schemac_last_error(void);
SCHEMAC_ABI_EXPORT void schemac_set_error(const char* message);

/* ## Values */
SCHEMAC_ABI_EXPORT StableValue schemac_value_from_double(double v);
SCHEMAC_ABI_EXPORT double schemac_value_to_double(StableValue v);
static inline StableValue schemac_value_from_int(int64_t v) { return (StableValue)v; }
static inline int64_t schemac_value_to_int(StableValue v) { return (int64_t)v; }
static inline StableValue schemac_value_from_tensor(SchemacTensor t) {
  return (StableValue)(uintptr_t)t;
}
static inline SchemacTensor schemac_value_to_tensor(StableValue v) {
  return (SchemacTensor)(uintptr_t)v;
}

/* ## Tensors (all handles returned here are owned by the caller) */
SCHEMAC_ABI_EXPORT SchemacStatus schemac_tensor_empty(const int64_t* sizes, int64_t ndim,
                                                      int32_t dtype, SchemacTensor* out);
SCHEMAC_ABI_EXPORT SchemacStatus schemac_tensor_retain(SchemacTensor t, SchemacTensor* out);
SCHEMAC_ABI_EXPORT void schemac_tensor_release(SchemacTensor t);
SCHEMAC_ABI_EXPORT int64_t schemac_tensor_dim(SchemacTensor t);
SCHEMAC_ABI_EXPORT int64_t schemac_tensor_size(SchemacTensor t, int64_t dim);
SCHEMAC_ABI_EXPORT int64_t schemac_tensor_numel(SchemacTensor t);
SCHEMAC_ABI_EXPORT int32_t schemac_tensor_dtype(SchemacTensor t);
SCHEMAC_ABI_EXPORT int32_t schemac_tensor_is_contiguous(SchemacTensor t);
SCHEMAC_ABI_EXPORT void* schemac_tensor_data_ptr(SchemacTensor t);

/* ## Libraries: registrations made through a library are undone by schemac_library_destroy.
 * kind: 0 = def (one per namespace), 1 = impl, 2 = fragment. dispatch_key: a key name such as
 * "CPU" or "Autograd", or NULL for none (catch-all). */
SCHEMAC_ABI_EXPORT SchemacStatus schemac_library_create(int32_t kind, const char* ns,
                                                        const char* dispatch_key, const char* file,
                                                        uint32_t line, SchemacLibrary* out);
SCHEMAC_ABI_EXPORT void schemac_library_destroy(SchemacLibrary lib);
SCHEMAC_ABI_EXPORT SchemacStatus schemac_library_def(SchemacLibrary lib, const char* schema);
/* dispatch_key NULL: the library's key. */
SCHEMAC_ABI_EXPORT SchemacStatus schemac_library_impl(SchemacLibrary lib, const char* op_name,
                                                      const char* dispatch_key,
                                                      SchemacBoxedKernel kernel);
SCHEMAC_ABI_EXPORT SchemacStatus
schemac_library_impl_with_context(SchemacLibrary lib, const char* op_name, const char* dispatch_key,
                                  SchemacBoxedKernelWithContext kernel, void* context);
/* kernel NULL: a fallthrough fallback. */
SCHEMAC_ABI_EXPORT SchemacStatus schemac_library_fallback(SchemacLibrary lib,
                                                          SchemacBoxedKernel kernel);

/* ## Calls: the operator "ns::op" or "ns::op.overload", with its arguments in stack[0..num_args).
 * On success the returns are in stack[0..num_outputs) (tensor handles owned by the caller);
 * the stack must have room for max(num_args, num_outputs) slots. */
SCHEMAC_ABI_EXPORT SchemacStatus schemac_call(const char* op_name, StableValue* stack,
                                              uint64_t num_args, uint64_t num_outputs);

/* ## Plugins
 * A plugin is a shared library that exports the three functions below (library.hpp's
 * SCHEMAC_STABLE_PLUGIN() defines them). schemac_plugin_load() opens it, refuses it when its ABI
 * version is not one this runtime accepts, and runs its registrations; schemac_plugin_unload()
 * undoes them. Its code stays mapped until the process exits: other threads may be calling its
 * kernels while it unloads (calls that start after the unload find no operator). */
typedef struct SchemacPluginOpaque* SchemacPlugin;
SCHEMAC_ABI_EXPORT SchemacStatus schemac_plugin_load(const char* path, SchemacPlugin* out);
SCHEMAC_ABI_EXPORT void schemac_plugin_unload(SchemacPlugin plugin);

typedef uint32_t (*SchemacPluginAbiVersionFn)(void);
typedef SchemacStatus (*SchemacPluginRegisterFn)(void);
typedef void (*SchemacPluginUnregisterFn)(void);
#define SCHEMAC_PLUGIN_ABI_VERSION_SYMBOL "schemac_plugin_abi_version"
#define SCHEMAC_PLUGIN_REGISTER_SYMBOL "schemac_plugin_register"
#define SCHEMAC_PLUGIN_UNREGISTER_SYMBOL "schemac_plugin_unregister"

#ifdef __cplusplus
}
#endif

#endif /* SCHEMAC_STABLE_ABI_H */
