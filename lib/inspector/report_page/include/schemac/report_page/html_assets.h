// The report page's style sheet, controls (the header below the title, and the list's place)
// and scripts (the resolve walk's loop, then the page's own), which render_html.cpp puts around
// the page's data.
#pragma once

#include <string_view>

namespace schemac::report_page {

std::string_view page_style();
std::string_view page_controls();
std::string_view page_walk_script();
std::string_view page_script();

}  // namespace schemac::report_page
