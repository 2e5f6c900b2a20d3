// Reading one entry of a native-functions file into a NativeFunction, checking the shape of every
// field (entry_reader.h).
#include "entry_reader.h"

#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

#include "field_syntax.h"
#include "schemac/keys/dispatch_key_names.h"
#include "schemac/native_functions/retired.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/check.h"
#include "schemac/schema/parser.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::native_functions {

using diagnostics::Diagnostic, diagnostics::FixHint, diagnostics::Location, diagnostics::Note,
    diagnostics::Severity, schema::SchemaError, schema::parse_schema_syntax, support::did_you_mean;
using yaml::node_location, yaml::scalar_position, yaml::ScalarStyle, yaml::YamlDocument,
    yaml::YamlEntry, yaml::YamlNode;

namespace {

constexpr auto kUfuncKeys = std::to_array<std::string_view>({
    "Generic",
    "ScalarOnly",
    "CUDAFunctor",
    "CUDAFunctorOnOther",
    "CUDAFunctorOnSelf",
    "CPUScalar",
    "CPUVector",
});

// Reads one file's entries; collects diagnostics as it goes.
class EntryReader {
 public:
  EntryReader(const YamlDocument& document, std::vector<Diagnostic>& diagnostics)
      : doc_(document), diagnostics_(diagnostics) {}

  NativeFunction read(const YamlNode& node) {
    NativeFunction f;
    f.node = &node;
    f.location = node.entries.empty() ? node_location(doc_, node)
                                      : node_location(doc_, node.entries.front().key);
    for (const auto& [key, value] : node.entries) {
      if (!key.is_scalar()) {
        error(rules::field_type, node_location(doc_, key), "a field name must be a plain word");
        continue;
      }
      read_field(f, key, value);
    }
    if (!node.find("func")) {
      error(rules::missing_func, f.location, "entry has no 'func' field");
    }
    return f;
  }

 private:
  Diagnostic& error(std::string_view rule, Location location, std::string message) {
    diagnostics_.push_back(Diagnostic{
        Severity::error, std::string(rule), std::move(location), std::move(message), {}, {}});
    return diagnostics_.back();
  }

  LocatedName located(const YamlNode& node) {
    return LocatedName{node.value, node_location(doc_, node)};
  }

  // The location of value[begin, begin + length) inside a scalar.
  Location inside(const YamlNode& node, size_t begin, size_t length) {
    auto [line, column] = scalar_position(doc_, node, begin);
    return Location::at(doc_.file, line, column,
                        static_cast<uint32_t>(std::max<size_t>(length, 1)));
  }

  // Splits a scalar at `separator`, giving each trimmed piece with its location. Empty pieces
  // are returned too (as empty names) so callers can report them.
  std::vector<LocatedName> split(const YamlNode& node, char separator) {
    std::vector<LocatedName> pieces;
    std::string_view text = node.value;
    size_t begin = 0;
    while (begin <= text.size()) {
      size_t end = text.find(separator, begin);
      if (end == std::string_view::npos) end = text.size();
      std::string_view raw = text.substr(begin, end - begin);
      std::string_view piece = trim(raw);
      size_t start = begin + (piece.empty() ? 0 : static_cast<size_t>(piece.data() - raw.data()));
      pieces.push_back(LocatedName{std::string(piece), inside(node, start, piece.size())});
      begin = end + 1;
    }
    return pieces;
  }

  bool expect_scalar(const YamlNode& key, const YamlNode& value, std::string_view what) {
    if (value.is_scalar()) return true;
    error(rules::field_type, node_location(doc_, value.is_null() ? key : value),
          fmt::format("'{}' must be {}, not {}", key.value, what, kind_name(value)));
    return false;
  }

  std::optional<bool> read_bool(const YamlNode& key, const YamlNode& value) {
    if (!expect_scalar(key, value, "True or False")) return std::nullopt;
    const std::string& v = value.value;
    if (value.style == ScalarStyle::plain && !value.tagged) {
      if (std::optional<bool> b = yaml11_bool(v)) return b;
    }
    error(rules::field_type, node_location(doc_, value),
          fmt::format("'{}' must be True or False, not '{}'", key.value, v));
    return std::nullopt;
  }

  std::optional<LocatedName> read_string(const YamlNode& key, const YamlNode& value) {
    if (!expect_scalar(key, value, "a string")) return std::nullopt;
    if (value.value.empty()) {
      error(rules::field_type, node_location(doc_, value), fmt::format("'{}' is empty", key.value));
      return std::nullopt;
    }
    return located(value);
  }

  std::optional<LocatedName> read_operator_name(const YamlNode& key, const YamlNode& value) {
    auto name = read_string(key, value);
    if (name && !is_operator_name(name->name)) {
      error(
          rules::invalid_operator_name, name->location,
          fmt::format("'{}' is not an operator name (expected name or name.overload)", name->name));
      return std::nullopt;
    }
    return name;
  }

  // A flow or block list of strings, or (for tags) a single string.
  std::vector<LocatedName> read_string_list(const YamlNode& key, const YamlNode& value,
                                            bool allow_single) {
    std::vector<LocatedName> names;
    if (allow_single && value.is_scalar()) {
      names.push_back(located(value));
      return names;
    }
    if (!value.is_sequence()) {
      error(rules::field_type, node_location(doc_, value.is_null() ? key : value),
            fmt::format("'{}' must be a list{}, not {}", key.value,
                        allow_single ? " or a single name" : "", kind_name(value)));
      return names;
    }
    for (const YamlNode& item : value.items) {
      if (!item.is_scalar() || item.value.empty()) {
        error(rules::field_type, node_location(doc_, item),
              fmt::format("each item of '{}' must be a name, not {}", key.value, kind_name(item)));
        continue;
      }
      names.push_back(located(item));
    }
    return names;
  }

  void read_func(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    if (!expect_scalar(key, value, "a schema string")) return;
    f.func = value.value;
    f.func_node = &value;
    schema::ParseResult parsed = parse_schema_syntax(f.func);
    if (!parsed.ok()) {
      if (parsed.error) schema_error(value, *parsed.error);
      return;
    }
    // Warnings (what PyTorch takes but is questionable) keep the schema; errors drop it.
    std::vector<SchemaError> problems = schema::check_schema(*parsed.schema);
    bool has_error = false;
    for (const SchemaError& e : problems) {
      schema_error(value, e);
      has_error = has_error || e.severity == schema::SchemaSeverity::Error;
    }
    if (!has_error) f.schema = std::move(parsed.schema);
  }

  void schema_error(const YamlNode& value, const SchemaError& e) {
    size_t offset = std::min<size_t>(e.offset, value.value.size());
    auto [line, column] = scalar_position(doc_, value, offset);
    auto [end_line, end_column] =
        scalar_position(doc_, value, offset + std::max<uint32_t>(e.length, 1));
    Location loc{doc_.file, line, column, end_line, end_column};
    if (end_line != line || end_column <= column) loc = Location::at(doc_.file, line, column);
    std::string_view written = std::string_view(value.value).substr(offset, e.length);
    if (e.rule == rules::unknown_type && find_retired_type(written)) {
      const RetiredName* retired = find_retired_type(written);
      Diagnostic& d = error(rules::retired_field, loc,
                            fmt::format("schema type '{}' was retired in PyTorch {}; write {}",
                                        written, retired->release, retired->instead));
      d.fix = retired_type_fix(value, *retired, offset + e.length, std::move(loc));
      return;
    }
    Diagnostic& d =
        error(e.rule.empty() ? rules::schema_syntax : e.rule, std::move(loc), e.message);
    if (e.severity == schema::SchemaSeverity::Warning) d.severity = Severity::warning;
  }

  // The replacement of a retired schema type ending at `end` in the func value: the type now
  // written (IntList followed by a size is int), unsafe when the new form is more than a type.
  FixHint retired_type_fix(const YamlNode& value, const RetiredName& retired, size_t end,
                           Location loc) const {
    std::string_view instead = retired.instead;
    if (retired.name == "IntList")
      instead = end < value.value.size() && value.value[end] == '[' ? "int" : "int[]";
    std::string reason;
    if (instead.find(' ') != std::string_view::npos) {
      reason = "the replacement is more than a type name; rewrite the arguments by hand";
    } else if (loc.end_line != loc.line || loc.end_column <= loc.column) {
      reason = "the type's place in the file is not exact";
    }
    return FixHint{std::move(loc), std::string(instead), std::move(reason)};
  }

  // A fix that deletes the line of `key: value` with its line break, when nothing else stands on
  // that line and the value ends on it; unsafe otherwise.
  FixHint delete_line_fix(const YamlNode& key) const {
    const uint32_t line = key.line;
    const std::string_view text = doc_.text;
    Location whole{doc_.file, line, 1, line + 1, 1};
    if (line == 0 || line > doc_.line_starts.size())
      return FixHint{node_location(doc_, key), "", "no line to delete"};
    const size_t start = doc_.line_starts[line - 1];
    const size_t next = line < doc_.line_starts.size() ? doc_.line_starts[line] : text.size();
    const std::string_view before_key = text.substr(start, key.offset - start);
    if (before_key.find_first_not_of(' ') != std::string_view::npos) {
      return FixHint{whole, "",
                     "the key shares its line with other YAML (an entry's '- ' or a flow mapping)"};
    }
    // The value must end on this line: the next line that is not blank or a comment is indented
    // no deeper than the key.
    for (size_t at = next; at < text.size();) {
      size_t end = text.find('\n', at);
      std::string_view l =
          text.substr(at, (end == std::string_view::npos ? text.size() : end) - at);
      size_t indent = l.find_first_not_of(' ');
      if (indent != std::string_view::npos && l[indent] != '#' && l[indent] != '\r') {
        if (indent > before_key.size())
          return FixHint{whole, "", "the value goes on past the key's line"};
        break;
      }
      if (end == std::string_view::npos) break;
      at = end + 1;
    }
    if (next == text.size() && (text.empty() || text.back() != '\n')) {
      whole.end_line = line;
      whole.end_column = static_cast<uint32_t>(next - start + 1);
    }
    return FixHint{whole, ""};
  }

  // torchgen splits variants and autogen at ", " exactly (a comma and one space), so
  // 'function,method' is one unknown word to it. Reports a list written any other way.
  void check_separator(const YamlNode& key, const YamlNode& value,
                       const std::vector<LocatedName>& pieces) {
    std::string canonical;
    for (const LocatedName& piece : pieces) {
      if (!canonical.empty()) canonical += ", ";
      canonical += piece.name;
    }
    if (canonical == value.value || value.value.find(',') == std::string::npos) return;
    for (const LocatedName& piece : pieces)
      if (piece.name.empty()) return;  // an empty item is reported on its own
    Diagnostic& d = error(
        rules::list_separator, node_location(doc_, value),
        fmt::format("torchgen splits '{}' at ', ' (a comma and one space) and would read '{}' "
                    "as unknown words; write '{}'",
                    key.value, value.value, canonical));
    d.fix = FixHint{node_location(doc_, value), canonical};
  }

  void read_variants(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    if (!expect_scalar(key, value, "'function', 'method' or 'function, method'")) return;
    f.function_variant = false;
    const std::vector<LocatedName> variants = split(value, ',');
    check_separator(key, value, variants);
    for (const LocatedName& v : variants) {
      if (v.name == "function") {
        f.function_variant = true;
      } else if (v.name == "method") {
        f.method_variant = true;
      } else {
        static constexpr auto kVariants = std::to_array<std::string_view>({"function", "method"});
        Diagnostic& d = error(rules::invalid_variants, v.location,
                              v.name.empty() ? std::string("empty variant in 'variants'")
                                             : fmt::format("unknown variant '{}'", v.name));
        d.notes.push_back(Note{{}, "variants are 'function' and 'method'"});
        if (auto guess = did_you_mean(v.name, kVariants)) {
          d.notes.back().message = fmt::format("did you mean '{}'?", *guess);
          d.fix = FixHint{v.location, *guess};
        }
      }
    }
  }

  void read_dispatch(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    if (value.is_null()) return;  // `dispatch:` with nothing: torchgen reads None, as if absent
    if (!value.is_mapping()) {
      error(rules::field_type, node_location(doc_, value.is_null() ? key : value),
            fmt::format("'dispatch' must be a mapping of dispatch keys to kernel names, not {}",
                        kind_name(value)));
      return;
    }
    f.has_dispatch = true;
    for (const auto& [keys, kernel] : value.entries) {
      if (!keys.is_scalar()) {
        error(rules::field_type, node_location(doc_, keys), "a dispatch key must be a name");
        continue;
      }
      if (!kernel.is_scalar() || kernel.value.empty()) {
        error(rules::field_type, node_location(doc_, kernel.is_null() ? keys : kernel),
              fmt::format("dispatch key '{}' needs a kernel name", keys.value));
        continue;
      }
      LocatedName kernel_name = located(kernel);
      if (!is_kernel_name(kernel.value)) {
        error(rules::invalid_kernel_name, kernel_name.location,
              fmt::format("'{}' is not a C++ function name (at most three namespaces)",
                          kernel.value));
      }
      for (LocatedName& k : split(keys, ',')) {
        if (!check_dispatch_key(k)) continue;
        f.dispatch.push_back(DispatchEntry{std::move(k), kernel_name, keys.value});
      }
    }
  }

  bool check_dispatch_key(const LocatedName& k) {
    if (k.name.empty()) {
      error(rules::unknown_dispatch_key, k.location, "empty dispatch key name");
      return false;
    }
    if (keys::find_dispatch_key(k.name)) return true;
    if (const RetiredName* retired = find_retired_dispatch_key(k.name)) {
      Diagnostic& d =
          error(rules::retired_field, k.location,
                fmt::format("dispatch key '{}' was retired in PyTorch {}; it is now '{}'", k.name,
                            retired->release, retired->instead));
      d.fix = FixHint{k.location, std::string(retired->instead)};
      return false;
    }
    Diagnostic& d = error(rules::unknown_dispatch_key, k.location,
                          fmt::format("unknown dispatch key '{}'", k.name));
    static const std::vector<std::string_view> names = [] {
      std::vector<std::string_view> all;
      for (const keys::DispatchKeyName& key : keys::dispatch_key_names()) all.push_back(key.name);
      return all;
    }();
    if (auto guess = did_you_mean(k.name, names)) {
      d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
      d.fix = FixHint{k.location, *guess};
    }
    return false;
  }

  void read_precomputed(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    f.has_precomputed = true;
    for (const LocatedName& line : read_string_list(key, value, false)) {
      size_t arrow = line.name.find("->");
      if (arrow == std::string::npos) continue;  // `add:` lines and the like name no argument
      std::string_view argument = trim(std::string_view(line.name).substr(0, arrow));
      f.precomputed_arguments.push_back(LocatedName{std::string(argument), line.location});
    }
  }

  void read_ufunc_inner_loop(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    f.has_ufunc_inner_loop = true;
    if (value.is_scalar()) return;  // one loop for the Generic key
    if (!value.is_mapping()) {
      error(rules::field_type, node_location(doc_, value.is_null() ? key : value),
            fmt::format("'ufunc_inner_loop' must be a string or a mapping, not {}",
                        kind_name(value)));
      return;
    }
    for (const auto& [k, v] : value.entries) {
      if (!k.is_scalar() ||
          std::find(kUfuncKeys.begin(), kUfuncKeys.end(), k.value) == kUfuncKeys.end()) {
        Diagnostic& d = error(rules::field_type, node_location(doc_, k),
                              fmt::format("unknown ufunc key '{}'", k.value));
        if (auto guess = did_you_mean(k.value, kUfuncKeys)) {
          d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
        }
      }
      if (!v.is_scalar()) {
        error(rules::field_type, node_location(doc_, v.is_null() ? k : v),
              fmt::format("ufunc key '{}' needs a loop description", k.value));
      }
    }
  }

  void read_autogen(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    if (!expect_scalar(key, value, "a comma-separated list of operator names")) return;
    std::vector<LocatedName> names = split(value, ',');
    check_separator(key, value, names);
    for (LocatedName& name : names) {
      if (!is_operator_name(name.name)) {
        error(rules::invalid_operator_name, name.location,
              fmt::format("'{}' is not an operator name (expected name or name.overload)",
                          name.name));
        continue;
      }
      f.autogen.push_back(std::move(name));
    }
  }

  void read_device_check(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    if (!expect_scalar(key, value, "NoCheck or ExactSame")) return;
    if (value.value == "NoCheck" || value.value == "ExactSame") {
      f.device_check = located(value);
      return;
    }
    static constexpr auto kChecks = std::to_array<std::string_view>({"NoCheck", "ExactSame"});
    Diagnostic& d = error(
        rules::invalid_device_check, node_location(doc_, value),
        fmt::format("unknown device_check '{}' (expected NoCheck or ExactSame)", value.value));
    if (auto guess = did_you_mean(value.value, kChecks)) {
      d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
      d.fix = FixHint{node_location(doc_, value), *guess};
    }
  }

  void unknown_field(const YamlNode& key) {
    if (const RetiredName* retired = find_retired_field(key.value)) {
      Diagnostic& d = error(rules::retired_field, node_location(doc_, key),
                            fmt::format("field '{}' was retired in PyTorch {}; instead: {}",
                                        key.value, retired->release, retired->instead));
      if (retired->instead.ends_with("delete the line")) d.fix = delete_line_fix(key);
      return;
    }
    Diagnostic& d = error(rules::unknown_field, node_location(doc_, key),
                          fmt::format("unknown field '{}'", key.value));
    if (auto guess = did_you_mean(key.value, field_names())) {
      d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
      d.fix = FixHint{node_location(doc_, key), *guess};
    }
  }

  // The fields whose value is one string, True/False, or a list of strings (or, with
  // allow_single, one string).
  template <std::optional<LocatedName> NativeFunction::*field>
  void read_text(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    f.*field = read_string(key, value);
  }
  template <bool NativeFunction::*field>
  void read_flag(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    if (auto b = read_bool(key, value)) f.*field = *b;
  }
  template <std::vector<LocatedName> NativeFunction::*field, bool allow_single>
  void read_list(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    f.*field = read_string_list(key, value, allow_single);
  }
  void read_structured_delegate(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    f.structured_delegate = read_operator_name(key, value);
  }

  // Each field an entry may have, and how it is read.
  struct Field {
    std::string_view name;
    void (EntryReader::*read)(NativeFunction& f, const YamlNode& key, const YamlNode& value);
  };
  static constexpr auto fields() {
    return std::to_array<Field>({
        {"func", &EntryReader::read_func},
        {"variants", &EntryReader::read_variants},
        {"dispatch", &EntryReader::read_dispatch},
        {"structured", &EntryReader::read_flag<&NativeFunction::structured>},
        {"structured_delegate", &EntryReader::read_structured_delegate},
        {"structured_inherits", &EntryReader::read_text<&NativeFunction::structured_inherits>},
        {"precomputed", &EntryReader::read_precomputed},
        {"ufunc_inner_loop", &EntryReader::read_ufunc_inner_loop},
        {"autogen", &EntryReader::read_autogen},
        {"tags", &EntryReader::read_list<&NativeFunction::tags, true>},
        {"device_check", &EntryReader::read_device_check},
        {"device_guard", &EntryReader::read_flag<&NativeFunction::device_guard>},
        {"manual_kernel_registration",
         &EntryReader::read_flag<&NativeFunction::manual_kernel_registration>},
        {"manual_cpp_binding", &EntryReader::read_flag<&NativeFunction::manual_cpp_binding>},
        {"use_const_ref_for_mutable_tensors",
         &EntryReader::read_flag<&NativeFunction::use_const_ref_for_mutable_tensors>},
        {"python_module", &EntryReader::read_text<&NativeFunction::python_module>},
        {"category_override", &EntryReader::read_text<&NativeFunction::category_override>},
        {"cpp_no_default_args",
         &EntryReader::read_list<&NativeFunction::cpp_no_default_args, false>},
    });
  }

 public:
  // The names of the fields an entry may have, in the order torchgen's documentation lists them.
  static std::span<const std::string_view> field_names() {
    static constexpr auto kNames = [] {
      constexpr auto table = fields();
      std::array<std::string_view, table.size()> names{};
      for (size_t i = 0; i < table.size(); ++i) names[i] = table[i].name;
      return names;
    }();
    return kNames;
  }

 private:
  void read_field(NativeFunction& f, const YamlNode& key, const YamlNode& value) {
    static constexpr auto kFields = fields();
    for (const Field& field : kFields) {
      if (key.value == field.name) return (this->*field.read)(f, key, value);
    }
    unknown_field(key);
  }

  const YamlDocument& doc_;
  std::vector<Diagnostic>& diagnostics_;
};

}  // namespace

NativeFunction read_entry(const YamlDocument& document, const YamlNode& entry,
                          std::vector<Diagnostic>& diagnostics) {
  return EntryReader(document, diagnostics).read(entry);
}

std::span<const std::string_view> entry_field_names() { return EntryReader::field_names(); }

}  // namespace schemac::native_functions
