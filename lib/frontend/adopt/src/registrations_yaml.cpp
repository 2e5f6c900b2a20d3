// What is written, what is left out and why (registrations_yaml.h); the YAML is checked by
// running gen's own gate over it.
#include "schemac/adopt/registrations_yaml.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "kernel_names.h"
#include "schemac/codegen/target.h"
#include "schemac/generate/checked_model.h"
#include "schemac/keys/dispatch_key_names.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"
#include "schemac/sources/language.h"
#include "schemac/tokens/calls.h"

namespace schemac::adopt {
namespace {

using diagnostics::Diagnostic;

constexpr std::string_view kClassPrefix = "__torch__.torch.classes.";

// A func value as a YAML scalar: plain when YAML reads it back unchanged, else double-quoted.
std::string yaml_scalar(const std::string& text) {
  bool plain = text.find(": ") == std::string::npos && text.find(" #") == std::string::npos &&
               text.find_first_of("\"'\\\t\n") == std::string::npos;
  if (plain) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c == '\n' ? ' ' : c;
  }
  return quoted + "\"";
}

std::string full_name(const std::string& ns, const std::string& name) {
  return name.find("::") != std::string::npos || ns.empty() ? name : ns + "::" + name;
}

diagnostics::Location at(const std::string& path, tokens::SourcePosition position) {
  return diagnostics::Location::at(path, position.line, position.column);
}

// A `yaml-skipped` finding: a warning for what the YAML should have had, a note for what it never
// could (a schema only known when the library loads).
void skip(std::vector<Diagnostic>& problems, diagnostics::Location location, std::string why,
          diagnostics::Severity severity = diagnostics::Severity::warning) {
  Diagnostic d;
  d.severity = severity;
  d.rule = rules::yaml_skipped;
  d.location = std::move(location);
  d.message = std::move(why);
  problems.push_back(std::move(d));
}

bool same(const Diagnostic& a, const Diagnostic& b) {
  return a.rule == b.rule && a.message == b.message && a.location.file == b.location.file &&
         a.location.line == b.location.line && a.location.column == b.location.column;
}

// Reports `d` once: when `problems` holds it already (the caller checked the schemas), the note
// is added there; else `d` goes in with the note.
void report_once(std::vector<Diagnostic>& problems, Diagnostic d, diagnostics::Note note) {
  auto it = std::find_if(problems.begin(), problems.end(),
                         [&](const Diagnostic& p) { return same(p, d); });
  if (it == problems.end()) {
    d.notes.push_back(std::move(note));
    problems.push_back(std::move(d));
  } else if (std::none_of(it->notes.begin(), it->notes.end(),
                          [&](const diagnostics::Note& n) { return n.message == note.message; })) {
    it->notes.push_back(std::move(note));
  }
}

// "ns.Name" of the first custom class a schema names, or "".
std::string custom_class_in(const std::string& text) {
  size_t at = text.find(kClassPrefix);
  if (at == std::string::npos) return "";
  size_t end = at + kClassPrefix.size();
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                               text[end] == '_' || text[end] == '.')) {
    ++end;
  }
  return text.substr(at + kClassPrefix.size(), end - at - kClassPrefix.size());
}

struct Entry {
  std::string name;  // "ns::op.overload"
  std::string text;  // the YAML lines
  std::string file;
  tokens::SourcePosition position;
  std::vector<YamlLineOrigin> lines;  // each line's origin
  bool stable_abi = false;            // defined in a STABLE_TORCH_LIBRARY block
};

// Lays out the entries; `first_line[i]` gets entry i's first line (1-based).
std::string layout(const std::vector<Entry>& entries, std::vector<uint32_t>& first_line,
                   std::vector<YamlLineOrigin>* origins) {
  std::string out;
  uint32_t line = 1;
  first_line.clear();
  for (const Entry& entry : entries) {
    first_line.push_back(line);
    if (origins) origins->insert(origins->end(), entry.lines.begin(), entry.lines.end());
    line += static_cast<uint32_t>(entry.lines.size());
    out += entry.text;
  }
  return out;
}

// What `gen --target <target_name>` refuses among the entries (its gate: lint, the model, the
// target's checks) is left out, each with the reason, until the rest passes.
void keep_what_gen_accepts(std::vector<Entry>& entries, std::vector<Diagnostic>& problems,
                           std::vector<std::string>* unreadable, std::string_view target_name) {
  const codegen::Target* torch = codegen::find_target(target_name);
  if (torch == nullptr) return;
  generate::GateOptions gate;  // no configuration: the YAML written is linted as gen reads it
  gate.lint.profile = torch->lint_profile();
  for (int round = 0; round < 4 && !entries.empty(); ++round) {
    std::vector<uint32_t> first_line;
    std::string text = layout(entries, first_line, nullptr);
    native_functions::NativeFunctionsLoad load =
        native_functions::load_native_functions("<yaml>", text);
    std::vector<Diagnostic> refused = load.diagnostics;
    codegen::ModelBuild build = generate::build_checked_gen_model(
        {codegen::GenInput{"<yaml>", &load.file}}, gate, *torch, {});
    refused.insert(refused.end(), build.diagnostics.begin(), build.diagnostics.end());
    std::map<size_t, const Diagnostic*> dropped;  // entry -> the first error against it
    for (const Diagnostic& d : refused) {
      if (d.severity != diagnostics::Severity::error || d.location.line == 0) continue;
      auto it = std::upper_bound(first_line.begin(), first_line.end(), d.location.line);
      if (it == first_line.begin()) continue;
      dropped.emplace(static_cast<size_t>(it - first_line.begin()) - 1, &d);
    }
    if (dropped.empty()) return;
    for (auto it = dropped.rbegin(); it != dropped.rend(); ++it) {
      const Entry& entry = entries[it->first];
      skip(problems, at(entry.file, entry.position),
           fmt::format("'{}' is left out of the YAML: gen --target {} refuses it: {} [{}]",
                       entry.name, target_name, it->second->message, it->second->rule));
      if (unreadable) unreadable->push_back(entry.name);
      entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(it->first));
    }
  }
}

}  // namespace

std::string registrations_yaml(std::span<const sources::ScannedFile> files,
                               std::vector<Diagnostic>& problems,
                               std::vector<YamlLineOrigin>* origins,
                               std::vector<std::string>* unreadable) {
  // "ns::name.overload" -> key -> kernel, from every file's implementations whose key is real.
  struct Kernel {
    std::string name;
    std::string file;
    tokens::SourcePosition position;  // the m.impl
  };
  std::map<std::string, std::map<std::string, Kernel>> kernels;
  // "ns.Name" -> where m.class_ registers it.
  std::map<std::string, std::string> classes;
  for (const sources::ScannedFile& file : files) {
    for (Diagnostic& d : sources::key_diagnostics(file.path, file.scan)) {
      diagnostics::Location where = d.location;
      report_once(problems, std::move(d),
                  {where, "its kernel is left out of the YAML's dispatch section"});
    }
    for (const sources::NamedOperator& impl : file.scan.implementations) {
      if (impl.dispatch_key.empty() || impl.kernel.empty() ||
          !keys::find_dispatch_key(impl.dispatch_key)) {
        continue;
      }
      std::string op = full_name(impl.library_namespace, impl.name);
      KernelName kernel = kernel_name(impl, file.path, files);
      if (!kernel.refusal.empty()) {
        skip(problems, at(file.path, impl.position),
             fmt::format("the {} kernel of '{}' is left out of the YAML: {}", impl.dispatch_key, op,
                         kernel.refusal));
        continue;
      }
      kernels[op][impl.dispatch_key] = Kernel{kernel.name, file.path, impl.position};
    }
    for (const sources::CustomClass& c : file.scan.classes) {
      if (c.library_namespace.empty()) continue;
      classes.emplace(c.library_namespace + "." + c.name,
                      fmt::format("{}:{}:{}", file.path, c.position.line, c.position.column));
    }
  }
  std::vector<Entry> entries;
  std::map<std::string, std::string> written;  // full name -> where its entry came from
  for (const sources::ScannedFile& file : files) {
    for (const sources::FoundSchema& found : file.scan.schemas) {
      schema::ParseResult parsed = schema::parse_schema(found.text.text());
      std::string op = tokens::operator_name_in(found.text.text());
      if (!parsed.ok()) {
        if (unreadable) unreadable->push_back(full_name(sources::resolved_namespace(found), op));
        for (Diagnostic& d : sources::check_found_schema(file.path, found)) {
          if (d.severity != diagnostics::Severity::error) continue;
          report_once(
              problems, std::move(d),
              {at(file.path, found.position), fmt::format("'{}' is left out of the YAML", op)});
        }
        continue;
      }
      std::string ns = sources::resolved_namespace(found);
      if (ns.empty()) {
        skip(problems, at(file.path, found.position),
             fmt::format("'{}' is left out of the YAML: its namespace is not known statically "
                         "(a build macro: give it with -D NAME=VALUE; gen --target torch needs "
                         "namespaced operators)",
                         op));
        continue;
      }
      std::string func = full_name(ns, schema::print_schema(*parsed.schema));
      std::string name = full_name(ns, parsed.schema->op.full());
      if (std::string cls = custom_class_in(func); !cls.empty()) {
        auto registered = classes.find(cls);
        skip(
            problems, at(file.path, found.position),
            fmt::format("'{}' is left out of the YAML: it names the custom class '{}' ({}), which "
                        "libtorch must know before the schema is registered; generated code cannot "
                        "be ordered after m.class_, so keep this m.def beside it",
                        name, cls,
                        registered != classes.end()
                            ? "registered at " + registered->second
                            : std::string("registered in none of the files given")));
        if (unreadable) unreadable->push_back(name);
        continue;
      }
      std::string here =
          fmt::format("{}:{}:{}", file.path, found.position.line, found.position.column);
      auto [first, fresh] = written.emplace(name, here);
      if (!fresh) {
        skip(problems, at(file.path, found.position),
             fmt::format("'{}' is left out of the YAML: it is already written from {} (one entry "
                         "per operator; another #if branch, or a duplicate definition)",
                         name, first->second));
        continue;
      }
      Entry entry{name,      fmt::format("# {}\n- func: {}\n", here, yaml_scalar(func)),
                  file.path, found.position,
                  {},        found.stable_abi};
      YamlLineOrigin origin{file.path, found.position, &found.text};
      entry.lines.assign(2, origin);
      auto implemented = kernels.find(name);
      if (implemented != kernels.end()) {
        entry.text += "  dispatch:\n";
        entry.lines.push_back({file.path, found.position, nullptr});
        for (const auto& [key, kernel] : implemented->second) {
          entry.text += fmt::format("    {}: {}\n", key, kernel.name);
          entry.lines.push_back({kernel.file, kernel.position, nullptr});
        }
      } else {
        // No kernel in the inputs: gen registers the schema only (its default would be a
        // CompositeImplicitAutograd kernel named after the operator, which nothing defines).
        entry.text += "  manual_kernel_registration: True\n";
        entry.lines.push_back({file.path, found.position, nullptr});
      }
      entries.push_back(std::move(entry));
    }
    bool python = sources::language_for_path(file.path) == sources::Language::python;
    for (const sources::NamedOperator& named : file.scan.named_definitions) {
      std::string name = full_name(named.library_namespace, named.name);
      // A custom op whose inference failed is said with its own diagnostic below.
      bool said = std::any_of(file.scan.inference_problems.begin(),
                              file.scan.inference_problems.end(), [&](const auto& problem) {
                                return problem.message.find("'" + name + "'") != std::string::npos;
                              });
      if (said) continue;
      skip(problems, at(file.path, named.position),
           fmt::format("'{}' is left out of the YAML: its schema is {}", name,
                       python ? "not written in the file (only running it tells)"
                              : "inferred from the C++ function when the library loads"),
           diagnostics::Severity::note);
    }
    for (Diagnostic& d : sources::inference_diagnostics(file.path, file.scan)) {
      diagnostics::Location where = d.location;
      report_once(problems, std::move(d), {where, "this custom op is left out of the YAML"});
    }
  }
  // Stable-ABI definitions stay stable: a YAML of only those is marked for it (gen --target torch
  // then writes STABLE_TORCH_LIBRARY code); mixed with others, the YAML is for the torch target.
  const auto stable =
      std::count_if(entries.begin(), entries.end(), [](const Entry& e) { return e.stable_abi; });
  const bool all_stable = stable > 0 && static_cast<size_t>(stable) == entries.size();
  if (stable > 0 && !all_stable) {
    const Entry& first =
        *std::find_if(entries.begin(), entries.end(), [](const Entry& e) { return e.stable_abi; });
    skip(
        problems, at(first.file, first.position),
        fmt::format("'{}' and {} other operators are defined in STABLE_TORCH_LIBRARY blocks and "
                    "the rest in TORCH_LIBRARY ones: the YAML is written for the torch target, "
                    "without the stable-ABI marker; adopt the stable files on their own to keep it",
                    first.name, stable - 1));
  }
  keep_what_gen_accepts(entries, problems, unreadable, all_stable ? "torch_stable" : "torch");
  std::vector<uint32_t> first_line;
  std::string yaml = layout(entries, first_line, origins);
  if (!all_stable || entries.empty()) return yaml;
  if (origins) origins->insert(origins->begin(), YamlLineOrigin{});
  return std::string(codegen::kStableAbiMarker) + "\n" + yaml;
}

}  // namespace schemac::adopt
