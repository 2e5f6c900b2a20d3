#include "sources_yaml.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "schemac/rules/rules.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

namespace schemac::tool {
namespace {

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

void skip(std::vector<diagnostics::Diagnostic>& skipped, const std::string& path,
          const sources::FoundSchema& found, std::string why) {
  diagnostics::Diagnostic d;
  d.severity = diagnostics::Severity::warning;
  d.rule = rules::yaml_skipped;
  d.location = diagnostics::Location::at(path, found.position.line, found.position.column);
  d.message = std::move(why);
  skipped.push_back(std::move(d));
}

}  // namespace

std::string registrations_yaml(std::span<const sources::ScannedFile> files,
                               std::vector<diagnostics::Diagnostic>& skipped,
                               std::vector<YamlLineOrigin>* origins) {
  // "ns::name.overload" -> key -> kernel, from every file's implementations.
  std::map<std::string, std::map<std::string, std::string>> kernels;
  for (const sources::ScannedFile& file : files) {
    for (const sources::NamedOperator& impl : file.scan.implementations) {
      if (impl.dispatch_key.empty() || impl.kernel.empty()) continue;
      kernels[full_name(impl.library_namespace, impl.name)][impl.dispatch_key] = impl.kernel;
    }
  }
  std::string out;
  std::map<std::string, std::string> written;  // full name -> where its entry came from
  for (const sources::ScannedFile& file : files) {
    for (const sources::FoundSchema& found : file.scan.schemas) {
      schema::ParseResult parsed = schema::parse_schema(found.text.text());
      if (!parsed.ok()) {
        skip(skipped, file.path, found, "not written to the YAML: the schema does not parse");
        continue;
      }
      std::string ns = sources::resolved_namespace(found);
      std::string func = schema::print_schema(*parsed.schema);
      if (ns.empty()) {
        skip(skipped, file.path, found,
             "not written to the YAML: its namespace is not known statically (gen --target torch "
             "needs namespaced operators)");
        continue;
      }
      func = full_name(ns, func);
      std::string name = full_name(ns, parsed.schema->op.full());
      std::string here =
          fmt::format("{}:{}:{}", file.path, found.position.line, found.position.column);
      auto [first, fresh] = written.emplace(name, here);
      if (!fresh) {
        skip(skipped, file.path, found,
             fmt::format("not written to the YAML: '{}' is already written from {} (one entry per "
                         "operator; another #if branch, or a duplicate definition)",
                         name, first->second));
        continue;
      }
      std::string entry = fmt::format("# {}\n- func: {}\n", here, yaml_scalar(func));
      auto implemented = kernels.find(name);
      if (implemented != kernels.end()) {
        entry += "  dispatch:\n";
        for (const auto& [key, kernel] : implemented->second)
          entry += fmt::format("    {}: {}\n", key, kernel);
      }
      if (origins) {
        origins->insert(origins->end(),
                        static_cast<size_t>(std::count(entry.begin(), entry.end(), '\n')),
                        YamlLineOrigin{file.path, found.position});
      }
      out += entry;
    }
  }
  return out;
}

}  // namespace schemac::tool
