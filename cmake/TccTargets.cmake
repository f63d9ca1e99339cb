# Helpers shared by every tcc library and tool.
#
# All compiled C++ targets reuse one precompiled header of the heavy MLIR headers, so they must
# be compiled with the same flags; tcc_add_library/tcc_add_tool take care of that.

set(TCC_PCH_HEADERS
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/BuiltinTypes.h>
  <mlir/IR/Dialect.h>
  <mlir/IR/OpDefinition.h>
  <mlir/IR/PatternMatch.h>
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/Tensor/IR/Tensor.h>
  <mlir/Pass/Pass.h>
  <llvm/ADT/SmallVector.h>
  <llvm/ADT/StringRef.h>
  <llvm/Support/raw_ostream.h>)

option(TCC_USE_PCH "Precompile the heavy MLIR headers" ON)

if(TCC_USE_PCH)
  file(WRITE ${CMAKE_BINARY_DIR}/tcc_pch.cpp "// Anchor for the shared precompiled header.\n")
  add_library(tcc_pch OBJECT ${CMAKE_BINARY_DIR}/tcc_pch.cpp)
  target_precompile_headers(tcc_pch PRIVATE ${TCC_PCH_HEADERS})
endif()

# tcc_add_library(name SOURCES... [DEPENDS tablegen-targets...] [LINK libs...])
function(tcc_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LINK" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK} MLIR LLVM)
  if(TCC_USE_PCH)
    target_precompile_headers(${name} REUSE_FROM tcc_pch)
  endif()
endfunction()

# tcc_add_tool(name SOURCES... [LINK libs...])
function(tcc_add_tool name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LINK} MLIR LLVM)
  if(TCC_USE_PCH)
    target_precompile_headers(${name} REUSE_FROM tcc_pch)
  endif()
endfunction()
