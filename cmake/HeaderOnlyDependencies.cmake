# The runtime's header-only dependencies (DLPack, CLI11) for a runtime-only build.
#
# A native build finds them as CMake packages. A cross build cannot take the packages' include
# directory (/usr/include holds the build machine's C library headers), so it copies the two
# headers' folders into the build tree and makes interface targets of the same names.
if(NOT CMAKE_CROSSCOMPILING)
  find_package(CLI11 REQUIRED CONFIG)
  find_package(dlpack REQUIRED CONFIG)
  return()
endif()

set(TCC_HOST_HEADERS_DIR "/usr/include" CACHE PATH
    "where the build machine keeps dlpack/dlpack.h and CLI/CLI.hpp")
set(header_copy ${CMAKE_BINARY_DIR}/header-only-dependencies)
foreach(folder dlpack CLI)
  if(NOT EXISTS ${TCC_HOST_HEADERS_DIR}/${folder})
    message(FATAL_ERROR "${TCC_HOST_HEADERS_DIR}/${folder} is missing (apt: libdlpack-dev, libcli11-dev)")
  endif()
  file(COPY ${TCC_HOST_HEADERS_DIR}/${folder} DESTINATION ${header_copy})
endforeach()
add_library(dlpack::dlpack INTERFACE IMPORTED)
set_target_properties(dlpack::dlpack PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${header_copy})
add_library(CLI11::CLI11 INTERFACE IMPORTED)
set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${header_copy})
