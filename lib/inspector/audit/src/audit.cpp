// The rules of `dispatch-inspect audit` (audit.h).
#include "schemac/audit/audit.h"

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace schemac::audit {

using namespace inspect::report;
namespace {

// Why each rule matters, in the order findings are listed for one operator (what each flags is
// its summary in the rule table).
constexpr AuditRule kRules[] = {
    {rules::autograd_fallthrough,
     "the operator has no backward: gradients flow only through the ATen ops its kernel happens to "
     "call, so a "
     "kernel computing on raw data silently drops them (a missing entry fails once an input "
     "requires grad)"},
    {rules::missing_meta,
     "torch.compile, FakeTensor and meta tensors run the Meta kernel to learn output shapes: "
     "without one they fail"},
    {rules::composite_implicit_with_backend,
     "the backend kernels win on their keys and bypass the decomposition's autograd, while other "
     "keys decompose: "
     "usually a mistake (CompositeExplicitAutograd, or an Autograd kernel, is meant)"},
    {rules::ambiguous_kernel, "a call that reaches the entry fails at run time"},
    {rules::unreachable_kernel,
     "no call reaches it, so the code it was written for never runs: usually a "
     "CompositeImplicitAutograd kernel "
     "beside a CompositeExplicitAutograd one (which stops math kernels everywhere), or a key "
     "registered twice"},
};

// Backend keys: a tensor's device or layout, what a kernel of a real computation is registered for.
bool is_backend_key(std::string_view key) {
  static constexpr std::string_view kBackends[] = {
      "CPU", "CUDA", "HIP",  "XLA",  "MPS",  "IPU",         "XPU",         "HPU",
      "VE",  "Lazy", "MTIA", "MAIA", "Meta", "PrivateUse1", "PrivateUse2", "PrivateUse3"};
  if (std::find(std::begin(kBackends), std::end(kBackends), key) != std::end(kBackends))
    return true;
  return key.starts_with("Sparse") || key.starts_with("Quantized") ||
         key.starts_with("NestedTensor");
}

// Whether the schema's arguments (between its first '(' and the "->") name a Tensor.
bool takes_tensor(const OperatorSummary& op) {
  if (!op.has_schema) return false;
  const size_t open = op.schema.find('(');
  const size_t arrow = op.schema.rfind("->");
  if (open == std::string::npos) return false;
  return op.schema.substr(open, arrow == std::string::npos ? std::string::npos : arrow - open)
             .find("Tensor") != std::string::npos;
}

bool reaches_kernel(const TableRow& row) { return row.has_kernel && !row.fallthrough; }

// Whether a meta tensor's call reaches a Meta kernel of the operator's own. A backend fallback on
// Meta is no such kernel: libtorch 2.14 registers one for every operator that only raises
// NotImplementedError ("no fake impl or Meta kernel registered"); it cannot know an operator's
// output shapes.
bool has_own_meta_kernel(const std::map<std::string_view, const TableRow*>& rows) {
  const auto meta = rows.find("Meta");
  return meta != rows.end() && reaches_kernel(*meta->second) &&
         meta->second->reason != Reason::BackendFallback;
}

// The site to blame: the first non-empty of `sites`.
std::string first_site(std::initializer_list<std::string_view> sites) {
  for (std::string_view site : sites)
    if (!site.empty()) return std::string(site);
  return "";
}

void autograd_fallthrough(const OperatorState& op,
                          const std::map<std::string_view, const TableRow*>& rows,
                          std::vector<Finding>& out) {
  std::vector<std::string> broken;
  std::string site;
  for (const TableRow& backend : op.table.rows) {
    if (!is_backend_key(backend.key) || !reaches_kernel(backend)) continue;
    const auto autograd = rows.find("Autograd" + backend.key);
    if (autograd == rows.end() || reaches_kernel(*autograd->second)) continue;
    const TableRow& entry = *autograd->second;
    broken.push_back(fmt::format("{} {} ({})", entry.key,
                                 entry.has_kernel ? "falls through" : "has no kernel",
                                 backend.key + " has " + std::string(reason_text(backend.reason))));
    // A fallthrough registered on the operator itself is the cause; otherwise the backend kernel
    // that was registered without an autograd kernel.
    if (site.empty())
      site = entry.has_kernel && entry.reason == Reason::Kernel ? entry.site : backend.site;
  }
  if (broken.empty()) return;
  // A CompositeExplicitAutograd kernel covers a dozen backends: name the first few.
  constexpr size_t kListed = 3;
  const auto listed =
      broken.begin() + static_cast<std::ptrdiff_t>(std::min(kListed, broken.size()));
  std::string keys = fmt::format("{}", fmt::join(broken.begin(), listed, ", "));
  if (broken.size() > kListed)
    keys += fmt::format(" and {} more Autograd keys", broken.size() - kListed);
  out.push_back({rules::autograd_fallthrough, op.summary.name, first_site({site, op.summary.site}),
                 fmt::format("{}: no autograd kernel runs", keys)});
}

void missing_meta(const OperatorState& op, const std::map<std::string_view, const TableRow*>& rows,
                  std::vector<Finding>& out) {
  const TableRow* backend = nullptr;
  for (const TableRow& row : op.table.rows)
    if (row.key != "Meta" && is_backend_key(row.key) && reaches_kernel(row)) {
      backend = &row;
      break;
    }
  if (backend == nullptr || has_own_meta_kernel(rows)) return;
  out.push_back({rules::missing_meta, op.summary.name, first_site({op.summary.site, backend->site}),
                 fmt::format("kernels for {} but none for Meta: register a Meta (fake) kernel",
                             backend->key)});
}

void composite_implicit_with_backend(const OperatorState& op, std::vector<Finding>& out) {
  const DumpKernel* composite = nullptr;
  std::vector<std::string> backends;
  for (const DumpKernel& k : op.dump.kernels) {
    if (!k.active) continue;
    if (k.key == "CompositeImplicitAutograd") composite = &k;
    if (!k.alias && is_backend_key(k.key)) backends.push_back(k.key);
  }
  if (composite == nullptr || backends.empty()) return;
  out.push_back({rules::composite_implicit_with_backend, op.summary.name,
                 first_site({composite->site, op.summary.site}),
                 fmt::format("a CompositeImplicitAutograd kernel and kernels for {}",
                             fmt::join(backends, ", "))});
}

void ambiguous_kernel(const OperatorState& op, std::vector<Finding>& out) {
  for (const TableRow& row : op.table.rows)
    if (row.reason == Reason::AmbiguousAutogradOther)
      out.push_back({rules::ambiguous_kernel, op.summary.name,
                     first_site({row.site, op.summary.site}),
                     fmt::format("{} is ambiguous ({})", row.key, reason_text(row.reason))});
}

// A dump kernel's debug text as a table entry shows it: libtorch prefixes a fallthrough's.
std::string_view entry_text(std::string_view debug) {
  constexpr std::string_view kFallthrough = "fallthrough ";
  if (debug.starts_with(kFallthrough)) debug.remove_prefix(kFallthrough.size());
  return debug;
}

// Whether some entry of the table holds `kernel` (the same debug text, and the same site where
// both have one).
bool fills_an_entry(const OperatorState& op, const DumpKernel& kernel) {
  return std::any_of(op.table.rows.begin(), op.table.rows.end(), [&](const TableRow& row) {
    return row.has_kernel && entry_text(row.kernel) == entry_text(kernel.debug) &&
           (row.site.empty() || kernel.site.empty() || row.site == kernel.site);
  });
}

// Why every key an alias kernel covers takes another entry (docs/dispatch-semantics.md §4).
std::string why_unfilled(const OperatorState& op, const DumpKernel& kernel) {
  const auto active_on = [&](std::string_view key) {
    return std::any_of(op.dump.kernels.begin(), op.dump.kernels.end(),
                       [&](const DumpKernel& k) { return k.active && k.key == key; });
  };
  if (kernel.key == "CompositeImplicitAutograd" && active_on("CompositeExplicitAutograd"))
    return "a CompositeExplicitAutograd kernel stops math kernels on every key";
  if (kernel.key == "CompositeExplicitAutograd" &&
      active_on("CompositeExplicitAutogradNonFunctional"))
    return "the CompositeExplicitAutogradNonFunctional kernel wins on every key it covers";
  return "every key it covers takes a kernel of its own or a stronger alias's";
}

void unreachable_kernel(const OperatorState& op, std::vector<Finding>& out) {
  for (size_t i = 0; i < op.dump.kernels.size(); ++i) {
    const DumpKernel& k = op.dump.kernels[i];
    if (!k.active) {
      // The dump lists a key's active kernel first, then the ones it shadows.
      const DumpKernel* newer = nullptr;
      for (size_t j = i; j-- > 0 && op.dump.kernels[j].key == k.key;)
        if (op.dump.kernels[j].active) newer = &op.dump.kernels[j];
      out.push_back(
          {rules::unreachable_kernel, op.summary.name, first_site({k.site, op.summary.site}),
           fmt::format("the {} kernel {} is shadowed by a newer registration{}: it never runs",
                       k.key, k.debug, newer ? " (" + newer->debug + ")" : std::string())});
    } else if (k.alias && !fills_an_entry(op, k)) {
      out.push_back({rules::unreachable_kernel, op.summary.name,
                     first_site({k.site, op.summary.site}),
                     fmt::format("the {} kernel {} fills no entry of the computed table: {}", k.key,
                                 k.debug, why_unfilled(op, k))});
    }
  }
}

}  // namespace

std::span<const AuditRule> audit_rules() { return kRules; }

const AuditRule& audit_rule(rules::Rule rule) {
  for (const AuditRule& entry : kRules)
    if (entry.rule == rule) return entry;
  return kRules[0];
}

std::vector<Finding> audit_operator(const OperatorState& op) {
  std::vector<Finding> out;
  std::map<std::string_view, const TableRow*> rows;
  for (const TableRow& row : op.table.rows) rows[row.key] = &row;
  if (takes_tensor(op.summary)) {
    autograd_fallthrough(op, rows, out);
    missing_meta(op, rows, out);
  }
  composite_implicit_with_backend(op, out);
  ambiguous_kernel(op, out);
  unreachable_kernel(op, out);
  return out;
}

std::vector<FailingEntry> failing_entries(const OperatorState& op) {
  std::vector<FailingEntry> out;
  std::map<std::string_view, const TableRow*> rows;
  for (const TableRow& row : op.table.rows) rows[row.key] = &row;
  const TableRow* backend = nullptr;  // the first backend with a kernel
  for (const TableRow& row : op.table.rows) {
    if (row.reason == Reason::AmbiguousAutogradOther)
      out.push_back({row.key, "ambiguous: a call reaching it fails"});
    if (!takes_tensor(op.summary) || !is_backend_key(row.key) || !reaches_kernel(row)) continue;
    if (backend == nullptr && row.key != "Meta") backend = &row;
    const auto autograd = rows.find("Autograd" + row.key);
    if (autograd != rows.end() && !autograd->second->has_kernel)
      out.push_back({autograd->second->key,
                     fmt::format("a {} tensor's call fails here ({} has a kernel, {} none)",
                                 row.key, row.key, autograd->second->key)});
  }
  if (backend != nullptr && !has_own_meta_kernel(rows))
    out.push_back(
        {"Meta", fmt::format("meta tensors, FakeTensor and torch.compile fail here ({} has "
                             "a kernel, Meta none)",
                             backend->key)});
  return out;
}

std::vector<Finding> audit_library(const Library& library) {
  std::vector<Finding> out;
  for (const OperatorState& op : library.operators) {
    std::vector<Finding> found = audit_operator(op);
    out.insert(out.end(), std::make_move_iterator(found.begin()),
               std::make_move_iterator(found.end()));
  }
  return out;
}

}  // namespace schemac::audit
