# PyTorch interop, optional: when find_package(Torch) finds libtorch (Debian: libtorch-dev),
# SCHEMAC_HAVE_TORCH is ON and dispatch-inspect-torch, examples/torch_extension and tests/torch
# are built. Not under sanitizers: libtorch and the Python that loads extensions are not
# instrumented. SCHEMAC_TORCH_PYTHON is a Python that imports torch (Debian: /usr/bin/python3,
# from python3-torch), for the tests that load extensions into PyTorch; empty when none does.
include_guard(GLOBAL)

set(SCHEMAC_HAVE_TORCH OFF)
if(SCHEMAC_TORCH AND NOT SCHEMAC_SANITIZE)
  find_package(Torch QUIET)
  if(Torch_FOUND)
    set(SCHEMAC_HAVE_TORCH ON)
  endif()
endif()
message(STATUS "schemac: PyTorch interop ${SCHEMAC_HAVE_TORCH}")

if(SCHEMAC_HAVE_TORCH AND NOT DEFINED CACHE{SCHEMAC_TORCH_PYTHON})
  set(python "")
  find_program(system_python python3 PATHS /usr/bin NO_DEFAULT_PATH)
  find_program(path_python python3)
  foreach(candidate ${system_python} ${path_python})
    execute_process(COMMAND ${candidate} -c "import torch" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      set(python ${candidate})
      break()
    endif()
  endforeach()
  set(SCHEMAC_TORCH_PYTHON "${python}" CACHE FILEPATH "A Python that imports torch, for the PyTorch tests")
  unset(system_python CACHE)
  unset(path_python CACHE)
endif()
if(SCHEMAC_HAVE_TORCH)
  message(STATUS "schemac: Python with torch: ${SCHEMAC_TORCH_PYTHON}")
endif()
