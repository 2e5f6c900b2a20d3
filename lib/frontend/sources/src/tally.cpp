#include "schemac/sources/tally.h"

#include <fmt/format.h>

namespace schemac::sources {

FormTally tally(std::span<const ScannedFile> files) {
  FormTally out;
  out.files = files.size();
  for (const ScannedFile& file : files) {
    for (const FoundSchema& found : file.scan.schemas) {
      switch (found.form) {
        case SchemaForm::literal: ++out.literal; break;
        case SchemaForm::inferred: ++out.inferred; break;
        case SchemaForm::helper: ++out.helper; break;
        case SchemaForm::legacy: ++out.legacy; break;
      }
    }
    for (const NamedOperator& named : file.scan.named_definitions)
      ++(named.inferred_at_load ? out.name_only : out.unread);
  }
  return out;
}

std::string tally_line(const FormTally& tally) {
  std::string line = fmt::format(
      "registration code: {} {}; schemas checked: {} literal, {} inferred, {} helper, {} legacy "
      "API; {} name-only (inferred when the library loads)",
      tally.files, tally.files == 1 ? "file" : "files", tally.literal, tally.inferred, tally.helper,
      tally.legacy, tally.name_only);
  if (tally.unread > 0) line += fmt::format(", {} not readable statically", tally.unread);
  return line;
}

}  // namespace schemac::sources
