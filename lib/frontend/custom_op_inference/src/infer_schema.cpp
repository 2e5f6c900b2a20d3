#include "schemac/custom_op_inference/infer_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "python_hints.h"

namespace schemac::custom_op_inference {

using tokens::MappedText, tokens::SourcePosition, tokens::Token, tokens::TokenRange,
    tokens::is_punct;

namespace {

// One parameter of a `def`, split into its parts.
struct Parameter {
  SourcePosition position;  // of its name (or of the '/', '*', '**')
  std::string name;
  TokenRange annotation;     // empty when none
  TokenRange default_value;  // empty when none
  enum class Form : uint8_t {
    plain,
    positional_marker,
    keyword_marker,
    varargs,
    varkwargs
  } form = Form::plain;
};

// The index of the first top-level `stop` token in [range.begin, range.end), or range.end.
size_t find_top_level(const std::vector<Token>& tokens, TokenRange range, std::string_view stop) {
  for (size_t i = range.begin; i < range.end; ++i) {
    if (is_punct(tokens[i], stop)) return i;
    size_t close = tokens::matching_close(tokens, i);
    if (close < range.end) i = close;
  }
  return range.end;
}

std::optional<Parameter> split_parameter(const std::vector<Token>& tokens, TokenRange range) {
  if (range.empty()) return std::nullopt;
  Parameter p;
  const Token& first = tokens[range.begin];
  p.position = first.position;
  if (is_punct(first, "/")) {
    p.form = Parameter::Form::positional_marker;
    return p;
  }
  if (is_punct(first, "*") || is_punct(first, "**")) {
    bool alone = range.end - range.begin == 1;
    p.form = is_punct(first, "**") ? Parameter::Form::varkwargs
             : alone               ? Parameter::Form::keyword_marker
                                   : Parameter::Form::varargs;
    if (!alone) p.name = tokens[range.begin + 1].text;
    return p;
  }
  if (first.kind != tokens::TokenKind::identifier) return std::nullopt;
  p.name = first.text;
  size_t equals = find_top_level(tokens, {range.begin + 1, range.end}, "=");
  if (range.begin + 1 < equals && is_punct(tokens[range.begin + 1], ":")) {
    p.annotation = {range.begin + 2, equals};
  }
  if (equals < range.end) p.default_value = {equals + 1, range.end};
  return p;
}

void append(MappedText& text, std::string_view piece, SourcePosition from) {
  for (char c : piece) text.push_back(c, from);
}

class Inference {
 public:
  Inference(const PythonModule& module, const MutatesArgs& mutates, const std::string& op)
      : module_(module),
        tokens_(module.stream->tokens),
        reader_(module),
        mutates_(mutates),
        op_(op) {}

  InferredSignature run(size_t def_token, SourcePosition mutates_position) {
    size_t open = def_token + 2;
    SourcePosition where = tokens_[def_token + 1].position;
    size_t close = tokens::matching_close(tokens_, open);
    if (open >= tokens_.size() || !is_punct(tokens_[open], "(") || close >= tokens_.size()) {
      unknown(where, "its function's parameters cannot be read");
      return std::move(out_);
    }
    if (mutates_.status == MutatesArgs::Status::invalid) reject(mutates_position, mutates_.why);
    if (mutates_.status == MutatesArgs::Status::unknown) unknown(mutates_position, mutates_.why);
    MappedText text;
    append(text, "(", where);
    size_t index = 0;
    bool keyword_only = false;
    bool star_written = false;
    std::vector<std::string> seen;
    std::vector<Parameter> parameters;
    for (const tokens::CallArgument& argument : tokens::call_arguments(tokens_, open, false)) {
      if (std::optional<Parameter> p = split_parameter(tokens_, argument.range))
        parameters.push_back(*p);
    }
    bool positional_only = std::any_of(
        parameters.begin(), parameters.end(),
        [](const Parameter& p) { return p.form == Parameter::Form::positional_marker; });
    for (const Parameter& p : parameters) {
      switch (p.form) {
        case Parameter::Form::positional_marker: positional_only = false; continue;
        case Parameter::Form::keyword_marker: keyword_only = true; continue;
        case Parameter::Form::varargs:
        case Parameter::Form::varkwargs:
          reject(p.position,
                 fmt::format("parameter '{}{}': infer_schema does not take *args or **kwargs",
                             p.form == Parameter::Form::varargs ? "*" : "**", p.name));
          keyword_only = true;
          ++index;
          continue;
        case Parameter::Form::plain: break;
      }
      if (positional_only) {
        reject(p.position,
               fmt::format("parameter '{}' is positional-only (before '/'): infer_schema "
                           "does not take positional-only parameters",
                           p.name));
      }
      if (keyword_only && !star_written) {
        star_written = true;
        append(text, text.size() > 1 ? ", *" : "*", p.position);
      }
      std::optional<std::string> piece = parameter(p, index);
      if (piece) append(text, (text.size() > 1 ? ", " : "") + *piece, p.position);
      seen.push_back(p.name);
      ++index;
    }
    if (mutates_.status == MutatesArgs::Status::names) {
      for (size_t i = 0; i < mutates_.names.size(); ++i) {
        if (std::find(seen.begin(), seen.end(), mutates_.names[i]) == seen.end()) {
          reject(mutates_.positions[i],
                 fmt::format("mutates_args names '{}', which is not a parameter of the function",
                             mutates_.names[i]));
        }
      }
    }
    append(text, ") -> ", where);
    returns(close, where, text);
    if (!failed_) out_.signature = std::move(text);
    return std::move(out_);
  }

 private:
  void reject(SourcePosition at, std::string message) {
    out_.problems.push_back({at, fmt::format("custom op '{}': {}", op_, message), true});
    failed_ = true;
  }
  void unknown(SourcePosition at, std::string message) {
    out_.problems.push_back(
        {at,
         fmt::format("custom op '{}': its schema cannot be inferred statically: {}", op_, message),
         false});
    failed_ = true;
  }

  bool mutated(const std::string& name) const {
    if (mutates_.status == MutatesArgs::Status::all) return true;
    return std::find(mutates_.names.begin(), mutates_.names.end(), name) != mutates_.names.end();
  }

  // "Tensor(a2!)? x=None", or none after a problem.
  std::optional<std::string> parameter(const Parameter& p, size_t index) {
    if (p.annotation.empty()) {
      reject(p.position,
             fmt::format("parameter '{}' has no type annotation; infer_schema needs one", p.name));
      return std::nullopt;
    }
    Hint hint = reader_.read(*module_.stream, p.annotation);
    if (const Hint* missing = find_unknown(hint)) {
      unknown(tokens_[p.annotation.begin].position,
              fmt::format("the type of parameter '{}': {}", p.name, missing->written));
      return std::nullopt;
    }
    std::optional<std::string> type = parameter_schema_type(hint);
    if (!type) {
      bool tuple = hint.kind == Hint::Kind::tuple;
      reject(tokens_[p.annotation.begin].position,
             fmt::format("parameter '{}' has type '{}', which infer_schema does not support{}",
                         p.name, describe(hint),
                         tuple ? " (tuples are not inputs; use a list such as list[int])" : ""));
      return std::nullopt;
    }
    bool starts_with_tensor = type->rfind("Tensor", 0) == 0;
    bool listed = mutates_.status == MutatesArgs::Status::names && mutated(p.name);
    if (listed && !starts_with_tensor) {
      reject(p.position, fmt::format("parameter '{}' is in mutates_args but has type '{}': only "
                                     "Tensors and lists of Tensors can be mutated",
                                     p.name, *type));
      return std::nullopt;
    }
    if (mutated(p.name) && starts_with_tensor) {
      *type = fmt::format("Tensor(a{}!){}", index, type->substr(6));
    }
    std::string piece = *type + " " + p.name;
    if (p.default_value.empty()) return piece;
    StaticValue value = default_value(module_, p.default_value);
    SourcePosition at = tokens_[p.default_value.begin].position;
    if (value.status == StaticValue::Status::unsupported) {
      reject(at, fmt::format("parameter '{}' has a default of a type infer_schema does not support "
                             "({}); it takes None, int, float, bool, str, torch.device and "
                             "torch.dtype",
                             p.name, value.text));
      return std::nullopt;
    }
    if (value.status == StaticValue::Status::unknown) {
      unknown(at, fmt::format("the default of parameter '{}': {}", p.name, value.text));
      return std::nullopt;
    }
    return piece + "=" + value.text;
  }

  void returns(size_t close, SourcePosition where, MappedText& text) {
    if (close + 1 >= tokens_.size() || !is_punct(tokens_[close + 1], "->")) {
      reject(where,
             "the function has no return annotation; infer_schema needs one (None for "
             "nothing)");
      return;
    }
    size_t begin = close + 2;
    size_t end = find_top_level(tokens_, {begin, tokens_.size()}, ":");
    SourcePosition at = begin < tokens_.size() ? tokens_[begin].position : where;
    Hint hint = reader_.read(*module_.stream, {begin, end});
    if (const Hint* missing = find_unknown(hint)) {
      unknown(at, fmt::format("the return type: {}", missing->written));
      return;
    }
    std::optional<std::string> type = return_schema_type(hint);
    if (!type) {
      reject(at, fmt::format("the return type '{}' is not one infer_schema supports (None, Tensor, "
                             "list[Tensor], int, float, bool, Number, or a tuple of those)",
                             describe(hint)));
      return;
    }
    append(text, *type, at);
  }

  const PythonModule& module_;
  const std::vector<Token>& tokens_;
  HintReader reader_;
  const MutatesArgs& mutates_;
  const std::string& op_;
  InferredSignature out_;
  bool failed_ = false;
};

}  // namespace

InferredSignature infer_signature(const PythonModule& module, size_t def_token,
                                  const MutatesArgs& mutates, SourcePosition mutates_position,
                                  const std::string& op) {
  return Inference(module, mutates, op).run(def_token, mutates_position);
}

}  // namespace schemac::custom_op_inference
