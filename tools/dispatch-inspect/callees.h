// What the composite operators of a report call, for the page's "calls" links: each operator
// whose computed table has a composite kernel (CompositeImplicitAutograd or
// CompositeExplicitAutograd) is traced once on our runtime, with arguments made from its schema
// alone (cpu float [2,2] tensors, scalars 1, optionals None, defaults as written), and the
// operators its kernel called are its callees. An operator that cannot be called that way gets
// why instead.
#pragma once

#include <vector>

#include "schemac/inspect/report.h"
#include "schemac/report_page/render_html.h"

namespace schemac::inspect {

// Needs the library's libraries loaded into our runtime (this process).
std::vector<report_page::OperatorCalls> composite_callees(const report::Library& library);

}  // namespace schemac::inspect
