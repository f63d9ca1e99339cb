//===- IntegerContractions.cpp - quantized contractions as uint8 x int8 products -------===//
//
// The formulas and conditions are in include/tcc/Fuse/Passes.td (tcc-integer-contractions).
// In short, on prim: a float32 contraction of two dequantized 8-bit operands becomes an int32
// contraction times the product of their scales (the QDQ form ONNX Runtime runs as
// QLinearConv); an int32 contraction of an 8-bit activation less its zero point with
// constant weights becomes one of the activation's uint8 values, less the zero point times
// the weights' sums (a constant per output channel). tcc-quad-int8-contractions then packs
// the uint8 and int8 operands for vpdpbusd.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Fuse/Passes.h"

#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

namespace tcc {
#define GEN_PASS_DEF_INTEGERCONTRACTIONS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc::prim;

namespace {

/// The most products per sum: 255 x 128 x this fits int32.
constexpr int64_t kMaxProducts = 65793;
/// The most taps of a depthwise convolution computed on float32 integers: 256 x 255 x 255
/// < 2^24, so every partial sum is exact.
constexpr int64_t kMaxDepthwiseTaps = 256;

Type elementOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }
int64_t rankOf(Value v) { return cast<ShapedType>(v.getType()).getRank(); }

/// The 0-d tensor that `v` holds at every index: `v` itself when 0-d, the operand of a
/// broadcast of a 0-d (or one-element) tensor, or a splat constant (made 0-d here). Null
/// otherwise.
Value uniformValue(OpBuilder &b, Location loc, Value v) {
  if (rankOf(v) == 0)
    return v;
  if (auto broadcast = v.getDefiningOp<BroadcastInDimOp>()) {
    Value operand = broadcast.getOperand();
    auto type = cast<RankedTensorType>(operand.getType());
    if (type.getRank() == 0)
      return operand;
    if (type.hasStaticShape() && type.getNumElements() == 1)
      return ReshapeOp::create(b, loc, RankedTensorType::get({}, type.getElementType()), operand,
                               ValueRange{});
    return nullptr;
  }
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)) && attr.isSplat()) {
    auto type = RankedTensorType::get({}, attr.getElementType());
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, attr.getSplatValue<Attribute>()));
  }
  return nullptr;
}

/// Whether `v` is a constant of zeros (or a broadcast or integer conversion of one); dense
/// resources (folded or external weights) are read byte by byte.
bool isZeros(Value v) {
  // Broadcasts and integer conversions keep zeros zeros.
  while (isa_and_nonnull<BroadcastInDimOp, ConvertOp>(v.getDefiningOp()) &&
         isa<IntegerType>(elementOf(v.getDefiningOp()->getOperand(0))))
    v = v.getDefiningOp()->getOperand(0);
  ElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return llvm::all_of(dense.getRawData(), [](char c) { return c == 0; });
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return llvm::all_of(blob->getData(), [](char c) { return c == 0; });
  return false;
}

/// Weights less a zero point of zeros (a per-channel one, as exporters write for symmetric
/// weights) are the weights.
Value withoutZeroOffset(Value weights) {
  auto sub = weights.getDefiningOp<SubOp>();
  return sub && isZeros(sub.getRhs()) ? sub.getLhs() : weights;
}

/// Whether `v` is computed from constants alone by prim ops (tcc-fold-weights folds it).
bool isConstantExpr(Value v, int depth = 0) {
  if (matchPattern(v, m_Constant()))
    return true;
  Operation *op = v.getDefiningOp();
  if (!op || depth > 12 || !isa<PrimDialect>(op->getDialect()) || op->getNumRegions() != 0 ||
      !isMemoryEffectFree(op))
    return false;
  return llvm::all_of(op->getOperands(),
                      [&](Value operand) { return isConstantExpr(operand, depth + 1); });
}

/// An int32 tensor of 8-bit values less a uniform zero point: convert(q) or convert(q) - z.
struct Centered {
  Value q;    // the 8-bit tensor
  Value zero; // 0-d int32, or null (0)
};

/// `v` moved by `mover` (a slice, reshape or transpose: operand 0 is the tensor it moves),
/// with `v`'s element type.
Value moved(OpBuilder &b, Operation *mover, Value v) {
  Operation *clone = b.clone(*mover);
  clone->setOperand(0, v);
  auto type = cast<RankedTensorType>(mover->getResult(0).getType());
  clone->getResult(0).setType(type.clone(elementOf(v)));
  return clone->getResult(0);
}

bool isMover(Operation *op) { return isa_and_nonnull<SliceOp, ReshapeOp, TransposeOp>(op); }

std::optional<Centered> centered8(OpBuilder &b, Location loc, Value v) {
  if (!elementOf(v).isInteger(32))
    return std::nullopt;
  // A slice (a strided 1x1 convolution's input), reshape or transpose of centered values
  // is the centered values of the moved bytes.
  if (Operation *mover = v.getDefiningOp(); isMover(mover)) {
    std::optional<Centered> inner = centered8(b, loc, mover->getOperand(0));
    if (!inner)
      return std::nullopt;
    return Centered{moved(b, mover, inner->q), inner->zero};
  }
  Value zero;
  if (auto sub = v.getDefiningOp<SubOp>()) {
    zero = uniformValue(b, loc, sub.getRhs());
    if (!zero)
      return std::nullopt;
    v = sub.getLhs();
  }
  auto convert = v.getDefiningOp<ConvertOp>();
  if (!convert || !elementOf(convert.getOperand()).isInteger(8))
    return std::nullopt;
  return Centered{convert.getOperand(), zero};
}

/// float32 (int32 convert) * scale, either order: the int32 tensor and the scale. A slice,
/// reshape or transpose of such with a uniform scale is the moved int32 tensor and the
/// (0-d) scale.
std::optional<std::pair<Value, Value>> dequantized(OpBuilder &b, Location loc, Value v) {
  if (Operation *mover = v.getDefiningOp(); isMover(mover)) {
    std::optional<std::pair<Value, Value>> inner = dequantized(b, loc, mover->getOperand(0));
    Value scale = inner ? uniformValue(b, loc, inner->second) : Value();
    if (!scale)
      return std::nullopt;
    return std::make_pair(moved(b, mover, inner->first), scale);
  }
  auto mul = v.getDefiningOp<MulOp>();
  if (!mul || !elementOf(v).isF32())
    return std::nullopt;
  for (auto [ints, scale] :
       {std::pair(mul.getLhs(), mul.getRhs()), std::pair(mul.getRhs(), mul.getLhs())}) {
    auto convert = ints.getDefiningOp<ConvertOp>();
    if (convert && elementOf(convert.getOperand()).isInteger(32))
      return std::make_pair(convert.getOperand(), scale);
  }
  return std::nullopt;
}

/// A scale that is uniform or varies along dim `dim` of its tensor only: the 1-d vector
/// along it (or a 0-d uniform value).
Value scaleAlong(OpBuilder &b, Location loc, Value scale, int64_t dim) {
  if (Value uniform = uniformValue(b, loc, scale))
    return uniform;
  auto broadcast = scale.getDefiningOp<BroadcastInDimOp>();
  if (!broadcast || rankOf(broadcast.getOperand()) != 1 ||
      broadcast.getBroadcastDimensions() != ArrayRef<int64_t>{dim})
    return nullptr;
  return broadcast.getOperand();
}

/// What a rewrite needs of a contraction: which operand is the activation (0: lhs/input,
/// 1: rhs/filter), the weights' reduced dims, and where their remaining dims go in the
/// result.
struct Roles {
  bool depthwise = false; // a convolution with a filter per channel ([C, 1, KH, KW])
  unsigned activation;
  SmallVector<int64_t> weightReduced, weightToResult;
  int64_t weightChannelDim; // the weights' dim a per-channel scale varies along
  int64_t resultChannelDim; // the result's dim for it
  int64_t products;         // static products per sum, or -1
};

std::optional<Roles> rolesOf(Operation *op) {
  Roles roles;
  if (auto conv = dyn_cast<ConvolutionOp>(op)) {
    auto filter = cast<RankedTensorType>(conv.getFilter().getType());
    auto input = cast<RankedTensorType>(conv.getInput().getType());
    int64_t groups = conv.getFeatureGroupCount();
    // One group, or a filter per channel: [C, 1, KH, KW] over C static input channels.
    roles.depthwise = groups != 1 && filter.hasStaticShape() && filter.getRank() == 4 &&
                      filter.getDimSize(1) == 1 && filter.getDimSize(0) == groups &&
                      input.getRank() == 4 && input.getDimSize(1) == groups;
    if ((groups != 1 && !roles.depthwise) || !filter.hasStaticShape() ||
        !isConstantExpr(conv.getFilter()))
      return std::nullopt;
    roles.activation = 0;
    for (int64_t d = 1; d < filter.getRank(); ++d)
      roles.weightReduced.push_back(d);
    roles.weightToResult = {1};
    roles.weightChannelDim = 0;
    roles.resultChannelDim = 1;
    roles.products = filter.getNumElements() / filter.getDimSize(0);
    return roles;
  }
  auto dot = dyn_cast<DotGeneralOp>(op);
  if (!dot || !dot.getLhsBatchingDimensions().empty())
    return std::nullopt;
  bool lhsWeights = isConstantExpr(dot.getLhs()), rhsWeights = isConstantExpr(dot.getRhs());
  if (lhsWeights == rhsWeights)
    return std::nullopt;
  roles.activation = rhsWeights ? 0 : 1;
  Value weights = rhsWeights ? dot.getRhs() : dot.getLhs();
  ArrayRef<int64_t> reduced =
      rhsWeights ? dot.getRhsContractingDimensions() : dot.getLhsContractingDimensions();
  auto type = cast<RankedTensorType>(weights.getType());
  if (!type.hasStaticShape())
    return std::nullopt;
  roles.weightReduced.assign(reduced.begin(), reduced.end());
  int64_t lhsFree = rankOf(dot.getLhs()) - dot.getLhsContractingDimensions().size();
  roles.products = 1;
  int64_t m = 0;
  std::optional<int64_t> freeDim;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (llvm::is_contained(reduced, d)) {
      roles.products *= type.getDimSize(d);
      continue;
    }
    roles.weightToResult.push_back(rhsWeights ? lhsFree + m : m);
    freeDim = freeDim ? -1 : d;
    ++m;
  }
  // A per-channel scale: along the weights' one free dim.
  roles.weightChannelDim = freeDim.value_or(-1);
  roles.resultChannelDim = roles.weightToResult.size() == 1 ? roles.weightToResult[0] : -1;
  return roles;
}

/// The same contraction of other operands (and element type).
Value recreate(OpBuilder &b, Operation *op, Value activation, Value weights, const Roles &roles,
               ArrayRef<int64_t> padLow, ArrayRef<int64_t> padHigh) {
  Location loc = op->getLoc();
  Value lhs = roles.activation == 0 ? activation : weights;
  Value rhs = roles.activation == 0 ? weights : activation;
  if (auto conv = dyn_cast<ConvolutionOp>(op))
    return ConvolutionOp::create(b, loc, lhs, rhs, conv.getStrides(), padLow, padHigh,
                                 conv.getDilations(), conv.getFeatureGroupCount());
  auto dot = cast<DotGeneralOp>(op);
  return DotGeneralOp::create(b, loc, lhs, rhs, dot.getLhsContractingDimensions(),
                              dot.getRhsContractingDimensions(), dot.getLhsBatchingDimensions(),
                              dot.getRhsBatchingDimensions());
}

SmallVector<int64_t> paddingOf(Operation *op, bool high) {
  if (auto conv = dyn_cast<ConvolutionOp>(op))
    return SmallVector<int64_t>(high ? conv.getPaddingHigh() : conv.getPaddingLow());
  return {};
}

/// Rewrite 2: sum (q - z) w = sum u w - z' sum w, u uint8. Returns the new result, or null.
Value zeroPointsOut(Operation *op) {
  if (!elementOf(op->getResult(0)).isInteger(32))
    return nullptr;
  std::optional<Roles> roles = rolesOf(op);
  // Quads take one group only: a depthwise int32 convolution stays as it is.
  if (!roles || roles->depthwise)
    return nullptr;
  OpBuilder b(op);
  Location loc = op->getLoc();
  PrimBuilder p(b, loc);
  Value activation = op->getOperand(roles->activation);
  Value weights = withoutZeroOffset(op->getOperand(1 - roles->activation));
  SmallVector<int64_t> low = paddingOf(op, false), high = paddingOf(op, true);
  bool padded = llvm::any_of(llvm::concat<int64_t>(low, high), [](int64_t v) { return v != 0; });
  // Already the form this makes: uint8 without zero point, unpadded, the weights as they are.
  if (auto convert = activation.getDefiningOp<ConvertOp>();
      convert && elementOf(convert.getOperand()).isUnsignedInteger(8) && !padded &&
      weights == op->getOperand(1 - roles->activation))
    return nullptr;
  std::optional<Centered> c = centered8(b, loc, activation);
  if (!c)
    return nullptr;
  Type i32 = b.getI32Type();
  Type u8 = IntegerType::get(b.getContext(), 8, IntegerType::Unsigned);
  Value u = c->q, zero = c->zero;
  if (!elementOf(u).isUnsignedInteger(8)) {
    // int8: u = q + 128 (a uint8), z' = z + 128.
    u = p.convert(p.add(p.convert(u, i32), p.splat(p.convert(u, i32), 128)), u8);
    Value shift = p.scalar(i32, 128);
    zero = zero ? p.add(zero, shift) : shift;
  }
  if (padded) {
    // Padding (q - z) with 0 is padding u with z'.
    Value value = zero ? p.convert(zero, u8) : p.scalar(u8, 0);
    SmallVector<int64_t> lo = {0, 0}, hi = {0, 0};
    lo.append(low.begin(), low.end());
    hi.append(high.begin(), high.end());
    u = PadOp::create(b, loc, u, value, lo, hi);
    std::fill(low.begin(), low.end(), 0);
    std::fill(high.begin(), high.end(), 0);
  }
  Value result = recreate(b, op, p.convert(u, i32), weights, *roles, low, high);
  if (zero) {
    // z' sum_k w[k] on the weights' remaining dims (a constant), then broadcast.
    Value sums = p.sum(weights, roles->weightReduced);
    Value correction = p.mul(sums, p.broadcast(zero, {}, p.dims(sums)));
    result = p.sub(result, p.broadcast(correction, roles->weightToResult, p.dims(result)));
  }
  return result;
}

/// Rewrite 1: a float32 contraction of dequantized 8-bit operands as an int32 one times
/// the scales' product. Returns the new contraction's op (rewrite 2 takes the int32 ones),
/// or null. A
/// depthwise convolution (no quads: one product per channel and tap) becomes the float32
/// convolution of the integers instead, exact (at most kMaxDepthwiseTaps products of
/// |values| <= 255 per sum: below 2^24), the form QLinearConv's decomposition gives it, whose
/// 8-bit input tcc-channel-vector-convolutions reads as bytes.
Operation *integerProducts(Operation *op) {
  if (!elementOf(op->getResult(0)).isF32())
    return nullptr;
  std::optional<Roles> roles = rolesOf(op);
  if (!roles || roles->products > (roles->depthwise ? kMaxDepthwiseTaps : kMaxProducts))
    return nullptr;
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto x = dequantized(b, loc, op->getOperand(roles->activation));
  auto w = dequantized(b, loc, op->getOperand(1 - roles->activation));
  if (!x || !w)
    return nullptr;
  std::optional<Centered> cx = centered8(b, loc, x->first);
  // The weights' integers come from 8 bits too (their zero point may be any constant).
  Value wInts = w->first;
  if (auto sub = wInts.getDefiningOp<SubOp>())
    wInts = sub.getLhs();
  auto wConvert = wInts.getDefiningOp<ConvertOp>();
  if (!cx || !wConvert || !elementOf(wConvert.getOperand()).isInteger(8))
    return nullptr;
  Value sx = uniformValue(b, loc, x->second);
  Value sw = roles->weightChannelDim >= 0 ? scaleAlong(b, loc, w->second, roles->weightChannelDim)
                                          : uniformValue(b, loc, w->second);
  if (!sx || !sw || (rankOf(sw) == 1 && roles->resultChannelDim < 0))
    return nullptr;
  PrimBuilder p(b, loc);
  Value xInts = x->first, wIntsCentered = withoutZeroOffset(w->first);
  if (roles->depthwise) {
    xInts = p.convert(xInts, b.getF32Type());
    wIntsCentered = p.convert(wIntsCentered, b.getF32Type());
  }
  Value ints =
      recreate(b, op, xInts, wIntsCentered, *roles, paddingOf(op, false), paddingOf(op, true));
  // sx sw, on sw's shape (a constant), then broadcast.
  SmallVector<OpFoldResult> dims = p.dims(ints);
  Value product = p.mul(p.broadcast(sx, {}, p.dims(sw)), sw);
  Value scale = rankOf(sw) == 0 ? p.broadcast(product, {}, dims)
                                : p.broadcast(product, {roles->resultChannelDim}, dims);
  Value result = p.mul(p.convert(ints, b.getF32Type()), scale);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return ints.getDefiningOp();
}

struct IntegerContractionsPass : tcc::impl::IntegerContractionsBase<IntegerContractionsPass> {
  using IntegerContractionsBase::IntegerContractionsBase;

  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isa<ConvolutionOp, DotGeneralOp>(op))
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      if (Operation *ints = integerProducts(op))
        op = ints;
      if (Value result = zeroPointsOut(op)) {
        op->getResult(0).replaceAllUsesWith(result);
        op->erase();
      }
    }
  }
};

} // namespace
