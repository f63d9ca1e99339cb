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

/// `op` as a contraction of the packed bytes with the quad as its last (reduction) dim:
/// out += extui(u') * extsi(w'), read at the old indices (r now r') and the quad q.
void quadContraction(linalg::LinalgOp op, const QuadChoice &choice) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value u = packBytes(b, loc, choice.bytes, choice.grouped.positions[0]);
  Value w = packConstant(b, loc, cast<ShapedType>(op.getDpsInputs()[choice.inputs[1]].getType()),
                         choice.grouped.positions[1], choice.weights);
  tcc::fuse::groupContraction(
      op, choice.inputs, u, w, [](OpBuilder &nested, Location at, Value acc, Value x, Value y) {
        Type i32 = nested.getI32Type();
        Value product =
            arith::MulIOp::create(nested, at, arith::ExtUIOp::create(nested, at, i32, x),
                                  arith::ExtSIOp::create(nested, at, i32, y));
        return arith::AddIOp::create(nested, at, acc, product).getResult();
      });
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
