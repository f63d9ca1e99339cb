# `cmake --install build --prefix PREFIX`: what a project that uses tcc needs.
#   PREFIX/bin/tcc, tcc-run                 the compiler and the runner
#   PREFIX/lib/libtcc_runtime.{so,a}        the runtime, shared and static
#   PREFIX/include/tcc/{runtime,model_abi}.h
#   PREFIX/lib/cmake/tcc/                   find_package(tcc): tcc::runtime, tcc::runtime_static,
#                                           tcc::tcc (the executable), tcc_add_model()
#   PREFIX/lib/pkgconfig/tcc-runtime.pc     the runtime for other build systems
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# tcc finds LLVM's and MLIR's shared libraries where it was linked against them.
set_target_properties(tcc PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS tcc tcc-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set_target_properties(tcc_runtime_shared PROPERTIES EXPORT_NAME runtime)
set_target_properties(tcc_runtime PROPERTIES EXPORT_NAME runtime_static)
install(TARGETS tcc_runtime_shared tcc_runtime EXPORT tccTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES runtime/include/tcc/runtime.h runtime/include/tcc/model_abi.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tcc)

set(TCC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tcc)
install(EXPORT tccTargets NAMESPACE tcc:: DESTINATION ${TCC_CMAKE_DIR})
configure_package_config_file(cmake/package/tccConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/tccConfig.cmake
  INSTALL_DESTINATION ${TCC_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/tccConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/tccConfig.cmake
  ${CMAKE_BINARY_DIR}/package/tccConfigVersion.cmake
  cmake/package/TccAddModel.cmake
  DESTINATION ${TCC_CMAKE_DIR})

configure_file(cmake/package/tcc-runtime.pc.in ${CMAKE_BINARY_DIR}/package/tcc-runtime.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/tcc-runtime.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
