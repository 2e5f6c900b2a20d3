// Constants one Python file imports from another given with it (`from pkg.constants import
// LIBRARY_NAME`, `import pkg.constants as c` then `c.LIBRARY_NAME`, relative imports too): the
// files whose scan needed one are read again with every file's module-level string constants, in a
// few rounds so that a constant built from another module's constant is known too.
#include <algorithm>

#include "scan_internal.h"

namespace schemac::sources {
namespace {

constexpr int kRounds = 3;

bool ends_with_file(const std::string& path, const std::string& tail) {
  if (path == tail) return true;
  return path.size() > tail.size() &&
         path.compare(path.size() - tail.size(), tail.size(), tail) == 0 &&
         path[path.size() - tail.size() - 1] == '/';
}

// The folder of `path` ("" for a bare name), `up` levels higher.
std::string folder_of(const std::string& path, size_t up) {
  std::string folder = path;
  for (size_t level = 0; level <= up; ++level) {
    size_t slash = folder.rfind('/');
    if (slash == std::string::npos) return level == up ? "" : "..";
    folder.resize(slash);
  }
  return folder;
}

// A module-level constant `name` of the file of `module`, as `importer` imports it.
std::optional<std::string> constant_of(std::span<const ScannedFile> files,
                                       const std::string& importer, std::string_view module,
                                       std::string_view name) {
  for (const ScannedFile& file : files) {
    if (file.path == importer || !is_module_file(file.path, std::string(module), importer))
      continue;
    for (const ModuleConstant& constant : file.scan.constants) {
      if (constant.name == name) return constant.value;
    }
  }
  return std::nullopt;
}

}  // namespace

bool is_module_file(const std::string& path, const std::string& module,
                    const std::string& importer) {
  if (module.empty()) return false;
  size_t dots = module.find_first_not_of('.');
  if (dots == std::string::npos) return false;
  std::string relative = module.substr(dots);
  std::replace(relative.begin(), relative.end(), '.', '/');
  if (dots == 0) {
    return ends_with_file(path, relative + ".py") ||
           ends_with_file(path, relative + "/__init__.py");
  }
  // `from .c import X` in pkg/a.py is pkg/c.py; each further dot is one folder up.
  std::string folder = folder_of(importer, dots - 1);
  std::string base = folder.empty() ? relative : folder + "/" + relative;
  return path == base + ".py" || path == base + "/__init__.py";
}

void read_imported_constants(std::span<ScannedFile> files) {
  for (int round = 0; round < kRounds; ++round) {
    bool changed = false;
    for (ScannedFile& file : files) {
      if (!file.scan.rescan) continue;
      std::shared_ptr<const PythonRescan> rescan = file.scan.rescan;
      const std::string& path = file.path;
      ScanResult again;
      find_python_registrations(
          rescan->stream, rescan->options, again,
          [&](std::string_view module, std::string_view name) {
            return constant_of(files, path, module, name);
          },
          false);
      changed = changed || again.constants != file.scan.constants;
      again.rescan = std::move(rescan);
      file.scan = std::move(again);
    }
    if (!changed) break;
  }
  for (ScannedFile& file : files) file.scan.rescan.reset();
}

}  // namespace schemac::sources
