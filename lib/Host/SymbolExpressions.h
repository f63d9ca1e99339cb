//===- SymbolExpressions.h - index arithmetic over the model's symbols ---------*- C++ -*-===//
//
// After tcc-entry-signature, @main's first arguments are the values of the model's symbols
// (`index` arguments marked `kernel.symbol`), and every extent the host code needs is index
// arithmetic over them. These helpers move such expressions around: clone one to where it is
// needed first (the workspace plan computes every offset once, at entry), into a function of
// its own (the descriptor's output_shapes and workspace_size), or evaluate it at a point.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_CODEGEN_SYMBOLEXPRESSIONS_H
#define TCC_LIB_CODEGEN_SYMBOLEXPRESSIONS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace tcc {

/// The name of the argument attribute that marks a symbol value of @main.
inline constexpr const char *kSymbolArgAttr = "kernel.symbol"; // KernelDialect::kSymbolAttrName
/// In `kernel.output_symbols`: an output dim whose extent is known only after the run
/// (TCC_DIM_DATA_DEPENDENT of model_abi.h).
inline constexpr int32_t kDataDependentDim = -2;
/// The host function @main calls to report a data-dependent output extent:
/// (output, dim, extent), all index. The packager routes it to the import table's
/// set_output_extent.
inline constexpr const char *kReportOutputExtent = "tcc_report_output_extent";

/// Whether `value` is a block argument marked as a symbol value.
bool isSymbolArgument(mlir::Value value);

/// Clones the ops that compute `value` from symbol arguments and constants at the builder's
/// insertion point. `mapping` must map every symbol argument the expression reads (to
/// itself, or to the arguments of another function); it collects the clones, so that shared
/// subexpressions are cloned once. Fails when the value depends on anything else (tensor
/// data, an op with side effects or regions).
mlir::FailureOr<mlir::Value> cloneSymbolExpression(mlir::OpBuilder &builder, mlir::Value value,
                                                   mlir::IRMapping &mapping);

/// Clones an upper bound of the extent `value` (see cloneSymbolExpression): `leaf(v)` when
/// it succeeds; for arith.minui/minsi the bound of an operand that has one (a data-dependent
/// extent is min(count, capacity): prim.compact's lowering); for addi/muli (of non-negative
/// extents) the sum/product of the operands' bounds. Fails otherwise.
mlir::FailureOr<mlir::Value>
cloneUpperBound(mlir::OpBuilder &builder, mlir::Value value,
                llvm::function_ref<mlir::FailureOr<mlir::Value>(mlir::Value)> leaf);

/// Evaluates `value` by folding, with the symbol arguments set to `symbols`; nullopt when it
/// does not fold to a constant.
std::optional<int64_t> evaluateSymbolExpression(mlir::Value value,
                                                const llvm::DenseMap<mlir::Value, int64_t> &symbols);

} // namespace tcc

#endif // TCC_LIB_CODEGEN_SYMBOLEXPRESSIONS_H
