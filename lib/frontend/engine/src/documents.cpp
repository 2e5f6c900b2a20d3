// The documents a door reads for its arguments (inputs.h): stdin, folders, files, once each.
#include "schemac/engine/documents.h"

#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "schemac/inputs/folder_search.h"
#include "schemac/inputs/text.h"
#include "schemac/sources/language.h"
#include "schemac/support/files.h"

namespace schemac::engine {
namespace {

namespace fs = std::filesystem;

const std::string kStdinName = "<stdin>";  // without --stdin-filename

// Reads the arguments into `out`, each file once.
class Reader {
 public:
  Reader(const InputReading& reading, Inputs& out) : reading_(reading), out_(out) {}

  void add_stdin() {
    if (stdin_read_) return;
    stdin_read_ = true;
    std::string text = reading_.read_stdin ? reading_.read_stdin() : std::string();
    const bool code = sources::language_of(reading_.stdin_name, text).has_value();
    if (const std::string why = inputs::why_not_text(text, code); !why.empty()) {
      if (reading_.error) reading_.error(fmt::format("cannot read stdin: {}", why));
      out_.unreadable.push_back("cannot read stdin");
      return;
    }
    if (reading_.stdin_name.empty()) {
      out_.documents.emplace_back(kStdinName, std::move(text));
      out_.documents.back().config_path = std::string(".");  // the working directory's config
    } else {
      out_.documents.emplace_back(inputs::normal_path(reading_.stdin_name), std::move(text));
    }
  }

  void add_folder(const std::string& folder) {
    inputs::FolderSearch search{
        lint_reads, [this](const std::string& path, std::string_view why) { skipped(path, why); },
        reading_.limit};
    inputs::FoundFiles found = inputs::files_under(folder, search);
    if (!found.complete) out_.complete = false;
    const size_t before = out_.documents.size();
    for (const std::string& path : found.files) add_file(path, true);
    if (out_.documents.size() == before && reading_.note)
      reading_.note(fmt::format("nothing to lint in '{}'", folder));
  }

  void add_file(const std::string& path, bool from_folder) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    if (!seen_.insert(ec ? path : canonical.string()).second) return;
    if (reading_.by_content && !from_folder && !lint_reads(path)) {
      skipped(path, "not a YAML, C++ or Python file lint reads");
      return;
    }
    from_folder = from_folder || reading_.by_content;
    const bool code = sources::language_for_path(path).has_value();  // Latin-1 comments allowed
    std::optional<std::string> text;
    if (from_folder) {
      // Found, not asked for: what is not text is not an operator file.
      text = support::read_file(path, /*regular_only=*/true);
      if (text) {
        if (const std::string why = inputs::why_not_text(*text, code); !why.empty()) {
          skipped(path, why);
          return;
        }
      }
    }
    if (!text) text = read_named(path, code);
    if (!text) {
      out_.unreadable.push_back(fmt::format("cannot read '{}'", path));
      return;
    }
    if (from_folder) {
      if (std::optional<std::string> generator = inputs::generator_of(*text)) {
        skipped(path, fmt::format("written by {}", *generator));
        return;
      }
    }
    out_.documents.emplace_back(inputs::normal_path(path), std::move(*text), from_folder);
    out_.documents.back().excludable = from_folder;
  }

 private:
  void skipped(const std::string& path, std::string_view why) const {
    if (reading_.skipped) reading_.skipped(inputs::normal_path(path), why);
  }
  std::optional<std::string> read_named(const std::string& path, bool code) const {
    if (reading_.read_named) return reading_.read_named(path, code);
    return inputs::read_text_file(path, code);
  }

  const InputReading& reading_;
  Inputs& out_;
  std::set<std::string> seen_;  // canonical paths of the files read
  bool stdin_read_ = false;
};

}  // namespace

bool lint_reads(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (name == config::kConfigFileName || name == "tags.yaml") return false;
  return sources::is_yaml_path(path) || sources::language_for_path(path).has_value();
}

Inputs read_inputs(const std::vector<std::string>& arguments, const InputReading& reading) {
  Inputs out;
  Reader reader(reading, out);
  for (const std::string& argument : arguments) {
    std::error_code ec;
    if (argument == "-") {
      reader.add_stdin();
    } else if (fs::is_directory(argument, ec)) {
      reader.add_folder(argument);
    } else {
      reader.add_file(argument, false);
    }
  }
  return out;
}

config::ConfigProvider config_provider(const std::string& forced) {
  return config::ConfigProvider(forced, [](const fs::path& path, std::string& why) {
    return inputs::read_text_file(path, false, &why);
  });
}

}  // namespace schemac::engine
