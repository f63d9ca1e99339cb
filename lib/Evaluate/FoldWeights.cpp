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
#include "llvm/ADT/SetVector.h"

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

/// Runs `ops` (in order, the last one's results returned) on `arguments`, whose values are
/// `operands`, with the reference evaluator.
FailureOr<std::vector<tcc::eval::Tensor>> evaluate(ArrayRef<Operation *> ops, ValueRange arguments,
                                                   ArrayRef<ElementsAttr> operands) {
  Operation *op = ops.back();
  MLIRContext *context = op->getContext();
  OpBuilder b(context);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(op->getLoc());
  b.setInsertionPointToStart(scratch->getBody());
  auto function = func::FuncOp::create(b, op->getLoc(), "fold",
                                       b.getFunctionType(arguments.getTypes(), op->getResultTypes()));
  Block *body = function.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping mapping;
  mapping.map(arguments, body->getArguments());
  Operation *clone = nullptr;
  for (Operation *step : ops)
    clone = b.clone(*step, mapping);
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

/// Replaces `op` by `values`, constants.
SmallVector<Value> replaceByValues(Operation *op, ArrayRef<tcc::eval::Tensor> values) {
  OpBuilder b(op);
  SmallVector<Value> replacements;
  for (auto [result, value] : llvm::zip(op->getResults(), values)) {
    auto type = cast<RankedTensorType>(result.getType());
    replacements.push_back(arith::ConstantOp::create(b, op->getLoc(), type, toAttr(type, value)));
  }
  op->replaceAllUsesWith(replacements);
  op->erase();
  return replacements;
}

/// Replaces `op` by its value where isFoldable: the constants, or nothing.
SmallVector<Value> fold(Operation *op) {
  SmallVector<ElementsAttr> operands;
  if (!isFoldable(op, operands))
    return {};
  FailureOr<std::vector<tcc::eval::Tensor>> values = evaluate({op}, op->getOperands(), operands);
  if (failed(values))
    return {};
  return replaceByValues(op, *values);
}

/// An elementwise op over constants and static broadcasts of constants, no larger than its
/// largest constant operand (a depthwise filter minus its per-channel zero points,
/// w - broadcast(zw), which fold() leaves since the broadcast alone would grow): folded
/// with its broadcasts evaluated inside, which stay code where they have other readers.
bool foldOverBroadcasts(Operation *op) {
  if (!isa<tcc::prim::PrimDialect>(op->getDialect()) || !op->hasTrait<OpTrait::Elementwise>() ||
      op->getNumResults() != 1 || op->getNumOperands() == 0 || !isPure(op))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getElementType().isInteger(1) ||
      !tcc::eval::isSupportedElementType(type.getElementType()))
    return false;
  SmallVector<Operation *> broadcasts;
  SmallVector<Value> inputs;
  SmallVector<ElementsAttr> operands;
  int64_t largest = 0;
  for (Value v : op->getOperands()) {
    if (ElementsAttr attr = constantValue(v)) {
      if (!attr.isSplat())
        largest = std::max(largest, attr.getNumElements());
      inputs.push_back(v);
      operands.push_back(attr);
      continue;
    }
    auto broadcast = v.getDefiningOp<tcc::prim::BroadcastInDimOp>();
    ElementsAttr source = broadcast ? constantValue(broadcast.getOperand()) : ElementsAttr();
    if (!source || !cast<RankedTensorType>(broadcast.getType()).hasStaticShape() ||
        !broadcast.getDynamicSizes().empty())
      return false;
    if (!llvm::is_contained(broadcasts, broadcast.getOperation())) {
      broadcasts.push_back(broadcast);
      inputs.push_back(broadcast.getOperand());
      operands.push_back(source);
    }
  }
  if (broadcasts.empty() || type.getNumElements() > std::max(largest, kMaxInlineElements))
    return false;
  SmallVector<Operation *> ops(broadcasts);
  ops.push_back(op);
  FailureOr<std::vector<tcc::eval::Tensor>> values = evaluate(ops, inputs, operands);
  if (failed(values))
    return false;
  replaceByValues(op, *values);
  for (Operation *broadcast : broadcasts)
    if (broadcast->use_empty())
      broadcast->erase();
  return true;
}

/// An elementwise op whose operands are all broadcasts of constants (a quantized
/// convolution's per-channel requantization scale w_scale[c] x_scale / y_scale, each factor
/// broadcast to the activation's shape with its dynamic batch) is computed on the union of
/// the broadcasts' dims only, folded, and broadcast after:
///   f(bcast(a, A), bcast(b, B)) = bcast(f(bcast(a, A in U), bcast(b, B in U)), U),  U = A u B
/// so that the run time reads a [C] constant instead of computing f per element. Whether it
/// did (when the narrow op does not fold, `op` stays as it was).
bool foldBroadcastOperands(Operation *op) {
  if (!isa<tcc::prim::PrimDialect>(op->getDialect()) || !op->hasTrait<OpTrait::Elementwise>() ||
      op->getNumResults() != 1 || op->getNumOperands() == 0)
    return false;
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType)
    return false;
  SmallVector<tcc::prim::BroadcastInDimOp> broadcasts;
  llvm::SmallSetVector<int64_t, 4> unionDims;
  for (Value operand : op->getOperands()) {
    auto broadcast = operand.getDefiningOp<tcc::prim::BroadcastInDimOp>();
    if (!broadcast || !constantValue(broadcast.getOperand()) ||
        cast<RankedTensorType>(broadcast.getType()).getShape() != resultType.getShape())
      return false;
    broadcasts.push_back(broadcast);
    unionDims.insert_range(broadcast.getBroadcastDimensions());
  }
  SmallVector<int64_t> dims(unionDims.begin(), unionDims.end());
  llvm::sort(dims);
  auto position = [&](int64_t d) { return llvm::find(dims, d) - dims.begin(); };
  // The narrow shape: each dim of U as long as an operand makes it (1 where all broadcast a
  // 1); static, since the operands are constants.
  SmallVector<int64_t> shape(dims.size(), 1);
  for (tcc::prim::BroadcastInDimOp broadcast : broadcasts) {
    auto source = cast<RankedTensorType>(broadcast.getOperand().getType());
    for (auto [k, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
      if (source.getDimSize(k) != 1)
        shape[position(d)] = source.getDimSize(k);
  }
  auto narrowType = RankedTensorType::get(shape, resultType.getElementType());
  if (resultType.hasStaticShape() && resultType.getNumElements() == narrowType.getNumElements())
    return false;
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Operation *> narrowBroadcasts;
  IRMapping mapping;
  for (auto [operand, broadcast] : llvm::zip(op->getOperands(), broadcasts)) {
    auto source = cast<RankedTensorType>(broadcast.getOperand().getType());
    SmallVector<int64_t> positions;
    for (int64_t d : broadcast.getBroadcastDimensions())
      positions.push_back(position(d));
    auto narrow = tcc::prim::BroadcastInDimOp::create(
        b, loc, RankedTensorType::get(shape, source.getElementType()), broadcast.getOperand(),
        ValueRange{}, positions);
    narrowBroadcasts.push_back(narrow);
    mapping.map(operand, narrow.getResult());
  }
  Operation *narrowOp = b.clone(*op, mapping);
  narrowOp->getResult(0).setType(narrowType);
  // The narrow broadcasts fold (the clone then reads constants), then the op.
  for (Operation *narrow : narrowBroadcasts)
    fold(narrow);
  SmallVector<Operation *> inputs;
  for (Value operand : narrowOp->getOperands())
    inputs.push_back(operand.getDefiningOp());
  SmallVector<Value> folded = fold(narrowOp);
  if (folded.empty())
    narrowOp->erase();
  for (Operation *input : inputs)
    if (input && input->use_empty())
      input->erase();
  if (folded.empty())
    return false;
  // The result's dynamic extents are any operand broadcast's (one shape).
  Value result = tcc::prim::BroadcastInDimOp::create(b, loc, resultType, folded[0],
                                                     broadcasts[0].getDynamicSizes(), dims);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return true;
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
    for (Operation *op : ops)
      if (!foldBroadcastOperands(op) && !foldOverBroadcasts(op))
        (void)fold(op);
  }
};

} // namespace
