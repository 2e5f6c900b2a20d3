# Installs the build in BUILD_DIR to a prefix under WORK_DIR, then configures and builds
# examples/torch_extension (PROJECT_DIR) as an outside project, with find_package(Torch) and
# find_package(schemac), and runs its test in PyTorch with the installed dispatch-inspect (and
# the dispatch-inspect-torch beside it). Arguments: BUILD_DIR WORK_DIR PROJECT_DIR GENERATOR CXX
# PYTHON.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run("configure" ${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix})
run("build" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run("the extension in PyTorch" ${PYTHON} ${PROJECT_DIR}/test_extension.py ${WORK_DIR}/build/libmyops.so
    ${prefix}/bin/dispatch-inspect)
