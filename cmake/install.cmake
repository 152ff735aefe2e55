# cmake --install: the runtime libraries and their headers, the checked-in generated bindings,
# the rpckit tool, the schema files and a CMake package (find_package(rpckit CONFIG)) whose
# targets are the in-tree names: rpckit::<library>, rpckit::<module>, rpckit::rpckit.
include(CMakePackageConfigHelpers)

set(rpckit_libraries
  values codec descriptors model dispatch framing endpoint process supervision roles validate
  streamnook_common streamnook_plugin streamnook_host streamnook_manifest)
# Each protocol's host library, when it was built.
foreach(name desktop_host loaf_client codex_metadata_host core_line_host mcp)
  if(TARGET rpckit_${name})
    list(APPEND rpckit_libraries ${name})
  endif()
endforeach()
set(rpckit_install_targets rpckit)
foreach(name ${rpckit_libraries})
  set_target_properties(rpckit_${name} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(rpckit_${name} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  list(APPEND rpckit_install_targets rpckit_${name})
endforeach()
foreach(dir values codec descriptors model dispatch framing endpoint process supervision roles
            validate streamnook desktop loaf codex_metadata core_line mcp)
  if(EXISTS ${PROJECT_SOURCE_DIR}/runtime/${dir}/include/)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/${dir}/include/
            DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/include/rpckit/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rpckit)

# The checked-in bindings (generated/<module>/), as rpckit::<module> and rpckit::<module>_roles.
foreach(module ${RPCKIT_GENERATED_MODULES})
  target_include_directories(${module} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_target_properties(${module} PROPERTIES OUTPUT_NAME rpckit_${module})
  list(APPEND rpckit_install_targets ${module} ${module}_roles)
  install(DIRECTORY ${RPCKIT_GENERATED_DIR}/${module}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${module}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()

install(TARGETS ${rpckit_install_targets} EXPORT rpckitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(rpckit_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/rpckit)
install(EXPORT rpckitTargets NAMESPACE rpckit:: DESTINATION ${rpckit_cmake_dir})

set(RPCKIT_INSTALL_SCHEMADIR ${CMAKE_INSTALL_DATADIR}/rpckit/schema)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/schema/ DESTINATION ${RPCKIT_INSTALL_SCHEMADIR}
        FILES_MATCHING PATTERN "*.json" PATTERN "*.md")

configure_package_config_file(cmake/rpckitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/rpckitConfig.cmake
  INSTALL_DESTINATION ${rpckit_cmake_dir}
  PATH_VARS RPCKIT_INSTALL_SCHEMADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rpckitConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/rpckitConfig.cmake
  ${PROJECT_BINARY_DIR}/rpckitConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/Findre2.cmake
  ${PROJECT_SOURCE_DIR}/cmake/rpckit_generate.cmake
  DESTINATION ${rpckit_cmake_dir})
