// The rules of `dispatch-inspect audit` (audit.h).
#include "report/audit.h"

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace schemac::inspect::report {
namespace {

constexpr AuditRule kRules[] = {
    {"autograd-fallthrough",
     "an operator that takes tensors has a backend kernel whose Autograd key resolves to a "
     "fallthrough or to nothing",
     "the operator has no backward: gradients flow only through the ATen ops its kernel happens to "
     "call, so a "
     "kernel computing on raw data silently drops them (a missing entry fails once an input "
     "requires grad)"},
    {"missing-meta",
     "an operator that takes tensors has backend kernels but no Meta kernel (direct or through a "
     "Composite kernel)",
     "torch.compile, FakeTensor and meta tensors run the Meta kernel to learn output shapes: "
     "without one they fail"},
    {"composite-implicit-with-backend",
     "a CompositeImplicitAutograd kernel registered together with backend kernels",
     "the backend kernels win on their keys and bypass the decomposition's autograd, while other "
     "keys decompose: "
     "usually a mistake (CompositeExplicitAutograd, or an Autograd kernel, is meant)"},
    {"ambiguous-kernel",
     "a computed table entry that is ambiguous (AutogradOther with both a math and a backend "
     "kernel)",
     "a call that reaches the entry fails at run time"},
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
                                 backend.key + " has " + backend.reason));
    // A fallthrough registered on the operator itself is the cause; otherwise the backend kernel
    // that was registered without an autograd kernel.
    if (site.empty())
      site = entry.has_kernel && entry.reason == "kernel" ? entry.site : backend.site;
  }
  if (broken.empty()) return;
  // A CompositeExplicitAutograd kernel covers a dozen backends: name the first few.
  constexpr size_t kListed = 3;
  const auto listed =
      broken.begin() + static_cast<std::ptrdiff_t>(std::min(kListed, broken.size()));
  std::string keys = fmt::format("{}", fmt::join(broken.begin(), listed, ", "));
  if (broken.size() > kListed)
    keys += fmt::format(" and {} more Autograd keys", broken.size() - kListed);
  out.push_back({"autograd-fallthrough", op.summary.name, first_site({site, op.summary.site}),
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
  if (backend == nullptr) return;
  const auto meta = rows.find("Meta");
  if (meta != rows.end() && reaches_kernel(*meta->second)) return;
  out.push_back({"missing-meta", op.summary.name, first_site({op.summary.site, backend->site}),
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
  out.push_back({"composite-implicit-with-backend", op.summary.name,
                 first_site({composite->site, op.summary.site}),
                 fmt::format("a CompositeImplicitAutograd kernel and kernels for {}",
                             fmt::join(backends, ", "))});
}

void ambiguous_kernel(const OperatorState& op, std::vector<Finding>& out) {
  for (const TableRow& row : op.table.rows)
    if (row.reason.find("ambiguous") != std::string::npos)
      out.push_back({"ambiguous-kernel", op.summary.name, first_site({row.site, op.summary.site}),
                     fmt::format("{} is ambiguous ({})", row.key, row.reason)});
}

}  // namespace

std::span<const AuditRule> audit_rules() { return kRules; }

const AuditRule& audit_rule(std::string_view id) {
  for (const AuditRule& rule : kRules)
    if (rule.id == id) return rule;
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

}  // namespace schemac::inspect::report
