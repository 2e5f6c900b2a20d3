// write_outputs and depfile_text (generate.h): the only place gen touches the output folder.
#include <algorithm>
#include <fstream>
#include <set>

#include "schemac/codegen/output_files.h"
#include "schemac/generate/generate.h"
#include "schemac/support/files.h"

namespace schemac::generate {
namespace {

namespace fs = std::filesystem;

// Replaces `path` with `content` unless it already holds exactly those bytes.
std::optional<std::string> write_if_changed(const fs::path& path, const std::string& content,
                                            const WriteFile& write) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    if (std::optional<std::string> old = support::read_file(path); old && *old == content)
      return {};
  }
  return write(path, content);
}

// Removes the shard files in `output_dir` that this run did not write; only plain files whose
// name is a shard name are considered.
std::optional<std::string> remove_stale_shards(const std::string& output_dir,
                                               const std::vector<codegen::GeneratedFile>& files) {
  std::set<std::string> written;
  for (const codegen::GeneratedFile& file : files) written.insert(file.name);
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(output_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!codegen::is_shard_file_name(name) || written.count(name) != 0) continue;
    std::error_code status_ec;
    if (fs::is_regular_file(it->symlink_status(status_ec))) stale.push_back(it->path());
  }
  if (ec) return "cannot list output directory '" + output_dir + "': " + ec.message();
  std::sort(stale.begin(), stale.end());
  for (const fs::path& path : stale) {
    if (!fs::remove(path, ec) && ec)
      return "cannot remove stale shard '" + path.generic_string() + "': " + ec.message();
  }
  return {};
}

// Make syntax: spaces, '#' and '$' escaped.
std::string make_escape(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

}  // namespace

std::string depfile_text(const std::vector<std::string>& outputs,
                         const std::vector<std::string>& inputs) {
  std::string out;
  for (size_t i = 0; i < outputs.size(); ++i) {
    out += (i == 0 ? "" : " \\\n ") + make_escape(outputs[i]);
  }
  out += ":";
  for (const std::string& input : inputs) out += " \\\n  " + make_escape(input);
  return out + "\n";
}

std::optional<std::string> write_outputs(const std::string& output_dir,
                                         const std::vector<codegen::GeneratedFile>& files,
                                         const WriteOptions& options) {
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  if (ec) return "cannot create output directory '" + output_dir + "': " + ec.message();
  const std::vector<std::string> paths = output_paths(output_dir, files);
  for (size_t i = 0; i < files.size(); ++i) {
    if (std::optional<std::string> why =
            write_if_changed(paths[i], files[i].content, options.write))
      return why;
  }
  if (std::optional<std::string> why = remove_stale_shards(output_dir, files)) return why;
  const std::vector<std::string> targets =
      options.stamp.empty() ? paths : std::vector<std::string>{options.stamp};
  if (!options.depfile.empty()) {
    std::optional<std::string> why =
        write_if_changed(options.depfile, depfile_text(targets, options.inputs), options.write);
    if (why) return why;
  }
  if (!options.stamp.empty()) {
    std::ofstream stamp(options.stamp, std::ios::binary | std::ios::trunc);
    if (!stamp) return "cannot write stamp file '" + options.stamp + "'";
  }
  return {};
}

}  // namespace schemac::generate
