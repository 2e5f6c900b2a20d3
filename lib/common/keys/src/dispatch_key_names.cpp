// The front end's table of key names, made once from the runtime's enum and names.
#include "schemac/keys/dispatch_key_names.h"

#include <algorithm>
#include <vector>

#include "schemac/keys/dispatch_key.h"

namespace schemac::keys {
namespace {

using K = DispatchKeyKind;

std::vector<DispatchKeyName> make_names() {
  std::vector<DispatchKeyName> names;
  auto each_key = [](DispatchKey first, DispatchKey last, auto&& fn) {
    for (auto v = static_cast<uint16_t>(first); v <= static_cast<uint16_t>(last); ++v)
      fn(static_cast<DispatchKey>(v));
  };
  // Functionality keys that are runtime keys themselves, in priority order.
  each_key(DispatchKey::Undefined, DispatchKey::EndOfFunctionalityKeys, [&](DispatchKey k) {
    if (k != DispatchKey::Undefined && k != DispatchKey::EndOfFunctionalityKeys &&
        is_runtime_key(k))
      names.push_back({to_string(k), K::functionality, ""});
  });
  // Per-backend runtime keys: each per-backend functionality times the backends.
  each_key(DispatchKey::EndOfFunctionalityKeys, DispatchKey::EndOfRuntimeBackendKeys,
           [&](DispatchKey k) {
             if (is_per_backend_runtime_key(k)) names.push_back({to_string(k), K::backend, ""});
           });
  each_key(DispatchKey::StartOfAliasKeys, DispatchKey::EndOfAliasKeys, [&](DispatchKey k) {
    names.push_back({to_string(k), K::alias, ""});
  });
  for (const KeySynonym& synonym : key_synonyms()) {
    names.push_back(
        {synonym.name, K::synonym,
         synonym.key == DispatchKey::Undefined ? std::string_view() : to_string(synonym.key)});
  }
  return names;
}

const std::vector<DispatchKeyName>& names() {
  static const std::vector<DispatchKeyName> table = make_names();
  return table;
}

}  // namespace

std::span<const DispatchKeyName> dispatch_key_names() { return names(); }

const DispatchKeyName* find_dispatch_key(std::string_view name) {
  // The entries sorted by name, made once: lint looks up every key of every entry.
  static const auto by_name = [] {
    std::vector<const DispatchKeyName*> sorted;
    for (const DispatchKeyName& key : names()) sorted.push_back(&key);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto* a, const auto* b) { return a->name < b->name; });
    return sorted;
  }();
  auto it = std::lower_bound(
      by_name.begin(), by_name.end(), name,
      [](const DispatchKeyName* key, std::string_view n) { return key->name < n; });
  return it != by_name.end() && (*it)->name == name ? *it : nullptr;
}

bool is_every_backend_composite_key(std::string_view name) {
  return name == "CompositeImplicitAutograd" || name == "CompositeExplicitAutograd" ||
         name == "CompositeExplicitAutogradNonFunctional";
}

bool is_composite_key(std::string_view name) {
  return is_every_backend_composite_key(name) || name == "CompositeImplicitAutogradNestedTensor";
}

}  // namespace schemac::keys
