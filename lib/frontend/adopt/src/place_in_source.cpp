// A finding about the adopted YAML, moved back to the registration code it came from
// (registrations_yaml.h).
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "schemac/adopt/registrations_yaml.h"
#include "schemac/sources/registration_lint.h"

namespace schemac::adopt {
namespace {

// The identifier a YAML finding points at (an argument's name, the operator's), from the text
// under its range: the last identifier in it.
std::string named_in(std::string_view text) {
  text = text.substr(0, text.find('='));  // "float factor=2.0": the argument, not its default
  size_t end = text.size();
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (end > 0 && !word(text[end - 1])) --end;
  size_t begin = end;
  while (begin > 0 && (word(text[begin - 1]) || text[begin - 1] == '.')) --begin;
  return std::string(text.substr(begin, end - begin));
}

// `name` as a whole word in `text` (not inside a longer name), or npos.
size_t find_word(const std::string& text, const std::string& name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    bool starts = at == 0 || !word(text[at - 1]);
    bool ends = at + name.size() >= text.size() || !word(text[at + name.size()]);
    if (starts && ends) return at;
  }
  return std::string::npos;
}

// A location in the YAML written for registration code, moved to the source it came from: the
// word it names inside the schema literal when that can be found (an argument's line in a schema
// written over many lines), else where the schema or the m.impl starts.
void place_in_source(diagnostics::Location& location, const std::string& path,
                     const std::string& yaml, const std::vector<YamlLineOrigin>& origins) {
  if (location.file != path || location.line == 0 || location.line > origins.size()) return;
  const YamlLineOrigin& origin = origins[location.line - 1];
  diagnostics::Location moved =
      diagnostics::Location::at(origin.file, origin.position.line, origin.position.column);
  if (origin.schema != nullptr) {
    size_t start = 0;
    for (uint32_t line = 1; line < location.line && start != std::string::npos; ++line)
      start = yaml.find('\n', start) + 1;
    size_t end = yaml.find('\n', start);
    std::string_view text = std::string_view(yaml).substr(start, end - start);
    size_t from = std::min<size_t>(location.column > 0 ? location.column - 1 : 0, text.size());
    size_t to = location.end_line == location.line && location.end_column > location.column
                    ? std::min<size_t>(location.end_column - 1, text.size())
                    : from + 1;
    std::string name = named_in(text.substr(from, to - from));
    size_t at = name.empty() ? std::string::npos : find_word(origin.schema->text(), name);
    if (at != std::string::npos) {
      moved = sources::location_in(origin.file, *origin.schema, static_cast<uint32_t>(at),
                                   static_cast<uint32_t>(name.size()));
    }
  }
  location = std::move(moved);
}

}  // namespace

void place_in_source(diagnostics::Diagnostic& d, const std::string& path, const std::string& yaml,
                     const std::vector<YamlLineOrigin>& origins) {
  if (origins.empty()) return;
  bool moved = d.location.file == path;
  place_in_source(d.location, path, yaml, origins);
  for (diagnostics::Note& note : d.notes) place_in_source(note.location, path, yaml, origins);
  // A fix names bytes of the YAML, which the source does not have.
  if (moved) d.fix.reset();
}

}  // namespace schemac::adopt
