#include "schemac/sources/language.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace schemac::sources {
namespace {

constexpr size_t kMaxBytesRead = 64 * 1024;

std::string_view extension(std::string_view path) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.find_last_of("/\\");
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return path.substr(dot);
}

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// `line` starts with `word` followed by something that cannot continue an identifier.
bool starts_with_word(std::string_view line, std::string_view word) {
  return line.starts_with(word) &&
         (line.size() == word.size() || !is_identifier_char(line[word.size()]));
}

std::string_view trim(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())) != 0)
    line.remove_suffix(1);
  return line;
}

// `key:` followed by the end of the line or a space, the key a plain YAML word.
bool yaml_key_line(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (is_identifier_char(line[i]) || line[i] == '-' || line[i] == '.')) ++i;
  if (i == 0 || i >= line.size() || line[i] != ':') return false;
  return i + 1 == line.size() || line[i + 1] == ' ';
}

// Lines only one language writes (`strong`), and lines merely likely in one (`weak`).
struct Scores {
  int strong[3] = {0, 0, 0};  // indexed by Kind
  int weak[3] = {0, 0, 0};
};
enum Kind { kCpp, kPython, kYaml };

bool preprocessor_line(std::string_view line) {
  if (!line.starts_with("#")) return false;
  std::string_view directive = trim(line.substr(1));
  for (std::string_view word : {"include", "define", "pragma", "ifdef", "ifndef", "if", "endif",
                                "else", "elif", "undef", "error"}) {
    if (starts_with_word(directive, word)) return true;
  }
  return false;
}

bool python_statement(std::string_view line) {
  if (line.starts_with("import ") || line.starts_with("def ") || line.starts_with("async def ") ||
      line.starts_with("if __name__")) {
    return true;
  }
  if (line.starts_with("from ") && line.find(" import ") != std::string_view::npos) return true;
  if (line.starts_with("class ") && line.ends_with(":")) return true;
  return line.starts_with("@") && line.size() > 1 && is_identifier_char(line[1]);
}

bool cpp_statement(std::string_view line) {
  for (std::string_view word : {"TORCH_LIBRARY", "TORCH_LIBRARY_IMPL", "TORCH_LIBRARY_FRAGMENT",
                                "TORCH_LIBRARY_EXPAND", "template", "using namespace"}) {
    if (starts_with_word(line, word)) return true;
  }
  return line.starts_with("//") || line.starts_with("/*") ||
         (line.starts_with("namespace ") && line.ends_with("{"));
}

// `name = value`: a Python module constant (C++ would end it with ';').
bool assignment_line(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && is_identifier_char(line[i])) ++i;
  return i > 0 && line.substr(i).starts_with(" = ");
}

void score_line(std::string_view raw, bool first_line, Scores& scores) {
  const std::string_view line = trim(raw);
  if (line.empty()) return;
  if (first_line && line.starts_with("#!")) {
    if (line.find("python") != std::string_view::npos) scores.strong[kPython] += 100;
    return;
  }
  // Indented lines may sit in a YAML block scalar or a docstring: only unindented ones are
  // strong evidence.
  const bool indented = raw.front() == ' ' || raw.front() == '\t';
  if (preprocessor_line(line)) {
    ++(indented ? scores.weak : scores.strong)[kCpp];
    return;
  }
  if (line.starts_with("#")) return;  // a comment in YAML and Python alike
  if (yaml_key_line(line)) {
    // C++'s `public:` and Python's `else:` look the same, hence weak.
    if (!indented) ++scores.weak[kYaml];
    return;
  }
  if (!indented &&
      (line == "---" || (line.starts_with("- ") && yaml_key_line(trim(line.substr(2)))))) {
    ++scores.strong[kYaml];
    return;
  }
  if (!indented && python_statement(line)) {
    ++scores.strong[kPython];
    return;
  }
  if (!indented && cpp_statement(line)) {
    ++scores.strong[kCpp];
    return;
  }
  if (line.ends_with(";") || line.ends_with("{") || line == "}" || line == "};") {
    ++scores.weak[kCpp];
    return;
  }
  if (!indented && assignment_line(line)) ++scores.weak[kPython];
}

// The kind with the most, when one has more than each other.
std::optional<Kind> leader(const int (&counts)[3]) {
  for (Kind kind : {kCpp, kPython, kYaml}) {
    bool ahead = true;
    for (Kind other : {kCpp, kPython, kYaml})
      ahead = ahead && (other == kind || counts[kind] > counts[other]);
    if (ahead) return kind;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Language> language_for_path(std::string_view path) {
  const std::string_view ext = extension(path);
  for (std::string_view cpp : {".cpp", ".cc", ".cxx", ".cu", ".h", ".hpp", ".cuh"}) {
    if (ext == cpp) return Language::cpp;
  }
  if (ext == ".py") return Language::python;
  return std::nullopt;
}

bool is_yaml_path(std::string_view path) {
  const std::string_view ext = extension(path);
  return ext == ".yaml" || ext == ".yml";
}

std::optional<Language> language_from_content(std::string_view text) {
  text = text.substr(0, std::min(text.size(), kMaxBytesRead));
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
  Scores scores;
  bool first = true;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    score_line(text.substr(0, end), first, scores);
    first = false;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  std::optional<Kind> kind = leader(scores.strong);
  if (!kind) kind = leader(scores.weak);
  if (kind == kCpp) return Language::cpp;
  if (kind == kPython) return Language::python;
  return std::nullopt;
}

std::optional<Language> language_of(std::string_view path, std::string_view text) {
  if (std::optional<Language> by_name = language_for_path(path)) return by_name;
  if (is_yaml_path(path)) return std::nullopt;
  return language_from_content(text);
}

}  // namespace schemac::sources
