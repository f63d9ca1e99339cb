//===- QuadInt8Contractions.cpp - int32 contractions as dot products of 4-byte quads ----===//
//
// The formula, the conditions and the layout are in include/tcc/Fuse/Passes.td
// (tcc-quad-int8-contractions). In short: an int32 multiply-add contraction of zero-extended
// uint8 values (u) and constant weights in [-128, 127] over a reduction dim r reads both
// as bytes in layouts whose last dim holds the quad (r = 4 r' + q); the weights are packed
// here, while compiling, u by a packing kernel (or a view, when r is its last dim); the
// contraction gets the quad as a new innermost reduction dim. The CPU tiler computes such a
// contraction with vpdpbusd. The same shape as tcc-pair-bf16-contractions (pairs of bf16).
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Fuse/Passes.h"

#include "tcc/Support/LinalgBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

namespace tcc {
#define GEN_PASS_DEF_QUADINT8CONTRACTIONS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Constants of at most this many elements stay inline (as tcc-fold-weights makes them).
constexpr int64_t kMaxInlineElements = 16;
constexpr int64_t kQuad = 4;

/// The int32 elements of a constant (or of a reshaped one: the same elements in the same
/// order) when they all fit int8; nothing otherwise.
std::optional<std::vector<int8_t>> int8Values(Value value) {
  while (Operation *reshape = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(reshape))
      break;
    value = reshape->getOperand(0);
  }
  ElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  auto type = cast<ShapedType>(attr.getType());
  if (!type.getElementType().isInteger(32) || !type.hasStaticShape())
    return std::nullopt;
  std::vector<int32_t> wide(type.getNumElements());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    size_t k = 0;
    for (const APInt &v : dense.getValues<APInt>())
      wide[k++] = static_cast<int32_t>(v.getSExtValue());
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != wide.size() * sizeof(int32_t))
      return std::nullopt;
    std::memcpy(wide.data(), blob->getData().data(), blob->getData().size());
  } else {
    return std::nullopt;
  }
  std::vector<int8_t> values(wide.size());
  for (size_t k = 0; k < wide.size(); ++k) {
    if (wide[k] < -128 || wide[k] > 127)
      return std::nullopt;
    values[k] = static_cast<int8_t>(wide[k]);
  }
  return values;
}

/// The i8 tensor whose zero extension `v` is (an all-parallel generic yielding extui(in)).
Value zeroExtended(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 || generic.getNumReductionLoops() != 0 ||
      !llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap m) { return m.isIdentity(); }))
    return nullptr;
  Block *body = generic.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto ext = yield.getOperand(0).getDefiningOp<arith::ExtUIOp>();
  if (body->getOperations().size() != 2 || !ext || ext.getIn() != body->getArgument(0) ||
      !ext.getIn().getType().isInteger(8) || !ext.getType().isInteger(32))
    return nullptr;
  return generic.getDpsInputOperand(0)->get();
}

/// The shape of `type` packed along dim `pos`: that extent divided by 4 (rounded up), a
/// last dim of 4.
SmallVector<int64_t> packedShape(ShapedType type, unsigned pos) {
  SmallVector<int64_t> shape(type.getShape());
  shape[pos] = (shape[pos] + kQuad - 1) / kQuad;
  shape.push_back(kQuad);
  return shape;
}

/// packed[..., r', ..., q] = x[..., 4 r' + q, ...] (0 past x's extent), r' at `pos`, made
/// here from the int8 values of a constant of type `type`.
Value packConstant(OpBuilder &b, Location loc, ShapedType type, unsigned pos,
                   ArrayRef<int8_t> values) {
  SmallVector<int64_t> shape = packedShape(type, pos);
  auto packedType = RankedTensorType::get(shape, b.getI8Type());
  int64_t rank = type.getRank();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  std::vector<int8_t> packed(packedType.getNumElements());
  SmallVector<int64_t> coords(rank + 1, 0);
  for (int8_t &element : packed) {
    int64_t r = kQuad * coords[pos] + coords[rank];
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d)
      source += (d == pos ? r : coords[d]) * strides[d];
    element = r < type.getDimSize(pos) ? values[source] : 0;
    for (int64_t d = rank; d >= 0; --d) {
      if (++coords[d] < shape[d])
        break;
      coords[d] = 0;
    }
  }
  ArrayRef<char> bytes(reinterpret_cast<const char *>(packed.data()), packed.size());
  ElementsAttr attr =
      packedType.getNumElements() <= kMaxInlineElements
          ? ElementsAttr(DenseElementsAttr::getFromRawBuffer(packedType, bytes))
          : ElementsAttr(DenseResourceElementsAttr::get(
                packedType, "int8_quads", HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, 1)));
  return arith::ConstantOp::create(b, loc, packedType, cast<TypedAttr>(attr));
}

/// The bytes `x` (i8) packed along `pos` (packedShape): a padded `x` is packed before its
/// padding, which then pads the quads with the same value; quads along the last dim are a
/// view; otherwise a packing generic (of `x` with zeros appended along `pos` up to a
/// multiple of 4).
Value packBytes(OpBuilder &b, Location loc, Value x, unsigned pos) {
  auto type = cast<RankedTensorType>(x.getType());
  if (auto pad = x.getDefiningOp<tensor::PadOp>()) {
    Value padding = pad.getConstantPaddingValue();
    SmallVector<OpFoldResult> low = pad.getMixedLowPad(), high = pad.getMixedHighPad();
    if (padding && isConstantIntValue(low[pos], 0) && isConstantIntValue(high[pos], 0)) {
      Value source = packBytes(b, loc, pad.getSource(), pos);
      low.push_back(b.getIndexAttr(0));
      high.push_back(b.getIndexAttr(0));
      return tensor::PadOp::create(b, loc, Type(), source, low, high, padding);
    }
  }
  int64_t rank = type.getRank();
  if (type.getDimSize(pos) % kQuad != 0) {
    SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)), high(rank, b.getIndexAttr(0));
    high[pos] = b.getIndexAttr(kQuad - type.getDimSize(pos) % kQuad);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(b.getI8Type()));
    x = tensor::PadOp::create(b, loc, Type(), x, low, high, zero);
    type = cast<RankedTensorType>(x.getType());
  }
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult size = tensor::getMixedSize(b, loc, x, d);
    if (d == pos)
      size = b.getIndexAttr(type.getDimSize(d) / kQuad); // static (chosen so)
    sizes.push_back(size);
  }
  sizes.push_back(b.getIndexAttr(kQuad));
  auto packedType = RankedTensorType::get(packedShape(type, pos), b.getI8Type());
  if (pos == rank - 1) {
    // Quads along the last dim are x's own order: a view with the quads split off.
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d + 1 < rank; ++d)
      groups.push_back({d});
    groups.push_back({rank - 1, rank});
    return tensor::ExpandShapeOp::create(b, loc, packedType, x, groups, sizes);
  }
  MLIRContext *ctx = b.getContext();
  Value init = tensor::EmptyOp::create(b, loc, sizes, b.getI8Type());
  SmallVector<AffineExpr> reads;
  for (int64_t d = 0; d < rank; ++d)
    reads.push_back(d == pos ? kQuad * getAffineDimExpr(d, ctx) + getAffineDimExpr(rank, ctx)
                             : getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, reads, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank + 1, ctx)};
  SmallVector<utils::IteratorType> iterators(rank + 1, utils::IteratorType::parallel);
  return linalg::GenericOp::create(b, loc, init.getType(), ValueRange{x}, ValueRange{init}, maps,
                                   iterators,
                                   [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                                     linalg::YieldOp::create(nested, nestedLoc, args[0]);
                                   })
      .getResult(0);
}

/// The result index of `map` that is exactly dim `d`, when no other result reads d.
std::optional<unsigned> soleReader(AffineMap map, unsigned d) {
  std::optional<unsigned> found;
  for (auto [k, expr] : llvm::enumerate(map.getResults())) {
    if (!expr.isFunctionOfDim(d))
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (found || !dim)
      return std::nullopt;
    found = k;
  }
  return found;
}

/// What a quad contraction is made of: the uint8 bytes and the weights' int8 values, the
/// input each comes from, the quad dim and where each reads it.
struct QuadChoice {
  unsigned dim;
  unsigned uInput; // the op's input that is the zero-extended bytes (the other: weights)
  Value bytes;
  std::vector<int8_t> weights;
  unsigned positions[2]; // u's, then the weights'
};

std::optional<QuadChoice> chooseQuadDim(linalg::LinalgOp op, int64_t minExtent) {
  if (!op.hasPureTensorSemantics() || !tcc::isIntegerMultiplyAdd(op) || op.hasIndexSemantics())
    return std::nullopt;
  if (!cast<ShapedType>(op.getDpsInits()[0].getType()).getElementType().isInteger(32))
    return std::nullopt;
  QuadChoice choice;
  bool found = false;
  for (unsigned k = 0; k < 2 && !found; ++k) {
    Value bytes = zeroExtended(op.getDpsInputOperand(k)->get());
    if (!bytes)
      continue;
    std::optional<std::vector<int8_t>> weights = int8Values(op.getDpsInputOperand(1 - k)->get());
    if (!weights)
      continue;
    choice.uInput = k;
    choice.bytes = bytes;
    choice.weights = std::move(*weights);
    found = true;
  }
  if (!found)
    return std::nullopt;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> best;
  auto worth = [&](unsigned d) {
    return (extents[d] % kQuad == 0 ? int64_t(1) << 40 : int64_t(0)) + extents[d];
  };
  for (unsigned d = 0; d < extents.size(); ++d) {
    if (iterators[d] != utils::IteratorType::reduction || ShapedType::isDynamic(extents[d]) ||
        extents[d] < minExtent)
      continue;
    std::optional<unsigned> u =
        soleReader(op.getMatchingIndexingMap(op.getDpsInputOperand(choice.uInput)), d);
    std::optional<unsigned> w =
        soleReader(op.getMatchingIndexingMap(op.getDpsInputOperand(1 - choice.uInput)), d);
    if (!u || !w || cast<ShapedType>(choice.bytes.getType()).isDynamicDim(*u))
      continue;
    if (!best || worth(d) > worth(*best)) {
      best = d;
      choice.positions[0] = *u;
      choice.positions[1] = *w;
    }
  }
  if (!best)
    return std::nullopt;
  choice.dim = *best;
  return choice;
}

/// `op` as a contraction of the packed bytes with the quad as its last (reduction) dim:
/// out += extui(u') * extsi(w'), read at the old indices (r now r') and the quad q.
void quadContraction(linalg::LinalgOp op, const QuadChoice &choice) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  unsigned numDims = op.getNumLoops();
  MLIRContext *ctx = op.getContext();
  AffineExpr quadExpr = getAffineDimExpr(numDims, ctx);
  OpOperand *uOperand = op.getDpsInputOperand(choice.uInput);
  OpOperand *wOperand = op.getDpsInputOperand(1 - choice.uInput);
  Value u = packBytes(b, loc, choice.bytes, choice.positions[0]);
  Value w = packConstant(b, loc, cast<ShapedType>(wOperand->get().getType()), choice.positions[1],
                         choice.weights);
  SmallVector<AffineMap> maps;
  for (OpOperand *operand : {uOperand, wOperand}) {
    SmallVector<AffineExpr> results(op.getMatchingIndexingMap(operand).getResults());
    results.push_back(quadExpr);
    maps.push_back(AffineMap::get(numDims + 1, 0, results, ctx));
  }
  OpOperand *init = op.getDpsInitOperand(0);
  maps.push_back(AffineMap::get(numDims + 1, 0, op.getMatchingIndexingMap(init).getResults(), ctx));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::reduction);
  auto quads = linalg::GenericOp::create(
      b, loc, op->getResultTypes(), ValueRange{u, w}, ValueRange{init->get()}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Type i32 = nested.getI32Type();
        Value x = arith::ExtUIOp::create(nested, nestedLoc, i32, args[0]);
        Value y = arith::ExtSIOp::create(nested, nestedLoc, i32, args[1]);
        Value product = arith::MulIOp::create(nested, nestedLoc, x, y);
        Value sum = arith::AddIOp::create(nested, nestedLoc, args[2], product);
        linalg::YieldOp::create(nested, nestedLoc, sum);
      });
  op->replaceAllUsesWith(quads->getResults());
  op->erase();
}

struct QuadInt8ContractionsPass : tcc::impl::QuadInt8ContractionsBase<QuadInt8ContractionsPass> {
  using QuadInt8ContractionsBase::QuadInt8ContractionsBase;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, QuadChoice>> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<QuadChoice> choice = chooseQuadDim(op, minExtent))
        candidates.push_back({op, std::move(*choice)});
    });
    for (auto &[op, choice] : candidates)
      quadContraction(op, choice);
  }
};

} // namespace
