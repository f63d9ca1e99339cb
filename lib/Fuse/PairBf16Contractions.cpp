//===- PairBf16Contractions.cpp - float32 contractions as dot products of bf16 pairs ----===//
//
// The formula, the conditions and the layout are in include/tcc/Fuse/Passes.td
// (tcc-pair-bf16-contractions). In short: a float32 multiply-add contraction over a
// reduction dim r of even extent reads both inputs rounded to bf16, in layouts whose last
// dim holds the pair (r = 2 r' + p, p in {0, 1}); constant inputs are packed here, while
// compiling, others by a packing kernel; the contraction gets the pair as a new innermost
// reduction dim. The CPU tiler computes such a contraction with vdpbf16ps.
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
#define GEN_PASS_DEF_PAIRBF16CONTRACTIONS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Constants of at most this many elements stay inline (as tcc-fold-weights makes them).
constexpr int64_t kMaxInlineElements = 16;

/// float32 to bf16, rounded to nearest even (as vcvtneps2bf16 and arith.truncf); NaNs stay
/// NaNs (quiet).
uint16_t toBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

/// The float32 elements of a constant (or of a reshaped one: the same elements in the same
/// order), or nothing when they cannot be read here.
std::optional<std::vector<float>> constantValues(Value value) {
  while (Operation *reshape = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(reshape))
      break;
    value = reshape->getOperand(0);
  }
  ElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  auto type = cast<ShapedType>(attr.getType());
  if (!type.getElementType().isF32() || !type.hasStaticShape())
    return std::nullopt;
  std::vector<float> values(type.getNumElements());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    size_t k = 0;
    for (float v : dense.getValues<float>())
      values[k++] = v;
    return values;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != values.size() * sizeof(float))
      return std::nullopt;
    std::memcpy(values.data(), blob->getData().data(), blob->getData().size());
    return values;
  }
  return std::nullopt;
}

/// The shape of `type` packed along dim `pos`: that extent halved (rounded up: an odd
/// extent's last pair is completed by a zero), a last dim of 2.
SmallVector<int64_t> packedShape(RankedTensorType type, unsigned pos) {
  SmallVector<int64_t> shape(type.getShape());
  shape[pos] = (shape[pos] + 1) / 2;
  shape.push_back(2);
  return shape;
}

/// packed[..., r', ..., p] = bf16(x[..., 2 r' + p, ...]) (0 past x's extent), r' at `pos`,
/// computed here.
Value packConstant(OpBuilder &b, Location loc, RankedTensorType type, unsigned pos,
                   ArrayRef<float> values) {
  SmallVector<int64_t> shape = packedShape(type, pos);
  auto packedType = RankedTensorType::get(shape, b.getBF16Type());
  int64_t rank = type.getRank();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  std::vector<uint16_t> packed(packedType.getNumElements());
  SmallVector<int64_t> coords(rank + 1, 0);
  for (uint16_t &element : packed) {
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d)
      source += (d == pos ? 2 * coords[d] + coords[rank] : coords[d]) * strides[d];
    element = 2 * coords[pos] + coords[rank] < type.getDimSize(pos) ? toBf16(values[source]) : 0;
    for (int64_t d = rank; d >= 0; --d) {
      if (++coords[d] < shape[d])
        break;
      coords[d] = 0;
    }
  }
  ArrayRef<char> bytes(reinterpret_cast<const char *>(packed.data()),
                       packed.size() * sizeof(uint16_t));
  ElementsAttr attr =
      packedType.getNumElements() <= kMaxInlineElements
          ? ElementsAttr(DenseElementsAttr::getFromRawBuffer(packedType, bytes))
          : ElementsAttr(DenseResourceElementsAttr::get(
                packedType, "bf16_pairs",
                HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(uint16_t))));
  return arith::ConstantOp::create(b, loc, packedType, cast<TypedAttr>(attr));
}

/// `x` packed along `pos` (packedShape) and rounded to bf16: a constant when `x` is one; the
/// padding of a zero-padded `x` moved after the packing (kernel formation then computes the
/// packed values into the padded buffer); otherwise a packing generic (of `x` with a zero
/// appended along `pos` when its extent there is odd).
Value pack(OpBuilder &b, Location loc, Value x, unsigned pos) {
  auto type = cast<RankedTensorType>(x.getType());
  if (std::optional<std::vector<float>> values = constantValues(x))
    return packConstant(b, loc, type, pos, *values);
  if (auto pad = x.getDefiningOp<tensor::PadOp>()) {
    Value padding = pad.getConstantPaddingValue();
    SmallVector<OpFoldResult> low = pad.getMixedLowPad(), high = pad.getMixedHighPad();
    if (padding && matchPattern(padding, m_AnyZeroFloat()) && isConstantIntValue(low[pos], 0) &&
        isConstantIntValue(high[pos], 0)) {
      Value source = pack(b, loc, pad.getSource(), pos);
      low.push_back(b.getIndexAttr(0));
      high.push_back(b.getIndexAttr(0));
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(b.getBF16Type()));
      return tensor::PadOp::create(b, loc, Type(), source, low, high, zero);
    }
  }
  int64_t rank = type.getRank();
  if (type.getDimSize(pos) % 2 != 0) {
    SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)), high(rank, b.getIndexAttr(0));
    high[pos] = b.getIndexAttr(1);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    x = tensor::PadOp::create(b, loc, Type(), x, low, high, zero);
    type = cast<RankedTensorType>(x.getType());
  }
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult size = tensor::getMixedSize(b, loc, x, d);
    if (d == pos)
      size = b.getIndexAttr(type.getDimSize(d) / 2); // static (pairable)
    sizes.push_back(size);
  }
  sizes.push_back(b.getIndexAttr(2));
  MLIRContext *ctx = b.getContext();
  if (pos == rank - 1) {
    // Pairs along the last dim are x's own order: an elementwise rounding (which fuses with
    // x's producer) and a view of it with the pairs split off.
    Value init = tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, x), b.getBF16Type());
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    Value rounded =
        linalg::GenericOp::create(
            b, loc, init.getType(), ValueRange{x}, ValueRange{init}, {identity, identity},
            SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
            [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
              Value bf16 =
                  arith::TruncFOp::create(nested, nestedLoc, nested.getBF16Type(), args[0]);
              linalg::YieldOp::create(nested, nestedLoc, bf16);
            })
            .getResult(0);
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d + 1 < rank; ++d)
      groups.push_back({d});
    groups.push_back({rank - 1, rank});
    auto packedType = RankedTensorType::get(packedShape(type, pos), b.getBF16Type());
    return tensor::ExpandShapeOp::create(b, loc, packedType, rounded, groups, sizes);
  }
  Value init = tensor::EmptyOp::create(b, loc, sizes, b.getBF16Type());
  SmallVector<AffineExpr> reads;
  for (int64_t d = 0; d < rank; ++d)
    reads.push_back(d == pos ? 2 * getAffineDimExpr(d, ctx) + getAffineDimExpr(rank, ctx)
                             : getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, reads, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank + 1, ctx)};
  SmallVector<utils::IteratorType> iterators(rank + 1, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{x}, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               Value rounded =
                   arith::TruncFOp::create(nested, nestedLoc, nested.getBF16Type(), args[0]);
               linalg::YieldOp::create(nested, nestedLoc, rounded);
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

/// The pair dim of `op` and where each input reads it: of the reduction dims of static
/// extent (at least `minExtent`) that both inputs read as a plain index (and nowhere else),
/// the longest even one, else the longest odd one.
struct PairChoice {
  unsigned dim;
  unsigned positions[2];
};

std::optional<PairChoice> choosePairDim(linalg::LinalgOp op, int64_t minExtent) {
  if (!op.hasPureTensorSemantics() || !tcc::isMultiplyAdd(op) || op.hasIndexSemantics())
    return std::nullopt;
  for (Value v : llvm::concat<Value>(op.getDpsInputs(), op.getDpsInits()))
    if (!cast<ShapedType>(v.getType()).getElementType().isF32())
      return std::nullopt;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<PairChoice> best;
  // An odd extent completes its last pair with a zero: taken only where no even one
  // qualifies (ResNet's stem: 3 input channels).
  auto worth = [&](unsigned d) {
    return (extents[d] % 2 == 0 ? int64_t(1) << 40 : int64_t(0)) + extents[d];
  };
  for (unsigned d = 0; d < extents.size(); ++d) {
    if (iterators[d] != utils::IteratorType::reduction || ShapedType::isDynamic(extents[d]) ||
        extents[d] < minExtent)
      continue;
    std::optional<unsigned> first =
        soleReader(op.getMatchingIndexingMap(op.getDpsInputOperand(0)), d);
    std::optional<unsigned> second =
        soleReader(op.getMatchingIndexingMap(op.getDpsInputOperand(1)), d);
    // The inputs' extents there are static too (packing halves them).
    auto staticAt = [&](unsigned k, unsigned position) {
      auto type = cast<ShapedType>(op.getDpsInputOperand(k)->get().getType());
      return !type.isDynamicDim(position);
    };
    if (!first || !second || !staticAt(0, *first) || !staticAt(1, *second))
      continue;
    if (!best || worth(d) > worth(best->dim))
      best = PairChoice{d, {*first, *second}};
  }
  return best;
}

/// `op` as a contraction of the packed inputs with the pair as its last (reduction) dim:
/// out += extf(a') * extf(b'), read at the old indices (r now r') and the pair p.
void pairContraction(linalg::LinalgOp op, const PairChoice &choice) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  unsigned numDims = op.getNumLoops();
  MLIRContext *ctx = op.getContext();
  AffineExpr pairExpr = getAffineDimExpr(numDims, ctx);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (unsigned k = 0; k < 2; ++k) {
    OpOperand *operand = op.getDpsInputOperand(k);
    inputs.push_back(pack(b, loc, operand->get(), choice.positions[k]));
    SmallVector<AffineExpr> results(op.getMatchingIndexingMap(operand).getResults());
    results.push_back(pairExpr);
    maps.push_back(AffineMap::get(numDims + 1, 0, results, ctx));
  }
  OpOperand *init = op.getDpsInitOperand(0);
  maps.push_back(AffineMap::get(numDims + 1, 0, op.getMatchingIndexingMap(init).getResults(), ctx));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::reduction);
  auto paired = linalg::GenericOp::create(
      b, loc, op->getResultTypes(), inputs, ValueRange{init->get()}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Type f32 = nested.getF32Type();
        Value x = arith::ExtFOp::create(nested, nestedLoc, f32, args[0]);
        Value y = arith::ExtFOp::create(nested, nestedLoc, f32, args[1]);
        Value product = arith::MulFOp::create(nested, nestedLoc, x, y);
        Value sum = arith::AddFOp::create(nested, nestedLoc, args[2], product);
        linalg::YieldOp::create(nested, nestedLoc, sum);
      });
  op->replaceAllUsesWith(paired->getResults());
  op->erase();
}

struct PairBf16ContractionsPass : tcc::impl::PairBf16ContractionsBase<PairBf16ContractionsPass> {
  using PairBf16ContractionsBase::PairBf16ContractionsBase;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, PairChoice>> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<PairChoice> choice = choosePairDim(op, minExtent))
        candidates.push_back({op, *choice});
    });
    for (auto &[op, choice] : candidates)
      pairContraction(op, choice);
  }
};

} // namespace
