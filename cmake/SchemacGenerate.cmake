# schemac_generate(TARGET name YAML file OUT_DIR dir [RUNTIME schemac|torch|torch_stable]
#                  [SHARDS n] [NAMESPACE ns] [SOURCE_ROOT dir] [TORCH_VERSION X.Y])
#
# Runs `schemac gen` on YAML at build time and adds the generated sources to TARGET (and OUT_DIR
# to its include path). The files are listed as BYPRODUCTS of a stamp file and rewritten only
# when their bytes change, so an edit of the YAML that changes nothing rebuilds nothing; the
# depfile makes the step rerun when YAML changes, and the step reruns when schemac does.
# SHARDS n (default 1) splits the registrations into n files (Register_<i>of<n>.cpp), so the
# file names are known without reading the YAML. Registrations of CUDA keys compile only where
# SCHEMAC_HAVE_CUDA is defined.
# RUNTIME (default: the first by name, schemac) is the runtime the code registers into, one of
# `schemac gen`'s targets (lib/frontend/codegen/src/*_target.cpp; each one's SCHEMAC_TARGET line names the
# files every run writes besides the shards, read into SchemacGenTargets.cmake): `schemac` (link
# TARGET with schemac::dispatch; files NativeFunctions.h, Operators.h, RegisterAll.cpp and the
# shards) or `torch` (`schemac gen --target torch`: link TARGET with torch after
# find_package(Torch); files NativeFunctions.h, RegisterSchema.cpp with the TORCH_LIBRARY blocks,
# and the shards with the TORCH_LIBRARY_IMPL blocks) or `torch_stable` (the same files with
# PyTorch's stable ABI: STABLE_TORCH_LIBRARY blocks and TORCH_BOX kernels; PyTorch 2.10 and later).
# TORCH_VERSION (torch and torch_stable): the PyTorch release the code is compiled against
# (`schemac gen --torch-version`), whose kernel types it writes; default: the release of the
# libtorch find_package(Torch) found (Torch_VERSION_MAJOR.Torch_VERSION_MINOR), else schemac's
# newest. PyTorch 2.x headers need C++20.
#
# The schemac executable: the imported schemac::schemac after find_package(schemac), else the
# `schemac` target of this build (SCHEMAC_EXECUTABLE overrides both).
include_guard(GLOBAL)

# The runtimes and their fixed files: written by lib/frontend/codegen in this build, installed beside this
# file for find_package(schemac).
if(NOT SCHEMAC_GEN_TARGETS_FILE)
  set(SCHEMAC_GEN_TARGETS_FILE ${CMAKE_CURRENT_LIST_DIR}/SchemacGenTargets.cmake)
endif()
include(${SCHEMAC_GEN_TARGETS_FILE})

# In schemac_generate: the argument ARG_<name> is `default` when not given, and must match
# `pattern` (`what` says what it may be).
macro(_schemac_generate_argument name default pattern what)
  if(NOT ARG_${name})
    set(ARG_${name} "${default}")
  endif()
  if(NOT ARG_${name} MATCHES "${pattern}")
    message(FATAL_ERROR "schemac_generate: ${name} must be ${what}, not '${ARG_${name}}'")
  endif()
endmacro()

function(schemac_generate)
  cmake_parse_arguments(PARSE_ARGV 0 ARG ""
                        "TARGET;YAML;OUT_DIR;RUNTIME;SHARDS;NAMESPACE;SOURCE_ROOT;TORCH_VERSION" "")
  foreach(required TARGET YAML OUT_DIR)
    if(NOT ARG_${required})
      message(FATAL_ERROR "schemac_generate: ${required} is required")
    endif()
  endforeach()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "schemac_generate: unknown arguments '${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  _schemac_generate_argument(SHARDS 1 "^[1-9][0-9]*$" "a positive integer")
  list(GET SCHEMAC_GEN_RUNTIMES 0 default_runtime)
  list(JOIN SCHEMAC_GEN_RUNTIMES "|" runtime_pattern)
  list(JOIN SCHEMAC_GEN_RUNTIMES " or " runtime_names)
  _schemac_generate_argument(RUNTIME ${default_runtime} "^(${runtime_pattern})$" "${runtime_names}")
  _schemac_generate_argument(NAMESPACE aten "." "a namespace")
  _schemac_generate_argument(SOURCE_ROOT "${CMAKE_SOURCE_DIR}" "." "a directory")
  set(release)
  if(ARG_RUNTIME MATCHES "^torch")
    if(NOT ARG_TORCH_VERSION AND DEFINED Torch_VERSION_MAJOR AND DEFINED Torch_VERSION_MINOR)
      set(ARG_TORCH_VERSION "${Torch_VERSION_MAJOR}.${Torch_VERSION_MINOR}")
    endif()
    if(ARG_TORCH_VERSION)
      _schemac_generate_argument(TORCH_VERSION "" "^[0-9]+[.][0-9]+$" "a PyTorch release X.Y")
      set(release --torch-version ${ARG_TORCH_VERSION})
    endif()
  elseif(ARG_TORCH_VERSION)
    message(FATAL_ERROR "schemac_generate: TORCH_VERSION is for the torch runtimes, not '${ARG_RUNTIME}'")
  endif()
  get_filename_component(yaml "${ARG_YAML}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(out_dir "${ARG_OUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")

  if(SCHEMAC_EXECUTABLE)
    set(exe "${SCHEMAC_EXECUTABLE}")
  elseif(TARGET schemac::schemac)
    set(exe schemac::schemac)
  else()
    set(exe schemac)
  endif()

  set(sources)
  foreach(file ${SCHEMAC_GEN_RUNTIME_FILES_${ARG_RUNTIME}})
    list(APPEND sources ${out_dir}/${file})
  endforeach()
  math(EXPR last "${ARG_SHARDS} - 1")
  foreach(i RANGE ${last})
    list(APPEND sources ${out_dir}/Register_${i}of${ARG_SHARDS}.cpp)
  endforeach()
  set(stamp ${out_dir}/schemac_gen.stamp)

  add_custom_command(
    OUTPUT ${stamp}
    BYPRODUCTS ${sources}
    COMMAND ${exe} gen ${yaml} -o ${out_dir} --target ${ARG_RUNTIME} --shards ${ARG_SHARDS} --namespace ${ARG_NAMESPACE}
            ${release} --source-root ${ARG_SOURCE_ROOT} --depfile ${out_dir}/schemac_gen.d --stamp ${stamp}
    DEPENDS ${yaml} ${exe}
    DEPFILE ${out_dir}/schemac_gen.d
    COMMENT "schemac gen --target ${ARG_RUNTIME} ${release} ${ARG_YAML}"
    VERBATIM)
  add_custom_target(${ARG_TARGET}_schemac_gen DEPENDS ${stamp})
  add_dependencies(${ARG_TARGET} ${ARG_TARGET}_schemac_gen)
  target_sources(${ARG_TARGET} PRIVATE ${sources})
  target_include_directories(${ARG_TARGET} PRIVATE ${out_dir})
endfunction()
