// .gitignore's pattern language and where its files are (ignore_rules.h).
#include "schemac/inputs/ignore_rules.h"

#include "schemac/inputs/text.h"
#include "schemac/support/files.h"

namespace schemac::inputs {
namespace {

namespace fs = std::filesystem;

// `[...]` at pattern[i] against `c`; `end` is set past the class. False with end == i when the
// class is not closed (then '[' is literal).
bool class_match(std::string_view pattern, size_t i, char c, size_t& end) {
  size_t k = i + 1;
  bool negate = k < pattern.size() && (pattern[k] == '!' || pattern[k] == '^');
  if (negate) ++k;
  bool matched = false;
  bool first = true;
  for (; k < pattern.size() && (first || pattern[k] != ']'); ++k, first = false) {
    char low = pattern[k];
    if (low == '\\' && k + 1 < pattern.size()) low = pattern[++k];
    char high = low;
    if (k + 2 < pattern.size() && pattern[k + 1] == '-' && pattern[k + 2] != ']') {
      high = pattern[k + 2];
      k += 2;
    }
    if (low <= c && c <= high) matched = true;
  }
  if (k >= pattern.size()) {
    end = i;
    return false;
  }
  end = k + 1;
  return matched != negate && c != '/';
}

bool match_from(std::string_view p, std::string_view s) {
  size_t pi = 0, si = 0;
  while (pi < p.size()) {
    if (p.substr(pi).starts_with("**") && (pi == 0 || p[pi - 1] == '/')) {
      std::string_view rest = p.substr(pi + 2);
      if (rest.empty()) return true;  // `/**` or a lone `**`: everything
      if (rest.front() == '/') {
        // `**/`: zero or more whole folders.
        rest.remove_prefix(1);
        for (size_t at = si;; ++at) {
          if ((at == si || s[at - 1] == '/') && match_from(rest, s.substr(at))) return true;
          if (at >= s.size()) return false;
        }
      }
    }
    const char c = p[pi];
    if (c == '*') {
      while (pi < p.size() && p[pi] == '*') ++pi;
      for (size_t at = si;; ++at) {
        if (match_from(p.substr(pi), s.substr(at))) return true;
        if (at >= s.size() || s[at] == '/') return false;
      }
    }
    if (si >= s.size()) return false;
    if (c == '?') {
      if (s[si] == '/') return false;
      ++pi, ++si;
      continue;
    }
    if (c == '[') {
      size_t end = 0;
      if (class_match(p, pi, s[si], end)) {
        pi = end, ++si;
        continue;
      }
      if (end != pi) return false;  // a closed class that does not match
    }
    char literal = c;
    if (c == '\\' && pi + 1 < p.size()) literal = p[++pi];
    if (s[si] != literal) return false;
    ++pi, ++si;
  }
  return si == s.size();
}

// The absolute, lexically normal, '/'-separated spelling of `path`.
std::string absolute_generic(const fs::path& path) {
  std::error_code ec;
  std::string out = fs::absolute(path, ec).lexically_normal().generic_string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// `path` below `base`, or nothing when it is not below it.
std::optional<std::string> below(const std::string& base, const std::string& path) {
  if (base == "/" && path.size() > 1) return path.substr(1);
  if (path.size() > base.size() && path.starts_with(base) && path[base.size()] == '/')
    return path.substr(base.size() + 1);
  return std::nullopt;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  return match_from(pattern, path);
}

void IgnoreRules::add(const fs::path& base, std::string_view text) {
  const std::string folder = absolute_generic(base);
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string line(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Trailing spaces go unless escaped.
    while (!line.empty() && line.back() == ' ' &&
           (line.size() < 2 || line[line.size() - 2] != '\\'))
      line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    Pattern pattern{folder, "", false, false, false};
    if (line.front() == '!') {
      pattern.negated = true;
      line.erase(0, 1);
    } else if (line.starts_with("\\!") || line.starts_with("\\#")) {
      line.erase(0, 1);
    }
    if (!line.empty() && line.back() == '/') {
      pattern.folder_only = true;
      line.pop_back();
    }
    if (line.find('/') != std::string::npos) pattern.anchored = true;
    if (line.starts_with("/")) line.erase(0, 1);
    if (line.empty()) continue;
    pattern.glob = std::move(line);
    patterns_.push_back(std::move(pattern));
  }
}

void IgnoreRules::add_file_in(const fs::path& folder) {
  std::error_code ec;
  const fs::path file = folder / ".gitignore";
  if (!fs::is_regular_file(file, ec)) return;
  if (std::optional<std::string> text = support::read_file(file)) add(folder, *text);
}

bool IgnoreRules::ignored(const fs::path& path, bool is_folder) const {
  const std::string at = absolute_generic(path);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->folder_only && !is_folder) continue;
    std::optional<std::string> relative = below(it->base, at);
    if (!relative || relative->empty()) continue;
    std::string_view subject = *relative;
    if (!it->anchored) subject = subject.substr(subject.rfind('/') + 1);  // npos + 1 == 0
    if (glob_match(it->glob, subject)) return !it->negated;
  }
  return false;
}

IgnoreRules gitignore_rules_for(const fs::path& folder) {
  IgnoreRules rules;
  std::error_code ec;
  const fs::path absolute = fs::absolute(folder, ec).lexically_normal();
  std::vector<fs::path> chain;  // absolute folders from `folder` up to the work tree's top
  bool in_work_tree = false;
  for (fs::path at = absolute;; at = at.parent_path()) {
    chain.push_back(at);
    if (fs::exists(at / ".git", ec)) {
      in_work_tree = true;
      break;
    }
    if (at == at.parent_path() || at.empty()) break;
  }
  if (!in_work_tree) chain.resize(1);
  for (size_t i = chain.size(); i-- > 0;) {
    if (in_work_tree && i + 1 == chain.size()) {
      if (std::optional<std::string> text =
              support::read_file(chain[i] / ".git" / "info" / "exclude"))
        rules.add(chain[i], *text);
    }
    rules.add_file_in(chain[i]);
  }
  return rules;
}

}  // namespace schemac::inputs
