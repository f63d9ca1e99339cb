//===- NarrowBias.cpp - an attention bias that does not depend on the query row ---------===//
//
// narrow(v, d) is v[.., 0:1 along d, ..], built from what v is made of:
//   - v of extent 1 along d: v itself;
//   - broadcast_in_dim(x): the same broadcast to extent 1 there, of x narrowed where x's dim
//     is the one broadcast to d (x as it is where none is, or where it has extent 1);
//   - an elementwise op: the op on its operands narrowed;
//   - a splat constant: the same splat, of the narrowed (static) shape;
//   - compare ge(x, 0) with x an index that cannot be negative (iotas, their sums and
//     products with nonnegative constants, reshaped or broadcast): all true.
// Anything else (a gather, a reduction, an iota along d ...) depends on the row, or might:
// the bias stays as it is.
//
//===-------------------------------------------------------------------------------------===//
#include "NarrowBias.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
namespace prim = tcc::prim;

namespace {

/// Whether every element of the integer tensor `v` is >= 0.
bool isNonNegative(Value v, unsigned depth = 0) {
  if (depth > 32)
    return false;
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr.isSplat() && isa<IntegerType>(attr.getElementType()) &&
           !attr.getElementType().isInteger(1) && !attr.getSplatValue<APInt>().isNegative();
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<prim::IotaOp>(op))
    return true;
  if (isa<prim::BroadcastInDimOp, prim::ReshapeOp>(op))
    return isNonNegative(op->getOperand(0), depth + 1);
  if (isa<prim::AddOp, prim::MulOp>(op)) // (wrapping needs extents near 2^62)
    return isNonNegative(op->getOperand(0), depth + 1) &&
           isNonNegative(op->getOperand(1), depth + 1);
  return false;
}

/// Whether `v` is 0 everywhere (a splat constant, maybe broadcast).
bool isZero(Value v) {
  if (auto broadcast = v.getDefiningOp<prim::BroadcastInDimOp>())
    v = broadcast.getOperand();
  DenseElementsAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.isSplat() &&
         isa<IntegerType>(attr.getElementType()) && attr.getSplatValue<APInt>().isZero();
}

class Narrower {
public:
  Narrower(OpBuilder &b, std::string &why) : b(b), why(why) {}

  Value narrow(Value v, int64_t d, unsigned depth = 0) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getDimSize(d) == 1)
      return v;
    if (depth > 64)
      return fail("the bias's definition is too deep");
    SmallVector<int64_t> shape(type.getShape());
    shape[d] = 1;
    auto narrowType = RankedTensorType::get(shape, type.getElementType());
    Location loc = v.getLoc();
    DenseElementsAttr attr;
    if (matchPattern(v, m_Constant(&attr))) {
      if (!attr.isSplat() || !narrowType.hasStaticShape())
        return fail("the bias reads a constant that may differ between query rows");
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(narrowType, attr.getSplatValue<Attribute>()));
    }
    Operation *op = v.getDefiningOp();
    if (!op)
      return fail("the bias is an argument, [.., M, N] (its rows may differ)");
    if (auto broadcast = dyn_cast<prim::BroadcastInDimOp>(op)) {
      Value x = broadcast.getOperand();
      ArrayRef<int64_t> dims = broadcast.getBroadcastDimensions();
      auto xType = cast<RankedTensorType>(x.getType());
      for (auto [k, to] : llvm::enumerate(dims))
        if (to == d && xType.getDimSize(k) != 1 && !(x = narrow(x, k, depth + 1)))
          return {};
      // The sizes of the result's dynamic dims, less dim d's.
      SmallVector<Value> sizes;
      unsigned next = 0;
      for (int64_t r = 0; r < type.getRank(); ++r) {
        if (!type.isDynamicDim(r))
          continue;
        Value size = broadcast.getDynamicSizes()[next++];
        if (r != d)
          sizes.push_back(size);
      }
      return prim::BroadcastInDimOp::create(b, loc, narrowType, x, sizes,
                                            b.getDenseI64ArrayAttr(dims));
    }
    if (auto compare = dyn_cast<prim::CompareOp>(op))
      if (compare.getDirection() == prim::CompareDirection::Ge && isNonNegative(compare.getLhs()) &&
          isZero(compare.getRhs())) {
        if (!narrowType.hasStaticShape())
          return fail("an always-true comparison of a dynamic shape");
        return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(narrowType, true));
      }
    if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
        isa<prim::PrimDialect>(op->getDialect()) &&
        llvm::all_of(op->getOperandTypes(), [&](Type t) {
          auto operand = dyn_cast<RankedTensorType>(t);
          return operand && operand.getShape() == type.getShape();
        })) {
      SmallVector<Value> operands;
      for (Value operand : op->getOperands()) {
        operands.push_back(narrow(operand, d, depth + 1));
        if (!operands.back())
          return {};
      }
      OperationState state(loc, op->getName(), operands, TypeRange{narrowType}, op->getAttrs());
      return b.create(state)->getResult(0);
    }
    return fail("the bias is computed by " + op->getName().getStringRef().str() +
                ", whose rows may differ along the queries");
  }

private:
  Value fail(const std::string &reason) {
    if (why.empty())
      why = reason;
    return {};
  }

  OpBuilder &b;
  std::string &why;
};

} // namespace

Value tcc::narrowQueryDim(OpBuilder &b, Value bias, int64_t queryDim, std::string &why) {
  return Narrower(b, why).narrow(bias, queryDim);
}
