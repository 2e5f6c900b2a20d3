# Install rules and the package config, so that an outside project can
#   find_package(schemac CONFIG REQUIRED)
#   schemac_generate(TARGET mylib YAML ops.yaml OUT_DIR gen)
# after `cmake --install`. Included at the end of the top-level CMakeLists.txt, once every
# target exists.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(SCHEMAC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/schemac)

# Installed libraries carry the project prefix (libschemac_dispatch.so); their exported target
# names drop it (schemac::dispatch).
foreach(lib support keys schema core dispatch stable)
  set_target_properties(schemac_${lib} PROPERTIES EXPORT_NAME ${lib})
endforeach()
install(TARGETS schemac_support schemac_keys schemac_schema schemac_core schemac_dispatch schemac_stable schemac dispatch-inspect EXPORT schemacTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/support/include/ ${PROJECT_SOURCE_DIR}/lib/keys/include/
                  ${PROJECT_SOURCE_DIR}/lib/schema/include/ ${PROJECT_SOURCE_DIR}/lib/core/include/
                  ${PROJECT_SOURCE_DIR}/lib/dispatch/include/ ${PROJECT_SOURCE_DIR}/lib/stable/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT schemacTargets NAMESPACE schemac:: DESTINATION ${SCHEMAC_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/schemacConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/schemacConfig.cmake
                              INSTALL_DESTINATION ${SCHEMAC_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/schemacConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/schemacConfig.cmake
              ${PROJECT_BINARY_DIR}/schemacConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/SchemacGenerate.cmake
        DESTINATION ${SCHEMAC_INSTALL_CMAKEDIR})
