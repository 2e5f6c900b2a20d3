// Reading a file's bytes: the one reader behind every tool's inputs, configs, ignore files and
// generated outputs.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace schemac::support {

// The bytes at `path`, or nothing when it is a folder, does not exist or cannot be read (errno
// then says why). A pipe is read to its end, so a shell's `<(git show HEAD:ops.yaml)` (a
// /dev/fd/N path) is an input like any file; `regular_only` refuses anything but a regular file,
// for the files a folder search finds (a pipe there would stall the search).
std::optional<std::string> read_file(const std::filesystem::path& path, bool regular_only = false);

}  // namespace schemac::support
