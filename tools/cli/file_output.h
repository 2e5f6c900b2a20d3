// Writing the files the commands produce (gen's outputs and depfile, lint --fix's edits).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace schemac::cli {

// Replaces `path` with `content` through a temporary file beside it (PATH.tmpPID) renamed over
// it, so that no reader sees half a file and a failure leaves the old file as it was. With
// `keep_permissions`, the new file takes the replaced one's permissions. Returns why it failed
// ("cannot write 'TEMP'" or "cannot replace 'PATH': WHY"), or nothing.
std::optional<std::string> replace_file(const std::filesystem::path& path, std::string_view content,
                                        bool keep_permissions = false);

}  // namespace schemac::cli
