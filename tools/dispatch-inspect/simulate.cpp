// PythonDispatcher emulation and what-if script sessions over a fresh Dispatcher.
#include "simulate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/inspect/operator_glob.h"
#include "schemac/inspect/render.h"
#include "schemac/support/json.h"
#include "schemac/support/text.h"
#include "schemac_adapter.h"

namespace schemac::inspect {

using support::Json;

namespace {

using dispatch::Dispatcher;
using dispatch::KernelFunction;
using dispatch::OperatorEntry;
using keys::DispatchKey;

constexpr std::string_view kTestOperator = "__test__::foo";
constexpr std::string_view kTestSchema = "__test__::foo(Tensor x) -> Tensor";

// The kernels simulate registers do nothing: simulate never calls them.
void simulated_kernel(const dispatch::OperatorHandle&, keys::DispatchKeySet, dispatch::Stack*) {}

// Python's repr of a list of strings: ['CPU', 'XLA'].
std::string python_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += "'" + items[i] + "'";
  }
  return out + "]";
}

// PythonDispatcher's key column is 15 wide; keys beyond its list can be longer (--all-keys).
std::string format_line(std::string_view key, std::string_view kernel, size_t width = 15) {
  return fmt::format("{:<{}} {}\n", key, width, kernel);
}

std::string format_header(std::string_view title, size_t width = 15) {
  return fmt::format("\n{}\n", title) + format_line("key", "kernel", width) +
         std::string(width + 12, '-') + "\n";
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Python's `text.split(sep)[index]`, or "" when there are not that many pieces.
std::string split_piece(std::string_view text, std::string_view sep, size_t index) {
  size_t start = 0;
  for (size_t i = 0; i < index; ++i) {
    const size_t at = text.find(sep, start);
    if (at == std::string_view::npos) return "";
    start = at + sep.size();
  }
  const size_t end = text.find(sep, start);
  return std::string(
      text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
}

bool contains(const std::vector<std::string>& items, std::string_view item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::string dispatch_table_text(const OperatorEntry& op, const std::vector<std::string>& shown,
                                bool all_keys) {
  std::vector<std::pair<std::string, std::string>> rows;
  size_t width = 15;
  for (const std::string& line : split_lines(inspect::format_table(op, TableFormat::Torch))) {
    const std::string key = split_piece(line, ":", 0);
    if (!all_keys && !contains(shown, key)) continue;
    rows.emplace_back(key, split_piece(strip_fallback_site(line), ": ", 1));
    width = std::max(width, key.size());
  }
  std::string out = format_header("Computed Dispatch Table", width);
  for (const auto& [key, kernel] : rows) out += format_line(key, kernel, width);
  return out;
}

// Whether `key` (as a registration line names it: "CPU", "Autograd[alias]") is one of
// PythonDispatcher's keys, whose lines keep its 15-column key field.
bool python_dispatcher_key(std::string_view key) {
  if (key.ends_with("[alias]")) key.remove_suffix(7);
  return contains(python_dispatcher_runtime_keys(), key) ||
         contains(python_dispatcher_alias_keys(), key);
}

std::string registrations_text(const OperatorEntry& op, const std::vector<std::string>& supported) {
  std::vector<std::pair<std::string, std::string>> rows;
  size_t width = 15;
  bool beyond_python_dispatcher = false;
  for (const std::string& line : split_lines(inspect::format_dump(op, TableFormat::Torch))) {
    const std::string first = split_piece(line, ":", 0);
    const bool wanted = std::any_of(supported.begin(), supported.end(),
                                    [&](const std::string& k) { return first.rfind(k, 0) == 0; });
    if (!wanted) continue;
    rows.emplace_back(first, split_piece(split_piece(line, "::", 0), " ", 1));
    width = std::max(width, first.size());
    beyond_python_dispatcher = beyond_python_dispatcher || !python_dispatcher_key(first);
  }
  // PythonDispatcher's own keys print as it does; other keys widen the key column to fit.
  if (!beyond_python_dispatcher) width = 15;
  std::string out = format_header("Registered Kernels", width);
  for (const auto& [key, kernel] : rows) out += format_line(key, kernel, width);
  return out;
}

}  // namespace

const std::vector<std::string>& python_dispatcher_runtime_keys() {
  static const std::vector<std::string> keys = {"CPU", "AutogradCPU", "FPGA", "AutogradOther",
                                                "XLA", "AutogradXLA", "Lazy", "AutogradLazy"};
  return keys;
}

const std::vector<std::string>& python_dispatcher_alias_keys() {
  static const std::vector<std::string> keys = {"CompositeExplicitAutograd", "Autograd",
                                                "CompositeImplicitAutograd"};
  return keys;
}

std::string strip_fallback_site(std::string_view line) {
  const size_t start = line.find("registered at ");
  if (start == std::string_view::npos) return std::string(line);
  const size_t bracket = line.rfind('[');
  if (bracket == std::string_view::npos || bracket < start) return std::string(line);
  const std::string_view middle = line.substr(start, bracket - start);
  const bool in_tree = middle.find("FallbackKernel.cpp") != std::string_view::npos ||
                       middle.find("dispatch_default_fallbacks.cpp") != std::string_view::npos;
  if (!in_tree) return std::string(line);
  return std::string(line.substr(0, start)) + std::string(line.substr(bracket));
}

int simulate_keys(const SimulateOptions& options, std::ostream& out, std::ostream& err) {
  const std::vector<std::string>& keys = options.keys;
  // PythonDispatcher's checks, in its order and with its messages.
  if (std::set<std::string>(keys.begin(), keys.end()).size() != keys.size()) {
    err << fmt::format("Overriden is not allowed but found duplicates in {}.\n", python_list(keys));
    return 1;
  }
  if (contains(keys, "CompositeImplicitAutograd") && contains(keys, "CompositeExplicitAutograd")) {
    err << "Registration to both CompositeImplicitAutograd and CompositeExplicitAutograd is not "
           "allowed.\n";
    return 1;
  }
  std::vector<std::string> supported = python_dispatcher_runtime_keys();
  supported.insert(supported.end(), python_dispatcher_alias_keys().begin(),
                   python_dispatcher_alias_keys().end());
  std::vector<std::pair<std::string, DispatchKey>> parsed;
  for (const std::string& name : keys) {
    // Beyond PythonDispatcher's list, any runtime or alias key is accepted too.
    const auto key = keys::parse_dispatch_key(name);
    if (!key || !(keys::is_alias_key(*key) || keys::is_runtime_key(*key))) {
      err << fmt::format("{} is not supported, please select a dispatch key in {}.\n", name,
                         python_list(supported));
      if (std::string close = keys::suggest_dispatch_key(name); !close.empty())
        err << fmt::format("note: did you mean '{}'?\n", close);
      return 1;
    }
    parsed.emplace_back(name, *key);
  }

  Dispatcher dispatcher;
  dispatch::register_default_fallbacks(dispatcher);
  std::vector<dispatch::RegistrationHandle> handles;
  try {
    handles.push_back(dispatcher.def(kTestSchema, "simulate"));
    for (const auto& [name, key] : parsed)
      handles.push_back(dispatcher.impl(kTestOperator, key,
                                        KernelFunction::make_from_boxed(&simulated_kernel),
                                        "fn_" + name, "simulate"));
  } catch (const dispatch::DispatchError& e) {
    err << e.what() << "\n";
    return 1;
  }
  const OperatorEntry& op = *dispatcher.find(kTestOperator);

  // Rows shown: PythonDispatcher's runtime keys plus any other runtime key that was named.
  std::vector<std::string> shown = python_dispatcher_runtime_keys();
  std::vector<std::string> registration_keys = supported;
  for (const auto& [name, key] : parsed) {
    const std::string canonical(dispatch::to_string(key));
    if (!contains(registration_keys, canonical)) registration_keys.push_back(canonical);
    if (!keys::is_alias_key(key) && !contains(shown, canonical)) shown.push_back(canonical);
  }

  switch (options.format) {
    case TableFormat::Text:
      out << (options.registrations ? registrations_text(op, registration_keys)
                                    : dispatch_table_text(op, shown, options.all_keys));
      break;
    case TableFormat::Torch:
      out << (options.registrations ? inspect::format_dump(op, TableFormat::Torch)
                                    : inspect::format_table(op, TableFormat::Torch));
      break;
    case TableFormat::Json: {
      inspect::TableOptions table_options;
      table_options.all_keys = options.all_keys;
      // Without --all-keys the JSON table keeps the rows the text table shows.
      if (!options.all_keys) {
        table_options.show_key = [&](keys::DispatchKey key) {
          return contains(shown, std::string(dispatch::to_string(key)));
        };
      }
      Json body = options.registrations ? report::dump_json(dump_of(op))
                                        : report::table_json(table_of(op, table_options));
      out << support::to_json_text(
                 Json{{"registered", keys},
                      {options.registrations ? "registrations" : "table", std::move(body)}})
          << "\n";
      break;
    }
  }
  return 0;
}

namespace {

// One what-if session: a fresh registry with the default fallbacks, and the handles of each
// library's registrations so that `drop LIB` can undo them newest first.
class ScriptSession {
 public:
  ScriptSession(std::string_view script_name, TableFormat format, std::ostream& out)
      : script_name_(script_name),
        format_(format == TableFormat::Json ? TableFormat::Json : TableFormat::Torch),
        out_(out) {
    dispatch::register_default_fallbacks(dispatcher_);
  }
  ~ScriptSession() {
    // Undo newest first, library by library, before the dispatcher goes away.
    for (auto& [lib, handles] : libraries_)
      while (!handles.empty()) handles.pop_back();
    while (!definitions_.empty()) definitions_.pop_back();
  }

  // Runs one step; throws DispatchError (or returns its message) on failure.
  void run(const std::vector<std::string>& words, const std::string& rest_after_command,
           size_t line) {
    const std::string site = fmt::format("{}:{}", script_name_, line);
    const std::string& command = words[0];
    if (command == "def") {
      expect_at_least(words, 2, "def SCHEMA");
      definitions_.push_back(dispatcher_.def(rest_after_command, site));
    } else if (command == "impl") {
      expect_exactly(words, 5, "impl LIB OP KEY KERNEL");
      const std::string op_name =
          words[2].find("::") == std::string::npos ? words[1] + "::" + words[2] : words[2];
      const std::optional<DispatchKey> key = parse_key(words[3], /*allow_catchall=*/true);
      libraries_[words[1]].push_back(
          dispatcher_.impl(op_name, key, make_kernel(words[4]), debug_for(words[4], site), site));
    } else if (command == "fallback") {
      expect_exactly(words, 4, "fallback LIB KEY KERNEL");
      const std::optional<DispatchKey> key = parse_key(words[2], /*allow_catchall=*/false);
      libraries_[words[1]].push_back(
          dispatcher_.fallback(*key, make_kernel(words[3]), debug_for(words[3], site), site));
    } else if (command == "drop") {
      expect_exactly(words, 2, "drop LIB");
      const auto it = libraries_.find(words[1]);
      if (it == libraries_.end() || it->second.empty())
        throw dispatch::DispatchError(
            fmt::format("nothing is registered under library '{}'", words[1]));
      while (!it->second.empty()) it->second.pop_back();
    } else if (command == "table" || command == "dump") {
      expect_exactly(words, 2, command + " OP");
      const bool several = report::is_operator_glob(words[1]);
      for (const OperatorEntry* op : operators_named(words[1])) {
        // A glob's sections name their operator (JSON objects already do).
        if (several && format_ != TableFormat::Json) out_ << op->full_name() << ":\n";
        out_ << (command == "table" ? inspect::format_table(*op, format_)
                                    : inspect::format_dump(*op, format_));
      }
    } else {
      throw dispatch::DispatchError(fmt::format(
          "unknown step '{}'; expected def, impl, fallback, drop, table or dump", command));
    }
  }

 private:
  // The operator `name` names, or every one the glob matches (report/operator_glob.h).
  std::vector<const OperatorEntry*> operators_named(const std::string& name) const {
    if (!report::is_operator_glob(name)) {
      const OperatorEntry* op = dispatcher_.find(name);
      if (!op) throw dispatch::DispatchError(fmt::format("no operator named '{}'", name));
      return {op};
    }
    std::vector<std::string> known;
    for (const OperatorEntry* op : dispatcher_.operators()) known.push_back(op->full_name());
    const report::GlobExpansion found = report::expand_operator_glob(name, known);
    if (!found.ok())
      throw dispatch::DispatchError(known.empty() || found.note.empty()
                                        ? found.error
                                        : fmt::format("{}; {}", found.error, found.note));
    std::vector<const OperatorEntry*> ops;
    for (const std::string& match : found.names) ops.push_back(dispatcher_.find(match));
    return ops;
  }

  static void expect_exactly(const std::vector<std::string>& words, size_t n,
                             std::string_view usage) {
    if (words.size() != n)
      throw dispatch::DispatchError(
          fmt::format("'{}' takes {} word{}: {}", words[0], n - 1, n == 2 ? "" : "s", usage));
  }
  static void expect_at_least(const std::vector<std::string>& words, size_t n,
                              std::string_view usage) {
    if (words.size() < n)
      throw dispatch::DispatchError(fmt::format("'{}' needs more: {}", words[0], usage));
  }
  static std::optional<DispatchKey> parse_key(const std::string& name, bool allow_catchall) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (allow_catchall && lower == "catchall") return std::nullopt;
    const auto key = keys::parse_dispatch_key(name);
    if (!key) {
      const std::string suggestion = keys::suggest_dispatch_key(name);
      throw dispatch::DispatchError(
          fmt::format("unknown dispatch key '{}'{}", name,
                      suggestion.empty() ? "" : fmt::format("; did you mean '{}'?", suggestion)));
    }
    return key;
  }
  static KernelFunction make_kernel(const std::string& name) {
    return name == "fallthrough" ? KernelFunction::make_fallthrough()
                                 : KernelFunction::make_from_boxed(&simulated_kernel);
  }
  static std::string debug_for(const std::string& kernel, const std::string& site) {
    return kernel == "fallthrough" ? "registered at " + site : kernel;
  }

  std::string script_name_;
  TableFormat format_;
  std::ostream& out_;
  Dispatcher dispatcher_;
  std::vector<dispatch::RegistrationHandle> definitions_;
  std::map<std::string, std::vector<dispatch::RegistrationHandle>> libraries_;
};

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

using support::trim;

}  // namespace

int simulate_script(std::string_view script, std::string_view script_name, TableFormat format,
                    std::ostream& out, std::ostream& err) {
  ScriptSession session(script_name, format, out);
  int failures = 0;
  int steps = 0;
  size_t line_number = 0;
  size_t start = 0;
  while (start <= script.size()) {
    const size_t end = std::min(script.find('\n', start), script.size());
    std::string_view line = script.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    ++steps;
    const std::vector<std::string> words = split_words(line);
    const std::string rest(trim(line.substr(words[0].size())));
    try {
      session.run(words, rest, line_number);
    } catch (const std::exception& e) {
      ++failures;
      // A message quotes the step's words: cut, so a binary or minified script gives short lines.
      err << fmt::format("{}:{}: error: {}\n", script_name, line_number,
                         diagnostics::clip_text(e.what(), 300));
    }
  }
  if (steps == 0) {
    err << fmt::format(
        "{}: error: the script has no steps; expected lines such as 'def SCHEMA' and 'table OP'\n",
        script_name);
    return 1;
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace schemac::inspect
