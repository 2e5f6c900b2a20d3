// What dispatch-inspect needs of a runtime (a dispatcher: ours, libtorch's, another), so that one
// engine (resolve.h, answer.h) serves them all. An adapter implements Runtime in a few hundred
// lines: its keys and key sets, its thread-local defaults, its registrations (loading libraries,
// the operators, their tables and dumps as the report model has them). How a kernel leaves the
// chain is the engine's, from each key's Kind (docs/dispatch-semantics.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/inspect/report.h"

namespace schemac::inspect {

// A dispatch key as the runtime numbers it (its DispatchKey enum's value).
using Key = uint16_t;

// A key set in the runtime's own 64-bit layout (backend bits and functionality bits, as
// c10::DispatchKeySet has them). The engine unites, intersects and subtracts sets; what a bit
// means only the runtime knows.
struct KeySet {
  uint64_t bits = 0;
  constexpr KeySet operator|(KeySet o) const { return {bits | o.bits}; }
  constexpr KeySet operator&(KeySet o) const { return {bits & o.bits}; }
  // A plain difference of bits (a runtime's own subtraction keeps backend bits: a call's set is
  // Runtime::with_thread_local's).
  constexpr KeySet operator-(KeySet o) const { return {bits & ~o.bits}; }
  constexpr bool operator==(const KeySet&) const = default;
  constexpr bool empty() const { return bits == 0; }
};

// What a key's kernel does with the call, as PyTorch's kernels of that kind do.
enum class KeyKind : uint8_t {
  Undefined,        // nothing is below it
  Backend,          // a backend kernel of any functionality (dense, sparse, quantized, nested,
                    // and the per-device ones): computes the result
  Autograd,         // redispatches with ks & after_autograd_keyset
  ADInplaceOrView,  // each of these redispatches without its own key
  Autocast,
  Python,
  Functionalize,
  BackendSelect,  // computes the backend from the call's options (factory operators)
  Other,          // redispatches with ks & FULL_AFTER(key)
};

// A runtime's name as --runtime takes it.
enum class RuntimeKind : uint8_t { Schemac, Torch };
std::string_view runtime_name(RuntimeKind kind);
std::optional<RuntimeKind> parse_runtime_name(std::string_view name);

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual RuntimeKind kind() const = 0;

  // ## Keys
  // Any key by name (runtime or alias); nullopt when the runtime has none of that name.
  virtual std::optional<Key> parse_key(std::string_view name) const = 0;
  // A key a key set can hold (no alias key, not Undefined).
  virtual bool is_runtime_key(Key key) const = 0;
  virtual std::string key_name(Key key) const = 0;
  // Every key name the runtime knows: runtime keys, alias keys and other spellings.
  virtual std::vector<std::string> key_names() const = 0;
  // The closest key name to a misspelt one, or "": names.h's closest_name over key_names(), so
  // every runtime, and the report page (which gets the names), ranks them alike.
  std::string suggest_key(std::string_view name) const;
  virtual KeySet set_of(Key key) const = 0;
  // "DispatchKeySet(CPU, AutogradCPU)", as the runtime prints a set.
  virtual std::string set_text(KeySet set) const = 0;
  // The runtime keys in `set`, in the order set_text lists them; the highest-priority one.
  virtual std::vector<Key> keys_in(KeySet set) const = 0;
  virtual Key highest(KeySet set) const = 0;
  virtual Key undefined() const = 0;
  // The functionality bit of `key` (no backend bits), and every backend bit.
  virtual KeySet functionality_of(Key key) const = 0;
  virtual KeySet backend_bits() const = 0;
  // FULL_AFTER(key): every functionality below key's, every backend bit.
  virtual KeySet full_after(Key key) const = 0;
  // after_autograd_keyset: what an autograd kernel passes on.
  virtual KeySet after_autograd() const = 0;
  virtual KeyKind kind_of(Key key) const = 0;
  // The set a call whose arguments carry `keys` dispatches on under the thread-local sets
  // `included` and `excluded`, before the fallthrough mask: computed by the runtime's dispatcher's
  // own function, the one every real call goes through (for both: (keys | included) - excluded,
  // the subtraction taking functionalities away and leaving backend bits).
  virtual KeySet with_thread_local(KeySet keys, KeySet included, KeySet excluded) const = 0;
  // A fresh thread's included and excluded sets.
  virtual KeySet default_included() const = 0;
  virtual KeySet default_excluded() const = 0;

  // ## Registrations
  // Loads a library into the runtime's registry (its registrations run), or says why not on
  // `err` ("dispatch-inspect: error: cannot load 'PATH': MESSAGE"). Before: this process loaded
  // it already, so it registers nothing now.
  enum class Loaded : uint8_t { Now, Before, Failed };
  virtual Loaded load(const std::string& path, std::ostream& err) = 0;
  // Every operator, sorted by name.
  virtual report::Operators operators() const = 0;
  virtual bool has_operator(const std::string& name) const = 0;
  // These take a name has_operator knows. The table in slot order (Undefined first); with
  // all_keys a "missing" row for each runtime key without a kernel too.
  virtual report::Table table(const std::string& name, bool all_keys) const = 0;
  virtual report::Dump dump(const std::string& name) const = 0;
  // Whether a call of the operator has a tensor to take keys from (factory operators have none).
  virtual bool takes_tensors(const std::string& name) const = 0;
  // Whether it has a Device argument (an options' device): by default, from its dump's schema.
  virtual bool takes_device(const std::string& name) const;
  // A hint for an operator `name` unknown after loading `libraries` ("" when none).
  virtual std::string unknown_operator_hint(const std::vector<std::string>& libraries) const {
    (void)libraries;
    return "";
  }
};

}  // namespace schemac::inspect
