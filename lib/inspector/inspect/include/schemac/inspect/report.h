// The report model of dispatch-inspect: what a runtime's dispatcher says about its operators, as
// strings and numbers only, so that one set of renderers (render.h) serves every runtime. Each
// runtime has an adapter that fills it: ours in-process (tools/dispatch-inspect/runtime_adapter.h),
// libtorch's in dispatch-inspect-torch (torch/), which hands it over as JSON (wire.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::inspect::report {

// Why a runtime key's table entry holds what it holds, as both runtimes compute it (the text is
// what torch._C._dispatch_dump_table prints in brackets).
enum class Reason : uint8_t {
  Kernel,                  // "kernel": registered directly to the key
  DefaultBackendKernel,    // "default backend kernel": CompositeExplicitAutograd[NonFunctional]
  NestedKernel,            // "nested kernel": CompositeImplicitAutogradNestedTensor
  MathKernel,              // "math kernel": CompositeImplicitAutograd
  AmbiguousAutogradOther,  // "ambiguous autogradother"
  AutogradKernel,          // "autograd kernel": the Autograd alias
  BatchedKernel,           // "batched kernel": FuncTorchBatchedDecomposition
  BackendFallback,         // "backend fallback"
  Missing,                 // "missing": no kernel
};
std::string_view reason_text(Reason reason);
// nullopt for a text no runtime prints.
std::optional<Reason> parse_reason(std::string_view text);
// The call fails at such an entry (missing or ambiguous).
bool is_failure(Reason reason);
// A composite kernel: it calls other operators instead of redispatching.
bool is_composite(Reason reason);

// One runtime key of an operator's computed dispatch table.
struct TableRow {
  std::string key;
  bool has_kernel = false;  // false: no kernel (a "missing" row, listed only with --all-keys)
  std::string kernel;       // the kernel's debug text ("fn_CPU", "registered at FILE:LINE")
  Reason reason = Reason::Missing;
  bool fallthrough = false;
  std::string site;  // where it was registered, FILE:LINE, or ""
};

struct Table {
  std::string op;  // "ns::name.overload"
  // False where the runtime keeps no kernel names (libtorch): the text then shows where each
  // kernel was registered instead of a kernel column.
  bool kernel_names = true;
  std::vector<TableRow> rows;  // Undefined first, then table-slot order
};

// One registered kernel of an operator, as `torch._C._dispatch_dump` lists it.
struct DumpKernel {
  std::string key;
  bool alias = false;  // an alias key (CompositeImplicitAutograd, Autograd, ...)
  bool active = true;  // false: shadowed by a newer registration on the same key
  std::string debug;
  std::string site;
  bool has_inferred = false;
  std::string inferred;  // the schema inferred from the kernel's C++ signature
  std::string kinds;     // "boxed unboxed ", as KernelFunction::dumpState prints it
};

struct Dump {
  std::string name;
  bool has_schema = false;  // the four fields below only when it has
  std::string schema, debug, site, alias_analysis;
  std::vector<DumpKernel> kernels;  // keys in numeric enum order, active kernel first per key
};

// One step of a redispatch chain: the key that won, the set dispatched on, and the entry.
struct ResolveStep {
  std::string key;
  std::string key_set;
  bool has_kernel = false;
  std::string kernel;
  Reason reason = Reason::Missing;
  std::string site;
};

struct Resolution {
  std::string op;
  std::string key_set;                  // (keys | included) - excluded
  std::vector<std::string> skipped;     // keys of key_set dispatch went past (fallthrough entries)
  std::vector<ResolveStep> chain;       // chain[0] is the winner; never empty
  std::string end;                      // why the chain stops there
  bool fails = false;                   // the chain ends at a missing or ambiguous entry
  std::vector<std::string> notes = {};  // what the thread-local sets added to key_set or dropped
  std::vector<std::string> call_notes = {};  // about the call's options (a device no kernel reads)
};

struct OperatorSummary {
  std::string name;
  bool has_schema = false;
  std::string schema, site;
  std::vector<std::string> keys;  // keys with a kernel registered directly on the operator
};

struct Operators {
  std::vector<OperatorSummary> operators;
};

// One operator with what the audit reads: its summary, its computed table with every runtime key
// (missing rows too), and its registrations.
struct OperatorState {
  OperatorSummary summary;
  Table table;
  Dump dump;
  std::vector<Resolution> chains;  // one per key set of a library request (wire.h), in its order
  bool takes_tensors = true;       // false: a factory operator (BackendSelect's rule)
  bool takes_device = false;       // it has a Device argument (an options' device)
};

// The resolve walk's rules for one runtime as data (resolve.h's walk_rules), so that a walk
// elsewhere (the report page's key-set box) follows the very decisions resolve makes instead of a
// second copy of them. A set is the runtime's 64-bit layout, in hex.
struct WalkRules {
  // Every runtime key, in the order a set lists them (a key is in a set holding all its bits);
  // the last one a set holds wins. Per key: its bits, its functionality bits (fallthroughs drop
  // them), and how its kernel leaves the chain: `mask` (an index into `masks`, one per distinct
  // kind of redispatch: it passes on ks & masks[i]) or, at -1, `end` (why the chain ends there).
  std::vector<std::string> keys, bits, functionality, end, masks;
  std::vector<int> mask;
  std::vector<std::string> undefined;  // the key an empty set reaches, and why it ends there
  std::vector<std::string> sets;       // every backend bit, a fresh thread's included, excluded
  // The chain ends at an entry with one of these reasons before its key is asked: the reason,
  // why ("{key}" stands for the key), whether the call fails there.
  std::vector<std::string> end_reasons, end_texts;
  std::vector<int> end_fails;
  // The kernel at select_key (BackendSelect) passes on the backend of the options' device, one of
  // `devices` (cpu when none is given) with its backend's set in `device_sets`: alone for an
  // operator without tensor arguments, else with the call's keys under its thread-local sets, &
  // its mask. A tensor on each device carries tensor_sets (names.h's tensor_keys).
  std::string select_key;
  std::vector<std::string> devices, device_sets, tensor_sets;
  // The devices autocast can be enabled for, and the key it takes out of the excluded set.
  std::vector<std::string> autocast_devices, autocast_sets;
  // InferenceMode: the included set's keys it removes, the excluded set's it adds (resolve.h).
  std::string inference_not_included, inference_excluded;
  // The thread-local sentences, added, dropped, autocast ("{keys}" the keys added or dropped;
  // "{autocast}" in the dropped one is the third when it drops one of autocast_keys, else ""),
  // then a typed key's errors, unknown and not a runtime key ("{key}" the name), then the call's:
  // no tensor argument and no Device argument ("{op}" the operator), a device no kernel reads
  // ("{device}"); other_keys: the names the runtime knows that a key set cannot hold (alias
  // keys...); key_names: the runtime keys, in the runtime's order, which a did-you-mean ranks
  // (names.h's closest_name: it suggests only what a key set takes).
  std::vector<std::string> notes, autocast_keys, other_keys, key_names;
};

// The operators the loaded libraries registered (a new operator, or new kernels on one), or
// every operator when none was loaded.
struct Library {
  std::vector<OperatorState> operators;
  WalkRules walk = {};
};

}  // namespace schemac::inspect::report
