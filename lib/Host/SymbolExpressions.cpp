//===- SymbolExpressions.cpp - index arithmetic over the model's symbols -------------===//
#include "SymbolExpressions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

bool tcc::isSymbolArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && arg.getOwner()->isEntryBlock() &&
         func.getArgAttr(arg.getArgNumber(), kSymbolArgAttr);
}

namespace {
/// Ops an expression may consist of: pure, no regions, scalar integer results.
bool isExpressionOp(Operation *op) {
  return op->getNumRegions() == 0 && isPure(op) && op->getNumResults() == 1 &&
         op->getResult(0).getType().isIntOrIndex() &&
         llvm::all_of(op->getOperandTypes(), [](Type t) { return t.isIntOrIndex(); });
}
} // namespace

FailureOr<Value> tcc::cloneSymbolExpression(OpBuilder &builder, Value value, IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  Operation *op = value.getDefiningOp();
  if (!op || !isExpressionOp(op))
    return failure();
  for (Value operand : op->getOperands())
    if (failed(cloneSymbolExpression(builder, operand, mapping)))
      return failure();
  return builder.clone(*op, mapping)->getResult(0);
}

FailureOr<Value> tcc::cloneUpperBound(OpBuilder &builder, Value value,
                                      llvm::function_ref<FailureOr<Value>(Value)> leaf) {
  if (FailureOr<Value> exact = leaf(value); succeeded(exact))
    return exact;
  Operation *op = value.getDefiningOp();
  if (!op)
    return failure();
  if (isa<arith::MinUIOp, arith::MinSIOp>(op)) {
    FailureOr<Value> lhs = cloneUpperBound(builder, op->getOperand(0), leaf);
    FailureOr<Value> rhs = cloneUpperBound(builder, op->getOperand(1), leaf);
    if (succeeded(lhs) && succeeded(rhs))
      return arith::MinSIOp::create(builder, value.getLoc(), *lhs, *rhs).getResult();
    return succeeded(lhs) ? lhs : rhs;
  }
  if (isa<arith::AddIOp, arith::MulIOp>(op)) {
    FailureOr<Value> lhs = cloneUpperBound(builder, op->getOperand(0), leaf);
    FailureOr<Value> rhs = cloneUpperBound(builder, op->getOperand(1), leaf);
    if (failed(lhs) || failed(rhs))
      return failure();
    if (isa<arith::AddIOp>(op))
      return arith::AddIOp::create(builder, value.getLoc(), *lhs, *rhs).getResult();
    return arith::MulIOp::create(builder, value.getLoc(), *lhs, *rhs).getResult();
  }
  return failure();
}

namespace {
std::optional<int64_t> evaluate(Value value, const DenseMap<Value, int64_t> &symbols,
                                DenseMap<Value, int64_t> &memo, int depth) {
  if (auto it = symbols.find(value); it != symbols.end())
    return it->second;
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  if (!op || !isExpressionOp(op) || depth > 256)
    return std::nullopt;
  SmallVector<Attribute> operands;
  Builder b(op->getContext());
  for (Value operand : op->getOperands()) {
    std::optional<int64_t> v = evaluate(operand, symbols, memo, depth + 1);
    if (!v)
      return std::nullopt;
    operands.push_back(b.getIntegerAttr(operand.getType(), *v));
  }
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  std::optional<int64_t> result;
  if (auto attr = dyn_cast<Attribute>(results[0])) {
    if (auto integer = dyn_cast<IntegerAttr>(attr))
      result = integer.getValue().getSExtValue();
  } else if (cast<Value>(results[0]) != value) {
    result = evaluate(cast<Value>(results[0]), symbols, memo, depth + 1);
  }
  if (result)
    memo[value] = *result;
  return result;
}
} // namespace

std::optional<int64_t> tcc::evaluateSymbolExpression(Value value,
                                                     const DenseMap<Value, int64_t> &symbols) {
  DenseMap<Value, int64_t> memo;
  return evaluate(value, symbols, memo, 0);
}
