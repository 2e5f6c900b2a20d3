// The namespaces of operators registered through helpers (direct_register_custom_op and the
// like), settled across the files given: the helper registers into the Library its target_lib=
// names, else into the one its own module binds; either may be in another file.
#include <fmt/format.h>

#include <map>
#include <set>

#include "schemac/sources/lint.h"
#include "schemac/tokens/calls.h"

namespace schemac::sources {

namespace {

// Whether `path` is the file of Python module `module` ("vllm.utils.torch_utils" is
// .../vllm/utils/torch_utils.py or .../vllm/utils/torch_utils/__init__.py).
bool is_module_file(const std::string& path, const std::string& module) {
  if (module.empty() || module[0] == '.') return false;
  std::string relative = module;
  for (char& c : relative) {
    if (c == '.') c = '/';
  }
  for (const std::string& tail : {relative + ".py", relative + "/__init__.py"}) {
    if (path == tail) return true;
    if (path.size() > tail.size() &&
        path.compare(path.size() - tail.size(), tail.size(), tail) == 0 &&
        path[path.size() - tail.size() - 1] == '/') {
      return true;
    }
  }
  return false;
}

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

void resolve_across_files(std::span<ScannedFile> files) {
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
