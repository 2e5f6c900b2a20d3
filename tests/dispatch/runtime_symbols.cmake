cmake_minimum_required(VERSION 3.25)
# The runtime stands alone: the shared libraries every operator library links need no yaml-cpp
# at load time and export no symbol of PEGTL or yaml-cpp; SCHEMA_FREE ones (all three runtime
# libraries) also export no symbol of a front-end library's namespace (schemac::schema and the
# others, whatever namespace their code is in): the dispatcher's API speaks OperatorSignature,
# its own view of a schema.
# Arguments: LIBRARIES and SCHEMA_FREE (.so files, ;-separated), NM, LDD.
function(forbid library symbols forbidden)
  string(FIND "${symbols}" "${forbidden}" at)
  if(NOT at EQUAL -1)
    string(REGEX MATCHALL "[^\n]*${forbidden}[^\n]*" lines "${symbols}")
    list(SUBLIST lines 0 5 some)
    list(JOIN some "\n" shown)
    message(FATAL_ERROR "${library} exports ${forbidden} symbols, e.g.:\n${shown}")
  endif()
endfunction()

foreach(library ${LIBRARIES} ${SCHEMA_FREE})
  execute_process(COMMAND ${NM} -D --defined-only -C ${library} RESULT_VARIABLE rc OUTPUT_VARIABLE symbols)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm failed on ${library}")
  endif()
  forbid(${library} "${symbols}" "tao::pegtl::")
  forbid(${library} "${symbols}" "YAML::")
  if(library IN_LIST SCHEMA_FREE)
    foreach(front_end schema diagnostics native_functions lint compat sources kernel_types codegen gen)
      forbid(${library} "${symbols}" "schemac::${front_end}::")
    endforeach()
  endif()
  execute_process(COMMAND ${LDD} ${library} OUTPUT_VARIABLE needed)
  if(needed MATCHES "yaml")
    message(FATAL_ERROR "${library} needs yaml-cpp:\n${needed}")
  endif()
  message(STATUS "${library}: stands alone")
endforeach()
