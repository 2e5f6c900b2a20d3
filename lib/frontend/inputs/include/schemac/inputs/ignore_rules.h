// Which files a folder search leaves out, by the patterns git uses for .gitignore (also the
// syntax of `exclude:` in .schemac.yaml): blank lines and `#` comments skipped; `*` and `?` never
// match '/', `[...]` a class; `**/` any leading folders, `/**` everything inside, `/**/` zero or
// more folders; a trailing `/` matches folders only; a pattern with a '/' before its end is
// anchored to its file's folder (a leading '/' only anchors), one without matches a name at any
// depth; `!` re-includes what an earlier pattern left out (not inside a folder left out: a
// left-out folder is not searched); `\` escapes the next character. The last matching pattern
// decides; the patterns of a deeper file come after those of the folders above it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::inputs {

// Whether `path` (relative, '/'-separated, no leading "./") matches the glob `pattern`:
// `*`, `?`, `[...]` within one path component, `**` across them.
bool glob_match(std::string_view pattern, std::string_view path);

class IgnoreRules {
 public:
  // Adds the patterns of a .gitignore-style `text` whose paths are relative to the folder
  // `base`.
  void add(const std::filesystem::path& base, std::string_view text);
  // Adds the `.gitignore` in `folder`, when there is one.
  void add_file_in(const std::filesystem::path& folder);

  // Whether `path` (a file, or a folder when `is_folder`) is left out. Relative paths are taken
  // from the working directory, for `path` and the bases alike.
  bool ignored(const std::filesystem::path& path, bool is_folder) const;

  bool empty() const { return patterns_.empty(); }

 private:
  struct Pattern {
    std::string base;  // absolute, lexically normal, '/'-separated
    std::string glob;
    bool negated = false;
    bool folder_only = false;
    bool anchored = false;  // compared with the whole path below `base`, else with the name
  };
  std::vector<Pattern> patterns_;
};

// The .gitignore rules that apply inside `folder`: those of each folder from the top of its git
// work tree (the nearest folder above with a `.git`) down to `folder` itself, and the work tree's
// .git/info/exclude. None outside a git work tree but `folder`'s own .gitignore.
IgnoreRules gitignore_rules_for(const std::filesystem::path& folder);

}  // namespace schemac::inputs
