#include "schemac/custom_op_inference/python_values.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace schemac::custom_op_inference {

using tokens::CallArgument, tokens::JoinedLiteral, tokens::SourcePosition, tokens::Token,
    tokens::TokenKind, tokens::TokenRange, tokens::TokenStream, tokens::call_arguments,
    tokens::is_identifier, tokens::is_punct, tokens::join_python_literal;

namespace {

using Status = StaticValue::Status;

constexpr int kMaxDepth = 16;  // constants naming constants, nested parentheses and signs

// torch.<name> for each dtype and alias, and what str() of it prints after "torch.".
constexpr auto kDtypes = std::to_array<std::pair<std::string_view, std::string_view>>({
    {"float32", "float32"},
    {"float", "float32"},
    {"float64", "float64"},
    {"double", "float64"},
    {"float16", "float16"},
    {"half", "float16"},
    {"bfloat16", "bfloat16"},
    {"int64", "int64"},
    {"long", "int64"},
    {"int32", "int32"},
    {"int", "int32"},
    {"int16", "int16"},
    {"short", "int16"},
    {"int8", "int8"},
    {"uint8", "uint8"},
    {"uint16", "uint16"},
    {"uint32", "uint32"},
    {"uint64", "uint64"},
    {"bool", "bool"},
    {"complex64", "complex64"},
    {"cfloat", "complex64"},
    {"complex128", "complex128"},
    {"cdouble", "complex128"},
    {"complex32", "complex32"},
    {"chalf", "complex32"},
    {"float8_e4m3fn", "float8_e4m3fn"},
    {"float8_e5m2", "float8_e5m2"},
    {"float8_e4m3fnuz", "float8_e4m3fnuz"},
    {"float8_e5m2fnuz", "float8_e5m2fnuz"},
    {"float8_e8m0fnu", "float8_e8m0fnu"},
    {"float4_e2m1fn_x2", "float4_e2m1fn_x2"},
    {"qint8", "qint8"},
    {"quint8", "quint8"},
    {"qint32", "qint32"},
});

StaticValue ok(std::string text) { return {Status::ok, std::move(text)}; }
StaticValue unsupported(std::string why) { return {Status::unsupported, std::move(why)}; }
StaticValue unknown(std::string why) { return {Status::unknown, std::move(why)}; }

std::string dotted_name(const std::vector<Token>& tokens, TokenRange range) {
  std::string out;
  for (size_t i = range.begin; i < range.end; ++i) {
    bool want_name = (i - range.begin) % 2 == 0;
    if (want_name ? tokens[i].kind != TokenKind::identifier : !is_punct(tokens[i], ".")) return "";
    out += tokens[i].text;
  }
  return out.empty() || out.back() == '.' ? "" : out;
}

// A number token with an optional sign in front, as str() prints it.
StaticValue number_text(const std::string& spelling, bool negative) {
  std::string digits;
  for (char c : spelling) {
    if (c != '_') digits += c;
  }
  if (digits.empty() || digits.back() == 'j' || digits.back() == 'J') {
    return unsupported("a complex number");
  }
  bool based = digits.size() > 2 && digits[0] == '0' &&
               std::string_view("xXoObB").find(digits[1]) != std::string_view::npos;
  bool is_float = !based && digits.find_first_of(".eE") != std::string::npos;
  if (is_float) {
    char* end = nullptr;
    double value = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size()) return unknown("'" + spelling + "' is not a number");
    return ok(python_float_text(negative ? -value : value));
  }
  int base = !based                                   ? 10
             : (digits[1] == 'x' || digits[1] == 'X') ? 16
             : (digits[1] == 'o' || digits[1] == 'O') ? 8
                                                      : 2;
  std::string_view body = based ? std::string_view(digits).substr(2) : std::string_view(digits);
  unsigned long long value = 0;
  auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value, base);
  if (error != std::errc() || end != body.data() + body.size()) {
    return unknown("'" + spelling + "' is too large to read here");
  }
  return ok((negative && value != 0 ? "-" : "") + std::to_string(value));
}

StaticValue value_of(const PythonModule& module, TokenRange range, int depth);

StaticValue named_value(const PythonModule& module, const std::string& name, int depth) {
  std::string root = name.substr(0, name.find('.'));
  auto imported = module.imports.find(root);
  std::string path =
      imported != module.imports.end() ? imported->second + name.substr(root.size()) : name;
  if (path == "None" || path == "True" || path == "False") return ok(path);
  if (path == "math.inf") return ok("inf");
  if (path == "math.nan") return ok("nan");
  if (path == "math.pi") return ok(python_float_text(3.141592653589793));
  if (path == "math.e") return ok(python_float_text(2.718281828459045));
  if (path.rfind("torch.", 0) == 0) {
    std::string_view member = std::string_view(path).substr(6);
    for (const auto& [alias, printed] : kDtypes) {
      if (member == alias) return ok(std::string(printed));
    }
  }
  if (imported == module.imports.end() && name.find('.') == std::string::npos) {
    auto constant = module.assignments.find(name);
    if (constant != module.assignments.end() && depth < kMaxDepth) {
      return value_of(module, constant->second, depth + 1);
    }
  }
  return unknown("the value of '" + name + "' is not known statically");
}

// float("inf"), torch.device("cuda", 0) and the like.
StaticValue call_value(const PythonModule& module, const std::string& callee, size_t open) {
  const TokenStream& stream = *module.stream;
  std::vector<CallArgument> arguments = call_arguments(stream.tokens, open, true);
  std::vector<std::string> texts;
  for (const CallArgument& argument : arguments) {
    std::string why;
    std::optional<JoinedLiteral> literal = join_python_literal(stream, argument.range, &why);
    if (literal) {
      texts.push_back(literal->text.text());
    } else if (argument.range.end == argument.range.begin + 1 &&
               stream.tokens[argument.range.begin].kind == TokenKind::other) {
      texts.emplace_back(stream.tokens[argument.range.begin].text);
    } else {
      return unknown("the arguments of '" + callee + "(...)' are not literals");
    }
  }
  std::string root = callee.substr(0, callee.find('.'));
  auto imported = module.imports.find(root);
  std::string path =
      imported != module.imports.end() ? imported->second + callee.substr(root.size()) : callee;
  if (path == "float" && texts.size() == 1) {
    std::string lower;
    for (char c : texts[0]) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "inf" || lower == "+inf" || lower == "infinity") return ok("inf");
    if (lower == "-inf" || lower == "-infinity") return ok("-inf");
    if (lower == "nan") return ok("nan");
  }
  if (path == "torch.device" && (texts.size() == 1 || texts.size() == 2)) {
    return ok("\"" + texts[0] + (texts.size() == 2 ? ":" + texts[1] : "") + "\"");
  }
  return unknown("the value of '" + callee + "(...)' is not known statically");
}

StaticValue value_of(const PythonModule& module, TokenRange range, int depth) {
  const TokenStream& stream = *module.stream;
  const std::vector<Token>& tokens = stream.tokens;
  if (range.empty()) return unknown("no value");
  if (depth > kMaxDepth) return unknown("the expression nests too deeply to read");
  const Token& first = tokens[range.begin];
  if (first.kind == TokenKind::string) {
    if (first.text.find_first_of("bB") != std::string::npos) return unsupported("bytes");
    std::string why;
    std::optional<JoinedLiteral> literal = join_python_literal(stream, range, &why);
    if (!literal) return unknown("the string is " + why);
    return ok("\"" + literal->text.text() + "\"");
  }
  bool negative = is_punct(first, "-");
  if ((negative || is_punct(first, "+")) && range.end - range.begin >= 2) {
    StaticValue rest = value_of(module, {range.begin + 1, range.end}, depth + 1);
    if (rest.status != Status::ok || !negative) return rest;
    if (rest.text == "True" || rest.text == "False" || rest.text.front() == '"') {
      return unknown("a negated non-number");
    }
    return ok(rest.text.front() == '-' ? rest.text.substr(1)
              : rest.text == "0"       ? "0"
                                       : "-" + rest.text);
  }
  if (range.end - range.begin == 1 && first.kind == TokenKind::other) {
    return number_text(std::string(first.text), false);
  }
  if (is_punct(first, "(") || is_punct(first, "[") || is_punct(first, "{")) {
    if (is_punct(first, "(") && tokens::matching_close(tokens, range.begin) == range.end - 1 &&
        range.end - range.begin > 2) {
      // parentheses around a value, unless a comma makes a tuple
      std::vector<CallArgument> parts = call_arguments(tokens, range.begin, false);
      bool trailing_comma = is_punct(tokens[range.end - 2], ",");
      if (parts.size() == 1 && !trailing_comma) return value_of(module, parts[0].range, depth + 1);
    }
    return unsupported("a tuple, list, set or dict");
  }
  if (is_punct(tokens[range.end - 1], ")")) {
    size_t open = tokens::matching_open(tokens, range.end - 1);
    std::string callee = open < tokens.size() ? dotted_name(tokens, {range.begin, open}) : "";
    if (!callee.empty()) return call_value(module, callee, open);
  }
  std::string name = dotted_name(tokens, range);
  if (!name.empty()) return named_value(module, name, depth);
  return unknown("the expression is not known statically");
}

std::optional<JoinedLiteral> string_of(const PythonModule& module, TokenRange range, int depth,
                                       std::string* why_not);

// `text`, every byte of it at `at`.
tokens::MappedText placed(const std::string& text, SourcePosition at) {
  tokens::MappedText out;
  for (char c : text) out.push_back(c, at);
  return out;
}

// The value of constant `name` (`X`, or `m.X` after `import a.b as m`), its bytes mapped to
// `at`: a module-level string constant of this file, or one of another module given with it
// that the file imports (PythonModule::imported_constant).
std::optional<tokens::MappedText> constant_string(const PythonModule& module,
                                                  const std::string& name, SourcePosition at,
                                                  int depth, std::string* why_not) {
  auto constant = module.assignments.find(name);
  if (constant != module.assignments.end() && depth < kMaxDepth) {
    std::optional<JoinedLiteral> value = string_of(module, constant->second, depth + 1, why_not);
    if (value) return placed(value->text.text(), at);
  }
  std::string path = resolved_path(module, name);
  size_t dot = path.rfind('.');
  bool imported = path != name || name.find('.') != std::string::npos;
  if (imported && dot != std::string::npos && dot > 0) {
    std::string from = path.substr(0, dot);
    if (module.imported_constant) {
      if (std::optional<std::string> value = module.imported_constant(from, path.substr(dot + 1)))
        return placed(*value, at);
    }
    *why_not = "'" + name + "' is imported from '" + from +
               "', which is not among the files given, or not a module-level string constant there";
    return std::nullopt;
  }
  *why_not = "'" + name + "' is not a module-level string constant of this file";
  return std::nullopt;
}

// An f-string's value with each `{NAME}` field replaced by the constant NAME. The lexer keeps a
// field's braces and text in the value, and a doubled `{{` as one brace whose next byte comes two
// columns later: that tells the two apart.
bool expand_fields(const PythonModule& module, const tokens::MappedText& value,
                   tokens::MappedText& out, int depth, std::string* why_not) {
  const std::string& text = value.text();
  for (size_t k = 0; k < text.size(); ++k) {
    SourcePosition here = value.position(k);
    SourcePosition next = value.position(k + 1);
    bool field = text[k] == '{' && k + 1 < text.size() && next.line == here.line &&
                 next.column == here.column + 1;
    if (!field) {
      out.push_back(text[k], here);
      continue;
    }
    size_t close = text.find('}', k + 1);
    std::string name = text.substr(k + 1, close == std::string::npos ? 0 : close - k - 1);
    bool plain = !name.empty() && name.front() != '.' && name.back() != '.' &&
                 std::all_of(name.begin(), name.end(), [](char c) {
                   return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
                 });
    if (!plain) {
      *why_not = "an f-string whose field '{" + name + "}' is not a constant's name";
      return false;
    }
    std::optional<tokens::MappedText> constant =
        constant_string(module, name, here, depth, why_not);
    if (!constant) return false;
    out.append(*constant);
    k = close;
  }
  return true;
}

// One operand of '+': adjacent literals (f-strings among them), or a constant's name.
std::optional<tokens::MappedText> string_operand(const PythonModule& module, TokenRange range,
                                                 int depth, std::string* why_not) {
  const std::vector<Token>& tokens = module.stream->tokens;
  while (range.end - range.begin > 2 && is_punct(tokens[range.begin], "(") &&
         tokens::matching_close(tokens, range.begin) == range.end - 1) {
    ++range.begin;
    --range.end;
  }
  if (range.end == range.begin + 1 && tokens[range.begin].kind == TokenKind::identifier) {
    return constant_string(module, std::string(tokens[range.begin].text),
                           tokens[range.begin].position, depth, why_not);
  }
  // `m.X`: a constant of a module imported as m.
  std::string dotted = dotted_name(tokens, range);
  if (dotted.find('.') != std::string::npos) {
    return constant_string(module, dotted, tokens[range.begin].position, depth, why_not);
  }
  tokens::MappedText out;
  for (size_t i = range.begin; i < range.end; ++i) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::string) {
      *why_not = "not a string literal or a module-level constant";
      return std::nullopt;
    }
    const tokens::StringLiteral& literal = module.stream->literals[t.literal];
    bool format = t.text.find_first_of("fF") != std::string::npos;
    if (t.text.find_first_of("bB") != std::string::npos) {
      *why_not = "bytes, not a string";
      return std::nullopt;
    }
    if (literal.is_static) {
      out.append(literal.value);
    } else if (!format || !expand_fields(module, literal.value, out, depth, why_not)) {
      if (!format) *why_not = "an incomplete literal";
      return std::nullopt;
    }
  }
  if (range.empty()) *why_not = "no value";
  return range.empty() ? std::nullopt : std::optional(out);
}

std::optional<JoinedLiteral> string_of(const PythonModule& module, TokenRange range, int depth,
                                       std::string* why_not) {
  std::string ignored;
  if (std::optional<JoinedLiteral> plain = join_python_literal(*module.stream, range, &ignored)) {
    return plain;
  }
  const std::vector<Token>& tokens = module.stream->tokens;
  while (range.end - range.begin > 2 && is_punct(tokens[range.begin], "(") &&
         tokens::matching_close(tokens, range.begin) == range.end - 1) {
    ++range.begin;
    --range.end;
  }
  JoinedLiteral out;
  out.position = range.empty() ? SourcePosition{} : tokens[range.begin].position;
  size_t start = range.begin;
  for (size_t i = range.begin; i <= range.end; ++i) {
    if (i < range.end && !is_punct(tokens[i], "+")) {
      size_t close = tokens::matching_close(tokens, i);
      if (close < range.end) i = close;
      continue;
    }
    std::optional<tokens::MappedText> part = string_operand(module, {start, i}, depth, why_not);
    if (!part) return std::nullopt;
    out.text.append(*part);
    start = i + 1;
  }
  return out;
}

}  // namespace

std::optional<JoinedLiteral> static_string(const PythonModule& module, TokenRange range,
                                           std::string* why_not) {
  return string_of(module, range, 0, why_not);
}

StaticValue default_value(const PythonModule& module, TokenRange range) {
  return value_of(module, range, 0);
}

MutatesArgs read_mutates_args(const PythonModule& module, TokenRange range) {
  const TokenStream& stream = *module.stream;
  const std::vector<Token>& tokens = stream.tokens;
  MutatesArgs out;
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    if (range.empty()) break;
    const Token& first = tokens[range.begin];
    if (first.kind == TokenKind::string) {
      std::string why;
      std::optional<JoinedLiteral> literal = join_python_literal(stream, range, &why);
      if (!literal) break;
      out.status = literal->text.text() == "unknown" ? MutatesArgs::Status::all
                                                     : MutatesArgs::Status::invalid;
      out.why = "mutates_args is the string '" + literal->text.text() +
                "': it must be a sequence of argument names or the string 'unknown'";
      return out;
    }
    std::string name = dotted_name(tokens, range);
    if (range.end - range.begin == 3 && tokens[range.begin].kind == TokenKind::identifier &&
        is_punct(tokens[range.begin + 1], "(") && is_punct(tokens[range.begin + 2], ")")) {
      return out;  // set(), tuple(), list(): nothing mutated
    }
    if (!name.empty() && name.find('.') == std::string::npos) {
      auto constant = module.assignments.find(name);
      if (constant == module.assignments.end()) {
        out.status = MutatesArgs::Status::unknown;
        out.why = "mutates_args is '" + name + "', whose value is not known statically";
        return out;
      }
      range = constant->second;
      continue;
    }
    bool bracket = is_punct(first, "(") || is_punct(first, "[") || is_punct(first, "{");
    if (!bracket || tokens::matching_close(tokens, range.begin) != range.end - 1) break;
    for (const CallArgument& element : call_arguments(tokens, range.begin, false)) {
      std::string why;
      std::optional<JoinedLiteral> literal = join_python_literal(stream, element.range, &why);
      if (!literal) {
        out.status = MutatesArgs::Status::unknown;
        out.why = "an element of mutates_args is not a literal string";
        return out;
      }
      out.names.push_back(literal->text.text());
      out.positions.push_back(literal->position);
    }
    return out;
  }
  out.status = MutatesArgs::Status::unknown;
  out.why = "mutates_args is not known statically";
  return out;
}

CustomOpTags read_custom_op_tags(const PythonModule& module, TokenRange range) {
  const std::vector<Token>& tokens = module.stream->tokens;
  CustomOpTags out;
  if (range.empty()) return out;
  out.position = tokens[range.begin].position;
  // One tag: torch.Tag.NAME (or torch._C.Tag.NAME) through the file's imports and aliases.
  auto tag = [&](TokenRange element) -> bool {
    const std::string name = dotted_name(tokens, element);
    const std::string path = name.empty() ? "" : resolved_path(module, name);
    for (std::string_view prefix : {"torch.Tag.", "torch._C.Tag."}) {
      if (path.size() > prefix.size() && path.starts_with(prefix)) {
        out.names.push_back(path.substr(prefix.size()));
        return true;
      }
    }
    return false;
  };
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    const Token& first = tokens[range.begin];
    if (range.end == range.begin + 1 && is_identifier(first, "None")) return out;
    if (tag(range)) return out;
    const std::string name = dotted_name(tokens, range);
    if (!name.empty() && name.find('.') == std::string::npos) {
      auto constant = module.assignments.find(name);
      if (constant == module.assignments.end()) break;
      range = constant->second;
      continue;
    }
    const bool bracket = is_punct(first, "(") || is_punct(first, "[");
    if (!bracket || tokens::matching_close(tokens, range.begin) != range.end - 1) break;
    for (const CallArgument& element : call_arguments(tokens, range.begin, false)) {
      if (!tag(element.range)) {
        out.names.clear();
        out.known = false;
        out.why = "an element of tags is not a torch.Tag";
        return out;
      }
    }
    return out;
  }
  out.known = false;
  out.why = "tags is not known statically";
  return out;
}

std::string python_float_text(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (std::isnan(value)) return "nan";
  std::array<char, 64> buffer{};
  auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                    std::chars_format::scientific);
  std::string text(buffer.data(), error == std::errc() ? end : buffer.data());
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.erase(0, 1);
  size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits += c;
  }
  int decimal_point = std::atoi(text.c_str() + e + 1) + 1;  // value = 0.DIGITS x 10^decimal_point
  std::string out;
  if (decimal_point > -4 && decimal_point <= 16) {
    auto point = static_cast<size_t>(std::max(decimal_point, 0));
    if (decimal_point <= 0) {
      out = "0." + std::string(static_cast<size_t>(-decimal_point), '0') + digits;
    } else if (point >= digits.size()) {
      out = digits + std::string(point - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, point) + "." + digits.substr(point);
    }
  } else {
    out = digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "");
    int exponent = decimal_point - 1;
    std::string magnitude = std::to_string(std::abs(exponent));
    out += (exponent < 0 ? "e-" : "e+") + std::string(magnitude.size() < 2 ? "0" : "") + magnitude;
  }
  return (negative ? "-" : "") + out;
}

}  // namespace schemac::custom_op_inference
