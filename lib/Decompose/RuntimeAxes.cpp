//===- RuntimeAxes.cpp - axes and other structural values read at run time -----------===//
#include "RuntimeAxes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;
using arith::CmpIPredicate;

std::optional<SmallVector<OpFoldResult>> tcc::decompose::getShapeInput(NodeRewriter &n,
                                                                       unsigned index) {
  Value v = n.getInput(index);
  if (!v)
    return std::nullopt;
  auto elements = getShapeElements(n, v);
  if (!elements)
    n.emitError() << "input " << index << " (" << v.getType()
                  << ") must be a 0-d or 1-d integer tensor of static length";
  return elements;
}

bool tcc::decompose::isRuntimeInput(NodeRewriter &n, unsigned index) {
  return n.hasInput(index) && n.getOptionalInput(index) &&
         !getConstantInts(n.getOptionalInput(index));
}

void tcc::decompose::checkTrue(NodeRewriter &n, Value condition, const llvm::Twine &message) {
  if (matchPattern(condition, m_One()))
    return;
  OpBuilder &b = n.getBuilder();
  prim::CheckOp::create(b, n.getLoc(), condition,
                        b.getStringAttr("node '" + n.getNode().getNodeName() + "' (" +
                                        n.getOpType() + "): " + message));
}

std::optional<SmallVector<Value>> tcc::decompose::runtimeAxes(NodeRewriter &n, unsigned index,
                                                              int64_t rank, bool distinct) {
  auto elements = getShapeInput(n, index);
  if (!elements)
    return std::nullopt;
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value extent = arith::ConstantIndexOp::create(b, loc, rank);
  SmallVector<Value> axes;
  Value inRange;
  for (OpFoldResult element : *elements) {
    // a in [-rank, rank): a + rank in [0, 2 rank); normalized: a < 0 ? a + rank : a
    Value a = toIndex(n, element);
    Value shifted = b.createOrFold<arith::AddIOp>(loc, a, extent);
    Value ok = b.createOrFold<arith::AndIOp>(
        loc, b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::sge, shifted, zero),
        b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::slt, a, extent));
    inRange = inRange ? b.createOrFold<arith::AndIOp>(loc, inRange, ok) : ok;
    axes.push_back(b.createOrFold<arith::SelectOp>(
        loc, b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::slt, a, zero), shifted, a));
  }
  if (inRange)
    checkTrue(n, inRange,
              "input " + llvm::Twine(index) + " (axes): each axis must be in [" +
                  llvm::Twine(-rank) + ", " + llvm::Twine(rank) + ")");
  if (distinct) {
    Value unique;
    for (size_t i = 0; i < axes.size(); ++i)
      for (size_t j = i + 1; j < axes.size(); ++j) {
        Value differ = b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::ne, axes[i], axes[j]);
        unique = unique ? b.createOrFold<arith::AndIOp>(loc, unique, differ) : differ;
      }
    if (unique)
      checkTrue(n, unique, "input " + llvm::Twine(index) + " (axes): an axis is listed twice");
  }
  return axes;
}

std::optional<SmallVector<Value>>
tcc::decompose::runtimeAxesOrFirst(NodeRewriter &n, unsigned index, int64_t rank, int64_t count) {
  if (n.hasInput(index))
    return runtimeAxes(n, index, rank, /*distinct=*/true);
  SmallVector<Value> axes;
  for (int64_t i = 0; i < count; ++i)
    axes.push_back(arith::ConstantIndexOp::create(n.getBuilder(), n.getLoc(), i));
  return axes;
}

Value tcc::decompose::isListed(NodeRewriter &n, ArrayRef<Value> axes, int64_t dim) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value d = arith::ConstantIndexOp::create(b, loc, dim);
  Value listed = arith::ConstantIntOp::create(b, loc, 0, 1);
  for (Value axis : axes)
    listed = b.createOrFold<arith::OrIOp>(
        loc, listed, b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::eq, axis, d));
  return listed;
}

OpFoldResult tcc::decompose::pick(NodeRewriter &n, Value index, ArrayRef<OpFoldResult> values) {
  OpBuilder &b = n.getBuilder();
  OpFoldResult picked = values.front();
  for (size_t j = 1; j < values.size(); ++j)
    picked = selectIndex(n, CmpIPredicate::eq, index, b.getIndexAttr(static_cast<int64_t>(j)),
                         values[j], picked);
  return picked;
}
