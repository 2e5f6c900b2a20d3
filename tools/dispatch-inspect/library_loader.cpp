// Loading operator libraries inside a registration transaction (library_loader.h).
#include "library_loader.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <ostream>
#include <set>

#include "schemac/dispatch/registration_transaction.h"
#include "schemac/elf/elf_check.h"
#include "schemac/stable/abi.h"

namespace schemac::inspect {
namespace {

// dlopen searches the library path for a name without a slash; a user naming a file in the
// current directory means that file.
std::string dlopen_name(const std::string& path) {
  if (path.find('/') != std::string::npos) return path;
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return "./" + path;
  return path;
}

std::string dl_error() {
  const char* why = dlerror();
  return why ? why : "unknown dynamic loader error";
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += "\n";
    out += line;
  }
  return out;
}

// Plugins that loaded stay loaded for the life of the process; kept reachable here.
std::vector<SchemacPlugin>& loaded_plugins() {
  static auto* plugins = new std::vector<SchemacPlugin>();  // never destroyed: see above
  return *plugins;
}

}  // namespace

LoadResult load_library(const std::string& path) {
  const std::string name = dlopen_name(path);
  // A name without '/' that is not a file here is dlopen's to find on the library path.
  if (name.find('/') != std::string::npos) {
    if (std::optional<std::string> why = elf::check_shared_library_file(name))
      return {false, std::move(*why)};
  }
  dispatch::RegistrationTransaction transaction;
  // RTLD_NOW: an unresolved symbol fails here, with the loader's message, not at the first call.
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return {false, dl_error()};  // the transaction rolls back
  if (!transaction.failures().empty()) {
    transaction.rollback();
    dlclose(handle);
    return {false, join_lines(transaction.failures())};
  }
  // A stable-ABI plugin registers through the runtime's plugin loader, which checks its version.
  if (dlsym(handle, SCHEMAC_PLUGIN_ABI_VERSION_SYMBOL) != nullptr) {
    SchemacPlugin plugin = nullptr;
    if (schemac_plugin_load(name.c_str(), &plugin) != SCHEMAC_OK) {
      std::string why = schemac_last_error();
      transaction.rollback();
      dlclose(handle);
      return {false, std::move(why)};
    }
    if (!transaction.failures().empty()) {
      transaction.rollback();
      schemac_plugin_unload(plugin);
      dlclose(handle);
      return {false, join_lines(transaction.failures())};
    }
    loaded_plugins().push_back(plugin);
  }
  transaction.commit();
  return {true, {}};
}

LoadState load_once(const std::string& path, std::ostream& err) {
  static auto* loaded = new std::set<std::string>();  // never destroyed: the libraries stay loaded
  if (loaded->contains(path)) return LoadState::Before;
  const LoadResult result = load_library(path);
  if (!result.ok) {
    err << fmt::format("dispatch-inspect: error: cannot load '{}': {}\n", path, result.error);
    return LoadState::Failed;
  }
  loaded->insert(path);
  return LoadState::Now;
}

bool load_libraries(const std::vector<std::string>& paths, std::ostream& err) {
  for (const std::string& path : paths)
    if (load_once(path, err) == LoadState::Failed) return false;
  return true;
}

}  // namespace schemac::inspect
