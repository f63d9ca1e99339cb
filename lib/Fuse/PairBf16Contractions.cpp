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
#define GEN_PASS_DEF_PAIRBF16CONTRACTIONS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

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
  value = tcc::fuse::peelReshapes(value);
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

/// packed[..., r', ..., p] = bf16(x[..., 2 r' + p, ...]) (0 past x's extent), r' at `pos`,
/// computed here.
Value packConstant(OpBuilder &b, Location loc, RankedTensorType type, unsigned pos,
                   ArrayRef<float> values) {
  auto packedType = RankedTensorType::get(tcc::fuse::groupedShape(type, pos, 2), b.getBF16Type());
  std::vector<int64_t> sources = tcc::fuse::groupedSources(type, pos, 2);
  std::vector<uint16_t> packed(sources.size());
  for (size_t i = 0; i < sources.size(); ++i)
    packed[i] = sources[i] < 0 ? 0 : toBf16(values[sources[i]]);
  ArrayRef<char> bytes(reinterpret_cast<const char *>(packed.data()),
                       packed.size() * sizeof(uint16_t));
  return tcc::fuse::createGroupedConstant(b, loc, packedType, bytes, "bf16_pairs",
                                          alignof(uint16_t));
}

/// `x` packed along `pos` (groupedShape) and rounded to bf16: a constant when `x` is one; the
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
  return tcc::fuse::groupElements(
      b, loc, x, pos, 2, b.getBF16Type(), [](OpBuilder &nested, Location at, Value v) -> Value {
        return arith::TruncFOp::create(nested, at, nested.getBF16Type(), v);
      });
}

/// The paired contraction's inputs: the op's, in their order.
constexpr unsigned kInOrder[2] = {0, 1};

/// The pair dim of `op` and where each input reads it: of the reduction dims of static
/// extent (at least `minExtent`) that both inputs read as a plain index (and nowhere else),
/// the longest even one, else the longest odd one.

std::optional<tcc::fuse::GroupedDim> choosePairDim(linalg::LinalgOp op, int64_t minExtent) {
  if (!op.hasPureTensorSemantics() || !tcc::isMultiplyAdd(op) || op.hasIndexSemantics())
    return std::nullopt;
  for (Value v : llvm::concat<Value>(op.getDpsInputs(), op.getDpsInits()))
    if (!cast<ShapedType>(v.getType()).getElementType().isF32())
      return std::nullopt;
  return tcc::fuse::chooseGroupedDim(op, kInOrder, /*group=*/2, minExtent);
}

/// `op` as a contraction of the packed inputs with the pair as its last (reduction) dim:
/// out += extf(a') * extf(b'), read at the old indices (r now r') and the pair p.
void pairContraction(linalg::LinalgOp op, const tcc::fuse::GroupedDim &choice) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value a = pack(b, loc, op.getDpsInputOperand(0)->get(), choice.positions[0]);
  Value c = pack(b, loc, op.getDpsInputOperand(1)->get(), choice.positions[1]);
  tcc::fuse::groupContraction(
      op, kInOrder, a, c, [](OpBuilder &nested, Location at, Value acc, Value x, Value y) {
        Type f32 = nested.getF32Type();
        Value product = arith::MulFOp::create(nested, at, arith::ExtFOp::create(nested, at, f32, x),
                                              arith::ExtFOp::create(nested, at, f32, y));
        return arith::AddFOp::create(nested, at, acc, product).getResult();
      });
}

struct PairBf16ContractionsPass : tcc::impl::PairBf16ContractionsBase<PairBf16ContractionsPass> {
  using PairBf16ContractionsBase::PairBf16ContractionsBase;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, tcc::fuse::GroupedDim>> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<tcc::fuse::GroupedDim> choice = choosePairDim(op, minExtent))
        candidates.push_back({op, *choice});
    });
    for (auto &[op, choice] : candidates)
      pairContraction(op, choice);
  }
};

} // namespace
