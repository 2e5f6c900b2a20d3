# Install rules and the package config, so that an outside project can
#   find_package(schemac CONFIG REQUIRED)
#   schemac_generate(TARGET mylib YAML ops.yaml OUT_DIR gen)
# after `cmake --install`. Included at the end of the top-level CMakeLists.txt, once every
# target exists.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(SCHEMAC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/schemac)

install(TARGETS schema dispatch schemac EXPORT schemacTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/schema/include/ ${PROJECT_SOURCE_DIR}/lib/dispatch/include/
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
