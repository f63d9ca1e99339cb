//===- Scalarize.cpp - elements of small computed tensors as scalar arithmetic -------------===//
//
// A small tensor the model computes from graph inputs (a table the sequence rules built, a
// trip count computed with 0-d tensor ops) is read element by element as scalar arithmetic
// on the inputs' elements, which tcc-data-extents can compute before the run.
//
//===----------------------------------------------------------------------------------===//
#include "Scalarize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;
using prim::CompareDirection;

Value tcc::decompose::clampRow(NodeRewriter &n, OpFoldResult index, OpFoldResult count) {
  OpBuilder &b = n.getBuilder();
  OpFoldResult last = subIndex(n, count, b.getIndexAttr(1));
  return toIndex(n, maxIndex(n, minIndex(n, index, last), b.getIndexAttr(0)));
}

namespace {

//   input[i]                 = tensor.extract input[clamp(i)]   (no read outside it)
//   iota_d[i]                = i[d]
//   broadcast(x)[i]          = x[min(i[dims[k]], dim_k(x) - 1)...]
//   concat(x0, x1, ...)[i]   = i[d] < e0 ? x0[i] : x1[i - e0 at d] ...
//   gather(x, g, axis)[i]    = x[i[:axis], g[i[axis:axis+r]], i[axis+r:]]
//   slice(x, o, s)[i]        = x[o + i * s]
//   select, compare, add, sub, mul, max, min, convert: the scalar op (also div, floor,
//   ceil, neg and abs on floats: a trip count computed in float from the inputs)
//   reshape adding or dropping extent-1 dims; from_elements and small constants: a select
//   chain (a 0-d one: its element)
class ElementScalarizer {
public:
  explicit ElementScalarizer(NodeRewriter &n) : n(n), b(n.getBuilder()), loc(n.getLoc()) {}

  /// Element `index` of `tensor`; null when it cannot be scalarized.

  Value at(Value tensor, ArrayRef<Value> index) {
    if (--budget < 0)
      return nullptr;
    auto type = dyn_cast<RankedTensorType>(tensor.getType());
    if (!type ||
        !(type.getElementType().isSignlessInteger() || isa<FloatType>(type.getElementType())))
      return nullptr;
    if (auto arg = dyn_cast<BlockArgument>(tensor)) {
      if (!isa<func::FuncOp>(arg.getOwner()->getParentOp()))
        return nullptr;
      SmallVector<OpFoldResult> dims = getDims(n, tensor);
      SmallVector<Value> clamped;
      for (auto [d, i] : llvm::enumerate(index))
        clamped.push_back(clampRow(n, i, dims[d]));
      return tensor::ExtractOp::create(b, loc, tensor, clamped);
    }
    Operation *op = tensor.getDefiningOp();
    if (!op)
      return nullptr;
    Type element = type.getElementType();
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      return constantAt(constant, index, element);
    if (auto iota = dyn_cast<prim::IotaOp>(op))
      return castIndex(index[iota.getDimension()], element);
    if (auto broadcast = dyn_cast<prim::BroadcastInDimOp>(op)) {
      SmallVector<OpFoldResult> dims = getDims(n, broadcast.getOperand());
      SmallVector<Value> inner;
      for (auto [k, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
        inner.push_back(clampRow(n, index[d], dims[k]));
      return at(broadcast.getOperand(), inner);
    }
    if (auto concat = dyn_cast<prim::ConcatenateOp>(op)) {
      int64_t d = concat.getDimension();
      Value offset = arith::ConstantIndexOp::create(b, loc, 0);
      SmallVector<std::pair<Value, Value>> parts; // (end, value)
      for (Value part : concat.getInputs()) {
        SmallVector<Value> shifted(index);
        shifted[d] = b.createOrFold<arith::SubIOp>(loc, index[d], offset);
        Value v = at(part, shifted);
        if (!v)
          return nullptr;
        offset = b.createOrFold<arith::AddIOp>(loc, offset, toIndex(n, getDims(n, part)[d]));
        parts.push_back({offset, v});
      }
      Value result = parts.back().second;
      for (auto it = std::next(parts.rbegin()); it != parts.rend(); ++it)
        result = b.createOrFold<arith::SelectOp>(
            loc, b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, index[d], it->first),
            it->second, result);
      return result;
    }
    if (auto gather = dyn_cast<prim::GatherOp>(op)) {
      int64_t axis = gather.getAxis();
      int64_t r = rankOf(gather.getIndices());
      Value g = at(gather.getIndices(), index.slice(axis, r));
      if (!g)
        return nullptr;
      SmallVector<Value> inner(index.take_front(axis));
      inner.push_back(b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), g));
      llvm::append_range(inner, index.drop_front(axis + r));
      return at(gather.getOperand(), inner);
    }
    if (auto slice = dyn_cast<prim::SliceOp>(op)) {
      SmallVector<Value> inner;
      for (auto [d, o] : llvm::enumerate(slice.getMixedOffsets())) {
        Value stride = arith::ConstantIndexOp::create(b, loc, slice.getStaticStrides()[d]);
        inner.push_back(b.createOrFold<arith::AddIOp>(
            loc, toIndex(n, o), b.createOrFold<arith::MulIOp>(loc, index[d], stride)));
      }
      return at(slice.getOperand(), inner);
    }
    if (auto reshape = dyn_cast<prim::ReshapeOp>(op))
      return reshapeAt(reshape, index);
    if (auto from = dyn_cast<tensor::FromElementsOp>(op)) {
      if (type.getRank() == 0)
        return from.getElements().front();
      if (type.getRank() != 1)
        return nullptr;
      Value result = from.getElements().back();
      for (int64_t k = static_cast<int64_t>(from.getElements().size()) - 2; k >= 0; --k)
        result = b.createOrFold<arith::SelectOp>(loc, equals(index[0], k), from.getElements()[k],
                                                 result);
      return result;
    }
    if (auto select = dyn_cast<prim::SelectOp>(op)) {
      Value p = at(op->getOperand(0), index), t = at(op->getOperand(1), index),
            f = at(op->getOperand(2), index);
      return p && t && f ? b.createOrFold<arith::SelectOp>(loc, p, t, f) : nullptr;
    }
    if (auto convert = dyn_cast<prim::ConvertOp>(op)) {
      Value x = at(convert.getOperand(), index);
      return x ? convertScalar(x, element) : nullptr;
    }
    if (op->getNumOperands() == 1 &&
        isa<prim::FloorOp, prim::CeilOp, prim::NegOp, prim::AbsOp>(op)) {
      Value x = at(op->getOperand(0), index);
      if (!x)
        return nullptr;
      bool real = isa<FloatType>(x.getType());
      if (isa<prim::FloorOp>(op))
        return b.createOrFold<math::FloorOp>(loc, x);
      if (isa<prim::CeilOp>(op))
        return b.createOrFold<math::CeilOp>(loc, x);
      if (isa<prim::NegOp>(op))
        return real ? b.createOrFold<arith::NegFOp>(loc, x)
                    : b.createOrFold<arith::SubIOp>(
                          loc, arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType())), x);
      return real ? b.createOrFold<math::AbsFOp>(loc, x) : b.createOrFold<math::AbsIOp>(loc, x);
    }
    if (op->getNumOperands() == 2 && isa<FloatType>(elementOf(op->getOperand(0))) &&
        isa<prim::CompareOp, prim::AddOp, prim::SubOp, prim::MulOp, prim::DivOp, prim::MaxOp,
            prim::MinOp>(op)) {
      Value x = at(op->getOperand(0), index), y = at(op->getOperand(1), index);
      if (!x || !y)
        return nullptr;
      if (auto compare = dyn_cast<prim::CompareOp>(op))
        return b.createOrFold<arith::CmpFOp>(loc, floatPredicate(compare.getDirection()), x, y);
      if (isa<prim::AddOp>(op))
        return b.createOrFold<arith::AddFOp>(loc, x, y);
      if (isa<prim::SubOp>(op))
        return b.createOrFold<arith::SubFOp>(loc, x, y);
      if (isa<prim::MulOp>(op))
        return b.createOrFold<arith::MulFOp>(loc, x, y);
      if (isa<prim::DivOp>(op))
        return b.createOrFold<arith::DivFOp>(loc, x, y);
      if (isa<prim::MaxOp>(op))
        return b.createOrFold<arith::MaximumFOp>(loc, x, y);
      return b.createOrFold<arith::MinimumFOp>(loc, x, y);
    }
    if (op->getNumOperands() == 2 &&
        isa<prim::CompareOp, prim::AddOp, prim::SubOp, prim::MulOp, prim::MaxOp, prim::MinOp>(op)) {
      Value x = at(op->getOperand(0), index), y = at(op->getOperand(1), index);
      if (!x || !y)
        return nullptr;
      if (auto compare = dyn_cast<prim::CompareOp>(op))
        return b.createOrFold<arith::CmpIOp>(loc, predicate(compare.getDirection()), x, y);
      if (isa<prim::AddOp>(op))
        return b.createOrFold<arith::AddIOp>(loc, x, y);
      if (isa<prim::SubOp>(op))
        return b.createOrFold<arith::SubIOp>(loc, x, y);
      if (isa<prim::MulOp>(op))
        return b.createOrFold<arith::MulIOp>(loc, x, y);
      if (isa<prim::MaxOp>(op))
        return b.createOrFold<arith::MaxSIOp>(loc, x, y);
      return b.createOrFold<arith::MinSIOp>(loc, x, y);
    }
    return nullptr;
  }

private:
  Value equals(Value i, int64_t k) {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, i,
                                         arith::ConstantIndexOp::create(b, loc, k));
  }

  Value castIndex(Value i, Type element) {
    if (isa<FloatType>(element))
      return convertScalar(b.createOrFold<arith::IndexCastOp>(loc, b.getI64Type(), i), element);
    return b.createOrFold<arith::IndexCastOp>(loc, element, i);
  }

  /// `x` converted to `element` as prim.convert does: integers by sign (i1 unsigned),
  /// floats to integers truncating.
  Value convertScalar(Value x, Type element) {
    Type from = x.getType();
    if (from == element)
      return x;
    bool fromReal = isa<FloatType>(from), toReal = isa<FloatType>(element);
    unsigned fromBits = from.getIntOrFloatBitWidth(), toBits = element.getIntOrFloatBitWidth();
    if (fromReal && toReal)
      return fromBits < toBits ? b.createOrFold<arith::ExtFOp>(loc, element, x)
                               : b.createOrFold<arith::TruncFOp>(loc, element, x);
    if (fromReal)
      return element.isInteger(1) ? b.createOrFold<arith::CmpFOp>(
                                        loc, arith::CmpFPredicate::UNE, x,
                                        arith::ConstantOp::create(b, loc, b.getZeroAttr(from)))
                                  : b.createOrFold<arith::FPToSIOp>(loc, element, x);
    if (toReal)
      return fromBits == 1 ? b.createOrFold<arith::UIToFPOp>(loc, element, x)
                           : b.createOrFold<arith::SIToFPOp>(loc, element, x);
    if (fromBits == toBits)
      return x;
    if (fromBits < toBits)
      return fromBits == 1 ? b.createOrFold<arith::ExtUIOp>(loc, element, x)
                           : b.createOrFold<arith::ExtSIOp>(loc, element, x);
    if (toBits == 1)
      return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, x,
                                           arith::ConstantOp::create(b, loc, b.getZeroAttr(from)));
    return b.createOrFold<arith::TruncIOp>(loc, element, x);
  }

  static arith::CmpFPredicate floatPredicate(CompareDirection direction) {
    switch (direction) {
    case CompareDirection::Eq:
      return arith::CmpFPredicate::OEQ;
    case CompareDirection::Ne:
      return arith::CmpFPredicate::UNE;
    case CompareDirection::Lt:
      return arith::CmpFPredicate::OLT;
    case CompareDirection::Le:
      return arith::CmpFPredicate::OLE;
    case CompareDirection::Gt:
      return arith::CmpFPredicate::OGT;
    case CompareDirection::Ge:
      return arith::CmpFPredicate::OGE;
    }
    return arith::CmpFPredicate::OEQ;
  }

  static arith::CmpIPredicate predicate(CompareDirection direction) {
    switch (direction) {
    case CompareDirection::Eq:
      return arith::CmpIPredicate::eq;
    case CompareDirection::Ne:
      return arith::CmpIPredicate::ne;
    case CompareDirection::Lt:
      return arith::CmpIPredicate::slt;
    case CompareDirection::Le:
      return arith::CmpIPredicate::sle;
    case CompareDirection::Gt:
      return arith::CmpIPredicate::sgt;
    case CompareDirection::Ge:
      return arith::CmpIPredicate::sge;
    }
    return arith::CmpIPredicate::eq;
  }

  /// A constant's element: the splat, or a select chain over at most 64 elements (row-major).
  Value constantAt(arith::ConstantOp constant, ArrayRef<Value> index, Type element) {
    if (auto reals = dyn_cast<DenseFPElementsAttr>(constant.getValue()))
      return reals.isSplat() ? arith::ConstantOp::create(
                                   b, loc, FloatAttr::get(element, reals.getSplatValue<APFloat>()))
                                   .getResult()
                             : nullptr;
    auto values = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!values)
      return nullptr;
    auto scalar = [&](const APInt &v) {
      return arith::ConstantOp::create(b, loc, IntegerAttr::get(element, v)).getResult();
    };
    if (values.isSplat())
      return scalar(values.getSplatValue<APInt>());
    if (values.getNumElements() > 64)
      return nullptr;
    ArrayRef<int64_t> shape = values.getType().getShape();
    Value linear = arith::ConstantIndexOp::create(b, loc, 0);
    for (auto [d, i] : llvm::enumerate(index))
      linear = b.createOrFold<arith::AddIOp>(
          loc,
          b.createOrFold<arith::MulIOp>(loc, linear,
                                        arith::ConstantIndexOp::create(b, loc, shape[d])),
          i);
    SmallVector<APInt> all(values.getValues<APInt>());
    Value result = scalar(all.back());
    for (int64_t k = static_cast<int64_t>(all.size()) - 2; k >= 0; --k)
      result = b.createOrFold<arith::SelectOp>(loc, equals(linear, k), scalar(all[k]), result);
    return result;
  }

  /// A reshape that only adds or drops static extent-1 dims: the other indices in order.
  Value reshapeAt(prim::ReshapeOp reshape, ArrayRef<Value> index) {
    auto from = cast<RankedTensorType>(reshape.getOperand().getType());
    auto to = cast<RankedTensorType>(reshape.getType());
    SmallVector<int64_t> kept;
    for (int64_t d = 0; d < to.getRank(); ++d)
      if (to.getDimSize(d) != 1)
        kept.push_back(d);
    SmallVector<Value> inner;
    size_t next = 0;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    for (int64_t d = 0; d < from.getRank(); ++d) {
      if (from.getDimSize(d) == 1) {
        inner.push_back(zero);
        continue;
      }
      if (next >= kept.size() || (from.isDynamicDim(d) != to.isDynamicDim(kept[next])) ||
          (!from.isDynamicDim(d) && from.getDimSize(d) != to.getDimSize(kept[next])))
        return nullptr;
      inner.push_back(index[kept[next++]]);
    }
    return next == kept.size() ? at(reshape.getOperand(), inner) : nullptr;
  }

  NodeRewriter &n;
  OpBuilder &b;
  Location loc;
  int budget = 256;
};

} // namespace

Value tcc::decompose::scalarizeElement(NodeRewriter &n, Value tensor, ArrayRef<Value> index) {
  return ElementScalarizer(n).at(tensor, index);
}
