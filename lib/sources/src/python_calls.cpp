// Finding registration calls in Python tokens:
//   lib = torch.library.Library("ns", "DEF")     a library object and its namespace
//   lib.define("name(...) -> ...")                 Library(...).define(...) too
//   torch.library.define("ns::name", "(...) -> ...")
//   @torch.library.custom_op("ns::name", mutates_args=(), schema="(...) -> ...")
//   lib.impl("name", fn, "CUDA"), torch.library.impl / register_fake / register_kernel("ns::name")
// A custom_op / triton_op without schema= gets the schema its type hints give (infer_schema.h).
#include <map>
#include <string>

#include "scan_internal.h"
#include "schemac/custom_op_inference/infer_schema.h"
#include "schemac/custom_op_inference/python_module.h"
#include "schemac/tokens/calls.h"

namespace schemac::sources {

using tokens::CallArgument, tokens::JoinedLiteral, tokens::SourcePosition, tokens::Token,
    tokens::TokenKind, tokens::TokenStream, tokens::call_arguments, tokens::find_argument,
    tokens::is_identifier, tokens::is_punct, tokens::looks_like_operator_name,
    tokens::name_ending_at, tokens::operator_name_in;

namespace {

bool is_module(std::string_view receiver) {
  return receiver == "torch.library" || receiver == "library" || receiver.empty();
}

class PythonCallFinder {
 public:
  PythonCallFinder(const TokenStream& stream, ScanResult& out)
      : stream_(stream),
        tokens_(stream.tokens),
        module_(custom_op_inference::read_python_module(stream)),
        out_(out) {}

  void run() {
    for (size_t i = 0; i + 1 < tokens_.size(); ++i) {
      track_function_scope(i);
      const Token& t = tokens_[i];
      if (t.kind != TokenKind::identifier || !is_punct(tokens_[i + 1], "(")) continue;
      size_t schemas = out_.schemas.size();
      size_t names = out_.named_definitions.size();
      if (t.text == "Library") {
        library(i);
      } else if (t.text == "define") {
        define(i);
      } else if (t.text == "custom_op" || t.text == "triton_op") {
        custom_op(i);
      } else if (t.text == "impl" || t.text == "register_fake" || t.text == "register_kernel" ||
                 t.text == "impl_abstract" || t.text == "register_autograd") {
        implementation(i);
      }
      for (size_t k = schemas; k < out_.schemas.size(); ++k)
        out_.schemas[k].in_function = in_function();
      for (size_t k = names; k < out_.named_definitions.size(); ++k) {
        out_.named_definitions[k].in_function = in_function();
      }
    }
  }

  // The indentation of the `def` lines whose bodies enclose the current statement. A statement
  // starts at the first token of a line outside brackets; it closes every def indented as much.
  void track_function_scope(size_t i) {
    const Token& t = tokens_[i];
    if (is_punct(t, "(") || is_punct(t, "[") || is_punct(t, "{")) ++depth_;
    if ((is_punct(t, ")") || is_punct(t, "]") || is_punct(t, "}")) && depth_ > 0) --depth_;
    bool starts_line = i == 0 || tokens_[i - 1].position.line != t.position.line;
    if (!starts_line || depth_ > 0) return;
    while (!functions_.empty() && functions_.back() >= t.position.column) functions_.pop_back();
    bool is_def = is_identifier(t, "def") || (is_identifier(t, "async") && i + 1 < tokens_.size() &&
                                              is_identifier(tokens_[i + 1], "def"));
    if (is_def) functions_.push_back(t.position.column);
  }
  bool in_function() const { return !functions_.empty(); }

 private:
  std::optional<JoinedLiteral> literal(const CallArgument* argument, std::string* why_not) const {
    if (!argument) {
      *why_not = "no argument";
      return std::nullopt;
    }
    return tokens::join_python_literal(stream_, argument->range, why_not);
  }

  // The namespace named by the Library(...) call whose name token is at `callee`.
  std::string library_namespace(size_t callee) const {
    std::vector<CallArgument> arguments = call_arguments(tokens_, callee + 1, true);
    std::string why_not;
    std::optional<JoinedLiteral> ns = literal(find_argument(arguments, 0, "ns"), &why_not);
    return ns && looks_like_operator_name(ns->text.text()) ? operator_name_in(ns->text.text()) : "";
  }

  // The dispatch key of Library(ns, "IMPL", key), recorded as a key use; "" when none.
  std::string library_key(size_t callee) {
    std::vector<CallArgument> arguments = call_arguments(tokens_, callee + 1, true);
    std::vector<KeyUse> keys = key_uses(find_argument(arguments, 2, "dispatch_key"), false);
    for (const KeyUse& key : keys) out_.keys.push_back(key);
    return keys.size() == 1 ? keys[0].name : "";
  }

  // The key or device-type strings of an argument: one literal, or a tuple / list of them.
  std::vector<KeyUse> key_uses(const CallArgument* argument, bool device_type) const {
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
      SourcePosition first = text->text.position(0);
      SourcePosition last = text->text.position(text->text.size() - 1);
      bool plain = last.line == first.line && last.column == first.column + text->text.size() - 1;
      out.push_back({first, text->text.text(), device_type, plain ? text->text.text() : ""});
    }
    return out;
  }

  void library(size_t callee) {
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
    libraries_[target] = {library_namespace(callee), tokens_[callee].position, library_key(callee)};
  }

  struct Receiver {
    bool module = false;  // torch.library.define / library.define
    std::string ns;
    SourcePosition position;
    std::string key;  // Library(ns, "IMPL", key)'s key
    std::string op;   // a custom op's Python object: its operator name
  };

  Receiver receiver_of(size_t method) const {
    Receiver receiver;
    if (method == 0 || !is_punct(tokens_[method - 1], ".")) {
      receiver.module = true;
      return receiver;
    }
    if (method < 2)
      return receiver;  // `.define(...)` at the very start: a dot with nothing before it
    size_t last = method - 2;
    if (is_punct(tokens_[last], ")")) {  // Library("ns", "DEF").define(...)
      size_t open = tokens::matching_open(tokens_, last);
      if (open < tokens_.size() && open > 0 && is_identifier(tokens_[open - 1], "Library")) {
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

  void define(size_t method) {
    Receiver receiver = receiver_of(method);
    std::vector<CallArgument> arguments = call_arguments(tokens_, method + 1, true);
    const CallArgument* first = find_argument(arguments, 0, "qualname");
    if (!first) first = find_argument(arguments, 0, "schema");
    if (!first) return;
    std::string why_not;
    std::optional<JoinedLiteral> text = literal(first, &why_not);
    SourcePosition where = tokens_[first->range.begin].position;
    if (!text) {
      out_.skipped.push_back({where, "define(...): " + why_not});
      return;
    }
    // torch.library.define("ns::name", "(...) -> ..."), under whatever name the module has
    bool qualified = text->text.text().find("::") != std::string::npos;
    if ((receiver.module || qualified) && looks_like_operator_name(text->text.text())) {
      const CallArgument* second = find_argument(arguments, 1, "schema");
      std::optional<JoinedLiteral> signature = literal(second, &why_not);
      if (!signature) {
        out_.skipped.push_back({where, "torch.library.define(...): the schema is " + why_not});
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

  // A name literal and a "(...) -> ..." literal make one schema text; it starts where the
  // signature's literal does.
  void add_schema(JoinedLiteral name, JoinedLiteral signature, std::string call,
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

  void custom_op(size_t callee) {
    size_t close = 0;
    std::vector<CallArgument> arguments = call_arguments(tokens_, callee + 1, true, &close);
    std::string why_not;
    const CallArgument* name_argument = find_argument(arguments, 0, "name");
    std::optional<JoinedLiteral> name = literal(name_argument, &why_not);
    SourcePosition where = tokens_[callee].position;
    if (!name || !looks_like_operator_name(name->text.text())) {
      if (!name_argument) return;
      std::string reason =
          tokens_[callee].text + "(...): the name is " + (name ? "not an operator name" : why_not);
      out_.skipped.push_back({where, reason});
      if (from_torch(callee)) {
        out_.inference_problems.push_back({tokens_[name_argument->range.begin].position,
                                           "an operator defined here is not checked: " + reason,
                                           false});
      }
      return;
    }
    const CallArgument* schema = find_argument(arguments, 99, "schema");
    if (!schema) {
      infer(callee, close, arguments, std::move(*name));
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
    add_schema(std::move(*name), std::move(*signature), "custom_op", Receiver{});
  }

  // Whether the callee ending at `callee` is PyTorch's (torch.library.custom_op, or custom_op
  // imported from torch), not another library's function of the same name.
  bool from_torch(size_t callee) const {
    std::string dotted = name_ending_at(tokens_, callee);
    std::string root = dotted.substr(0, dotted.find('.'));
    auto imported = module_.imports.find(root);
    std::string path =
        imported != module_.imports.end() ? imported->second + dotted.substr(root.size()) : dotted;
    return path.rfind("torch.", 0) == 0;
  }

  // The `def` a decorator call (whose ')' is at `close`) applies to, past other decorators.
  std::optional<size_t> decorated_function(size_t callee, size_t close) const {
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
      if (i < tokens_.size() && is_punct(tokens_[i], "("))
        i = tokens::matching_close(tokens_, i) + 1;
    }
    return std::nullopt;
  }

  // The `def NAME` a call passes by name: the last one before the call, else the first after.
  std::optional<size_t> function_named(const std::string& name, size_t call) const {
    std::optional<size_t> found;
    auto [begin, end] = module_.functions.equal_range(name);
    for (auto it = begin; it != end; ++it) {
      if (it->second < call || !found) found = it->second;
    }
    return found;
  }

  // The function of custom_op(name, fn, ...) or custom_op(name, ...)(fn).
  std::optional<size_t> passed_function(size_t callee, size_t close,
                                        const std::vector<CallArgument>& arguments) const {
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

  // custom_op / triton_op without schema=: the schema comes from the function's type hints.
  void infer(size_t callee, size_t close, const std::vector<CallArgument>& arguments,
             JoinedLiteral name) {
    std::string op = operator_name_in(name.text.text());
    const std::string& call = tokens_[callee].text;
    std::optional<size_t> def = decorated_function(callee, close);
    bool decorated = def.has_value();
    if (!def) def = passed_function(callee, close, arguments);
    auto not_inferred = [&](SourcePosition at, std::string message, bool rejected) {
      out_.named_definitions.push_back(named_operator(name.position, op, "", {}, {}));
      out_.inference_problems.push_back({at, std::move(message), rejected});
    };
    if (!def) {
      not_inferred(name.position,
                   "custom op '" + op +
                       "': its schema cannot be inferred statically: the function "
                       "it wraps is not a `def` found in this file",
                   false);
      return;
    }
    const CallArgument* mutates = find_argument(arguments, 99, "mutates_args");
    if (!mutates) {
      not_inferred(name.position,
                   call + "(\"" + op +
                       "\", ...) needs mutates_args= (the names "
                       "of the arguments it mutates, () for none, or \"unknown\")",
                   true);
      return;
    }
    custom_op_inference::MutatesArgs mutated =
        custom_op_inference::read_mutates_args(module_, mutates->range);
    custom_op_inference::InferredSignature inferred = custom_op_inference::infer_signature(
        module_, *def, mutated, tokens_[mutates->range.begin].position, op);
    for (custom_op_inference::InferenceProblem& problem : inferred.problems) {
      out_.inference_problems.push_back(std::move(problem));
    }
    if (decorated) ops_[tokens_[*def + 1].text] = op;
    if (!inferred.signature) {
      out_.named_definitions.push_back(named_operator(name.position, op, "", {}, {}));
      return;
    }
    FoundSchema found;
    found.position = name.position;
    name.text.strip();
    found.text = std::move(name.text);
    found.text.append(*inferred.signature);
    found.call = call;
    found.inferred = true;
    out_.schemas.push_back(std::move(found));
  }

  // lib.impl(name, fn, key), torch.library.impl(name, types), register_kernel(name, device_types),
  // register_fake / impl_abstract / register_autograd(name), and the methods of a custom op's
  // object (op.register_kernel("cpu")).
  void implementation(size_t method) {
    Receiver receiver = receiver_of(method);
    std::vector<CallArgument> arguments = call_arguments(tokens_, method + 1, true);
    const std::string& call = tokens_[method].text;
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

  void record_keys(const std::vector<KeyUse>& keys) {
    for (const KeyUse& key : keys) out_.keys.push_back(key);
  }

  struct KnownLibrary {
    std::string ns;
    SourcePosition position;
    std::string key;
  };

  const TokenStream& stream_;
  const std::vector<Token>& tokens_;
  custom_op_inference::PythonModule module_;
  std::map<std::string, KnownLibrary> libraries_;
  std::map<std::string, std::string> ops_;  // a custom op's Python name -> its operator name
  std::vector<uint32_t> functions_;         // see track_function_scope
  size_t depth_ = 0;                        // bracket depth
  ScanResult& out_;
};

}  // namespace

void find_python_registrations(const TokenStream& stream, ScanResult& out) {
  PythonCallFinder(stream, out).run();
}

}  // namespace schemac::sources
