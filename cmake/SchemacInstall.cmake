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
set(SCHEMAC_INSTALLED_LIBRARIES support rules keys diagnostics torch_releases schema schema_releases
    native_functions tokens
    custom_op_inference
    sources schema_json lint config inputs report engine codegen generate adopt compat core dispatch stable)
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
