// Library: registration blocks on top of the Dispatcher's def/impl/fallback.
#include "schemac/dispatch/library.h"
#include "schemac/dispatch/registration_transaction.h"

#include <cstdio>
#include <map>
#include <mutex>
#include <utility>

#include <fmt/format.h>

namespace schemac::dispatch {

using keys::DispatchKey;

namespace {

std::string_view to_string(Library::Kind kind) {
  switch (kind) {
    case Library::Kind::Def: return "SCHEMAC_LIBRARY";
    case Library::Kind::Impl: return "SCHEMAC_LIBRARY_IMPL";
    case Library::Kind::Fragment: return "SCHEMAC_LIBRARY_FRAGMENT";
  }
  return "library";
}

// Which namespaces have a Def library, per dispatcher, and where: a namespace has one Def block.
struct DefLibraries {
  std::mutex mutex;
  std::map<std::pair<const Dispatcher*, std::string>, std::string> sites;
};
DefLibraries& def_libraries() {
  static DefLibraries* registry = new DefLibraries();  // never destroyed: used by static dtors
  return *registry;
}

}  // namespace

Library::Library(Kind kind, std::string ns, std::optional<DispatchKey> key, std::string file,
                 uint32_t line, Dispatcher& dispatcher)
    : kind_(kind),
      ns_(std::move(ns)),
      key_(key),
      site_(fmt::format("{}:{}", file, line)),
      dispatcher_(&dispatcher) {
  if (ns_.empty() || (ns_ == "_" && kind_ != Kind::Impl))
    throw DispatchError(
        fmt::format("{} at {} needs a namespace name, not '{}'", to_string(kind_), site_, ns_));
  if (key_ && !keys::is_valid_key(*key_))
    throw DispatchError(
        fmt::format("{} at {} names an invalid dispatch key", to_string(kind_), site_));
  if (kind_ == Kind::Def) {
    DefLibraries& libs = def_libraries();
    std::lock_guard lock(libs.mutex);
    auto [it, inserted] = libs.sites.try_emplace({dispatcher_, ns_}, site_);
    if (!inserted)
      throw DispatchError(fmt::format(
          "only one SCHEMAC_LIBRARY block may define the namespace '{}': one is at {} and another "
          "at {}; use SCHEMAC_LIBRARY_FRAGMENT for more definitions",
          ns_, it->second, site_));
  }
}

Library::~Library() {
  if (dispatcher_ == nullptr) return;  // moved from
  while (!handles_.empty()) {
    handles_.back().reset();
    handles_.pop_back();
  }
  if (kind_ == Kind::Def) {
    DefLibraries& libs = def_libraries();
    std::lock_guard lock(libs.mutex);
    const auto it = libs.sites.find({dispatcher_, ns_});
    if (it != libs.sites.end() && it->second == site_) libs.sites.erase(it);
  }
}

std::string Library::name_of_schema(std::string_view schema) {
  const size_t paren = schema.find('(');
  std::string_view name = schema.substr(0, paren);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
  return std::string(name);
}

std::string Library::qualify(std::string_view name) const {
  const size_t sep = name.find("::");
  if (sep == std::string_view::npos) {
    if (ns_ == "_")
      throw DispatchError(
          fmt::format("operator name '{}' at {} needs a namespace: the library is "
                      "for any namespace ('_')",
                      name, site_));
    return fmt::format("{}::{}", ns_, name);
  }
  const std::string_view given = name.substr(0, sep);
  if (ns_ != "_" && given != ns_)
    throw DispatchError(
        fmt::format("the namespace '{}' of operator '{}' does not match the "
                    "namespace '{}' of the library at {}",
                    given, name, ns_, site_));
  return std::string(name);
}

Library& Library::def(std::string_view schema) {
  if (kind_ == Kind::Impl)
    throw DispatchError(
        fmt::format("def('{}') in the {} block at {}: operators are defined in "
                    "SCHEMAC_LIBRARY or SCHEMAC_LIBRARY_FRAGMENT blocks",
                    schema, to_string(kind_), site_));
  const std::string name = name_of_schema(schema);
  std::string text(schema);
  if (name.find("::") == std::string::npos) {
    text = fmt::format("{}::{}", ns_, schema.substr(schema.find(name)));
  } else {
    (void)qualify(name);  // checks the namespace
  }
  handles_.push_back(dispatcher_->def(text, site_));
  return *this;
}

void Library::check_arity(const std::string& op, Arity arity) const {
  const OperatorEntry* entry = dispatcher_->find(op);
  if (entry == nullptr || !entry->has_schema()) return;  // impl before def: nothing to compare
  const OperatorDefinition& def = *entry->definition();
  const auto mismatch = [&](std::string_view what, size_t expected, size_t inferred) {
    throw DispatchError(fmt::format(
        "inferred operator schema for a C++ kernel function doesn't match the expected function "
        "schema of '{}': the number of {} is different, {} vs {}\n  expected schema: {}\n    "
        "registered at {}\n  kernel registered at {}",
        entry->full_name(), what, expected, inferred, def.schema_text, def.site, site_));
  };
  if (!def.schema.is_vararg && def.schema.arguments.size() != arity.arguments)
    mismatch("arguments", def.schema.arguments.size(), arity.arguments);
  if (!def.schema.is_varret && def.schema.returns.size() != arity.returns)
    mismatch("returns", def.schema.returns.size(), arity.returns);
}

Library& Library::impl_kernel(std::string_view op, std::optional<DispatchKey> key,
                              KernelFunction kernel, std::string debug,
                              std::optional<Arity> arity) {
  if (kind_ == Kind::Impl && key_ && key && *key != *key_)
    throw DispatchError(fmt::format("impl('{}') for key {} in the library for key {} at {}", op,
                                    dispatch::to_string(*key), dispatch::to_string(*key_), site_));
  std::string name = qualify(op);
  if (arity) check_arity(name, *arity);
  handles_.push_back(dispatcher_->impl(name, key, std::move(kernel), std::move(debug), site_));
  return *this;
}

Library& Library::fallback(KernelFunction kernel, std::string debug) {
  if (kind_ != Kind::Impl || !key_)
    throw DispatchError(
        fmt::format("fallback() at {} needs a SCHEMAC_LIBRARY_IMPL block with a "
                    "dispatch key",
                    site_));
  if (ns_ != "_")
    throw DispatchError(
        fmt::format("fallback() at {} applies to every namespace: register it in "
                    "SCHEMAC_LIBRARY_IMPL(_, {}, m), not in namespace '{}'",
                    site_, dispatch::to_string(*key_), ns_));
  handles_.push_back(dispatcher_->fallback(*key_, std::move(kernel), std::move(debug), site_));
  return *this;
}

namespace detail {

StaticLibraryInit::StaticLibraryInit(InitFn fn, Library::Kind kind, const char* ns,
                                     std::optional<DispatchKey> key, const char* file,
                                     uint32_t line) {
  try {
    library_.emplace(kind, ns, key, file, line);
    fn(*library_);
  } catch (const std::exception& e) {
    library_.reset();  // undoes what the block registered before it failed
    report_failure(file, line, e.what());
  } catch (...) {
    library_.reset();
    report_failure(file, line, "an exception that is not a std::exception");
  }
}

void StaticLibraryInit::report_failure(const char* file, uint32_t line, const char* what) {
  // An open RegistrationTransaction (a loader) takes the message; otherwise it goes to stderr.
  const std::string message =
      fmt::format("registration block at {}:{} failed: {}", file, line, what);
  if (!report_registration_failure(message)) std::fprintf(stderr, "schemac: %s\n", message.c_str());
}

}  // namespace detail

}  // namespace schemac::dispatch
