// Library: the C++ registration API, and the macros that run a registration block when the
// library (or program) that contains it is loaded.
//
//   SCHEMAC_LIBRARY(myops, m) {                 // defines operators of namespace `myops`
//     m.def("add(Tensor a, Tensor b) -> Tensor");
//     m.def("twice(Tensor a) -> Tensor", &twice);   // def + a catch-all kernel
//   }
//   SCHEMAC_LIBRARY_IMPL(myops, CPU, m) {       // kernels of `myops` operators for one key
//     m.impl("add", &add_cpu);                  // a C++ function or lambda (unboxed)
//     m.impl("twice", KernelFunction::make_from_boxed(&twice_boxed));
//   }
//   SCHEMAC_LIBRARY_IMPL(_, Python, m) {        // `_`: any namespace; for fallbacks
//     m.fallback(KernelFunction::make_fallthrough());
//   }
//   SCHEMAC_LIBRARY_FRAGMENT(myops, m) { ... }  // more definitions of a namespace
//
// Every registration records the file:line of its block. A Library undoes its registrations
// when destroyed, newest first, so the kernels registered before it come back. Errors are
// DispatchError exceptions; a failing registration leaves the registry as it was.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "schemac/dispatch/boxing.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/kernel_function.h"
#include "schemac/dispatch/names_for_generated_code.h"
#include "schemac/dispatch/registration_handle.h"
#include "schemac/keys/dispatch_key.h"

namespace schemac::dispatch {

using keys::DispatchKey;

class Library {
 public:
  enum class Kind : uint8_t {
    Def,       // SCHEMAC_LIBRARY: one per namespace
    Impl,      // SCHEMAC_LIBRARY_IMPL: kernels for one dispatch key (or catch-all)
    Fragment,  // SCHEMAC_LIBRARY_FRAGMENT: more definitions
  };

  // `ns` "_" means any namespace (only for Impl libraries). `key` nullopt: catch-all.
  Library(Kind kind, std::string ns, std::optional<DispatchKey> key, std::string file,
          uint32_t line, Dispatcher& dispatcher = Dispatcher::singleton());
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  Library(Library&&) noexcept = default;
  Library& operator=(Library&&) noexcept = default;
  ~Library();

  // Defines an operator; an unqualified name gets the library's namespace.
  Library& def(std::string_view schema);
  // Defines it and registers `f` as its catch-all kernel (CompositeImplicitAutograd).
  template <class F>
  Library& def(std::string_view schema, F&& f) {
    def(schema);
    return impl_kernel(name_of_schema(schema), std::nullopt, as_kernel(std::forward<F>(f)), {},
                       arity_of<F>());
  }

  // Registers a kernel for the library's key (a Def or Fragment library: the catch-all).
  // `f` is a KernelFunction, a C++ function pointer or a lambda.
  template <class F>
  Library& impl(std::string_view op, F&& f, std::string debug = {}) {
    return impl_kernel(op, key_, as_kernel(std::forward<F>(f)), std::move(debug), arity_of<F>());
  }
  // Registers a kernel for an explicit key (only in libraries without a key of their own, or
  // for that same key).
  template <class F>
  Library& impl(std::string_view op, DispatchKey key, F&& f, std::string debug = {}) {
    return impl_kernel(op, key, as_kernel(std::forward<F>(f)), std::move(debug), arity_of<F>());
  }

  // The backend fallback of the library's key (an Impl library with namespace "_").
  Library& fallback(KernelFunction kernel, std::string debug = {});

  const std::string& ns() const { return ns_; }
  std::optional<DispatchKey> key() const { return key_; }
  // file:line of the block, as registrations record it.
  const std::string& site() const { return site_; }
  size_t num_registrations() const { return handles_.size(); }

 private:
  template <class F>
  static KernelFunction as_kernel(F&& f) {
    if constexpr (std::is_same_v<std::remove_cvref_t<F>, KernelFunction>) {
      return std::forward<F>(f);
    } else {
      return KernelFunction::make_from_unboxed(std::forward<F>(f));
    }
  }
  // The argument and return counts of a C++ kernel, checked against the operator's schema when
  // it is already defined; nullopt for a KernelFunction (boxed kernels have no signature).
  struct Arity {
    size_t arguments;
    size_t returns;
  };
  template <class F>
  static std::optional<Arity> arity_of() {
    using D = std::decay_t<F>;
    if constexpr (std::is_same_v<D, KernelFunction>) {
      return std::nullopt;
    } else {
      using Traits = boxing::FunctionTraits<D>;
      using Args = typename boxing::StripKeySet<typename Traits::params>::args;
      using Ret = std::remove_cvref_t<typename Traits::return_type>;
      size_t returns = 1;
      if constexpr (std::is_void_v<Ret>) {
        returns = 0;
      } else if constexpr (core::boxing::IsTuple<Ret>::value) {
        returns = std::tuple_size_v<Ret>;
      }
      return Arity{std::tuple_size_v<boxing::TupleOf<Args>>, returns};
    }
  }
  Library& impl_kernel(std::string_view op, std::optional<DispatchKey> key, KernelFunction kernel,
                       std::string debug, std::optional<Arity> arity = std::nullopt);
  void check_arity(const std::string& op, Arity arity) const;
  std::string qualify(std::string_view name) const;
  static std::string name_of_schema(std::string_view schema);

  Kind kind_;
  std::string ns_;
  std::optional<DispatchKey> key_;
  std::string site_;
  Dispatcher* dispatcher_;
  std::vector<RegistrationHandle> handles_;  // in registration order; undone in reverse
};

namespace detail {
// Runs a registration block once, at load time, into a Library that lives as long as the
// loaded code. A failing block is reported on stderr and its partial registrations undone,
// so loading never aborts the process.
class StaticLibraryInit {
 public:
  using InitFn = void (*)(Library&);
  StaticLibraryInit(InitFn fn, Library::Kind kind, const char* ns, std::optional<DispatchKey> key,
                    const char* file, uint32_t line);

 private:
  static void report_failure(const char* file, uint32_t line, const char* what);
  std::optional<Library> library_;
};
}  // namespace detail

}  // namespace schemac::dispatch

#define SCHEMAC_LIBRARY_CONCAT_INNER(a, b) a##b
#define SCHEMAC_LIBRARY_CONCAT(a, b) SCHEMAC_LIBRARY_CONCAT_INNER(a, b)

#define SCHEMAC_LIBRARY_BLOCK(kind, ns, key, m, uid)                                             \
  static void SCHEMAC_LIBRARY_CONCAT(schemac_library_init_, uid)(::schemac::dispatch::Library&); \
  static const ::schemac::dispatch::detail::StaticLibraryInit SCHEMAC_LIBRARY_CONCAT(            \
      schemac_library_static_init_, uid)(&SCHEMAC_LIBRARY_CONCAT(schemac_library_init_, uid),    \
                                         ::schemac::dispatch::Library::Kind::kind, #ns, key,     \
                                         __FILE__, __LINE__);                                    \
  void SCHEMAC_LIBRARY_CONCAT(schemac_library_init_, uid)(::schemac::dispatch::Library & m)

// Definitions of the operators of namespace `ns`.
#define SCHEMAC_LIBRARY(ns, m) \
  SCHEMAC_LIBRARY_BLOCK(Def, ns, std::nullopt, m, SCHEMAC_LIBRARY_CONCAT(ns##_def_, __COUNTER__))
// More definitions of namespace `ns`.
#define SCHEMAC_LIBRARY_FRAGMENT(ns, m)                \
  SCHEMAC_LIBRARY_BLOCK(Fragment, ns, std::nullopt, m, \
                        SCHEMAC_LIBRARY_CONCAT(ns##_fragment_, __COUNTER__))
// Kernels of namespace `ns` (or `_`: any) for the dispatch key `k` (e.g. CPU, Autograd).
#define SCHEMAC_LIBRARY_IMPL(ns, k, m)                                               \
  SCHEMAC_LIBRARY_BLOCK(Impl, ns, std::optional(::schemac::keys::DispatchKey::k), m, \
                        SCHEMAC_LIBRARY_CONCAT(ns##_##k##_impl_, __COUNTER__))
