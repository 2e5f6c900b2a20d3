// Finding registration calls in Python tokens:
//   lib = torch.library.Library("ns", "DEF")     a library object and its namespace
//   lib.define("name(...) -> ...")                 Library(...).define(...) too
//   torch.library.define("ns::name", "(...) -> ...")
//   @torch.library.custom_op("ns::name", mutates_args=(), schema="(...) -> ...")
//   lib.impl("name", fn, "CUDA"), torch.library.impl / register_fake / register_kernel("ns::name")
// A custom_op / triton_op without schema= gets the schema its type hints give (infer_schema.h).
// Helpers, aliases and names built from constants: python_helper_calls.cpp.
#include "python_call_finder.h"

#include <algorithm>

#include "schemac/schema/parser.h"

namespace schemac::sources {
namespace python {

void PythonCallFinder::run() {
  for (size_t i = 0; i + 1 < tokens_.size(); ++i) {
    track_function_scope(i);
    const Token& t = tokens_[i];
    // `@register_custom_op` over a def: a helper that names the operator after the function.
    bool bare = t.kind == TokenKind::identifier && i > 0 && is_punct(tokens_[i - 1], "@") &&
                !is_punct(tokens_[i + 1], "(") && !is_punct(tokens_[i + 1], ".");
    if (!bare && (t.kind != TokenKind::identifier || !is_punct(tokens_[i + 1], "("))) continue;
    if (i > 0 && is_identifier(tokens_[i - 1], "def")) {
      helper_definition(i - 1);
      continue;
    }
    size_t schemas = out_.schemas.size();
    size_t names = out_.named_definitions.size();
    size_t implementations = out_.implementations.size();
    if (bare) {
      bare_decorator(i);
    } else {
      dispatch(i);
    }
    // The branches of if/else and try/except it sits in (the lexer's record, like C++'s #if).
    const tokens::ConditionPath& branches = stream_.conditions[t.condition];
    bool through_helper = false;
    if (schemas < out_.schemas.size()) {
      Callee callee = callee_at(i);
      through_helper = callee.helper != nullptr || callee.what == kDirectRegister;
    }
    for (size_t k = schemas; k < out_.schemas.size(); ++k) {
      out_.schemas[k].in_function = in_function();
      out_.schemas[k].condition = branches;
      if (through_helper) out_.schemas[k].form = SchemaForm::helper;
    }
    for (size_t k = names; k < out_.named_definitions.size(); ++k) {
      out_.named_definitions[k].in_function = in_function();
      out_.named_definitions[k].condition = branches;
    }
    for (size_t k = implementations; k < out_.implementations.size(); ++k)
      out_.implementations[k].condition = branches;
  }
  settle_helper_definitions();
  record_constants();
}

void PythonCallFinder::record_constants() {
  // A constant built from another module's is read once that module's are known (a second read
  // of this file), not on the first: every `NAME = torch.x` would ask for one.
  custom_op_inference::PythonModule::ImportedConstant imported =
      std::move(module_.imported_constant);
  if (!first_read_) module_.imported_constant = imported;
  for (const auto& [name, range] : module_.assignments) {
    std::string why_not;
    std::optional<JoinedLiteral> value =
        custom_op_inference::static_string(module_, range, &why_not);
    if (value) out_.constants.push_back({name, value->text.text()});
  }
  module_.imported_constant = std::move(imported);
}

void PythonCallFinder::track_function_scope(size_t i) {
  const Token& t = tokens_[i];
  bool closing = is_punct(t, ")") || is_punct(t, "]") || is_punct(t, "}");
  if (is_punct(t, "(") || is_punct(t, "[") || is_punct(t, "{")) ++depth_;
  if (closing && depth_ > 0) --depth_;
  // A bracket closing a signature on its own line (`):`) starts no statement.
  bool starts_line = i == 0 || tokens_[i - 1].position.line != t.position.line;
  if (!starts_line || depth_ > 0 || closing) return;
  while (!functions_.empty() && functions_.back() >= t.position.column) functions_.pop_back();
  function_names_.resize(functions_.size());
  bool is_def = is_identifier(t, "def") || (is_identifier(t, "async") && i + 1 < tokens_.size() &&
                                            is_identifier(tokens_[i + 1], "def"));
  if (is_def) {
    functions_.push_back(t.position.column);
    size_t name = is_identifier(t, "def") ? i + 1 : i + 2;
    function_names_.resize(functions_.size() - 1);
    function_names_.emplace_back(name < tokens_.size() ? tokens_[name].text : "");
  }
}

std::string PythonCallFinder::library_namespace(size_t callee) const {
  std::vector<CallArgument> arguments = call_arguments(tokens_, callee + 1, true);
  std::string why_not;
  std::optional<JoinedLiteral> ns = literal(find_argument(arguments, 0, "ns"), &why_not);
  return ns && looks_like_operator_name(ns->text.text()) ? operator_name_in(ns->text.text()) : "";
}

std::string PythonCallFinder::library_key(size_t callee) {
  std::vector<CallArgument> arguments = call_arguments(tokens_, callee + 1, true);
  std::vector<KeyUse> keys = key_uses(find_argument(arguments, 2, "dispatch_key"), false);
  for (const KeyUse& key : keys) out_.keys.push_back(key);
  return keys.size() == 1 ? keys[0].name : "";
}

std::vector<KeyUse> PythonCallFinder::key_uses(const CallArgument* argument,
                                               bool device_type) const {
  std::vector<KeyUse> out;
  if (!argument || argument->range.empty()) return out;
  std::vector<tokens::TokenRange> parts{argument->range};
  const Token& first = tokens_[argument->range.begin];
  if ((is_punct(first, "(") || is_punct(first, "[")) &&
      tokens::matching_close(tokens_, argument->range.begin) == argument->range.end - 1) {
    parts.clear();
    for (const CallArgument& element : call_arguments(tokens_, argument->range.begin, false)) {
      parts.push_back(element.range);
    }
  }
  for (tokens::TokenRange part : parts) {
    std::string why_not;
    std::optional<JoinedLiteral> text = tokens::join_python_literal(stream_, part, &why_not);
    if (!text || text->text.empty()) continue;
    // Written as it reads (no escape, no join): a fix-it may replace it.
    SourcePosition first_position = text->text.position(0);
    SourcePosition last = text->text.position(text->text.size() - 1);
    bool plain = last.line == first_position.line &&
                 last.column == first_position.column + text->text.size() - 1;
    out.push_back({first_position, text->text.text(), device_type, plain ? text->text.text() : ""});
  }
  return out;
}

void PythonCallFinder::library(size_t callee) {
  size_t first = callee;
  name_ending_at(tokens_, callee, &first);
  if (first < 2 || !is_punct(tokens_[first - 1], "=")) return;
  size_t target_last = first - 2;
  size_t target_first = target_last;
  std::string target = name_ending_at(tokens_, target_last, &target_first);
  // lib: Library = Library(...): the annotation sits between the name and the '='.
  if (target_first >= 2 && is_punct(tokens_[target_first - 1], ":")) {
    target = name_ending_at(tokens_, target_first - 2, &target_first);
  }
  if (tokens_[target_last].kind != TokenKind::identifier) return;
  libraries_[target] = {library_namespace(callee), tokens_[callee].position, library_key(callee),
                        !in_function()};
}

PythonCallFinder::Receiver PythonCallFinder::receiver_of(size_t method) const {
  Receiver receiver;
  if (method == 0 || !is_punct(tokens_[method - 1], ".") ||
      (method > 1 && is_punct(tokens_[method - 2], "."))) {  // `...` ends the line before
    receiver.module = true;
    return receiver;
  }
  if (method < 2)
    return receiver;  // `.define(...)` at the very start: a dot with nothing before it
  size_t last = method - 2;
  if (is_punct(tokens_[last], ")")) {  // Library("ns", "DEF").define(...)
    size_t open = tokens::matching_open(tokens_, last);
    if (open < tokens_.size() && open > 0 && tokens_[open - 1].kind == TokenKind::identifier &&
        callee_at(open - 1).what == "Library") {
      receiver.ns = library_namespace(open - 1);
      receiver.position = tokens_[open - 1].position;
    }
    return receiver;
  }
  if (tokens_[last].kind != TokenKind::identifier) return receiver;
  std::string name = name_ending_at(tokens_, last);
  auto known = libraries_.find(name);
  auto op = ops_.find(name);
  if (known != libraries_.end()) {
    receiver.ns = known->second.ns;
    receiver.position = known->second.position;
    receiver.key = known->second.key;
  } else if (op != ops_.end()) {
    receiver.op = op->second;
  } else {
    receiver.module = is_module(name);
  }
  return receiver;
}

void PythonCallFinder::define(size_t method, const Receiver* as) {
  Receiver receiver = as ? *as : receiver_of(method);
  std::vector<CallArgument> arguments = call_arguments(tokens_, method + 1, true);
  const CallArgument* first = find_argument(arguments, 0, "qualname");
  if (!first) first = find_argument(arguments, 0, "schema");
  if (!first) return;
  std::string why_not;
  std::optional<JoinedLiteral> text = literal(first, &why_not);
  SourcePosition where = tokens_[first->range.begin].position;
  if (!text) {
    not_static(where, "define(...): the schema is not known statically (" + why_not + ")");
    return;
  }
  // torch.library.define("ns::name", "(...) -> ..."), under whatever name the module has
  bool qualified = text->text.text().find("::") != std::string::npos;
  if ((receiver.module || qualified) && looks_like_operator_name(text->text.text())) {
    const CallArgument* second = find_argument(arguments, 1, "schema");
    std::optional<JoinedLiteral> signature = literal(second, &why_not);
    if (!signature) {
      not_static(where,
                 "torch.library.define(...): the schema is not known statically (" + why_not + ")");
      return;
    }
    add_schema(std::move(*text), std::move(*signature), "library.define", receiver);
    return;
  }
  if (!tokens::looks_like_schema(text->text.text())) {
    out_.skipped.push_back({text->position, "define(...): the string is not a schema"});
    return;
  }
  FoundSchema found;
  found.position = text->position;
  found.text = std::move(text->text);
  found.library_namespace = receiver.ns;
  found.library_position = receiver.position;
  found.call = "define";
  out_.schemas.push_back(std::move(found));
}

void PythonCallFinder::add_schema(JoinedLiteral name, JoinedLiteral signature, std::string call,
                                  const Receiver& receiver) {
  FoundSchema found;
  found.position = signature.position;
  name.text.strip();
  found.text = std::move(name.text);
  found.text.append(signature.text);
  found.library_namespace = receiver.ns;
  found.library_position = receiver.position;
  found.call = std::move(call);
  out_.schemas.push_back(std::move(found));
}

void PythonCallFinder::custom_op(size_t callee, const CustomOpHelper* helper) {
  size_t close = 0;
  std::vector<CallArgument> arguments = call_arguments(tokens_, callee + 1, true, &close);
  std::string why_not;
  // The prototypes of PyTorch 2.1-2.3 (still in 2.14): custom_op(qualname, manual_schema=None)
  // and custom_op(qualname, func_or_schema=None), which infer with mutates_args=() and need the
  // function named as the operator.
  std::string path =
      helper ? "" : custom_op_inference::resolved_path(module_, name_ending_at(tokens_, callee));
  bool prototype_impl = path == "torch._custom_op.impl.custom_op";
  bool prototype = prototype_impl || path == "torch._custom_ops.custom_op";
  const CallArgument* name_argument = find_argument(arguments, 0, prototype ? "qualname" : "name");
  if (helper) {
    name_argument = helper_name_argument(arguments);
    if (!name_argument) {
      named_by_function(callee, close, arguments, *helper);
      return;
    }
  }
  std::optional<JoinedLiteral> name = literal(name_argument, &why_not);
  SourcePosition where = tokens_[callee].position;
  if (!name || !looks_like_operator_name(name->text.text())) {
    if (!name_argument) return;
    std::string reason = std::string(tokens_[callee].text) + "(...): the name is " +
                         (name ? "not an operator name" : "not known statically (" + why_not + ")");
    if (helper || from_torch(callee)) {
      not_static(tokens_[name_argument->range.begin].position, reason);
    } else {
      out_.skipped.push_back({where, reason});
    }
    return;
  }
  // A helper's name without a namespace goes to the helper's namespace.
  Receiver into;
  if (helper && !helper->ns.empty() && tokens::written_namespace(name->text.text()).empty()) {
    into.ns = helper->ns;
    into.position = name->position;
  }
  const CallArgument* schema =
      prototype ? find_argument(arguments, 1, prototype_impl ? "manual_schema" : "func_or_schema")
                : find_argument(arguments, 99, "schema");
  // The prototype's func_or_schema may be the function itself.
  if (schema && prototype && !schema->range.empty() &&
      tokens_[schema->range.begin].kind == TokenKind::identifier) {
    schema = nullptr;
  }
  size_t first_new = out_.schemas.size();
  if (!schema) {
    infer(callee, close, arguments, std::move(*name), into, helper != nullptr || prototype,
          prototype);
    if (prototype) prototype_rules(first_new, tokens_[callee].text);
    return;
  }
  std::optional<JoinedLiteral> signature = literal(schema, &why_not);
  if (!signature) {
    out_.named_definitions.push_back(
        named_operator(name->position, operator_name_in(name->text.text()), "", {}, {}));
    out_.skipped.push_back(
        {tokens_[schema->range.begin].position, "custom_op(...): schema= is " + why_not});
    return;
  }
  add_schema(std::move(*name), std::move(*signature), "custom_op", into);
  if (prototype) prototype_rules(first_new, tokens_[callee].text);
}

void PythonCallFinder::prototype_rules(size_t first, std::string_view call) {
  static constexpr std::string_view kReserved[] = {"prim", "prims", "aten",
                                                   "at",   "torch", "pytorch"};
  for (size_t k = first; k < out_.schemas.size(); ++k) {
    const FoundSchema& found = out_.schemas[k];
    schema::ParseResult parsed = schema::parse_schema(found.text.text());
    if (!parsed.ok()) continue;  // the schema's own error says it
    const schema::FunctionSchema& s = *parsed.schema;
    std::string why;
    std::string ns = resolved_namespace(found);
    bool mutates = std::any_of(s.arguments.begin(), s.arguments.end(),
                               [](const schema::Argument& a) { return a.type.is_mutable(); });
    bool views = std::any_of(s.returns.begin(), s.returns.end(), [](const schema::Argument& r) {
      return r.type.any_alias() != nullptr;
    });
    if (std::find(std::begin(kReserved), std::end(kReserved), ns) != std::end(kReserved)) {
      why = "'" + ns + "' is a reserved namespace, please choose something else";
    } else if (mutates || views || s.returns.empty()) {
      why =
          "it only supports functional operators (ops that do not mutate any inputs, do not "
          "return views of the inputs, and has at least one return)";
    } else if (std::any_of(s.arguments.begin(), s.arguments.end(),
                           [](const schema::Argument& a) { return a.name == "self"; })) {
      why = "it does not support arguments named 'self'";
    }
    if (why.empty()) continue;
    out_.inference_problems.push_back(
        {found.position,
         std::string(call) + "(\"" + tokens::operator_name_in(found.text.text()) +
             "\"): PyTorch's prototype custom_op refuses it when the module is imported: " + why,
         true});
  }
}

bool PythonCallFinder::from_torch(size_t callee) const {
  std::string path = custom_op_inference::resolved_path(module_, name_ending_at(tokens_, callee));
  return path.rfind("torch.", 0) == 0;
}

std::optional<size_t> PythonCallFinder::decorated_function(size_t callee, size_t close) const {
  size_t first = callee;
  name_ending_at(tokens_, callee, &first);
  if (first == 0 || !is_punct(tokens_[first - 1], "@")) return std::nullopt;
  size_t i = close + 1;
  while (i + 1 < tokens_.size()) {
    if (is_identifier(tokens_[i], "def")) return i;
    if (is_identifier(tokens_[i], "async")) {
      ++i;
      continue;
    }
    if (!is_punct(tokens_[i], "@")) return std::nullopt;
    ++i;
    while (i < tokens_.size() &&
           (tokens_[i].kind == TokenKind::identifier || is_punct(tokens_[i], ".")))
      ++i;
    if (i < tokens_.size() && is_punct(tokens_[i], "(")) i = tokens::matching_close(tokens_, i) + 1;
  }
  return std::nullopt;
}

std::optional<size_t> PythonCallFinder::function_named(std::string_view name, size_t call) const {
  std::optional<size_t> found;
  auto [begin, end] = module_.functions.equal_range(name);
  for (auto it = begin; it != end; ++it) {
    if (it->second < call || !found) found = it->second;
  }
  return found;
}

std::optional<size_t> PythonCallFinder::passed_function(
    size_t callee, size_t close, const std::vector<CallArgument>& arguments) const {
  const CallArgument* fn = find_argument(arguments, 1, "");
  if (fn && fn->range.end == fn->range.begin + 1 &&
      tokens_[fn->range.begin].kind == TokenKind::identifier) {
    return function_named(tokens_[fn->range.begin].text, callee);
  }
  if (close + 3 < tokens_.size() && is_punct(tokens_[close + 1], "(") &&
      tokens_[close + 2].kind == TokenKind::identifier && is_punct(tokens_[close + 3], ")")) {
    return function_named(tokens_[close + 2].text, callee);
  }
  return std::nullopt;
}

void PythonCallFinder::infer(size_t callee, size_t close,
                             const std::vector<CallArgument>& arguments, JoinedLiteral name,
                             const Receiver& into, bool lenient, bool named_as_function) {
  std::string op = operator_name_in(name.text.text());
  const std::string call(tokens_[callee].text);
  std::optional<size_t> def = decorated_function(callee, close);
  bool decorated = def.has_value();
  if (!def) def = passed_function(callee, close, arguments);
  if (!def) {
    out_.named_definitions.push_back(named_operator(name.position, op, into.ns, into.position, {}));
    out_.inference_problems.push_back({name.position,
                                       "custom op '" + op +
                                           "': its schema cannot be inferred statically: the "
                                           "function it wraps is not a `def` found in this file",
                                       false});
    return;
  }
  std::string base = op.substr(op.find("::") == std::string::npos ? 0 : op.find("::") + 2);
  if (named_as_function && tokens_[*def + 1].text != base.substr(0, base.find('.'))) {
    out_.named_definitions.push_back(named_operator(name.position, op, into.ns, into.position, {}));
    out_.inference_problems.push_back({name.position,
                                       call + "(qualname='" + op +
                                           "', ...)(func): expected `func` to have name '" + base +
                                           "' but got '" + std::string(tokens_[*def + 1].text) +
                                           "' (PyTorch refuses it when the module is imported)",
                                       true});
    return;
  }
  const CallArgument* mutates = find_argument(arguments, 99, "mutates_args");
  if (!mutates && !lenient) {
    out_.named_definitions.push_back(named_operator(name.position, op, into.ns, into.position, {}));
    out_.inference_problems.push_back({name.position,
                                       call + "(\"" + op +
                                           "\", ...) needs mutates_args= (the names of the "
                                           "arguments it mutates, () for none, or \"unknown\")",
                                       true});
    return;
  }
  if (decorated) ops_[std::string(tokens_[*def + 1].text)] = op;
  infer_from(*def, mutates, std::move(name), call, into, std::nullopt, lenient, !lenient,
             lenient ? nullptr : find_argument(arguments, 99, "tags"));
}

bool PythonCallFinder::infer_from(size_t def, const CallArgument* mutates, JoinedLiteral name,
                                  const std::string& call, const Receiver& into,
                                  std::optional<HelperLibrary> helper, bool none_is_empty,
                                  bool custom_op_def, const CallArgument* tags) {
  std::string op = operator_name_in(name.text.text());
  custom_op_inference::MutatesArgs mutated;  // none given: nothing mutated
  SourcePosition mutates_at = name.position;
  if (mutates && !(none_is_empty && mutates->range.end == mutates->range.begin + 1 &&
                   is_identifier(tokens_[mutates->range.begin], "None"))) {
    mutated = custom_op_inference::read_mutates_args(module_, mutates->range);
    mutates_at = tokens_[mutates->range.begin].position;
  }
  custom_op_inference::InferenceContext context;
  context.release = options_.torch_version;
  context.custom_op_def = custom_op_def;
  if (tags) context.tags = custom_op_inference::read_custom_op_tags(module_, tags->range);
  custom_op_inference::InferredSignature inferred =
      custom_op_inference::infer_signature(module_, def, mutated, mutates_at, op, context);
  for (custom_op_inference::InferenceProblem& problem : inferred.problems) {
    out_.inference_problems.push_back(std::move(problem));
  }
  if (!inferred.signature) {
    NamedOperator named = named_operator(name.position, op, into.ns, into.position, {});
    named.helper = std::move(helper);
    named.namespace_from_module = into.ns_from_module;
    out_.named_definitions.push_back(std::move(named));
    return false;
  }
  FoundSchema found;
  found.position = name.position;
  name.text.strip();
  found.text = std::move(name.text);
  found.text.append(*inferred.signature);
  found.call = call;
  found.inferred = true;
  found.form = SchemaForm::inferred;
  found.library_namespace = into.ns;
  found.library_position = into.position;
  found.helper = std::move(helper);
  found.namespace_from_module = into.ns_from_module;
  out_.schemas.push_back(std::move(found));
  return true;
}

void PythonCallFinder::implementation(size_t method) {
  Receiver receiver = receiver_of(method);
  std::vector<CallArgument> arguments = call_arguments(tokens_, method + 1, true);
  const std::string call(tokens_[method].text);
  bool kernel = call == "register_kernel";
  if (!receiver.op.empty()) {
    if (kernel) record_keys(key_uses(find_argument(arguments, 0, "device_types"), true));
    return;
  }
  std::string why_not;
  std::optional<JoinedLiteral> name = literal(find_argument(arguments, 0, "qualname"), &why_not);
  if (!name || !looks_like_operator_name(name->text.text())) return;
  std::string op = operator_name_in(name->text.text());
  if (receiver.module && op.find("::") == std::string::npos) return;
  NamedOperator impl = named_operator(name->position, op, receiver.ns, receiver.position, {});
  std::vector<KeyUse> keys;
  if (call == "impl" && receiver.module) {
    keys = key_uses(find_argument(arguments, 1, "types"), true);
  } else if (call == "impl") {
    keys = key_uses(find_argument(arguments, 2, "dispatch_key"), false);
    impl.dispatch_key = keys.size() == 1 ? keys[0].name : receiver.key;
  } else if (kernel) {
    keys = key_uses(find_argument(arguments, 1, "device_types"), true);
  }
  record_keys(keys);
  out_.implementations.push_back(std::move(impl));
}

void PythonCallFinder::record_keys(const std::vector<KeyUse>& keys) {
  for (const KeyUse& key : keys) out_.keys.push_back(key);
}

}  // namespace python

void find_python_registrations(const tokens::TokenStream& stream, const ScanOptions& options,
                               ScanResult& out, const ImportedConstant& imported, bool first_read) {
  python::PythonCallFinder(stream, options, out, imported, first_read).run();
}

}  // namespace schemac::sources
