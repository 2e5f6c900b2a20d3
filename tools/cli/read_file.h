// Reading an input file whole, for the subcommands. Only the CLI touches files.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace schemac::cli {

// The file's bytes, or nothing when it cannot be read (missing, a directory, an I/O error).
std::optional<std::string> read_file(const std::filesystem::path& path);

}  // namespace schemac::cli
