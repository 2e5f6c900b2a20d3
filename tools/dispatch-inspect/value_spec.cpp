// Parsing trace value specs and schema defaults into IValues (value_spec.h).
#include "value_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <vector>

#include "schemac/core/device.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/core/scalar_type.h"
#include "schemac/core/tensor.h"

namespace schemac::inspect {
namespace {

using dispatch::IValue;

ValueSpecResult fail(std::string message) { return {std::nullopt, std::move(message)}; }
ValueSpecResult ok(IValue value) { return {std::move(value), {}}; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> parse_int(std::string_view s) {
  s = trim(s);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  const std::string text(s);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// "[2,3]" -> {2, 3}; "[]" -> {}.
std::optional<std::vector<int64_t>> parse_int_list(std::string_view s) {
  s = trim(s);
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::nullopt;
  s = trim(s.substr(1, s.size() - 2));
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
void fill_counting(const dispatch::Tensor& t) {
  T* data = static_cast<T*>(t.data_ptr());
  for (int64_t i = 0, n = t.numel(); i < n; ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      data[i] = (i % 2) == 0;
    } else if constexpr (std::is_same_v<T, dispatch::Half> || std::is_same_v<T, dispatch::BFloat16>) {
      data[i] = T(static_cast<float>(i + 1));
    } else {
      data[i] = static_cast<T>(i + 1);
    }
  }
}

void fill_counting(const dispatch::Tensor& t) {
  using dispatch::ScalarType;
  switch (t.dtype()) {
    case ScalarType::Float: return fill_counting<float>(t);
    case ScalarType::Double: return fill_counting<double>(t);
    case ScalarType::Half: return fill_counting<dispatch::Half>(t);
    case ScalarType::BFloat16: return fill_counting<dispatch::BFloat16>(t);
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
  const auto device = dispatch::Device::parse(device_text);
  if (!device) return fail(fmt::format("unknown device '{}' in tensor spec '{}'; expected cpu or cuda[:N]", device_text, spec));
  const auto dtype = dispatch::parse_scalar_type(dtype_text);
  if (!dtype)
    return fail(fmt::format("unknown element type '{}' in tensor spec '{}'; expected float32, float64, float16, "
                            "bfloat16, int32, int64 or bool",
                            dtype_text, spec));
  const auto sizes = parse_int_list(spec.substr(bracket));
  if (!sizes) return fail(fmt::format("bad sizes '{}' in tensor spec '{}'; expected a list like [2,3]", spec.substr(bracket), spec));
  // trace runs operators on small values: a spec that asks for more is refused, not allocated
  // (cpu:int64[2,503232032325] once asked for 8 TB).
  // A size of 0 counts as 1, as strides do (cpu:bool[0,10100616602,100616604616603,...] overflowed them).
  int64_t elements = 1;
  for (int64_t s : *sizes) {
    if (s < 0) return fail(fmt::format("negative size {} in tensor spec '{}'", s, spec));
    if (elements > kMaxSpecElements / std::max<int64_t>(s, 1))
      return fail(fmt::format("tensor spec '{}' is too large; trace makes tensors of at most {} elements", spec,
                              kMaxSpecElements));
    elements *= std::max<int64_t>(s, 1);
  }
  try {
    dispatch::Tensor cpu = dispatch::Tensor::empty(*sizes, dispatch::TensorOptions{*dtype, dispatch::kCPU});
    fill_counting(cpu);
    if (device->is_cpu()) return ok(IValue(std::move(cpu)));
    // Other devices: made by the allocator the loaded libraries registered; filled on the device
    // by the copy_ operator when one is registered, else left uninitialised.
    dispatch::Tensor t = dispatch::Tensor::empty(*sizes, dispatch::TensorOptions{*dtype, *device});
    if (auto copy = dispatch::OperatorHandle::find("aten::copy_")) {
      dispatch::Stack stack{IValue(t), IValue(cpu), IValue(false)};
      copy->call_boxed(&stack);
    }
    return ok(IValue(std::move(t)));
  } catch (const std::exception& e) {
    return fail(fmt::format("cannot make tensor '{}': {}", spec, e.what()));
  }
}

}  // namespace

ValueSpecResult parse_value_spec(std::string_view spec) {
  spec = trim(spec);
  if (spec.empty()) return fail("empty value spec; expected e.g. cpu:float32[2,3], 3, 2.5, True or None");
  if (spec == "None") return ok(IValue());
  if (spec == "True") return ok(IValue(true));
  if (spec == "False") return ok(IValue(false));
  if (spec.front() == '[') {
    if (auto list = parse_int_list(spec)) return ok(IValue(std::move(*list)));
    return fail(fmt::format("bad list '{}'; expected integers like [0,1]", spec));
  }
  if (spec.find(':') != std::string_view::npos) return parse_tensor_spec(spec);
  if (auto i = parse_int(spec)) return ok(IValue(*i));
  if (auto d = parse_double(spec)) return ok(IValue(*d));
  if (auto t = dispatch::parse_scalar_type(spec)) return ok(IValue(*t));
  return fail(fmt::format("cannot read value spec '{}'; expected a tensor (cpu:float32[2,3]), an int (3), a float "
                          "(2.5), True, False, None, a list of ints ([0,1]) or an element type (float16)",
                          spec));
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
        if (!i) return fail(fmt::format("cannot build the default '{}': only lists of ints are supported", d.text));
        items.push_back(*i);
      }
      return ok(IValue(std::move(items)));
    }
    case Kind::Identifier:
      if (d.text == "contiguous_format") return ok(IValue(dispatch::MemoryFormat::Contiguous));
      if (d.text == "channels_last") return ok(IValue(dispatch::MemoryFormat::ChannelsLast));
      if (d.text == "preserve_format") return ok(IValue(dispatch::MemoryFormat::Preserve));
      if (auto t = dispatch::parse_scalar_type(d.text)) return ok(IValue(*t));
      break;
    case Kind::String: case Kind::Complex: break;
  }
  return fail(fmt::format("cannot build the default '{}'; give the argument with --arg", d.text));
}

std::string describe_value(const IValue& v) {
  if (v.is_none()) return "None";
  if (v.is_tensor()) return v.to_tensor().defined() ? "Tensor " + v.to_tensor().describe() : "Tensor undefined";
  if (v.is_bool()) return v.to_bool() ? "True" : "False";
  if (v.is_int()) return std::to_string(v.to_int());
  if (v.is_double()) return fmt::format("{}", v.to_double());
  if (v.is_int_list()) return fmt::format("[{}]", fmt::join(v.to_int_list(), ", "));
  return std::string(v.kind_name());
}

}  // namespace schemac::inspect
