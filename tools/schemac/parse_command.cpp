// `schemac parse [--json] [SCHEMA...]`: parses each SCHEMA, or each non-blank line of stdin, and
// prints its canonical form (text) or one JSON object per input (--json). Errors name the column
// and what was expected; in text mode they go to stderr with the line and a caret under the
// problem. Exit 0 when every input parsed, 1 otherwise.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

namespace schemac::cli {
namespace {

using schema::Argument;
using schema::FunctionSchema;
using schema::ParseResult;
using schema::SchemaError;

struct ParseOptions {
  bool json = false;
  std::vector<std::string> schemas;  // empty: read stdin
};

// One schema to parse and where it came from, for messages: "<stdin>:3" or "<argument 1>:1".
struct Input {
  std::string origin;
  uint32_t line = 1;
  std::string text;
};

// A JSON string literal. Bytes that are not valid UTF-8 become U+FFFD so the output stays JSON.
std::string json_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x20 || c == 0x7f) {
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default: out += fmt::format("\\u{:04x}", c); break;
      }
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else {
      // A multi-byte sequence: copy it when well-formed (shortest form, no surrogates).
      size_t length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
      bool valid = length != 0 && c >= 0xc2 && c <= 0xf4 && i + length <= text.size();
      uint32_t code = valid ? (c & (0xff >> (length + 1))) : 0;
      for (size_t k = 1; valid && k < length; ++k) {
        auto next = static_cast<unsigned char>(text[i + k]);
        valid = (next & 0xc0) == 0x80;
        code = (code << 6) | (next & 0x3f);
      }
      valid = valid && !(length == 3 && code < 0x800) && !(length == 4 && code < 0x10000) &&
              code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      if (valid) {
        out.append(text.substr(i, length));
        i += length;
      } else {
        out += "\\ufffd";
        ++i;
      }
    }
  }
  out += '"';
  return out;
}

std::string json_alias(const schema::Type& type) {
  const schema::AliasInfo* alias = type.any_alias();
  if (!alias) return "null";
  auto set = [](std::span<const std::string_view> names) {
    std::string out = "[";
    for (size_t i = 0; i < names.size(); ++i) {
      if (i) out += ',';
      out += json_string(names[i]);
    }
    return out + "]";
  };
  return fmt::format(R"({{"before":{},"after":{},"write":{}}})", set(alias->before),
                     set(alias->after), alias->is_write);
}

std::string json_argument(const Argument& argument) {
  std::string default_text =
      argument.default_value ? json_string(argument.default_value->text) : "null";
  return fmt::format(R"({{"name":{},"type":{},"default":{},"kwarg_only":{},"alias":{}}})",
                     json_string(argument.name), json_string(schema::print_type(argument.type)),
                     default_text, argument.kwarg_only, json_alias(argument.type));
}

std::string json_arguments(const std::vector<Argument>& arguments) {
  std::string out = "[";
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i) out += ',';
    out += json_argument(arguments[i]);
  }
  return out + "]";
}

std::string json_result(const ParseResult& result) {
  if (!result.ok()) {
    const SchemaError& error = *result.error;
    return fmt::format(R"({{"ok":false,"error":{},"column":{},"rule":{}}})",
                       json_string(error.message), error.offset + 1, json_string(error.rule));
  }
  const FunctionSchema& s = *result.schema;
  return fmt::format(
      R"({{"ok":true,"canonical":{},"schema":{{"name":{},"overload":{},"arguments":{},)"
      R"("returns":{},"is_vararg":{},"is_varret":{}}}}})",
      json_string(schema::print_schema(s)), json_string(s.op.name), json_string(s.op.overload),
      json_arguments(s.arguments), json_arguments(s.returns), s.is_vararg, s.is_varret);
}

// "<stdin>:3:12: error: message [rule]", the line, and a caret line under the problem.
void print_error(const Input& input, const SchemaError& error) {
  std::string caret(error.offset, ' ');
  for (size_t i = 0; i < error.offset && i < input.text.size(); ++i) {
    if (input.text[i] == '\t') caret[i] = '\t';  // keep the caret under the character
  }
  caret += '^';
  uint32_t end = std::min<uint32_t>(error.offset + error.length,
                                    static_cast<uint32_t>(input.text.size()));
  if (end > error.offset + 1) caret.append(end - error.offset - 1, '~');
  fmt::print(stderr, "{}:{}:{}: error: {} [{}]\n{}\n{}\n", input.origin, input.line,
             error.offset + 1, error.message, error.rule, input.text, caret);
}

std::vector<Input> collect_inputs(const ParseOptions& options) {
  std::vector<Input> inputs;
  if (!options.schemas.empty()) {
    for (size_t i = 0; i < options.schemas.size(); ++i) {
      inputs.push_back({fmt::format("<argument {}>", i + 1), 1, options.schemas[i]});
    }
    return inputs;
  }
  uint32_t line_number = 0;
  for (std::string line; std::getline(std::cin, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t\r\n\v\f") == std::string::npos) continue;
    inputs.push_back({"<stdin>", line_number, std::move(line)});
  }
  return inputs;
}

int run_parse(const ParseOptions& options) {
  bool all_ok = true;
  std::string out;
  for (const Input& input : collect_inputs(options)) {
    ParseResult result = schema::parse_schema(input.text);
    all_ok = all_ok && result.ok();
    if (options.json) {
      out += json_result(result);
      out += '\n';
    } else if (result.ok()) {
      out += schema::print_schema(*result.schema);
      out += '\n';
    } else {
      std::fwrite(out.data(), 1, out.size(), stdout);  // keep stdout and stderr in input order
      std::fflush(stdout);
      out.clear();
      print_error(input, *result.error);
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return all_ok ? 0 : 1;
}

}  // namespace

void add_parse_command(CLI::App& app) {
  auto options = std::make_shared<ParseOptions>();
  CLI::App* command = app.add_subcommand(
      "parse", "Parse function schemas and print their canonical form (or JSON)");
  command->add_flag("--json", options->json,
                    "Print one JSON object per input: the canonical text and the parsed schema");
  command->add_option("SCHEMA", options->schemas,
                      "Schemas to parse; without any, each non-blank line of stdin is one schema");
  command->footer(
      "Examples:\n"
      "  schemac parse 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor'\n"
      "  grep -h '^- func:' native_functions.yaml | cut -c9- | schemac parse --json\n"
      "Exit codes: 0 every schema parsed, 1 some schema has an error, 2 usage error.");
  command->callback([options] { exit_code() = run_parse(*options); });
}

}  // namespace schemac::cli
