# The runtime and tcc-run cross-compiled for AArch64 Linux (build/aarch64/bin/tcc-run), when
# Debian's cross toolchain is installed (scripts/setup.sh installs it): the tests of
# `--target cpu:aarch64-linux` run models with them under qemu-aarch64.
find_program(TCC_AARCH64_CXX aarch64-linux-gnu-g++)
find_program(TCC_QEMU_AARCH64 qemu-aarch64)
set(TCC_AARCH64_BINARY_DIR ${CMAKE_BINARY_DIR}/aarch64)
if(TCC_AARCH64_CXX)
  include(ExternalProject)
  ExternalProject_Add(tcc_runtime_aarch64
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${TCC_AARCH64_BINARY_DIR}
    CMAKE_ARGS -DTCC_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=Release
               -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/toolchains/aarch64-linux-gnu.cmake
               -DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER}
               -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD ON)
else()
  message(STATUS "aarch64-linux-gnu-g++ not found: no AArch64 runtime, its tests are skipped")
endif()
