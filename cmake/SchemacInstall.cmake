# Install rules and the package config, so that an outside project can
#   find_package(schemac CONFIG REQUIRED)
#   schemac_generate(TARGET mylib YAML ops.yaml OUT_DIR gen)
# after `cmake --install`. Included at the end of the top-level CMakeLists.txt, once every
# target exists.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(SCHEMAC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/schemac)

# Installed libraries carry the project prefix (libschemac_dispatch.so, libschemac_lint.a);
# their exported target names drop it (schemac::dispatch, schemac::lint). Front end first, then
# the runtime, in the order of the library graph (docs/design.md).
set(SCHEMAC_INSTALLED_LIBRARIES support rules keys diagnostics torch_releases yaml schema schema_releases
    native_functions tokens
    custom_op_inference
    sources schema_json lint config inputs presentation engine kernel_types codegen generate adopt compat core
    dispatch stable elf inspect)
set(SCHEMAC_INSTALLED_TARGETS)
foreach(lib ${SCHEMAC_INSTALLED_LIBRARIES})
  set_target_properties(schemac_${lib} PROPERTIES EXPORT_NAME ${lib})
  list(APPEND SCHEMAC_INSTALLED_TARGETS schemac_${lib})
  get_target_property(source_dir schemac_${lib} SOURCE_DIR)
  install(DIRECTORY ${source_dir}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
# Installed programs find the installed runtime beside them; runtime libraries find each other.
set_target_properties(schemac dispatch-inspect PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
set_target_properties(schemac_core schemac_dispatch schemac_stable PROPERTIES INSTALL_RPATH "$ORIGIN")
install(TARGETS ${SCHEMAC_INSTALLED_TARGETS} schemac dispatch-inspect EXPORT schemacTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/schemac-objects
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The configured header (schemac/support/version.h).
install(DIRECTORY ${PROJECT_BINARY_DIR}/lib/common/support/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT schemacTargets NAMESPACE schemac:: DESTINATION ${SCHEMAC_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/schemacConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/schemacConfig.cmake
                              INSTALL_DESTINATION ${SCHEMAC_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/schemacConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/schemacConfig.cmake
              ${PROJECT_BINARY_DIR}/schemacConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/SchemacGenerate.cmake
              ${SCHEMAC_GEN_TARGETS_FILE}
        DESTINATION ${SCHEMAC_INSTALL_CMAKEDIR})

# The torch helper that dispatch-inspect builds on demand against a libtorch chosen at run time
# (lib/inspector/launch's torch_build.h): its sources, and torch-helper.json saying where they and
# schemac's package (for schemac::inspect) are, installed in share/schemac/torch-helper (paths
# relative to it) and written beside dispatch-inspect in the build tree, where the package is the
# build tree's own lib/inspector/inspect, exported.
set(helper_dir ${CMAKE_INSTALL_DATADIR}/schemac/torch-helper)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/dispatch-inspect/torch/ DESTINATION ${helper_dir}
        FILES_MATCHING PATTERN "*.cpp" PATTERN "*.h" PATTERN "*.py" PATTERN "CMakeLists.txt")
file(RELATIVE_PATH helper_to_package /${helper_dir} /${SCHEMAC_INSTALL_CMAKEDIR})
file(WRITE ${PROJECT_BINARY_DIR}/installed-torch-helper.json
     "{\"sources\": \".\", \"schemac\": \"${helper_to_package}\"}\n")
install(FILES ${PROJECT_BINARY_DIR}/installed-torch-helper.json DESTINATION ${helper_dir}
        RENAME torch-helper.json)
set(helper_package ${PROJECT_BINARY_DIR}/torch-helper-package)
export(TARGETS schemac_support schemac_elf schemac_inspect NAMESPACE schemac::
       FILE ${helper_package}/schemacTargets.cmake)
file(WRITE ${helper_package}/schemacConfig.cmake
     "# schemac's build tree as a package: lib/inspector/inspect for the torch helper\n"
     "include(CMakeFindDependencyMacro)\nfind_dependency(Threads)\nfind_dependency(fmt CONFIG)\n"
     "find_dependency(nlohmann_json 3 CONFIG)\ninclude(\"\${CMAKE_CURRENT_LIST_DIR}/schemacTargets.cmake\")\n")
file(GENERATE OUTPUT $<TARGET_FILE_DIR:dispatch-inspect>/torch-helper.json CONTENT
     "{\"sources\": \"${PROJECT_SOURCE_DIR}/tools/dispatch-inspect/torch\", \"schemac\": \"${helper_package}\"}\n")
