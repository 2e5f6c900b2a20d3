// The checked model `schemac gen` writes from: every operator of the input files, with its
// canonical schema, its C++ namespace and the kernel each dispatch key binds, sorted by full
// name. Built from the loaded native-functions files (lib/frontend/schema); emitters read only
// this.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/kernel_types/cpp_types.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/schema/model.h"

namespace schemac::codegen {

// One `KEY: kernel` binding of an operator. A kernel written with a namespace keeps it:
// `CPU: myops::scale_cpu` binds the C++ function myops::scale_cpu; one written without binds
// <operator namespace>::native::<name>.
struct KernelBinding {
  std::string key;            // dispatch key name, e.g. "CPU", "CompositeImplicitAutograd"
  std::string kernel;         // C++ function name without namespace: "scale_cpu"
  std::string cpp_namespace;  // the namespace written with it ("myops"); "" when none was
};

struct GenOperator {
  schema::FunctionSchema schema;
  std::string ns;           // operator namespace, e.g. "aten"
  std::string name;         // base name without namespace: "add"
  std::string overload;     // "" when none
  std::string full_name;    // "aten::add.Tensor"
  std::string canonical;    // canonical schema text, with the namespace
  std::string input;        // the input path, relative to the source root
  std::string handle_name;  // the handle struct in namespace `ns::ops`: "add_Tensor"
  bool function_variant = true;
  bool method_variant = false;
  bool use_const_ref_for_mutable_tensors = false;
  bool namespace_written = false;        // whether the schema named its namespace
  bool boxed_only = false;               // no unboxed C++ signature (varargs, opaque types)
  bool needs_backend_select = false;     // a factory that gets a BackendSelect kernel
  kernel_types::CppSignature signature;  // the native signature (empty when boxed_only)
  std::vector<KernelBinding> kernels;    // sorted by key
  std::vector<std::string> tags;         // `tags:` of the entry, as written
  diagnostics::Location location;        // where the entry is in its file
  // The file and the entry the operator comes from (null for one built by hand): a finding about
  // a piece of its schema is located through them (schema_location).
  const native_functions::NativeFunctionsFile* file = nullptr;
  const native_functions::NativeFunction* function = nullptr;
};

// Where the bytes `range` of `op`'s func string are in its file (the entry's location when the
// operator was built by hand).
diagnostics::Location schema_location(const GenOperator& op, schema::TextRange range);

// The C++ namespace a binding's kernel is declared in: its own, else `<op.ns>::native`.
std::string kernel_namespace(const GenOperator& op, const KernelBinding& binding);
// "myops::scale_cpu", "aten::native::add": the kernel's qualified name.
std::string qualified_kernel(const GenOperator& op, const KernelBinding& binding);
// The kernel's name as the dispatch entry wrote it ("myops::scale_cpu", "add"): its debug name.
std::string written_kernel(const KernelBinding& binding);

struct GenModel {
  std::vector<std::string> inputs;     // relative input paths, in command-line order
  std::vector<GenOperator> operators;  // sorted by full name
};

struct GenInput {
  std::string display_path;  // relative to the source root; what banners name
  const native_functions::NativeFunctionsFile* file = nullptr;
  // The loader's diagnostics of `file`, for gen's gate (checked_model.h); null: the caller's.
  const std::vector<diagnostics::Diagnostic>* load_diagnostics = nullptr;
};

// An entry the model cannot hold: PyTorch rejects its schema (it does not parse, or a schema
// check that is an error by default fails), it has no func, or its operator is already in the
// model. Not a finding by itself: gen's gate (checked_model.h) makes one unless
// lint's findings have an error in the entry already.
struct UnwrittenOperator {
  std::string name;  // "ns::op.overload" (as the func writes it, when it does not parse)
  diagnostics::Location location;  // the entry's
  std::string why;                 // "its schema does not parse: ...", "it is defined again ..."
  std::vector<diagnostics::Note> notes;
};

struct ModelBuild {
  GenModel model;
  std::vector<UnwrittenOperator> unwritten;
  std::vector<diagnostics::Diagnostic> diagnostics;  // the gate's: errors: nothing may be written
};

// `default_namespace` is used for operators written without one.
ModelBuild build_gen_model(const std::vector<GenInput>& inputs, std::string_view default_namespace);

// The dispatch key of the kernels that pick a factory's backend (needs_backend_select).
inline constexpr std::string_view kBackendSelectKey = "BackendSelect";

// Whether `op` is a factory that gets a BackendSelect kernel (torchgen's rule, by argument names,
// for every target): it cannot get a dispatch key from its arguments (no Tensor argument) but
// names one (a `device` argument), it has a kernel on a backend key to select, binds no
// BackendSelect kernel of its own, has an unboxed signature, and its name neither ends in `_like`
// nor starts with `new_`. build_gen_model sets GenOperator::needs_backend_select with it.
bool needs_backend_select(const GenOperator& op);

// True for an out= overload: it has a kwarg-only argument that is written to.
bool is_out_overload(const schema::FunctionSchema& schema);

// The kernel name the README gives an operator without a dispatch section: its base name, with
// `_out` added for out= overloads.
std::string default_kernel_name(const schema::FunctionSchema& schema);

// Stable 64-bit FNV-1a of a string (shard assignment).
uint64_t fnv1a_64(std::string_view text);

}  // namespace schemac::codegen
