// Parsing trace value specs and schema defaults into IValues (value_spec.h).
#include "schemac/value_specs/value_spec.h"
#include "schemac/support/text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <vector>

#include "schemac/core/device.h"
#include "schemac/core/scalar_type.h"
#include "schemac/core/tensor.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/schema/printer.h"

namespace schemac::value_specs {
namespace {

using core::IValue;

ValueSpecResult fail(std::string message) { return {std::nullopt, std::move(message)}; }
ValueSpecResult ok(IValue value) { return {std::move(value), {}}; }

using support::trim_blanks;

std::optional<int64_t> parse_int(std::string_view s) {
  s = trim_blanks(s);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view s) {
  s = trim_blanks(s);
  if (s.empty()) return std::nullopt;
  const std::string text(s);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// "[2,3]" -> {2, 3}; "[]" -> {}.
std::optional<std::vector<int64_t>> parse_int_list(std::string_view s) {
  s = trim_blanks(s);
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::nullopt;
  s = trim_blanks(s.substr(1, s.size() - 2));
  std::vector<int64_t> out;
  while (!s.empty()) {
    const size_t comma = s.find(',');
    const auto item = parse_int(s.substr(0, comma));
    if (!item) return std::nullopt;
    out.push_back(*item);
    if (comma == std::string_view::npos) break;
    s = s.substr(comma + 1);
  }
  return out;
}

template <class T>
void fill_counting(const core::Tensor& t) {
  T* data = static_cast<T*>(t.data_ptr());
  for (int64_t i = 0, n = t.numel(); i < n; ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      data[i] = (i % 2) == 0;
    } else if constexpr (std::is_same_v<T, core::Half> || std::is_same_v<T, core::BFloat16>) {
      data[i] = T(static_cast<float>(i + 1));
    } else {
      data[i] = static_cast<T>(i + 1);
    }
  }
}

void fill_counting(const core::Tensor& t) {
  using core::ScalarType;
  switch (t.dtype()) {
    case ScalarType::Float: return fill_counting<float>(t);
    case ScalarType::Double: return fill_counting<double>(t);
    case ScalarType::Half: return fill_counting<core::Half>(t);
    case ScalarType::BFloat16: return fill_counting<core::BFloat16>(t);
    case ScalarType::Int: return fill_counting<int32_t>(t);
    case ScalarType::Long: return fill_counting<int64_t>(t);
    case ScalarType::Bool: return fill_counting<bool>(t);
  }
}

constexpr int64_t kMaxSpecElements = int64_t{1} << 24;

// "cpu:float32[2,3]", "cuda:0:float16[4]".
ValueSpecResult parse_tensor_spec(std::string_view spec) {
  const size_t bracket = spec.find('[');
  const size_t last_colon = spec.substr(0, bracket).rfind(':');
  if (bracket == std::string_view::npos || last_colon == std::string_view::npos)
    return fail(fmt::format("tensor spec '{}' must look like 'cpu:float32[2,3]'", spec));
  const std::string_view device_text = spec.substr(0, last_colon);
  const std::string_view dtype_text = spec.substr(last_colon + 1, bracket - last_colon - 1);
  const auto device = core::Device::parse(device_text);
  if (!device)
    return fail(fmt::format("unknown device '{}' in tensor spec '{}'; expected cpu or cuda[:N]",
                            device_text, spec));
  const auto dtype = core::parse_scalar_type(dtype_text);
  if (!dtype)
    return fail(fmt::format(
        "unknown element type '{}' in tensor spec '{}'; expected float32, float64, float16, "
        "bfloat16, int32, int64 or bool",
        dtype_text, spec));
  const auto sizes = parse_int_list(spec.substr(bracket));
  if (!sizes)
    return fail(fmt::format("bad sizes '{}' in tensor spec '{}'; expected a list like [2,3]",
                            spec.substr(bracket), spec));
  // trace runs operators on small values: a spec that asks for more is refused, not allocated
  // (cpu:int64[2,503232032325] once asked for 8 TB).
  // A size of 0 counts as 1, as strides do (cpu:bool[0,10100616602,100616604616603,...] overflowed
  // them).
  int64_t elements = 1;
  for (int64_t s : *sizes) {
    if (s < 0) return fail(fmt::format("negative size {} in tensor spec '{}'", s, spec));
    if (elements > kMaxSpecElements / std::max<int64_t>(s, 1))
      return fail(
          fmt::format("tensor spec '{}' is too large; trace makes tensors of at most {} elements",
                      spec, kMaxSpecElements));
    elements *= std::max<int64_t>(s, 1);
  }
  try {
    core::Tensor cpu = core::Tensor::empty(*sizes, core::TensorOptions{*dtype, core::kCPU});
    fill_counting(cpu);
    if (device->is_cpu()) return ok(IValue(std::move(cpu)));
    // Other devices: made by the allocator the loaded libraries registered; filled on the device
    // by the copy_ operator when one is registered, else left uninitialised.
    core::Tensor t = core::Tensor::empty(*sizes, core::TensorOptions{*dtype, *device});
    if (auto copy = dispatch::OperatorHandle::find("aten::copy_")) {
      dispatch::Stack stack{IValue(t), IValue(cpu), IValue(false)};
      copy->call_boxed(&stack);
    }
    return ok(IValue(std::move(t)));
  } catch (const std::exception& e) {
    return fail(fmt::format("cannot make tensor '{}': {}", spec, e.what()));
  }
}

// Reads one spec: a recursive-descent parser over the whole text, so that values nest
// (`{'a': (1, cpu:float32[2])}`). Errors name the spec and the 1-based column, like a file.
class SpecParser {
 public:
  explicit SpecParser(std::string_view text) : text_(text) {}

  ValueSpecResult parse() {
    skip_space();
    std::optional<IValue> v = value();
    if (v) {
      skip_space();
      if (pos_ < text_.size()) {
        v.reset();
        error_at(pos_, fmt::format("unexpected '{}' after the value", text_[pos_]));
      }
    }
    if (!v) return fail(fmt::format("{}:{}: {}", text_, error_pos_ + 1, error_));
    return ok(std::move(*v));
  }

 private:
  static constexpr int kMaxDepth = 64;

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  std::nullopt_t error_at(size_t at, std::string message) {
    if (error_.empty()) {
      error_pos_ = at;
      error_ = std::move(message);
    }
    return std::nullopt;
  }
  std::string found() const {
    return pos_ < text_.size() ? fmt::format("'{}'", text_[pos_]) : std::string("the end");
  }
  static bool is_word_char(char c) {
    return std::string_view(" \t,()[]{}:'\"").find(c) == std::string_view::npos;
  }

  std::optional<IValue> value() {
    if (++depth_ > kMaxDepth) return error_at(pos_, "values nest too deeply");
    std::optional<IValue> v = value_here();
    --depth_;
    return v;
  }

  std::optional<IValue> value_here() {
    if (pos_ >= text_.size()) return error_at(pos_, "expected a value, found the end");
    switch (text_[pos_]) {
      case '(': return sequence('(', ')');
      case '[': return sequence('[', ']');
      case '{': return dict();
      case '\'':
      case '"': return string();
      default: break;
    }
    if (!is_word_char(text_[pos_]))
      return error_at(pos_, fmt::format("expected a value, found {}", found()));
    return word();
  }

  // `(a, b)` (a tuple: `()`, `(1,)` and `(1)` too) or `[a, b]` (a list).
  std::optional<IValue> sequence(char open, char close) {
    const size_t start = pos_++;
    std::vector<IValue> items;
    skip_space();
    while (pos_ < text_.size() && text_[pos_] != close) {
      std::optional<IValue> item = value();
      if (!item) return std::nullopt;
      items.push_back(std::move(*item));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        skip_space();
      } else if (pos_ >= text_.size()) {
        return error_at(start, fmt::format("'{}' is never closed", open));
      } else if (text_[pos_] != close) {
        return error_at(pos_, fmt::format("expected ',' or '{}', found {}", close, found()));
      }
    }
    if (pos_ >= text_.size()) return error_at(start, fmt::format("'{}' is never closed", open));
    ++pos_;
    if (open == '(') return IValue::tuple(std::move(items));
    return list_of(std::move(items));
  }

  // `{key: value, ...}`; keys are distinct.
  std::optional<IValue> dict() {
    const size_t start = pos_++;
    std::vector<std::pair<IValue, IValue>> entries;
    skip_space();
    while (pos_ < text_.size() && text_[pos_] != '}') {
      const size_t key_pos = pos_;
      std::optional<IValue> key = value();
      if (!key) return std::nullopt;
      for (const auto& entry : entries)
        if (entry.first == *key)
          return error_at(key_pos, fmt::format("duplicate key {}", describe_value(*key)));
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ':')
        return error_at(pos_, fmt::format("expected ':' after a dict key, found {}", found()));
      ++pos_;
      skip_space();
      std::optional<IValue> item = value();
      if (!item) return std::nullopt;
      entries.emplace_back(std::move(*key), std::move(*item));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        skip_space();
      } else if (pos_ >= text_.size()) {
        return error_at(start, "'{' is never closed");
      } else if (text_[pos_] != '}') {
        return error_at(pos_, fmt::format("expected ',' or '}}', found {}", found()));
      }
    }
    if (pos_ >= text_.size()) return error_at(start, "'{' is never closed");
    ++pos_;
    return IValue::dict(std::move(entries));
  }

  // 'text' or "text", with \\, \', \", \n and \t escapes.
  std::optional<IValue> string() {
    const size_t start = pos_;
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) break;
        const char e = text_[pos_++];
        switch (e) {
          case '\\':
          case '\'':
          case '"': c = e; break;
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          default: return error_at(pos_ - 2, fmt::format("unknown escape '\\{}' in a string", e));
        }
      }
      out += c;
    }
    if (pos_ >= text_.size()) return error_at(start, "the string is never closed");
    ++pos_;
    return IValue(std::move(out));
  }

  // A tensor (cpu:float32[2,3]), a number, True, False, None or an element type.
  std::optional<IValue> word() {
    const size_t start = pos_;
    while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
    std::string_view w = text_.substr(start, pos_ - start);
    const bool letter =
        (w.front() >= 'a' && w.front() <= 'z') || (w.front() >= 'A' && w.front() <= 'Z');
    if (letter && pos_ < text_.size() && text_[pos_] == ':' && w != "True" && w != "False" &&
        w != "None") {
      // device[:index]:dtype[sizes]
      while (pos_ < text_.size() && text_[pos_] != '[' &&
             (is_word_char(text_[pos_]) || text_[pos_] == ':'))
        ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '[') {
        const size_t close = text_.find(']', pos_);
        pos_ = close == std::string_view::npos ? text_.size() : close + 1;
      }
      ValueSpecResult t = parse_tensor_spec(text_.substr(start, pos_ - start));
      if (!t.ok()) return error_at(start, std::move(t.error));
      return std::move(t.value);
    }
    if (w == "None") return IValue();
    if (w == "True") return IValue(true);
    if (w == "False") return IValue(false);
    if (auto i = parse_int(w)) return IValue(*i);
    if (auto d = parse_double(w)) return IValue(*d);
    if (auto t = core::parse_scalar_type(w)) return IValue(*t);
    return error_at(
        start,
        fmt::format(
            "cannot read value spec '{}'; expected a tensor (cpu:float32[2,3]), an int (3), a "
            "float (2.5), True, False, None, a string ('text'), a list ([0,1]), a tuple "
            "((1, 2)), a dict ({{'a': 1}}) or an element type (float16)",
            w));
  }

  // A list of ints, floats, bools or tensors is stored as that array, any other as a generic list.
  static IValue list_of(std::vector<IValue> items) {
    auto all = [&items](bool (IValue::*is)() const) {
      return std::all_of(items.begin(), items.end(), [is](const IValue& v) { return (v.*is)(); });
    };
    if (all(&IValue::is_int)) {
      std::vector<int64_t> out;
      for (const IValue& v : items) out.push_back(v.to_int());
      return IValue(std::move(out));
    }
    if (all(&IValue::is_double)) {
      std::vector<double> out;
      for (const IValue& v : items) out.push_back(v.to_double());
      return IValue(std::move(out));
    }
    if (all(&IValue::is_bool)) {
      std::vector<bool> out;
      for (const IValue& v : items) out.push_back(v.to_bool());
      return IValue(std::move(out));
    }
    if (all(&IValue::is_tensor)) {
      std::vector<core::Tensor> out;
      for (const IValue& v : items) out.push_back(v.to_tensor());
      return IValue(std::move(out));
    }
    return IValue::list(std::move(items));
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
  size_t error_pos_ = 0;
  std::string error_;
};

}  // namespace

ValueSpecResult parse_value_spec(std::string_view spec) {
  spec = trim_blanks(spec);
  if (spec.empty())
    return fail(
        "empty value spec; expected e.g. cpu:float32[2,3], 3, 2.5, True, None, 'text', [0,1], (1, "
        "2) or {'a': 1}");
  return SpecParser(spec).parse();
}

ValueSpecResult value_of_default(const schema::DefaultValue& d) {
  using Kind = schema::DefaultValue::Kind;
  switch (d.kind) {
    case Kind::None: return ok(IValue());
    case Kind::Bool: return ok(IValue(d.text == "True"));
    case Kind::Int:
      if (auto i = parse_int(d.text)) return ok(IValue(*i));
      break;
    case Kind::Float:
      if (auto v = parse_double(d.text)) return ok(IValue(*v));
      break;
    case Kind::List: {
      std::vector<int64_t> items;
      for (const schema::DefaultValue& item : d.items) {
        const auto i = item.kind == Kind::Int ? parse_int(item.text) : std::nullopt;
        if (!i)
          return fail(fmt::format("cannot build the default '{}': only lists of ints are supported",
                                  d.text));
        items.push_back(*i);
      }
      return ok(IValue(std::move(items)));
    }
    case Kind::Identifier:
      if (d.text == "contiguous_format") return ok(IValue(core::MemoryFormat::Contiguous));
      if (d.text == "channels_last") return ok(IValue(core::MemoryFormat::ChannelsLast));
      if (d.text == "preserve_format") return ok(IValue(core::MemoryFormat::Preserve));
      if (auto t = core::parse_scalar_type(d.text)) return ok(IValue(*t));
      break;
    case Kind::String:
    case Kind::Complex: break;
  }
  return fail(fmt::format("cannot build the default '{}'; give the argument with --arg", d.text));
}

namespace {

using schema::BaseType;
using schema::Type;

// The value converted to fit `type`, or an error naming the innermost part that does not fit.
// Leaves at the top level are passed as they are (the kernel reports a mismatch); inside tuples,
// dicts and lists of them they are checked, and ints widen to floats.
std::optional<IValue> fit(const IValue& v, const Type& type, bool inside, std::string& error) {
  auto mismatch = [&](std::string_view what) -> std::optional<IValue> {
    error = fmt::format("{} is not {}", describe_value(v), what);
    return std::nullopt;
  };
  switch (type.kind) {
    case Type::Kind::Optional:
      if (v.is_none()) return v;
      return fit(v, type.element(), inside, error);
    case Type::Kind::Tuple: {
      const auto items = type.contained();
      if (!v.is_tuple() || v.to_tuple().size() != items.size())
        return mismatch(fmt::format("a tuple {}", schema::print_type(type)));
      std::vector<IValue> out;
      for (size_t i = 0; i < items.size(); ++i) {
        std::optional<IValue> item = fit(v.to_tuple()[i], items[i], true, error);
        if (!item) return std::nullopt;
        out.push_back(std::move(*item));
      }
      return IValue::tuple(std::move(out));
    }
    case Type::Kind::Dict: {
      if (!v.is_dict()) return mismatch(fmt::format("a dict {}", schema::print_type(type)));
      std::vector<std::pair<IValue, IValue>> out;
      for (const auto& [key, value] : v.to_dict()) {
        std::optional<IValue> k = fit(key, type.contained()[0], true, error);
        if (!k) return std::nullopt;
        std::optional<IValue> item = fit(value, type.contained()[1], true, error);
        if (!item) return std::nullopt;
        out.emplace_back(std::move(*k), std::move(*item));
      }
      return IValue::dict(std::move(out));
    }
    case Type::Kind::List: {
      const Type& elem = type.element();
      const bool empty =
          (v.is_int_list() && v.to_int_list().empty()) || (v.is_list() && v.to_list().empty());
      if (elem.is_base(BaseType::Float) && v.is_int_list()) {
        return IValue(std::vector<double>(v.to_int_list().begin(), v.to_int_list().end()));
      }
      if (elem.is_base(BaseType::Tensor) && empty) return IValue(std::vector<core::Tensor>());
      if (elem.kind != Type::Kind::Tuple && elem.kind != Type::Kind::Dict) return v;
      if (!v.is_list() && !empty)
        return mismatch(fmt::format("a list {}", schema::print_type(type)));
      std::vector<IValue> out;
      if (v.is_list()) {
        for (const IValue& item : v.to_list()) {
          std::optional<IValue> fitted = fit(item, elem, true, error);
          if (!fitted) return std::nullopt;
          out.push_back(std::move(*fitted));
        }
      }
      return IValue::list(std::move(out));
    }
    case Type::Kind::Base:
      if (type.base == BaseType::NoneType)
        return v.is_none() ? std::optional<IValue>(v) : mismatch("None");
      if (!inside) return v;
      switch (type.base) {
        case BaseType::Tensor:
          return v.is_tensor() ? std::optional<IValue>(v) : mismatch("a Tensor");
        case BaseType::Int:
        case BaseType::SymInt: return v.is_int() ? std::optional<IValue>(v) : mismatch("an int");
        case BaseType::Float:
        case BaseType::SymFloat:
          if (v.is_int()) return IValue(static_cast<double>(v.to_int()));
          return v.is_double() ? std::optional<IValue>(v) : mismatch("a float");
        case BaseType::Bool: return v.is_bool() ? std::optional<IValue>(v) : mismatch("a bool");
        case BaseType::Str: return v.is_string() ? std::optional<IValue>(v) : mismatch("a str");
        default: return v;
      }
    default:  // unions, futures, ...: as they are
      return v;
  }
}

// 'text', with the escapes the spec syntax reads.
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : std::string(1, c);
  }
  return out + "'";
}
}  // namespace

ValueSpecResult fit_to_type(const IValue& value, const schema::Type& type) {
  std::string error;
  std::optional<IValue> fitted = fit(value, type, false, error);
  if (!fitted)
    return fail(fmt::format("{} does not fit '{}': {}", describe_value(value),
                            schema::print_type(type), error));
  return ok(std::move(*fitted));
}

std::string describe_value(const IValue& v) {
  auto join = [](const auto& items, auto describe) {
    std::vector<std::string> parts;
    for (const auto& item : items) parts.push_back(describe(item));
    return fmt::format("{}", fmt::join(parts, ", "));
  };
  auto describe = [](const IValue& item) { return describe_value(item); };
  switch (v.kind()) {
    case core::IValueKind::None: return "None";
    case core::IValueKind::Tensor:
      return v.to_tensor().defined() ? "Tensor " + v.to_tensor().describe() : "Tensor undefined";
    case core::IValueKind::Bool: return v.to_bool() ? "True" : "False";
    case core::IValueKind::Int: return std::to_string(v.to_int());
    case core::IValueKind::Double: return fmt::format("{}", v.to_double());
    case core::IValueKind::String: return quoted(v.to_string());
    case core::IValueKind::IntList: return fmt::format("[{}]", fmt::join(v.to_int_list(), ", "));
    case core::IValueKind::DoubleList:
      return fmt::format("[{}]", fmt::join(v.to_double_list(), ", "));
    case core::IValueKind::BoolList:
      return fmt::format(
          "[{}]", join(v.to_bool_list(), [](bool b) { return std::string(b ? "True" : "False"); }));
    case core::IValueKind::TensorList:
      return fmt::format("[{}]", join(v.to_tensor_list(), [](const core::Tensor& t) {
                           return describe_value(IValue(t));
                         }));
    case core::IValueKind::GenericList: return fmt::format("[{}]", join(v.to_list(), describe));
    case core::IValueKind::Tuple:
      return fmt::format("({}{})", join(v.to_tuple(), describe),
                         v.to_tuple().size() == 1 ? "," : "");
    case core::IValueKind::Dict:
      return fmt::format("{{{}}}", join(v.to_dict(), [](const std::pair<IValue, IValue>& e) {
                           return describe_value(e.first) + ": " + describe_value(e.second);
                         }));
    default: return std::string(v.kind_name());
  }
}

}  // namespace schemac::value_specs
