// Reading files for the subcommands. Only the CLIs touch files; the libraries take text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::cli {

// Why `text` is not UTF-8 text: "" when it is; else, e.g., "it holds a NUL byte at line 3,
// column 7 (a binary file?)" or "invalid UTF-8 byte 0xff at line 2, column 5". With
// `any_encoding` only a NUL byte counts (C++ and Python comments may hold Latin-1 bytes, which
// must not hide a file's schemas; YAML must be Unicode).
std::string why_not_text(std::string_view text, bool any_encoding = false);

// An input file's text. When the file is missing, a directory, unreadable, binary or (unless
// `any_encoding`) not UTF-8, prints "COMMAND: error: cannot read [WHAT ]'PATH': WHY" and returns
// nothing: the same answers for every language. `what` names the kind of file, e.g. "tags
// file"; empty for the command's main inputs.
std::optional<std::string> read_input(std::string_view command, const std::string& path,
                                      std::string_view what = "", bool any_encoding = false);

// A line of a stream and its number (from 1).
struct NumberedLine {
  uint32_t number = 0;
  std::string text;
};
// The lines of `in` (stdin, for one input per line) that are not blank, without their line break
// ("\r\n" too).
std::vector<NumberedLine> non_blank_lines(std::istream& in);

}  // namespace schemac::cli
