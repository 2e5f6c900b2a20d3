// The Python call finder's view of names (what a callee is, through the file's aliases, imports
// and the configured helpers; strings built from module constants) and the helper calls:
//   direct_register_custom_op("op", op_func, mutates_args=[...], fake_impl=..., target_lib=lib,
//                             dispatch_key="CUDA")   vLLM's, and the projects that copy it
//   a project's own helper (.schemac.yaml's custom-op-helpers), like custom_op, triton_op,
//   direct_register_custom_op or define.
// A helper's schema is the one infer_schema gives for op_func; its namespace is that of the
// Library it registers into, often bound in another file (resolve_across_files,
// helper_namespaces.cpp).
#include <algorithm>
#include <set>

#include "python_call_finder.h"

namespace schemac::sources::python {

namespace {

std::string last_part(const std::string& dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

}  // namespace

PythonCallFinder::Callee PythonCallFinder::callee_at(size_t name) const {
  const std::string text(tokens_[name].text);
  for (const CustomOpHelper& helper : options_.helpers) {
    if (helper.name == text) {
      static constexpr std::string_view kLike[] = {"custom_op", "triton_op", kDirectRegister,
                                                   "define"};
      return {std::string(kLike[static_cast<size_t>(helper.like)]), &helper};
    }
  }
  // A method or attribute: after a '.', but not after the `...` that ends a stub `def`.
  bool method = name > 0 && is_punct(tokens_[name - 1], ".") &&
                !(name > 1 && is_punct(tokens_[name - 2], "."));
  if (method) return {text, nullptr};
  // `register = functools.partial(direct_register_custom_op, target_lib=lib)`: the function.
  if (const CallArgument* fn = partial_function(text)) {
    std::string dotted;
    for (size_t k = fn->range.begin; k < fn->range.end; ++k) dotted += tokens_[k].text;
    if (last_part(custom_op_inference::resolved_path(module_, dotted)) == kDirectRegister) {
      return {std::string(kDirectRegister), nullptr};
    }
  }
  // A bare name: `co` after `from torch.library import custom_op as co`, `_op` after
  // `_op = torch.library.custom_op`.
  return {last_part(custom_op_inference::resolved_path(module_, text)), nullptr};
}

void PythonCallFinder::dispatch(size_t i) {
  Callee callee = callee_at(i);
  const std::string& what = callee.what;
  if (what == "Library") {
    library(i);
  } else if (what == "define" && callee.helper) {
    Receiver into;
    into.module = true;
    into.ns = callee.helper->ns;
    into.position = tokens_[i].position;
    define(i, &into);
  } else if (what == "define") {
    define(i);
  } else if (what == "custom_op" || what == "triton_op") {
    custom_op(i, callee.helper);
  } else if (what == kDirectRegister) {
    direct_register(i, callee.helper);
  } else if (what == "impl" || what == "register_fake" || what == "register_kernel" ||
             what == "impl_abstract" || what == "register_autograd") {
    implementation(i);
  }
}

std::optional<JoinedLiteral> PythonCallFinder::literal(const CallArgument* argument,
                                                       std::string* why_not) const {
  if (!argument) {
    *why_not = "no argument";
    return std::nullopt;
  }
  return custom_op_inference::static_string(module_, argument->range, why_not);
}

void PythonCallFinder::not_static(SourcePosition at, std::string reason) {
  out_.skipped.push_back({at, reason});
  // The helper's own body passes its parameters on: that is what the helper is, not a finding.
  if (in_helper_body()) return;
  out_.inference_problems.push_back(
      {at, "an operator defined here is not checked: " + std::move(reason), false});
}

const CallArgument* PythonCallFinder::partial_function(const std::string& name) const {
  auto partial = module_.partials.find(name);
  if (partial == module_.partials.end()) return nullptr;
  partial_arguments_ = call_arguments(tokens_, partial->second.begin, true);
  return find_argument(partial_arguments_, 0, "func");
}

HelperLibrary PythonCallFinder::helper_library(size_t callee, const CallArgument* target,
                                               const CustomOpHelper* helper) const {
  HelperLibrary out;
  out.helper = tokens_[callee].text;
  std::string path = custom_op_inference::resolved_path(module_, name_ending_at(tokens_, callee));
  size_t dot = path.rfind('.');
  if (dot != std::string::npos && path.substr(dot + 1) == out.helper)
    out.module = path.substr(0, dot);
  if (target && target->range.end == target->range.begin + 1 &&
      tokens_[target->range.begin].kind == TokenKind::identifier) {
    out.target_lib = tokens_[target->range.begin].text;
  }
  if (helper) out.default_ns = helper->ns;
  return out;
}

void PythonCallFinder::direct_register(size_t callee, const CustomOpHelper* helper) {
  std::vector<CallArgument> arguments = call_arguments(tokens_, callee + 1, true);
  const CallArgument* name_argument = find_argument(arguments, 0, "op_name");
  const std::string call(tokens_[callee].text);
  if (!name_argument) {
    if (!arguments.empty()) not_static(tokens_[callee].position, call + "(...): no op_name");
    return;
  }
  std::string why_not;
  std::optional<JoinedLiteral> name = literal(name_argument, &why_not);
  SourcePosition name_at = tokens_[name_argument->range.begin].position;
  if (!name || !looks_like_operator_name(name->text.text())) {
    not_static(name_at,
               call + "(...): the operator name is " +
                   (name ? "not an operator name" : "not known statically (" + why_not + ")"));
    return;
  }
  std::string op = operator_name_in(name->text.text());
  const CallArgument* target = find_argument(arguments, 4, "target_lib");
  if (!target && partial_function(call))
    target = find_argument(partial_arguments_, 99, "target_lib");
  HelperLibrary library = helper_library(callee, target, helper);
  Receiver into;
  into.position = name->position;  // a real library, even while its namespace is unknown
  auto bound = libraries_.find(library.target_lib);
  if (!library.target_lib.empty() && bound != libraries_.end() && !bound->second.ns.empty()) {
    into.ns = bound->second.ns;
    into.position = bound->second.position;
  }
  std::optional<HelperLibrary> pending;
  if (into.ns.empty() && tokens::written_namespace(op).empty()) pending = library;
  std::vector<KeyUse> keys = key_uses(find_argument(arguments, 5, "dispatch_key"), false);
  record_keys(keys);
  const CallArgument* fn = find_argument(arguments, 1, "op_func");
  std::optional<size_t> def;
  if (fn && fn->range.end == fn->range.begin + 1 &&
      tokens_[fn->range.begin].kind == TokenKind::identifier) {
    def = function_named(tokens_[fn->range.begin].text, callee);
  }
  if (!def) {
    NamedOperator named = named_operator(name->position, op, into.ns, into.position, {});
    named.helper = pending;
    out_.named_definitions.push_back(std::move(named));
    std::string why = call + "'s op_func is not the name of a `def` in this file";
    if (fn && fn->range.end == fn->range.begin + 1) {
      const std::string passed(tokens_[fn->range.begin].text);
      auto imported = module_.imports.find(passed);
      if (imported != module_.imports.end()) {
        why = "op_func '" + passed + "' is imported from '" + imported->second +
              "'; type hints are read only in the file that defines the function";
      }
    }
    out_.inference_problems.push_back(
        {fn ? tokens_[fn->range.begin].position : name->position,
         "custom op '" + op + "': its schema cannot be inferred statically: " + why, false});
    return;
  }
  infer_from(*def, find_argument(arguments, 2, "mutates_args"), std::move(*name), call, into,
             pending, true);
}

const CallArgument* PythonCallFinder::helper_name_argument(
    const std::vector<CallArgument>& arguments) const {
  for (const CallArgument& argument : arguments) {
    if (argument.keyword == "op_name" || argument.keyword == "name") return &argument;
  }
  const CallArgument* first = find_argument(arguments, 0, "");
  bool names_function = first && first->range.end == first->range.begin + 1 &&
                        tokens_[first->range.begin].kind == TokenKind::identifier &&
                        module_.functions.count(tokens_[first->range.begin].text) > 0;
  return names_function ? nullptr : first;
}

void PythonCallFinder::named_by_function(size_t callee, size_t close,
                                         const std::vector<CallArgument>& arguments,
                                         const CustomOpHelper& helper) {
  std::optional<size_t> def = decorated_function(callee, close);
  if (!def) def = passed_function(callee, close, arguments);
  const CallArgument* fn = find_argument(arguments, 0, "");
  if (!def && fn && fn->range.end == fn->range.begin + 1) {
    def = function_named(tokens_[fn->range.begin].text, callee);
  }
  if (!def) {
    not_static(tokens_[callee].position, std::string(tokens_[callee].text) +
                                             "(...): the operator is named after a function "
                                             "that is not a `def` found in this file");
    return;
  }
  JoinedLiteral name;
  const Token& function = tokens_[*def + 1];
  name.position = function.position;
  for (char c : function.text) name.text.push_back(c, function.position);
  Receiver into;
  into.ns = helper.ns;
  into.position = function.position;
  into.ns_from_module = helper.default_name == DefaultName::module_function;
  if (into.ns_from_module) into.ns.clear();
  std::optional<size_t> decorated = decorated_function(callee, close);
  if (decorated) ops_[std::string(function.text)] = function.text;
  infer_from(*def, find_argument(arguments, 99, "mutates_args"), std::move(name),
             std::string(tokens_[callee].text), into, std::nullopt, true);
}

void PythonCallFinder::bare_decorator(size_t name) {
  Callee callee = callee_at(name);
  if (!callee.helper || (callee.what != "custom_op" && callee.what != "triton_op")) return;
  named_by_function(name, name, {}, *callee.helper);
}

void PythonCallFinder::helper_definition(size_t def) {
  const std::string name(tokens_[def + 1].text);
  bool helper = name == kDirectRegister;
  for (const CustomOpHelper& h : options_.helpers) {
    if (h.name == name && h.like == HelperKind::direct_register_custom_op) helper = true;
  }
  if (!helper || def + 2 >= tokens_.size()) return;
  // The body: every token up to the first line indented no deeper than the `def`.
  uint32_t column = tokens_[def].position.column;
  std::string default_lib;
  for (size_t i = tokens::matching_close(tokens_, def + 2); i + 2 < tokens_.size(); ++i) {
    bool starts_line = tokens_[i - 1].position.line != tokens_[i].position.line;
    if (starts_line && tokens_[i].position.column <= column) break;
    if (is_identifier(tokens_[i], "target_lib") && is_identifier(tokens_[i + 1], "or") &&
        tokens_[i + 2].kind == TokenKind::identifier) {
      default_lib = tokens_[i + 2].text;
    }
  }
  pending_helpers_.push_back({out_.helper_definitions.size(), default_lib});
  out_.helper_definitions.push_back({name, "", tokens_[def + 1].position});
}

bool PythonCallFinder::in_helper_body() const {
  for (const std::string& name : function_names_) {
    if (name == kDirectRegister) return true;
    for (const CustomOpHelper& helper : options_.helpers) {
      if (helper.name == name) return true;
    }
  }
  return false;
}

void PythonCallFinder::settle_helper_definitions() {
  std::set<std::string> namespaces;
  for (const auto& [name, library] : libraries_) {
    if (!library.ns.empty() && name.find('.') == std::string::npos) namespaces.insert(library.ns);
  }
  for (const PendingHelper& pending : pending_helpers_) {
    auto named = libraries_.find(pending.default_lib);
    std::string& ns = out_.helper_definitions[pending.index].default_ns;
    if (named != libraries_.end()) {
      ns = named->second.ns;
    } else if (pending.default_lib.empty() && namespaces.size() == 1) {
      ns = *namespaces.begin();
    }
  }
  // The module-level Library objects, for target_lib= in other files.
  for (const auto& [name, library] : libraries_) {
    if (!library.ns.empty() && name.find('.') == std::string::npos && library.module_level) {
      out_.libraries.push_back({name, library.ns, library.position});
    }
  }
}

}  // namespace schemac::sources::python
