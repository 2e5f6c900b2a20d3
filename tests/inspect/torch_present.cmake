# The PyTorch tests of dispatch-inspect fail, not vanish, where PyTorch is installed but the build
# did not find it: a Python on this system (the system's python3, else python3 on PATH) imports
# torch, so libtorch must have been found (SCHEMAC_HAVE_TORCH), a Python with torch chosen for
# the tests (SCHEMAC_TORCH_PYTHON), and libtorch's release be that Python's (the torch helper
# reads the libtorch it was built against; --runtime python loads it into that Python).
# usage: cmake -DHAVE_TORCH=ON|OFF -DTORCH_VERSION=V -DTORCH_PYTHON=EXE -P torch_present.cmake
set(pythons /usr/bin/python3)
find_program(path_python python3)
if(path_python)
  list(APPEND pythons ${path_python})
endif()
set(python_torch "")
foreach(python ${pythons})
  execute_process(COMMAND ${python} -c "import torch; print(torch.__version__)" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    set(python_torch "${version}")
    set(torch_python "${python}")
    break()
  endif()
endforeach()
if(python_torch STREQUAL "")
  message(STATUS "no Python here imports torch: dispatch-inspect's PyTorch tests have nothing to read")
  return()
endif()
if(NOT HAVE_TORCH)
  message(FATAL_ERROR "${torch_python} has PyTorch ${python_torch}, but the build did not find "
                      "libtorch (find_package(Torch)): dispatch-inspect's PyTorch tests are not "
                      "built (Debian: install libtorch-dev, then configure again)")
endif()
if(TORCH_PYTHON STREQUAL "")
  message(FATAL_ERROR "libtorch ${TORCH_VERSION} was found, but SCHEMAC_TORCH_PYTHON is empty: "
                      "the PyTorch tests need a Python that imports torch")
endif()
string(REGEX MATCH "^[0-9]+\\.[0-9]+" python_release "${python_torch}")
string(REGEX MATCH "^[0-9]+\\.[0-9]+" libtorch_release "${TORCH_VERSION}")
if(NOT python_release STREQUAL libtorch_release)
  message(FATAL_ERROR "libtorch ${TORCH_VERSION} was found, but ${torch_python} has PyTorch "
                      "${python_torch}: the tests would compare two different PyTorch releases")
endif()
message(STATUS "PyTorch ${python_torch} (${torch_python}) and libtorch ${TORCH_VERSION}: the PyTorch tests run")
