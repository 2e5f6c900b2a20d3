// Reading an input's bytes, and whether they are text: the one answer for the command line's
// inputs, the files a folder search finds and the files the editor reads for a project.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace schemac::inputs {

// Why `text` is not UTF-8 text: "" when it is; else, e.g., "it holds a NUL byte at line 3,
// column 7 (a binary file?)" or "it is not UTF-8: byte 0xff at line 2, column 5". With
// `any_encoding` only a NUL byte counts (C++ and Python comments may hold Latin-1 bytes, which
// must not hide a file's schemas; YAML must be Unicode).
std::string why_not_text(std::string_view text, bool any_encoding = false);

// The file's bytes (support::read_file: a pipe too) when they are text (why_not_text), else
// nothing, with why in `why` when given
// ("no such file, or not readable", or why_not_text's answer).
std::optional<std::string> read_text_file(const std::filesystem::path& path,
                                          bool any_encoding = false, std::string* why = nullptr);

}  // namespace schemac::inputs
