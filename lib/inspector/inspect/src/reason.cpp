// Table-entry reasons and runtime names (report.h, runtime.h).
#include <array>
#include <utility>

#include "schemac/inspect/report.h"
#include "schemac/inspect/runtime.h"

namespace schemac::inspect {
namespace report {
namespace {

constexpr std::array<std::pair<Reason, std::string_view>, 9> kReasons = {{
    {Reason::Kernel, "kernel"},
    {Reason::DefaultBackendKernel, "default backend kernel"},
    {Reason::NestedKernel, "nested kernel"},
    {Reason::MathKernel, "math kernel"},
    {Reason::AmbiguousAutogradOther, "ambiguous autogradother"},
    {Reason::AutogradKernel, "autograd kernel"},
    {Reason::BatchedKernel, "batched kernel"},
    {Reason::BackendFallback, "backend fallback"},
    {Reason::Missing, "missing"},
}};

}  // namespace

std::string_view reason_text(Reason reason) {
  for (const auto& [r, text] : kReasons)
    if (r == reason) return text;
  return "missing";
}

std::optional<Reason> parse_reason(std::string_view text) {
  for (const auto& [r, name] : kReasons)
    if (name == text) return r;
  return std::nullopt;
}

bool is_failure(Reason reason) {
  return reason == Reason::Missing || reason == Reason::AmbiguousAutogradOther;
}

bool is_composite(Reason reason) {
  return reason == Reason::MathKernel || reason == Reason::NestedKernel;
}

}  // namespace report

std::string_view runtime_name(RuntimeKind kind) {
  return kind == RuntimeKind::Torch ? "torch" : kind == RuntimeKind::Python ? "python" : "schemac";
}

std::optional<RuntimeKind> parse_runtime_name(std::string_view name) {
  for (RuntimeKind kind : {RuntimeKind::Schemac, RuntimeKind::Torch, RuntimeKind::Python})
    if (name == runtime_name(kind)) return kind;
  return std::nullopt;
}

}  // namespace schemac::inspect
