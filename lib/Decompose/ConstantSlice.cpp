//===- ConstantSlice.cpp - evaluating small computations on constants while decomposing ----===//
//
// Exporters and ONNX function bodies compute shapes, pads and axes with ordinary ops (Shape
// -> Sub -> Div -> Concat -> Pad, Range -> ReduceMean, Mod/Equal/Where -> Expand). When
// the shapes are static, every value of such a subgraph is a constant, but the rules that
// built it emit prim ops, which do not all fold. A rule that needs a constant (pads, axes,
// an expand shape) asks for the value through getConstantInts, which lands here: the
// backward slice of the value, when it reaches only constants through a few small ops, is
// cloned into a scratch function and run by the reference evaluator (the same semantics
// the compiled code has).
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"

#include "tcc/Evaluate/Evaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {
/// Bounds that keep the evaluation cheap: shape arithmetic is a handful of small ops.
constexpr size_t kMaxSliceOps = 128;
constexpr int64_t kMaxSliceElements = 4096;

/// True for a result the evaluator can hold and that is small enough to evaluate eagerly.
bool isSmallStaticValue(Value v) {
  if (v.getType().isIntOrIndexOrFloat())
    return true;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && type.getNumElements() <= kMaxSliceElements &&
         eval::isSupportedElementType(type.getElementType());
}

/// The ops computing `value` in def-before-use order, when they are all region-free ops of
/// the prim, arith and tensor dialects on small static values that reach only constants.
std::optional<SmallVector<Operation *>> getConstantSlice(Value value) {
  SmallVector<Operation *> order;
  llvm::SmallPtrSet<Operation *, 16> visited;
  // Iterative post-order walk: (op, next operand to visit).
  SmallVector<std::pair<Operation *, unsigned>> stack;
  auto push = [&](Value v) -> bool {
    Operation *op = v.getDefiningOp();
    if (!op || !isSmallStaticValue(v) || op->getNumRegions() != 0)
      return false;
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (dialect != "prim" && dialect != "arith" && dialect != "tensor")
      return false;
    if (visited.insert(op).second) {
      if (visited.size() > kMaxSliceOps)
        return false;
      stack.push_back({op, 0});
    }
    return true;
  };
  if (!push(value))
    return std::nullopt;
  while (!stack.empty()) {
    auto &[op, next] = stack.back();
    if (next == op->getNumOperands()) {
      order.push_back(op);
      stack.pop_back();
      continue;
    }
    Value operand = op->getOperand(next++);
    if (!push(operand))
      return std::nullopt;
  }
  return order;
}
} // namespace

std::optional<SmallVector<int64_t>> tcc::decompose::evaluateConstantInts(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !isa<IntegerType>(type.getElementType()) || matchPattern(value, m_Constant()))
    return std::nullopt;
  auto slice = getConstantSlice(value);
  if (!slice)
    return std::nullopt;
  // Clone the slice into a scratch module: func @slice() -> type { ...; return value }.
  MLIRContext *ctx = value.getContext();
  OpBuilder b(ctx);
  Location loc = value.getLoc();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  b.setInsertionPointToEnd(scratch->getBody());
  auto func = func::FuncOp::create(b, loc, "slice", b.getFunctionType({}, {type}));
  b.setInsertionPointToEnd(func.addEntryBlock());
  IRMapping mapping;
  for (Operation *op : *slice)
    b.clone(*op, mapping);
  func::ReturnOp::create(b, loc, mapping.lookup(value));
  auto results = eval::evaluateFunction(func, {});
  if (!results) {
    llvm::consumeError(results.takeError()); // e.g. a prim op the evaluator refuses
    return std::nullopt;
  }
  const eval::Tensor &tensor = results->front();
  SmallVector<int64_t> values;
  for (int64_t i = 0; i < tensor.getNumElements(); ++i)
    values.push_back(tensor.getInt(i));
  return values;
}
