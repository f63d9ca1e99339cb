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

#include "GroupedReductions.h"

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

constexpr int64_t kQuad = 4;

/// The int32 elements of a constant (or of a reshaped one: the same elements in the same
/// order) when they all fit int8; nothing otherwise.
std::optional<std::vector<int8_t>> int8Values(Value value) {
  value = tcc::fuse::peelReshapes(value);
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

/// An int32 tensor made of 8-bit values: ext(bytes) - offset, ext signed or not.
struct ByteOperand {
  Value bytes;
  bool isSigned;
  int64_t offset;
};

/// The integer every element of `t` holds: a splat constant, or a generic copying (or
/// broadcasting) one.
std::optional<int64_t> splatValue(Value t) {
  if (auto constant = t.getDefiningOp<arith::ConstantOp>()) {
    auto splat = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (!splat || !splat.getElementType().isInteger(32))
      return std::nullopt;
    return splat.getSplatValue<APInt>().getSExtValue();
  }
  auto generic = t.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 || generic.getNumReductionLoops() != 0)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (yield.getOperand(0) != generic.getBody()->getArgument(0))
    return std::nullopt;
  return splatValue(generic.getDpsInputOperand(0)->get());
}

/// The integer `x` (a value of `generic`'s body) always is: a constant, or an input's
/// element where that input is a splat.
std::optional<int64_t> scalarValue(linalg::GenericOp generic, Value x) {
  APInt constant;
  if (matchPattern(x, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  auto arg = dyn_cast<BlockArgument>(x);
  if (!arg || arg.getOwner() != generic.getBody() ||
      arg.getArgNumber() >= generic.getNumDpsInputs())
    return std::nullopt;
  return splatValue(generic.getDpsInputOperand(arg.getArgNumber())->get());
}

/// `v` as a ByteOperand when all-parallel generics make it from an i8 tensor as extui(x) or
/// extsi(x), minus constants (or splat tensors): one generic, or the unfused chain
/// tcc-integer-contractions leaves (a conversion, then a subtraction of a broadcast zero
/// point).
std::optional<ByteOperand> byteOperand(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInits() != 1 || generic.getNumReductionLoops() != 0 ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block *body = generic.getBody();
  Value result = cast<linalg::YieldOp>(body->getTerminator()).getOperand(0);
  if (!result.getType().isInteger(32))
    return std::nullopt;
  int64_t offset = 0;
  unsigned ops = 1; // the yield
  if (auto sub = result.getDefiningOp<arith::SubIOp>()) {
    std::optional<int64_t> subtracted = scalarValue(generic, sub.getRhs());
    if (!subtracted)
      return std::nullopt;
    offset = *subtracted;
    result = sub.getLhs();
    ++ops;
  }
  // An input read at the output's own index.
  auto identityInput = [&](Value x) -> OpOperand * {
    auto arg = dyn_cast<BlockArgument>(x);
    if (!arg || arg.getOwner() != body || arg.getArgNumber() >= generic.getNumDpsInputs())
      return nullptr;
    OpOperand *input = generic.getDpsInputOperand(arg.getArgNumber());
    return generic.getMatchingIndexingMap(input).isIdentity() ? input : nullptr;
  };
  std::optional<ByteOperand> base;
  if (OpOperand *input = identityInput(result)) {
    base = byteOperand(input->get());
  } else if (Operation *ext = result.getDefiningOp(); ext &&
                                                      isa<arith::ExtUIOp, arith::ExtSIOp>(ext) &&
                                                      ext->getOperand(0).getType().isInteger(8)) {
    if (OpOperand *input = identityInput(ext->getOperand(0)))
      base = ByteOperand{input->get(), isa<arith::ExtSIOp>(ext), 0};
    ++ops;
  }
  if (!base ||
      llvm::count_if(*body, [](Operation &op) { return !isa<arith::ConstantOp>(op); }) != ops)
    return std::nullopt;
  base->offset += offset;
  return base;
}

/// The i8 tensor whose zero extension `v` is (an all-parallel generic yielding extui(in)).
Value zeroExtended(Value v) {
  std::optional<ByteOperand> operand = byteOperand(v);
  return operand && !operand->isSigned && operand->offset == 0 ? operand->bytes : nullptr;
}

/// packed[..., r', ..., q] = x[..., 4 r' + q, ...] (0 past x's extent), r' at `pos`, made
/// here from the int8 values of a constant of type `type`.
Value packConstant(OpBuilder &b, Location loc, ShapedType type, unsigned pos,
                   ArrayRef<int8_t> values) {
  auto packedType = RankedTensorType::get(tcc::fuse::groupedShape(type, pos, kQuad), b.getI8Type());
  std::vector<int64_t> sources = tcc::fuse::groupedSources(type, pos, kQuad);
  std::vector<int8_t> packed(sources.size());
  for (size_t i = 0; i < sources.size(); ++i)
    packed[i] = sources[i] < 0 ? 0 : values[sources[i]];
  ArrayRef<char> bytes(reinterpret_cast<const char *>(packed.data()), packed.size());
  return tcc::fuse::createGroupedConstant(b, loc, packedType, bytes, "int8_quads", 1);
}

/// The bytes `x` (i8) packed along `pos` (groupedShape): a padded `x` is packed before its
/// padding, which then pads the quads with the same value; quads along the last dim are a
/// view; otherwise a packing generic (of `x` with zeros appended along `pos` up to a
/// multiple of 4).
Value packBytes(OpBuilder &b, Location loc, Value x, unsigned pos) {
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
  return tcc::fuse::groupElements(b, loc, x, pos, kQuad, b.getI8Type(), nullptr);
}

/// What a quad contraction is made of: the uint8 bytes and the weights' int8 values, the
/// op's inputs they replace (the bytes' first), the quad dim and where each reads it.
struct QuadChoice {
  unsigned inputs[2];
  Value bytes;
  std::vector<int8_t> weights;
  tcc::fuse::GroupedDim grouped;
};

std::optional<QuadChoice> chooseQuadDim(linalg::LinalgOp op, int64_t minExtent) {
  if (!op.hasPureTensorSemantics() || !tcc::isIntegerMultiplyAdd(op) || op.hasIndexSemantics())
    return std::nullopt;
  if (!cast<ShapedType>(op.getDpsInits()[0].getType()).getElementType().isInteger(32))
    return std::nullopt;
  for (unsigned k = 0; k < 2; ++k) {
    Value bytes = zeroExtended(op.getDpsInputOperand(k)->get());
    if (!bytes)
      continue;
    std::optional<std::vector<int8_t>> weights = int8Values(op.getDpsInputOperand(1 - k)->get());
    if (!weights)
      continue;
    QuadChoice choice{{k, 1 - k}, bytes, std::move(*weights), {}};
    std::optional<tcc::fuse::GroupedDim> grouped =
        tcc::fuse::chooseGroupedDim(op, choice.inputs, kQuad, minExtent, /*preferLast=*/true);
    if (!grouped)
      return std::nullopt;
    choice.grouped = *grouped;
    return choice;
  }
  return std::nullopt;
}

/// A quad contraction's body: acc + zext(x) * sext(y) in int32 (x a uint8 byte of the
/// quad, y an int8 one), the form the CPU tiler turns into vpdpbusd.
Value addQuadProduct(OpBuilder &b, Location loc, Value acc, Value x, Value y) {
  Type i32 = b.getI32Type();
  Value product = arith::MulIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i32, x),
                                        arith::ExtSIOp::create(b, loc, i32, y));
  return arith::AddIOp::create(b, loc, acc, product).getResult();
}

/// `op` as a contraction of the packed bytes with the quad as its last (reduction) dim:
/// out += extui(u') * extsi(w'), read at the old indices (r now r') and the quad q.
void quadContraction(linalg::LinalgOp op, const QuadChoice &choice) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value u = packBytes(b, loc, choice.bytes, choice.grouped.positions[0]);
  Value w = packConstant(b, loc, cast<ShapedType>(op.getDpsInputs()[choice.inputs[1]].getType()),
                         choice.grouped.positions[1], choice.weights);
  tcc::fuse::groupContraction(op, choice.inputs, u, w, addQuadProduct);
}

/// x ^ 0x80 elementwise on bytes: int8 values as uint8 ones plus 128, and back.
Value flipSigns(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  Value init = tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, x), b.getI8Type());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  Value high = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(-128));
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{x}, ValueRange{init}, {identity, identity},
             SmallVector<utils::IteratorType>(type.getRank(), utils::IteratorType::parallel),
             [&](OpBuilder &nested, Location at, ValueRange args) {
               linalg::YieldOp::create(
                   nested, at, arith::XOrIOp::create(nested, at, args[0], high).getResult());
             })
      .getResult(0);
}

/// s[...] = sum over dim `pos` of (x[...] + add), int32: x without that dim.
Value sumAlong(OpBuilder &b, Location loc, Value x, unsigned pos, int64_t add) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes;
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  for (int64_t d = 0; d < rank; ++d) {
    if (d == pos) {
      iterators[d] = utils::IteratorType::reduction;
      continue;
    }
    sizes.push_back(tensor::getMixedSize(b, loc, x, d));
    kept.push_back(b.getAffineDimExpr(d));
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value init = tensor::EmptyOp::create(b, loc, sizes, b.getI32Type());
  init = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  Value addend = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(add));
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, kept, b.getContext())};
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{x}, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nested, Location at, ValueRange args) {
               Value v =
                   add ? arith::AddIOp::create(nested, at, args[0], addend).getResult() : args[0];
               linalg::YieldOp::create(nested, at,
                                       arith::AddIOp::create(nested, at, args[1], v).getResult());
             })
      .getResult(0);
}

/// A quad contraction of two run-time byte tensors (QLinearMatMul's attention products
/// Q K^T and P V): the op's input read as the uint8 quads, then the one read as int8; what
/// each was; the quad dim; and how the output reads each input's sum over it.
struct ActivationQuads {
  unsigned inputs[2];
  ByteOperand operands[2];
  tcc::fuse::GroupedDim grouped;
  AffineMap sumMaps[2];
};

/// How the output of `op` (in its own index order) reads `input` summed over its index
/// `pos`: each other index is a dim the output has.
std::optional<AffineMap> sumMap(linalg::LinalgOp op, OpOperand *input, unsigned pos) {
  AffineMap map = op.getMatchingIndexingMap(input);
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<AffineExpr> results;
  for (auto [k, expr] : llvm::enumerate(map.getResults())) {
    if (k == pos)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    std::optional<unsigned> at = dim ? out.getResultPosition(dim) : std::nullopt;
    if (!at)
      return std::nullopt;
    results.push_back(getAffineDimExpr(*at, op.getContext()));
  }
  return AffineMap::get(out.getNumResults(), 0, results, op.getContext());
}

/// The offsets of the uint8 operand (value = zext(u) - cu) and of the int8 one (value =
/// sext(s) - cs) that `x` and `y` become; a signed operand read as uint8 and an unsigned one
/// read as int8 have their sign bits flipped (x ^ 0x80 = x + 128 mod 256).
int64_t unsignedOffset(const ByteOperand &x) { return x.isSigned ? x.offset + 128 : x.offset; }
int64_t signedOffset(const ByteOperand &y) { return y.isSigned ? y.offset : y.offset - 128; }

std::optional<ActivationQuads> chooseActivationQuads(linalg::LinalgOp op, int64_t minExtent) {
  if (!op.hasPureTensorSemantics() || !tcc::isIntegerMultiplyAdd(op) || op.hasIndexSemantics() ||
      op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1)
    return std::nullopt;
  if (!cast<ShapedType>(op.getDpsInits()[0].getType()).getElementType().isInteger(32))
    return std::nullopt;
  std::optional<ByteOperand> x = byteOperand(op.getDpsInputOperand(0)->get()),
                             y = byteOperand(op.getDpsInputOperand(1)->get());
  if (!x || !y)
    return std::nullopt;
  // Each nonzero offset costs a sum and a correction: the order with fewer.
  auto corrections = [](const ByteOperand &u, const ByteOperand &s) {
    return (unsignedOffset(u) != 0) + (signedOffset(s) != 0);
  };
  bool swap = corrections(*y, *x) < corrections(*x, *y);
  ActivationQuads choice{
      {swap ? 1u : 0u, swap ? 0u : 1u}, {swap ? *y : *x, swap ? *x : *y}, {}, {}};
  std::optional<tcc::fuse::GroupedDim> grouped = tcc::fuse::chooseGroupedDim(
      op, choice.inputs, kQuad, minExtent, /*preferLast=*/true, /*allowDynamic=*/true);
  if (!grouped)
    return std::nullopt;
  choice.grouped = *grouped;
  for (unsigned k = 0; k < 2; ++k) {
    std::optional<AffineMap> map =
        sumMap(op, op.getDpsInputOperand(choice.inputs[k]), grouped->positions[k]);
    if (!map)
      return std::nullopt;
    choice.sumMaps[k] = *map;
  }
  return choice;
}

/// `op` over u8 and s8 quads of its two byte operands A = zext(u) - cu, B = sext(s) - cs:
///   sum_r A B = sum_r zext(u) sext(s) - cs sum_r zext(u) - cu sum_r B
/// (sum_r zext(u) = sum_r (A + cu)); the sums are computed from A and B, the corrections
/// by a generic after the contraction (its epilogue, once fused).
void activationQuadContraction(linalg::LinalgOp op, const ActivationQuads &choice) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  const ByteOperand &u = choice.operands[0], &s = choice.operands[1];
  int64_t cu = unsignedOffset(u), cs = signedOffset(s);
  Value sums[2] = {
      cs ? sumAlong(b, loc, op.getDpsInputs()[choice.inputs[0]], choice.grouped.positions[0], cu)
         : Value(),
      cu ? sumAlong(b, loc, op.getDpsInputs()[choice.inputs[1]], choice.grouped.positions[1], 0)
         : Value()};
  Value uBytes = packBytes(b, loc, u.isSigned ? flipSigns(b, loc, u.bytes) : u.bytes,
                           choice.grouped.positions[0]);
  Value sBytes = packBytes(b, loc, s.isSigned ? s.bytes : flipSigns(b, loc, s.bytes),
                           choice.grouped.positions[1]);
  linalg::GenericOp quads =
      tcc::fuse::groupContraction(op, choice.inputs, uBytes, sBytes, addQuadProduct);
  if (!sums[0] && !sums[1])
    return;
  b.setInsertionPointAfter(quads);
  Value result = quads.getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<Value> inputs = {result};
  SmallVector<AffineMap> maps = {identity};
  for (unsigned k = 0; k < 2; ++k)
    if (sums[k]) {
      inputs.push_back(sums[k]);
      maps.push_back(choice.sumMaps[k]);
    }
  maps.push_back(identity);
  int64_t factors[2] = {cs, cu};
  // Sized from the contraction's init: sizes of `result` would be uses of it replaced below.
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, quads.getDpsInits()[0]), b.getI32Type());
  auto corrected = linalg::GenericOp::create(
      b, loc, type, inputs, ValueRange{init}, maps,
      SmallVector<utils::IteratorType>(type.getRank(), utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location at, ValueRange args) {
        Value v = args[0];
        unsigned next = 1;
        for (unsigned k = 0; k < 2; ++k) {
          if (!sums[k])
            continue;
          Value factor =
              arith::ConstantOp::create(nested, at, nested.getI32IntegerAttr(factors[k]));
          v = arith::SubIOp::create(nested, at, v,
                                    arith::MulIOp::create(nested, at, factor, args[next++]));
        }
        linalg::YieldOp::create(nested, at, v);
      });
  result.replaceAllUsesExcept(corrected.getResult(0), corrected);
}

struct QuadInt8ContractionsPass : tcc::impl::QuadInt8ContractionsBase<QuadInt8ContractionsPass> {
  using QuadInt8ContractionsBase::QuadInt8ContractionsBase;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, QuadChoice>> candidates;
    SmallVector<std::pair<linalg::LinalgOp, ActivationQuads>> activations;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<QuadChoice> choice = chooseQuadDim(op, minExtent))
        candidates.push_back({op, std::move(*choice)});
      else if (std::optional<ActivationQuads> quads = chooseActivationQuads(op, minExtent))
        activations.push_back({op, *quads});
    });
    for (auto &[op, choice] : candidates)
      quadContraction(op, choice);
    for (auto &[op, choice] : activations)
      activationQuadContraction(op, choice);
  }
};

} // namespace
