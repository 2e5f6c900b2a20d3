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
  Inference(const PythonModule& module, const MutatesArgs& mutates, const std::string& op,
            const InferenceContext& context)
      : module_(module),
        tokens_(module.stream->tokens),
        reader_(module),
        mutates_(mutates),
        op_(op),
        context_(context) {}

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
    read_tags();
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
      std::optional<std::string> piece = parameter(p, index, keyword_only);
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
    check_tagged_shape(where, mutates_position);
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

  // custom_op's tags: from 2.13 torch.Tag.inplace and torch.Tag.out shape the schema.
  void read_tags() {
    if (!torch_releases::custom_op_tags_shape_schema(context_.release)) return;
    const CustomOpTags& tags = context_.tags;
    if (!tags.known) {
      unknown(tags.position, fmt::format("{}, and from PyTorch 2.13 torch.Tag.inplace and "
                                         "torch.Tag.out change the schema",
                                         tags.why));
      return;
    }
    inplace_ = tags.has("inplace");
    out_tag_ = tags.has("out");
    if (inplace_ && out_tag_) {
      reject(tags.position, "torch.Tag.inplace and torch.Tag.out are mutually exclusive");
      inplace_ = out_tag_ = false;
    }
  }

  // What torch.Tag.inplace and torch.Tag.out require of the parameters as a whole.
  void check_tagged_shape(SourcePosition where, SourcePosition mutates_position) {
    if (out_tag_ && out_aliases_.empty() && !out_argument_refused_) {
      reject(context_.tags.position,
             "torch.Tag.out requires at least one mutable keyword-only Tensor argument");
    }
    if (!inplace_) return;
    if (!first_positional_) {
      reject(where, "torch.Tag.inplace requires a positional Tensor argument");
      return;
    }
    if (first_positional_->type != "Tensor") {
      reject(first_positional_->position,
             fmt::format("torch.Tag.inplace requires the first positional argument to be a "
                         "Tensor; '{}' is '{}'",
                         first_positional_->name, first_positional_->type));
    }
    const bool exactly_first =
        mutates_.status == MutatesArgs::Status::names && !mutates_.names.empty() &&
        std::all_of(mutates_.names.begin(), mutates_.names.end(),
                    [&](const std::string& name) { return name == first_positional_->name; });
    if (!exactly_first && mutates_.status != MutatesArgs::Status::unknown) {
      reject(mutates_position,
             fmt::format("torch.Tag.inplace requires mutates_args to name exactly the first "
                         "positional argument, '{}'",
                         first_positional_->name));
    }
  }

  bool mutated(const std::string& name) const {
    if (mutates_.status == MutatesArgs::Status::all) return true;
    return std::find(mutates_.names.begin(), mutates_.names.end(), name) != mutates_.names.end();
  }

  // "Tensor(a2!)? x=None", or none after a problem.
  std::optional<std::string> parameter(const Parameter& p, size_t index, bool keyword_only) {
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
    if (!keyword_only && !first_positional_)
      first_positional_ = FirstPositional{p.name, *type, index, p.position};
    bool listed = mutates_.status == MutatesArgs::Status::names && mutated(p.name);
    if (listed && !starts_with_tensor) {
      reject(p.position, fmt::format("parameter '{}' is in mutates_args but has type '{}': only "
                                     "Tensors and lists of Tensors can be mutated",
                                     p.name, *type));
      return std::nullopt;
    }
    if (keyword_only && starts_with_tensor && context_.custom_op_def && !out_tag_) {
      reject(p.position,
             fmt::format("parameter '{}' is a keyword-only Tensor, which custom_op does not take "
                         "(from PyTorch 2.13 an op tagged torch.Tag.out may have them)",
                         p.name));
    }
    if (mutated(p.name) && starts_with_tensor) {
      if (out_tag_ && !keyword_only) {
        out_argument_refused_ = true;
        reject(p.position, fmt::format("torch.Tag.out requires mutable arguments to be "
                                       "keyword-only; '{}' is not",
                                       p.name));
      } else if (out_tag_ && *type != "Tensor") {
        out_argument_refused_ = true;
        reject(p.position, fmt::format("torch.Tag.out only supports mutable keyword-only Tensor "
                                       "arguments; '{}' is '{}'",
                                       p.name, *type));
      } else if (out_tag_) {
        out_aliases_.push_back(index);
        out_names_.push_back(p.name);
      }
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
    if (out_tag_) {
      tagged_out_returns(type, at, text);
      return;
    }
    if (inplace_ && type && first_positional_) {
      if (*type != "Tensor") {
        reject(at, fmt::format("torch.Tag.inplace requires the return annotation to be "
                               "torch.Tensor, not '{}'",
                               describe(hint)));
        return;
      }
      append(text, fmt::format("Tensor(a{}!)", first_positional_->index), at);
      return;
    }
    if (!type) {
      reject(at, fmt::format("the return type '{}' is not one infer_schema supports (None, Tensor, "
                             "list[Tensor], int, float, bool, Number, or a tuple of those)",
                             describe(hint)));
      return;
    }
    append(text, *type, at);
  }

  // torch.Tag.out: the return annotation is Tensor for one out argument, a tuple of as many
  // Tensors for several; the returns alias them in order.
  void tagged_out_returns(const std::optional<std::string>& type, SourcePosition at,
                          MappedText& text) {
    if (out_aliases_.empty()) return;  // reported already
    std::string expected = "Tensor";
    std::string aliased = fmt::format("Tensor(a{}!)", out_aliases_[0]);
    if (out_aliases_.size() > 1) {
      expected = "(Tensor";
      aliased = "(" + aliased;
      for (size_t i = 1; i < out_aliases_.size(); ++i) {
        expected += ", Tensor";
        aliased += fmt::format(", Tensor(a{}!)", out_aliases_[i]);
      }
      expected += ")";
      aliased += ")";
    }
    if (type != expected) {
      std::string names;
      for (const std::string& name : out_names_)
        names += (names.empty() ? "'" : ", '") + name + "'";
      reject(at,
             fmt::format("torch.Tag.out requires the return annotation to match the mutable "
                         "keyword-only Tensor arguments ({}): {}",
                         names, out_aliases_.size() == 1 ? "torch.Tensor" : "a tuple of Tensors"));
      return;
    }
    append(text, aliased, at);
  }

  struct FirstPositional {
    std::string name;
    std::string type;  // before a mutation annotation
    size_t index = 0;
    SourcePosition position;
  };

  const PythonModule& module_;
  const std::vector<Token>& tokens_;
  HintReader reader_;
  const MutatesArgs& mutates_;
  const std::string& op_;
  const InferenceContext& context_;
  InferredSignature out_;
  bool failed_ = false;
  bool inplace_ = false;  // tagged torch.Tag.inplace, in a release where that shapes the schema
  bool out_tag_ = false;  // likewise torch.Tag.out
  bool out_argument_refused_ = false;  // a mutated argument torch.Tag.out does not take
  std::optional<FirstPositional> first_positional_;
  std::vector<size_t> out_aliases_;  // the indexes of the out arguments, in order
  std::vector<std::string> out_names_;
};

}  // namespace

InferredSignature infer_signature(const PythonModule& module, size_t def_token,
                                  const MutatesArgs& mutates, SourcePosition mutates_position,
                                  const std::string& op, const InferenceContext& context) {
  return Inference(module, mutates, op, context).run(def_token, mutates_position);
}

}  // namespace schemac::custom_op_inference
