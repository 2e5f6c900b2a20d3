# schemac_library(NAME KIND [SOURCES...]): the library schemac_NAME of KIND (STATIC, SHARED or
# OBJECT), its alias schemac::NAME, and its public headers: the include/ folder beside the calling
# CMakeLists.txt (installed as include/). Without SOURCES it builds every src/*.cpp there. The
# lib/<name> folders declare their library with it, then add their own links and options.
function(schemac_library name kind)
  set(sources ${ARGN})
  if(NOT sources)
    file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  endif()
  add_library(schemac_${name} ${kind} ${sources})
  add_library(schemac::${name} ALIAS schemac_${name})
  target_include_directories(schemac_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
endfunction()
