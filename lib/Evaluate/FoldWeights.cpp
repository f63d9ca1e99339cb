//===- FoldWeights.cpp - weight-only prim ops computed at compile time ------------------===//
#include "tcc/Evaluate/Evaluator.h"
#include "tcc/Evaluate/Passes.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tcc::eval {
#define GEN_PASS_DEF_FOLDWEIGHTS
#include "tcc/Evaluate/Passes.h.inc"
} // namespace tcc::eval

using namespace mlir;

namespace {

constexpr int64_t kMaxInlineElements = 256;
constexpr int64_t kMaxFoldedElements = int64_t(64) << 20;

ElementsAttr constantValue(Value v) {
  ElementsAttr attr;
  return matchPattern(v, m_Constant(&attr)) ? attr : ElementsAttr();
}

/// dot_general(x, w) with a constant w whose last free dim is not its last dim: w is
/// transposed to (batch..., contracting..., free...) so that the tiler reads the result's
/// fastest dim contiguously from it (Gemm with transB = 1, MatMul of a transposed weight).
void transposeConstantRhs(tcc::prim::DotGeneralOp op) {
  if (!constantValue(op.getRhs()))
    return;
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  int64_t rank = rhsType.getRank();
  ArrayRef<int64_t> batch = op.getRhsBatchingDimensions(), contracting = op.getRhsContractingDimensions();
  SmallVector<int64_t> permutation(batch.begin(), batch.end());
  permutation.append(contracting.begin(), contracting.end());
  SmallVector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
      free.push_back(d);
  if (free.empty() || free.back() == rank - 1)
    return;
  permutation.append(free.begin(), free.end());
  OpBuilder b(op);
  Value transposed = tcc::prim::TransposeOp::create(b, op.getLoc(), op.getRhs(), permutation);
  SmallVector<int64_t> newBatch, newContracting;
  for (int64_t k = 0; k < static_cast<int64_t>(batch.size()); ++k)
    newBatch.push_back(k);
  for (int64_t k = 0; k < static_cast<int64_t>(contracting.size()); ++k)
    newContracting.push_back(batch.size() + k);
  op.getRhsMutable().assign(transposed);
  op.setRhsBatchingDimensions(newBatch);
  op.setRhsContractingDimensions(newContracting);
}

/// Whether `op` may be replaced by its value: a pure prim op without regions over constants,
/// whose results are static, not i1, not huge, and not larger than its inputs.
bool isFoldable(Operation *op, SmallVectorImpl<ElementsAttr> &operands) {
  if (!isa<tcc::prim::PrimDialect>(op->getDialect()) || op->getNumRegions() != 0 ||
      op->getNumOperands() == 0 || op->getNumResults() == 0 || !isPure(op))
    return false;
  // Strings stay code: a folded string would be a constant of texts, which compiled code
  // cannot hold, and case mapping depends on the machine's C.UTF-8 tables.
  auto isString = [](Type t) { return isa<tcc::prim::StringType>(getElementTypeOrSelf(t)); };
  if (llvm::any_of(op->getOperandTypes(), isString) || llvm::any_of(op->getResultTypes(), isString))
    return false;
  int64_t inputElements = 0;
  for (Value v : op->getOperands()) {
    ElementsAttr attr = constantValue(v);
    if (!attr)
      return false;
    operands.push_back(attr);
    if (!attr.isSplat())
      inputElements += attr.getNumElements();
  }
  for (Type t : op->getResultTypes()) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || !type.hasStaticShape() || type.getElementType().isInteger(1) ||
        !tcc::eval::isSupportedElementType(type.getElementType()) ||
        type.getNumElements() > std::max(inputElements, kMaxInlineElements) ||
        type.getNumElements() > kMaxFoldedElements)
      return false;
  }
  return true;
}

/// Runs `op` alone on `operands` with the reference evaluator.
FailureOr<std::vector<tcc::eval::Tensor>> evaluate(Operation *op, ArrayRef<ElementsAttr> operands) {
  MLIRContext *context = op->getContext();
  OpBuilder b(context);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(op->getLoc());
  b.setInsertionPointToStart(scratch->getBody());
  auto function = func::FuncOp::create(b, op->getLoc(), "fold",
                                       b.getFunctionType(op->getOperandTypes(), op->getResultTypes()));
  Block *body = function.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping mapping;
  mapping.map(op->getOperands(), body->getArguments());
  Operation *clone = b.clone(*op, mapping);
  func::ReturnOp::create(b, op->getLoc(), clone->getResults());
  std::vector<tcc::eval::Tensor> inputs;
  for (ElementsAttr attr : operands) {
    llvm::Expected<tcc::eval::Tensor> tensor = tcc::eval::tensorFromAttr(attr);
    if (!tensor) {
      llvm::consumeError(tensor.takeError());
      return failure();
    }
    inputs.push_back(std::move(*tensor));
  }
  llvm::Expected<std::vector<tcc::eval::Tensor>> results = tcc::eval::evaluateFunction(function, inputs);
  if (!results) {
    // Not foldable here (an unsupported case, a failing check): it stays code, which reports
    // the same problem at run time.
    llvm::consumeError(results.takeError());
    return failure();
  }
  return std::move(*results);
}

ElementsAttr toAttr(RankedTensorType type, const tcc::eval::Tensor &tensor) {
  ArrayRef<char> bytes(reinterpret_cast<const char *>(tensor.bytes.data()), tensor.bytes.size());
  if (type.getNumElements() <= kMaxInlineElements)
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  size_t alignment = std::max<int64_t>(tcc::eval::getElementByteSize(type.getElementType()), 1);
  return DenseResourceElementsAttr::get(type, "folded",
                                        HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignment));
}

struct FoldWeightsPass : tcc::eval::impl::FoldWeightsBase<FoldWeightsPass> {
  void runOnOperation() override {
    auto main = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    main.walk([](tcc::prim::DotGeneralOp op) { transposeConstantRhs(op); });
    SmallVector<Operation *> ops;
    for (Operation &op : main.getBody().front())
      ops.push_back(&op);
    for (Operation *op : ops) {
      SmallVector<ElementsAttr> operands;
      if (!isFoldable(op, operands))
        continue;
      FailureOr<std::vector<tcc::eval::Tensor>> values = evaluate(op, operands);
      if (failed(values))
        continue;
      OpBuilder b(op);
      SmallVector<Value> replacements;
      for (auto [result, value] : llvm::zip(op->getResults(), *values)) {
        auto type = cast<RankedTensorType>(result.getType());
        replacements.push_back(arith::ConstantOp::create(b, op->getLoc(), type, toAttr(type, value)));
      }
      op->replaceAllUsesWith(replacements);
      op->erase();
    }
  }
};

} // namespace
