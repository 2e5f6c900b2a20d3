// The report page: a whole library (report.h's Library, with each operator's redispatch chains)
// as one self-contained HTML page. Its data is one JSON blob that the page's own script renders:
// a filterable list of operators, each expanding to its computed table (a key x kernel matrix
// coloured by reason), its registrations and its chains. Nothing is fetched: the style, the
// script and the pictures (inline SVG) are in the page.
#pragma once

#include <string>
#include <vector>

#include "schemac/inspect/report.h"
#include "schemac/inspect/wire.h"

namespace schemac::report_page {

using inspect::report::CallSpec;
using inspect::report::Library;

// A call the page shows each operator's chain for: a label and resolve's options (an operator
// without tensor arguments takes the tensor's device as its options' device: answer.h's
// call_for_operator).
struct PageCall {
  std::string label;
  CallSpec call;
};

// A CPU, a CUDA and a Meta tensor, and a CPU tensor made and used under inference mode.
std::vector<PageCall> page_calls();

// What an operator's composite kernel calls, as trace saw it (`report` on our runtime), or why
// that is unknown.
struct OperatorCalls {
  std::string op;
  std::vector<std::string> calls;  // operators called from its kernel, in first-call order
  std::string unknown;             // "": `calls` is what it calls
};

struct PageInfo {
  std::string title;
  std::string runtime;                 // "schemac" or "torch"
  std::string generator;               // "dispatch-inspect VERSION"
  std::vector<std::string> libraries;  // as given to --load
  std::vector<PageCall> presets;       // OperatorState::chains[i] resolved presets[i]
  // The operators with a composite kernel, and what each calls; when not traced, `calls_note`
  // says why once for the page.
  std::vector<OperatorCalls> calls = {};
  std::string calls_note = "";
};

// The page. Its data is a JSON object in <script type="application/json" id="report-data">
// with every string once, in "strings", and indices into it elsewhere (-1: none):
//   {"title","runtime","generator","libraries","calls_note",
//    "presets":[{"label","call","factory","bare"}] (wire.h's CallSpec as given, and as an
//       operator without tensor arguments takes it, with and without a Device argument),
//    "strings":[...], "keys":[every runtime key, in table order],
//    "walk":{...} (below; {} without operators),
//    "operators":[{"name","schema","site",
//       "rows":[[key,kernel,reason,site,fallthrough]]  (entries that are not "missing"),
//       "needs":[[key,why]]  (empty entries a call it needs reaches: audit.h's failing_entries),
//       "regs":[[key,debug,site,inferred,kinds,flags]]  (flags: 1 alias key, 2 inactive),
//       "chains":[[key_set,[skipped keys],[[key,key_set,kernel,reason,site]],end,fails]]
//          (one per preset),
//       "factory":1 (only for an operator without tensor arguments),
//       "device":1 (only for one with a Device argument),
//       "calls":[operators] or "calls_unknown":why (only for one with a composite kernel,
//        on a page whose calls were traced)}]}
// "walk" is report.h's WalkRules, sets as hex strings of the runtime's 64-bit layout:
//   {"keys":[key, in set order],"bits":[hex],"func":[hex],"mask":[index into masks, or -1],
//    "end":[why the chain ends at the key, -1 where it does not],"masks":[hex],
//    "undefined":[key,end],"sets":[every backend bit, a fresh thread's included, excluded],
//    "reason_ends":[[reason,end ("{key}" the key),fails]],"select":BackendSelect's key,
//    "devices":[[device, its backend, a tensor's keys]],"autocast_devices":[[device, key]],
//    "inference":[keys InferenceMode takes from the included set, adds to the excluded],
//    "notes":[added,dropped,autocast,unknown key,not a runtime key,no tensor argument,
//       no Device argument,device unread],"autocast":[keys],
//    "other":[the key names a set cannot hold: alias keys...],"names":[every runtime key name]}
std::string library_html(const Library& library, const PageInfo& page);

}  // namespace schemac::report_page
