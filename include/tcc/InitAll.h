//===- InitAll.h - registration of tcc's dialects and passes ------------------*- C++ -*-===//
#ifndef TCC_INITALL_H
#define TCC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tcc {

/// Adds every dialect that tcc's pipelines create or read (ours and upstream's).
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers every tcc pass and pipeline with the global pass registry (for tcc-opt).
void registerAllPasses();

} // namespace tcc

#endif // TCC_INITALL_H
