// The Python call finder: one pass over a file's tokens that records Library objects, definitions
// (define, custom_op / triton_op, direct_register_custom_op and the project's own helpers),
// implementations and dispatch keys into a ScanResult. The torch.library calls are read here;
// the helper calls, callee names through aliases and imports, and names built from constants in
// python_helper_calls.cpp.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "scan_internal.h"
#include "schemac/custom_op_inference/infer_schema.h"
#include "schemac/custom_op_inference/python_module.h"
#include "schemac/custom_op_inference/python_values.h"
#include "schemac/tokens/calls.h"

namespace schemac::sources::python {

using tokens::CallArgument, tokens::JoinedLiteral, tokens::SourcePosition, tokens::Token,
    tokens::TokenKind, tokens::TokenStream, tokens::call_arguments, tokens::find_argument,
    tokens::is_identifier, tokens::is_punct, tokens::looks_like_operator_name,
    tokens::name_ending_at, tokens::operator_name_in;

// vLLM's helper, built in.
inline constexpr std::string_view kDirectRegister = "direct_register_custom_op";

inline bool is_module(std::string_view receiver) {
  return receiver == "torch.library" || receiver == "library" || receiver.empty();
}

class PythonCallFinder {
 public:
  PythonCallFinder(const TokenStream& stream, const ScanOptions& options, ScanResult& out,
                   const ImportedConstant& imported, bool first_read)
      : stream_(stream),
        tokens_(stream.tokens),
        module_(custom_op_inference::read_python_module(stream)),
        options_(options),
        out_(out),
        first_read_(first_read) {
    module_.imported_constant = imported;
  }

  void run();

  // The indentation of the `def` lines whose bodies enclose the current statement. A statement
  // starts at the first token of a line outside brackets; it closes every def indented as much.
  void track_function_scope(size_t i);
  bool in_function() const { return !functions_.empty(); }

 private:
  // What a call does, from its callee's name: the torch.library function or method it is
  // ("custom_op", "define", "Library", ...), seen through the file's aliases and imports, or a
  // registration helper (`helper` set; `what` is then its `like`).
  struct Callee {
    std::string what;
    const CustomOpHelper* helper = nullptr;
  };
  Callee callee_at(size_t name) const;
  void dispatch(size_t i);

  // A string argument: a literal, or built from module constants (python_values.h).
  std::optional<JoinedLiteral> literal(const CallArgument* argument, std::string* why_not) const;
  // A call whose operator cannot be known statically: listed, and reported as not static.
  void not_static(SourcePosition at, std::string reason);

  // direct_register_custom_op(op_name, op_func, mutates_args, fake_impl, target_lib,
  // dispatch_key, tags), built in, or a helper like it.
  void direct_register(size_t callee, const CustomOpHelper* helper);
  // The function a module-level `NAME = functools.partial(fn, ...)` binds, or null; its
  // arguments stay in partial_arguments_.
  const CallArgument* partial_function(const std::string& name) const;
  // The HelperLibrary of a helper call whose target_lib= is `target` (null when not given).
  HelperLibrary helper_library(size_t callee, const CallArgument* target,
                               const CustomOpHelper* helper) const;
  // A custom_op-like helper's name argument: op_name= or name=, else a first positional string
  // (a first positional name is the function, as in register_custom_op(fn, ...)); null if none.
  const CallArgument* helper_name_argument(const std::vector<CallArgument>& arguments) const;
  // A custom_op-like helper given no name: the operator is named after the function.
  void named_by_function(size_t callee, size_t close, const std::vector<CallArgument>& arguments,
                         const CustomOpHelper& helper);
  // `@helper` without a call over a def.
  void bare_decorator(size_t name);
  // `def direct_register_custom_op(...)` (or a configured helper like it) in this file.
  void helper_definition(size_t def);
  // Whether the current statement is inside the body of such a helper.
  bool in_helper_body() const;
  // At the end: the default namespaces of the helpers this file defines.
  void settle_helper_definitions();
  // At the end: the file's module-level string constants, for the files that import them.
  void record_constants();

  // The namespace named by the Library(...) call whose name token is at `callee`.
  std::string library_namespace(size_t callee) const;

  // The dispatch key of Library(ns, "IMPL", key), recorded as a key use; "" when none.
  std::string library_key(size_t callee);

  // The key or device-type strings of an argument: one literal, or a tuple / list of them.
  std::vector<KeyUse> key_uses(const CallArgument* argument, bool device_type) const;

  void library(size_t callee);

  struct Receiver {
    bool module = false;  // torch.library.define / library.define
    std::string ns;
    SourcePosition position;
    std::string key;              // Library(ns, "IMPL", key)'s key
    std::string op;               // a custom op's Python object: its operator name
    bool ns_from_module = false;  // the namespace is the file's module name (set across files)
  };

  Receiver receiver_of(size_t method) const;

  void define(size_t method, const Receiver* as = nullptr);

  // A name literal and a "(...) -> ..." literal make one schema text; it starts where the
  // signature's literal does.
  void add_schema(JoinedLiteral name, JoinedLiteral signature, std::string call,
                  const Receiver& receiver);

  void custom_op(size_t callee, const CustomOpHelper* helper = nullptr);
  // The prototype custom_op's own checks (torch._custom_op.impl.validate_schema and
  // validate_namespace) on the schemas found from `first` on.
  void prototype_rules(size_t first, std::string_view call);

  // Whether the callee ending at `callee` is PyTorch's (torch.library.custom_op, or custom_op
  // imported from torch), not another library's function of the same name.
  bool from_torch(size_t callee) const;

  // The `def` a decorator call (whose ')' is at `close`) applies to, past other decorators.
  std::optional<size_t> decorated_function(size_t callee, size_t close) const;

  // The `def NAME` a call passes by name: the last one before the call, else the first after.
  std::optional<size_t> function_named(std::string_view name, size_t call) const;

  // The function of custom_op(name, fn, ...) or custom_op(name, ...)(fn).
  std::optional<size_t> passed_function(size_t callee, size_t close,
                                        const std::vector<CallArgument>& arguments) const;

  // custom_op / triton_op without schema=: the schema comes from the function's type hints.
  // `lenient`: a helper's call, where mutates_args may be left out (nothing mutated).
  // `named_as_function`: the prototype custom_op's rule, the function named as the operator.
  void infer(size_t callee, size_t close, const std::vector<CallArgument>& arguments,
             JoinedLiteral name, const Receiver& into, bool lenient,
             bool named_as_function = false);
  // The schema inferred from `def` for operator `op` (named at `name`), with mutates_args from
  // `mutates` (none: nothing mutated; `None` too when `none_is_empty`, as the helpers take it);
  // false when it could not be inferred.
  // `tags`: custom_op's tags= (which shape the schema from 2.13); `custom_op_def`: custom_op or
  // triton_op itself, not a helper (custom_inference's InferenceContext).
  bool infer_from(size_t def, const CallArgument* mutates, JoinedLiteral name,
                  const std::string& call, const Receiver& into,
                  std::optional<HelperLibrary> helper, bool none_is_empty,
                  bool custom_op_def = false, const CallArgument* tags = nullptr);

  // lib.impl(name, fn, key), torch.library.impl(name, types), register_kernel(name, device_types),
  // register_fake / impl_abstract / register_autograd(name), and the methods of a custom op's
  // object (op.register_kernel("cpu")).
  void implementation(size_t method);

  void record_keys(const std::vector<KeyUse>& keys);

  struct KnownLibrary {
    std::string ns;
    SourcePosition position;
    std::string key;
    bool module_level = false;  // bound outside any function body
  };

  const TokenStream& stream_;
  const std::vector<Token>& tokens_;
  custom_op_inference::PythonModule module_;
  std::map<std::string, KnownLibrary> libraries_;
  std::map<std::string, std::string> ops_;   // a custom op's Python name -> its operator name
  std::vector<uint32_t> functions_;          // see track_function_scope
  std::vector<std::string> function_names_;  // the names of those defs
  const ScanOptions& options_;
  struct PendingHelper {
    size_t index;             // into out_.helper_definitions
    std::string default_lib;  // `target_lib or NAME`: NAME; "" when not seen
  };
  std::vector<PendingHelper> pending_helpers_;
  mutable std::vector<CallArgument> partial_arguments_;  // see partial_function
  size_t depth_ = 0;                                     // bracket depth
  ScanResult& out_;
  bool first_read_ = true;  // the file on its own (see record_constants)
};

}  // namespace schemac::sources::python
