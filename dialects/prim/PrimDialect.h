//===- PrimDialect.h - the closed primitive set --------------------------------*- C++ -*-===//
#ifndef TCC_DIALECTS_PRIM_PRIMDIALECT_H
#define TCC_DIALECTS_PRIM_PRIMDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "dialects/prim/PrimDialect.h.inc"
#include "dialects/prim/PrimEnums.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/prim/PrimTypes.h.inc"

namespace tcc::prim {

/// Reifies the result shape of a one-result op as the shape of operand `index`.
mlir::LogicalResult reifyShapeOfOperand(mlir::Operation *op, unsigned index,
                                        mlir::OpBuilder &builder,
                                        mlir::ReifiedRankedShapedTypeDims &shapes);

/// Reifies `type`'s shape: static extents as attributes, each `?` from `dynamicSizes` in order.
mlir::LogicalResult reifyShapeFromExtents(mlir::RankedTensorType type,
                                          mlir::ValueRange dynamicSizes,
                                          mlir::OpBuilder &builder,
                                          mlir::ReifiedRankedShapedTypeDims &shapes);

/// The extents of `value`: static ones as index attributes, dynamic ones as `prim.dim`.
llvm::SmallVector<mlir::OpFoldResult> getMixedDims(mlir::OpBuilder &builder, mlir::Location loc,
                                                   mlir::Value value);

/// The spatial extent of a window op: floor((in + low + high - dil*(win-1) - 1)/stride) + 1,
/// or ShapedType::kDynamic for a dynamic input. Returns -1 when the window does not fit.
int64_t windowOutputSize(int64_t in, int64_t window, int64_t stride, int64_t dilation,
                         int64_t low, int64_t high);

/// For a function argument bound by `prim.bind_shape` whose dim `index` is a lone symbol: the
/// (tensor, dim) that binds that symbol first in the block. Dims bound to one symbol are
/// equal, so this is the canonical representative of the extent.
std::optional<std::pair<mlir::Value, int64_t>> getFirstBinding(mlir::Value tensor,
                                                               int64_t index);

/// True when `extent` is known to be dim `index` of `tensor` (the same `prim.dim`, or dims
/// bound to one symbol).
bool isDimOf(mlir::Value extent, mlir::Value tensor, int64_t index);

/// While one is alive on a thread, a prim op whose result types cannot be inferred from its
/// operands (shapes that disagree: a transpose listing a dim twice, a concatenation of
/// mismatched extents) is still built, with result types shaped like its first operand,
/// after its inference has reported the error at the op's location; without one, building
/// such an op aborts the process (MLIR's builders do). Builders of untrusted input (the
/// decomposition rules) build under one and fail when an error was reported, so that a
/// malformed model is a diagnostic, never a crash. Nests.
class SoftInferenceScope {
public:
  SoftInferenceScope();
  ~SoftInferenceScope();
  SoftInferenceScope(const SoftInferenceScope &) = delete;
  SoftInferenceScope &operator=(const SoftInferenceScope &) = delete;
  /// Whether a scope is alive on this thread.
  static bool active();
  /// How many ops this thread has built softly so far (errors after one may follow from it).
  static int64_t softlyBuilt();
};

} // namespace tcc::prim

#define GET_OP_CLASSES
#include "dialects/prim/PrimOps.h.inc"

#endif // TCC_DIALECTS_PRIM_PRIMDIALECT_H
