# Writes OUT, a C++ file defining `schemac::tool::rule_doc_pages()`: the text of each page named
# in PAGES (a ;-list of files under DOCS), for `schemac help RULE` and SARIF's rule help
# (rule_help.h). Run at build time (tools/schemac/CMakeLists.txt), so an edited page is embedded
# by the next build; OUT is rewritten only when its text changes.
set(body "// Written by tools/schemac/embed_docs.cmake from docs/: the pages schemac help reads.\n")
string(APPEND body "#include \"rule_help.h\"\n\nnamespace schemac::tool {\n\n")
string(APPEND body "std::span<const RuleDocPage> rule_doc_pages() {\n")
string(APPEND body "  static const RuleDocPage pages[] = {\n")
foreach(page ${PAGES})
  file(READ "${DOCS}/${page}" text)
  string(FIND "${text}" ")schemacdoc\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${DOCS}/${page} holds the raw string delimiter )schemacdoc\"")
  endif()
  string(APPEND body "      {\"${page}\", R\"schemacdoc(${text})schemacdoc\"},\n")
endforeach()
string(APPEND body "  };\n  return pages;\n}\n\n}  // namespace schemac::tool\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL body)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${body}")
