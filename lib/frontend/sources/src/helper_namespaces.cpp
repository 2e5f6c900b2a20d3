// The namespaces of operators registered through helpers (direct_register_custom_op and the
// like), settled across the files given: the helper registers into the Library its target_lib=
// names, else into the one its own module binds; either may be in another file.
#include <fmt/format.h>

#include <map>
#include <set>

#include "scan_internal.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/tokens/calls.h"

namespace schemac::sources {

namespace {

struct Settled {
  std::string ns;
  std::string why_not;  // when ns is empty
};

class HelperNamespaces {
 public:
  explicit HelperNamespaces(std::span<ScannedFile> files) {
    for (const ScannedFile& file : files) {
      for (const LibraryBinding& binding : file.scan.libraries) {
        bound_[binding.name].insert(binding.ns);
      }
      for (const HelperDefinition& helper : file.scan.helper_definitions) {
        definitions_.push_back({&file.path, &helper});
      }
    }
  }

  Settled settle(const HelperLibrary& library) const {
    if (!library.target_lib.empty()) {
      auto found = bound_.find(library.target_lib);
      if (found != bound_.end() && found->second.size() == 1) return {*found->second.begin(), ""};
      if (!library.default_ns.empty()) return {library.default_ns, ""};
      return {"", found == bound_.end()
                      ? fmt::format("its target_lib '{}' is not a Library(\"ns\", ...) bound in "
                                    "the files given",
                                    library.target_lib)
                      : fmt::format("its target_lib '{}' names Library objects of several "
                                    "namespaces in the files given",
                                    library.target_lib)};
    }
    // The helper's own module, when given; else every file that defines the helper, if they agree.
    std::set<std::string> agreed;
    for (const auto& [path, helper] : definitions_) {
      if (helper->name != library.helper || helper->default_ns.empty()) continue;
      if (is_module_file(*path, library.module)) return {helper->default_ns, ""};
      agreed.insert(helper->default_ns);
    }
    if (agreed.size() == 1) return {*agreed.begin(), ""};
    if (!library.default_ns.empty()) return {library.default_ns, ""};
    std::string module = library.module.empty() ? "" : " (" + library.module + ")";
    return {"", fmt::format("{} registers into the Library of its own module{}, which is not "
                            "among the files given; give that file, or the helper's namespace "
                            "in .schemac.yaml's custom-op-helpers",
                            library.helper, module)};
  }

 private:
  std::map<std::string, std::set<std::string>> bound_;
  std::vector<std::pair<const std::string*, const HelperDefinition*>> definitions_;
};

}  // namespace

namespace {

// The name of the Python module a file is: its file name without .py; a package's __init__.py,
// its folder's name.
std::string module_name(const std::string& path) {
  std::string_view stem = path;
  if (size_t slash = stem.rfind('/'); slash != std::string_view::npos)
    stem.remove_prefix(slash + 1);
  if (stem == "__init__.py") {
    std::string_view folder = std::string_view(path).substr(0, path.size() - stem.size());
    if (!folder.empty()) folder.remove_suffix(1);
    size_t slash = folder.rfind('/');
    return std::string(slash == std::string_view::npos ? folder : folder.substr(slash + 1));
  }
  if (stem.ends_with(".py")) stem.remove_suffix(3);
  return std::string(stem);
}

}  // namespace

void resolve_across_files(std::span<ScannedFile> files) {
  read_imported_constants(files);
  for (ScannedFile& file : files) {
    for (FoundSchema& found : file.scan.schemas) {
      if (found.namespace_from_module) found.library_namespace = module_name(file.path);
    }
    for (NamedOperator& named : file.scan.named_definitions) {
      if (named.namespace_from_module) named.library_namespace = module_name(file.path);
    }
  }
  HelperNamespaces namespaces(files);
  auto settle = [&](ScanResult& scan, auto& entry, const std::string& op) {
    if (!entry.helper) return;
    Settled settled = namespaces.settle(*entry.helper);
    entry.helper.reset();
    if (!settled.ns.empty()) {
      entry.library_namespace = settled.ns;
      return;
    }
    scan.inference_problems.push_back(
        {entry.position,
         fmt::format("custom op '{}': its namespace is not known statically: {}", op,
                     settled.why_not),
         false});
  };
  for (ScannedFile& file : files) {
    for (FoundSchema& found : file.scan.schemas) {
      settle(file.scan, found, tokens::operator_name_in(found.text.text()));
    }
    for (NamedOperator& named : file.scan.named_definitions) settle(file.scan, named, named.name);
  }
}

}  // namespace schemac::sources
