// c10's RegisterOperators, the registration API before TORCH_LIBRARY and still how many installed
// libraries register, and the torch::jit form it came from. A chain starts at a constructor
// (`torch::RegisterOperators()`, `c10::RegisterOperators("ns::op", &fn)`, `RegisterOperators
// reg(...)`) and goes on through `.op(...)` calls; each call, and a constructor given arguments,
// is one registration. What c10 reads (op_registration.h):
//   .op("schema or name", [kernel], [options])  the string is options.schema(...)
//   .op(options().schema("...").kernel<...>(key) / .catchAllKernel<...>() ...)
// A registration is one operator: the schema literal, or a name whose schema c10 infers from the
// kernel's C++ signature when the library loads (listed, like m.def("name", fn)). The schema given
// twice (in .op's string and in options().schema) is refused by c10 at load ("specified schema
// multiple times"); an operator without a namespace registers but breaks PyTorch's symbol table
// ("all symbols must have a namespace"): both are rejected-at-load errors. A kernel given with no
// key is a catch-all, which PyTorch registers as CompositeImplicitAutograd.
// torch::jit::RegisterOperators({Operator("schema", fn, ...)}) defines each Operator's schema.
#include <algorithm>
#include <string>

#include "scan_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/tokens/calls.h"

namespace schemac::sources {
namespace {

using tokens::CallArgument, tokens::JoinedLiteral, tokens::SourcePosition, tokens::Token,
    tokens::TokenKind, tokens::TokenRange, tokens::TokenStream, tokens::is_identifier,
    tokens::is_punct;

constexpr std::string_view kCall = "RegisterOperators";

// One kernel of a registration: its key ("" for a catch-all) and function ("" when not a plain
// function: a functor class, a lambda).
struct Kernel {
  std::string key;
  std::string function;
  SourcePosition position;
};

// What one .op(...) (or constructor) says.
struct Registration {
  std::vector<JoinedLiteral> schemas;  // every schema or name given, in order
  std::vector<Kernel> kernels;
  SourcePosition position;  // where its arguments start
  std::string why_not;      // the first argument is not a literal: why
};

class RegisterOperatorsFinder {
 public:
  RegisterOperatorsFinder(const TokenStream& stream, ScanResult& out)
      : stream_(stream), tokens_(stream.tokens), out_(out) {}

  void run() {
    for (size_t i = 0; i + 1 < tokens_.size(); ++i) {
      if (!is_identifier(tokens_[i], kCall)) continue;
      size_t open = i + 1;
      // `RegisterOperators reg(...)`: a variable made by the constructor.
      if (tokens_[open].kind == TokenKind::identifier && open + 1 < tokens_.size()) ++open;
      if (!is_punct(tokens_[open], "(") && !is_punct(tokens_[open], "{")) continue;
      // The class's own definition (`struct RegisterOperators {`), a declaration: not a chain.
      if (i > 0 &&
          (is_identifier(tokens_[i - 1], "struct") || is_identifier(tokens_[i - 1], "class")))
        continue;
      size_t close = tokens::matching_close(tokens_, open);
      if (close >= tokens_.size()) continue;
      constructor(i, open);
      // .op(...) chained on the object made.
      while (close + 3 < tokens_.size() && is_punct(tokens_[close + 1], ".") &&
             is_identifier(tokens_[close + 2], "op") && is_punct(tokens_[close + 3], "(")) {
        size_t op = close + 3;
        close = tokens::matching_close(tokens_, op);
        if (close >= tokens_.size()) break;
        record(read_op(op), op);
      }
      i = close;
    }
  }

 private:
  // The constructor's arguments: c10's `(schemaOrName, fn, options)`, or torch::jit's list of
  // `Operator("schema", ...)`.
  void constructor(size_t name, size_t open) {
    std::vector<CallArgument> arguments = tokens::call_arguments(tokens_, open, false);
    if (arguments.empty()) return;
    size_t close = tokens::matching_close(tokens_, open);
    bool operators = false;
    for (size_t k = open + 1; k + 1 < close; ++k) {
      if (is_identifier(tokens_[k], "Operator") && is_punct(tokens_[k + 1], "(")) {
        operators = true;
        jit_operator(k + 1);
        k = tokens::matching_close(tokens_, k + 1);
      }
    }
    if (!operators) record(read_op(open), name);
  }

  // torch::jit's Operator("ns::op(...) -> ...", fn, aliasAnalysis): its schema.
  void jit_operator(size_t open) {
    std::vector<CallArgument> arguments = tokens::call_arguments(tokens_, open, false);
    if (arguments.empty()) return;
    std::string why_not;
    std::optional<JoinedLiteral> literal =
        tokens::join_cpp_literal(stream_, arguments[0].range, &why_not);
    if (!literal || !tokens::looks_like_schema(literal->text.text())) return;
    Registration registration;
    registration.position = literal->position;
    registration.schemas.push_back(std::move(*literal));
    record(std::move(registration), open);
  }

  // The arguments of the call whose '(' is at `open`, split at the commas outside brackets and
  // outside template argument lists (`kernel<decltype(f), &f>(key)` is one argument).
  std::vector<TokenRange> op_arguments(size_t open) const {
    std::vector<TokenRange> out;
    size_t close = tokens::matching_close(tokens_, open);
    if (close >= tokens_.size()) return out;
    size_t start = open + 1;
    int angles = 0;
    for (size_t k = open + 1; k < close; ++k) {
      const Token& t = tokens_[k];
      if (is_punct(t, "(") || is_punct(t, "[") || is_punct(t, "{")) {
        k = std::min(tokens::matching_close(tokens_, k), close);
      } else if (is_punct(t, "<") && tokens_[k - 1].kind == TokenKind::identifier) {
        ++angles;
      } else if (is_punct(t, ">") && angles > 0) {
        --angles;
      } else if (angles == 0 && is_punct(t, ",")) {
        out.push_back({start, k});
        start = k + 1;
      }
    }
    if (start < close || !out.empty()) out.push_back({start, close});
    return out;
  }

  // The arguments of `.op(` at `open`: a leading string, options chains, a kernel function.
  Registration read_op(size_t open) {
    Registration registration;
    std::vector<TokenRange> arguments = op_arguments(open);
    if (arguments.empty()) return registration;
    registration.position = tokens_[arguments[0].begin].position;
    for (size_t a = 0; a < arguments.size(); ++a) {
      TokenRange range = arguments[a];
      if (range.empty()) continue;
      if (options_chain(range, registration)) continue;
      if (a == 0) {
        std::optional<JoinedLiteral> literal =
            tokens::join_cpp_literal(stream_, range, &registration.why_not);
        if (literal) registration.schemas.push_back(std::move(*literal));
        continue;
      }
      // A function or lambda after the name: a catch-all kernel.
      registration.kernels.push_back(
          {"", cpp_kernel_name(tokens_, range), tokens_[range.begin].position});
    }
    return registration;
  }

  // `[torch::]RegisterOperators::options().schema(...).kernel<...>(...)...`: reads its calls into
  // `registration`; false when the range is not such a chain.
  bool options_chain(TokenRange range, Registration& registration) {
    size_t i = range.begin;
    while (i < range.end &&
           (tokens_[i].kind == TokenKind::identifier || is_punct(tokens_[i], "::")))
      ++i;
    if (i == range.begin || !is_identifier(tokens_[i - 1], "options") || i >= range.end ||
        !is_punct(tokens_[i], "(")) {
      return false;
    }
    i = tokens::matching_close(tokens_, i) + 1;
    while (i + 1 < range.end && is_punct(tokens_[i], ".") &&
           tokens_[i + 1].kind == TokenKind::identifier) {
      size_t method = i + 1;
      TokenRange templates{method + 1, method + 1};
      size_t open = method + 1;
      if (open < range.end && is_punct(tokens_[open], "<")) {
        templates = {open + 1, angle_close(open, range.end)};
        open = templates.end + 1;
      }
      if (open >= range.end || !is_punct(tokens_[open], "(")) break;
      option(tokens_[method].text, templates, open, registration);
      i = tokens::matching_close(tokens_, open) + 1;
    }
    return true;
  }

  // The '>' closing the '<' at `open` (brackets skipped whole), or `end`.
  size_t angle_close(size_t open, size_t end) const {
    int depth = 0;
    for (size_t k = open; k < end; ++k) {
      if (is_punct(tokens_[k], "(") || is_punct(tokens_[k], "[") || is_punct(tokens_[k], "{")) {
        k = tokens::matching_close(tokens_, k);
        continue;
      }
      if (is_punct(tokens_[k], "<")) ++depth;
      if (is_punct(tokens_[k], ">") && --depth == 0) return k;
    }
    return end;
  }

  // One call of an options chain: .schema("..."), .kernel<...>(key[, fn]), .catchAllKernel...
  void option(std::string_view method, TokenRange templates, size_t open,
              Registration& registration) {
    std::vector<CallArgument> arguments = tokens::call_arguments(tokens_, open, false);
    if (method == "schema") {
      std::string why_not;
      if (arguments.empty()) return;
      std::optional<JoinedLiteral> literal =
          tokens::join_cpp_literal(stream_, arguments[0].range, &why_not);
      if (literal) {
        registration.schemas.push_back(std::move(*literal));
      } else if (registration.why_not.empty()) {
        registration.why_not = why_not;
      }
      return;
    }
    bool catch_all = method == "catchAllKernel" || method == "impl_unboxedOnlyCatchAllKernel";
    bool keyed = method == "kernel" || method == "impl_unboxedOnlyKernel";
    if (!catch_all && !keyed) return;  // aliasAnalysis(...) and the like
    Kernel kernel{"", "", tokens_[open].position};
    // kernel<decltype(fn), &fn>(...): the function is the template's second argument; a single
    // template argument is a functor class.
    std::vector<TokenRange> parts = template_arguments(templates);
    size_t function_argument = keyed ? 1 : 0;
    if (parts.size() == 2) {
      kernel.function = cpp_kernel_name(tokens_, parts[1]);
    } else if (parts.empty() && arguments.size() > function_argument) {
      kernel.function = cpp_kernel_name(tokens_, arguments[function_argument].range);
    }
    if (keyed) {
      if (arguments.empty()) return;
      std::optional<KeyUse> key = dispatch_key(arguments[0].range);
      if (!key) return;  // a key only known at run time: no kernel to place
      out_.keys.push_back(*key);
      kernel.key = key->name;
      kernel.position = key->position;
    }
    registration.kernels.push_back(std::move(kernel));
  }

  std::vector<TokenRange> template_arguments(TokenRange templates) const {
    std::vector<TokenRange> parts;
    if (templates.empty()) return parts;
    size_t start = templates.begin;
    for (size_t k = templates.begin; k <= templates.end; ++k) {
      if (k < templates.end &&
          (is_punct(tokens_[k], "(") || is_punct(tokens_[k], "[") || is_punct(tokens_[k], "{"))) {
        k = tokens::matching_close(tokens_, k);
        continue;
      }
      if (k < templates.end && is_punct(tokens_[k], "<")) {
        k = angle_close(k, templates.end);
        continue;
      }
      if (k == templates.end || is_punct(tokens_[k], ",")) {
        parts.push_back({start, k});
        start = k + 1;
      }
    }
    return parts;
  }

  // A kernel's key: `c10::DispatchKey::CPU`, and the TensorTypeId spellings of PyTorch 1.2-1.4
  // (`CPUTensorId()`, `c10::TensorTypeId::CUDATensorId`): the key without `TensorId`.
  std::optional<KeyUse> dispatch_key(TokenRange range) const {
    if (range.empty()) return std::nullopt;
    size_t last = range.end - 1;
    if (range.end - range.begin >= 3 && is_punct(tokens_[last], ")") &&
        is_punct(tokens_[last - 1], "(")) {
      last -= 2;
    }
    const Token& token = tokens_[last];
    if (token.kind != TokenKind::identifier) return std::nullopt;
    std::string written(token.text);
    std::string name = written;
    constexpr std::string_view kTensorId = "TensorId";
    if (name.size() > kTensorId.size() && name.ends_with(kTensorId)) {
      name.resize(name.size() - kTensorId.size());
    } else if (!(last >= range.begin + 2 && is_identifier(tokens_[last - 2], "DispatchKey"))) {
      return std::nullopt;
    }
    return KeyUse{token.position, name, false, name == written && !token.made ? written : ""};
  }

  const tokens::ConditionPath& condition(size_t index) const {
    return stream_.conditions[tokens_[index].condition];
  }

  // The registration as a definition (a schema, or a name c10 infers the schema of) and its
  // kernels as implementations; what c10 refuses at load as a rejected-at-load error.
  void record(Registration registration, size_t at) {
    if (registration.schemas.empty()) {
      if (!registration.why_not.empty())
        out_.skipped.push_back(
            {registration.position, "RegisterOperators .op(...): " + registration.why_not});
      return;
    }
    const JoinedLiteral& first = registration.schemas.front();
    std::string name = tokens::operator_name_in(first.text.text());
    if (registration.schemas.size() > 1) {
      reject(registration.schemas[1].position,
             "c10 refuses this registration when the library loads: 'Tried to register operator " +
                 name +
                 " but specified schema multiple times' (the schema or name is given both in "
                 ".op(\"...\") and in options().schema(...)); give it once");
    }
    bool schema = tokens::looks_like_schema(first.text.text());
    if (!schema && !tokens::looks_like_operator_name(first.text.text())) {
      out_.skipped.push_back({first.position,
                              "RegisterOperators .op(...): the string is not a "
                              "schema or an operator name"});
      return;
    }
    if (tokens::written_namespace(first.text.text()).empty()) {
      reject(first.position,
             "'" + name +
                 "' has no namespace: RegisterOperators registers it, but PyTorch then fails on "
                 "it ('all symbols must have a namespace, <namespace>::<string>, but found: " +
                 name + "'); write 'ns::" + name + "'");
    }
    if (schema) {
      FoundSchema found;
      found.position = first.position;
      found.text = first.text;
      found.call = std::string(kCall);
      found.form = SchemaForm::legacy;
      found.condition = condition(at);
      out_.schemas.push_back(std::move(found));
    } else {
      out_.named_definitions.push_back(named_operator(first.position, name, "", {}, condition(at)));
      out_.named_definitions.back().inferred_at_load = true;
      out_.skipped.push_back(
          {first.position, "RegisterOperators .op(\"" + name +
                               "\", ...): c10 infers the schema from the kernel's C++ signature "
                               "when the library loads"});
    }
    for (const Kernel& kernel : registration.kernels) {
      if (kernel.function.empty()) continue;
      NamedOperator impl = named_operator(first.position, name, "", {}, condition(at));
      impl.dispatch_key = kernel.key.empty() ? "CompositeImplicitAutograd" : kernel.key;
      impl.kernel = kernel.function;
      out_.implementations.push_back(std::move(impl));
    }
  }

  void reject(SourcePosition position, std::string message) {
    out_.problems.push_back({position, std::string(rules::rejected_at_load), std::move(message)});
  }

  const TokenStream& stream_;
  const std::vector<Token>& tokens_;
  ScanResult& out_;
};

}  // namespace

void find_register_operators(const TokenStream& stream, ScanResult& out) {
  RegisterOperatorsFinder(stream, out).run();
}

}  // namespace schemac::sources
