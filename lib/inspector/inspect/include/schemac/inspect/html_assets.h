// The report page's style sheet, controls (the header below the title, and the list's place)
// and script, which render_html.cpp puts around the page's data.
#pragma once

#include <string_view>

namespace schemac::inspect::report {

std::string_view page_style();
std::string_view page_controls();
std::string_view page_script();

}  // namespace schemac::inspect::report
