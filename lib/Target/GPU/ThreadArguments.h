//===- ThreadArguments.h - a value of @main passed down to the functions that need it --*- C++
//-*-===//
//
// A GPU model's host functions reach the run's import table, the device's weights and the
// check status only through arguments: each function that needs one (and each function that
// calls such a function) takes it, and every call passes the caller's own.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_GPU_THREADARGUMENTS_H
#define TCC_LIB_TARGET_GPU_THREADARGUMENTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"

namespace tcc::gpu {

/// Where the threaded argument goes in each signature.
enum class ArgumentPosition { First, Last };

/// Gives every function of `needing`, and every function that calls one of them, an
/// argument of `type` at `position` with `attrs` (only @main's when `onlyMain`), and makes
/// each call pass the caller's. Fails (with an error at the use) when a function of the set is used
/// other than by func.call. On success `needing` holds every function that got the argument.
mlir::LogicalResult threadArgument(mlir::ModuleOp module,
                                   llvm::SetVector<mlir::func::FuncOp> &needing, mlir::Type type,
                                   ArgumentPosition position, mlir::DictionaryAttr attrs = nullptr,
                                   bool onlyMain = true);

/// The threaded argument of `f` at `position`.
inline mlir::BlockArgument threadedArgument(mlir::func::FuncOp f, ArgumentPosition position) {
  return position == ArgumentPosition::First ? f.getArgument(0)
                                             : f.getArgument(f.getNumArguments() - 1);
}

} // namespace tcc::gpu

#endif // TCC_LIB_TARGET_GPU_THREADARGUMENTS_H
