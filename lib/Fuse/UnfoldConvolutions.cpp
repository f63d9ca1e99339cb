//===- UnfoldConvolutions.cpp - convolutions on narrow maps as matrix products ------------===//
//
// The formula, the conditions and an example are in include/tcc/Fuse/Passes.td
// (tcc-unfold-convolutions). In short: the KH x KW shifted (and strided) views of the padded
// input are copied out as channels (im2col, one linalg.generic), and a 1x1 convolution, a
// matrix product over all OH x OW output points at once, does the rest. Where the maps are
// narrow (ResNet's 7x7), that fills the vectors the row form leaves mostly empty: 4 vectors of
// 16 lanes per output channel for a 7x7 map instead of 7 vectors with 7 lanes in use.
//
//===----------------------------------------------------------------------------------===//
#include "ConvolutionWindows.h"

#include "tcc/Fuse/Passes.h"

#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"
#include "tcc/Target/VectorIssues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace tcc {
#define GEN_PASS_DEF_UNFOLDCONVOLUTIONS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using tcc::prim::ConvolutionOp;

namespace {

/// The most bytes of unfolded input per image: beyond, the copy costs more than the lanes
/// gain (and the workspace grows by KH x KW times the input).
constexpr int64_t kMaxUnfoldedBytes = 8 << 20;

using Shape = tcc::fuse::WindowShape;

/// The bytes an integer convolution's input converts (tcc-integer-contractions' uint8
/// activations, convert(u) to int32), or null: those are unfolded as bytes and converted
/// after, so that tcc-quad-int8-contractions still finds the bytes.
Value convertedBytes(ConvolutionOp op) {
  auto convert = op.getInput().getDefiningOp<tcc::prim::ConvertOp>();
  if (!convert || !op.getType().getElementType().isInteger(32))
    return nullptr;
  Value bytes = convert.getOperand();
  return cast<RankedTensorType>(bytes.getType()).getElementType().isInteger(8) ? bytes : nullptr;
}

/// The shape of a convolution the pass can unfold: float elements or converted bytes, a
/// window larger than 1x1, at most kMaxUnfoldedBytes copied per image.
std::optional<Shape> shapeOf(ConvolutionOp op) {
  Value converted = convertedBytes(op);
  Value input = converted ? converted : op.getInput();
  Type element = cast<RankedTensorType>(input.getType()).getElementType();
  std::optional<Shape> s = tcc::fuse::windowShape(op, input);
  // A 1x1 window is a matrix product already (its lowering merges the pixels into one row;
  // decomposition slices strided ones first).
  if (!s || !(isa<FloatType>(element) || converted) || s->kh * s->kw == 1)
    return std::nullopt;
  int64_t bytes =
      s->channels * s->kh * s->kw * s->oh * s->ow * (element.getIntOrFloatBitWidth() / 8);
  if (bytes > kMaxUnfoldedBytes)
    return std::nullopt;
  return s;
}

/// Whether the matrix product needs at most 3/4 of the row form's vectors per output
/// channel and reduction point (the row form: OH rows of OW points each).
bool pays(ConvolutionOp op, const Shape &s, int64_t vectorBits, bool splitWideFma) {
  int64_t lanes = vectorBits / op.getType().getElementType().getIntOrFloatBitWidth();
  if (lanes < 2)
    return false;
  bool halfTails = tcc::halfIssueTails(vectorBits, splitWideFma);
  double rows = s.oh * tcc::vectorIssues(s.ow, lanes, halfTails);
  double unfolded = tcc::vectorIssues(s.oh * s.ow, lanes, halfTails);
  return unfolded * 4 <= rows * 3;
}

struct UnfoldConvolutionsPass : tcc::impl::UnfoldConvolutionsBase<UnfoldConvolutionsPass> {
  using UnfoldConvolutionsBase::UnfoldConvolutionsBase;

  void runOnOperation() override {
    if (vectorBits <= 0)
      return;
    SmallVector<ConvolutionOp> candidates;
    getOperation().walk([&](ConvolutionOp op) { candidates.push_back(op); });
    for (ConvolutionOp op : candidates)
      if (std::optional<Shape> shape = shapeOf(op);
          shape && pays(op, *shape, vectorBits, splitWideFma))
        unfold(op, *shape);
  }

  static void unfold(ConvolutionOp op, const Shape &s) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    tcc::prim::PrimBuilder p(b, loc);
    // Integer convolutions of converted bytes: the bytes are unfolded, then converted.
    Value bytes = convertedBytes(op);
    Value input = bytes ? bytes : op.getInput();
    OpFoldResult batch = p.dims(input)[0];
    auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };

    Value unfolded = tcc::fuse::unfoldWindows(b, loc, op, input, s.kh, s.kw, s.oh, s.ow);
    int64_t reduction = s.channels * s.kh * s.kw;
    unfolded = p.reshape(unfolded, {batch, index(reduction), index(s.oh), index(s.ow)});
    if (bytes)
      unfolded = p.convert(unfolded, op.getType().getElementType());
    // w'[o, (c, ky, kx)]: the same products in the same order (c, then ky, then kx).
    Value filter =
        p.reshape(op.getFilter(), {index(s.outChannels), index(reduction), index(1), index(1)});
    Value result = ConvolutionOp::create(b, loc, unfolded, filter, ArrayRef<int64_t>{1, 1},
                                         ArrayRef<int64_t>{0, 0}, ArrayRef<int64_t>{0, 0},
                                         ArrayRef<int64_t>{1, 1}, /*groups=*/1);
    if (result.getType() != op.getType())
      result = tcc::prim::ReshapeOp::create(b, loc, op.getType(), result,
                                            tcc::prim::dynamicExtents(p.dims(result)));
    op.replaceAllUsesWith(result);
    op.erase();
  }
};

} // namespace

std::optional<tcc::fuse::WindowShape> tcc::fuse::windowShape(ConvolutionOp op, Value input,
                                                             int64_t groups) {
  auto in = cast<RankedTensorType>(input.getType());
  auto filter = cast<RankedTensorType>(op.getFilter().getType());
  auto out = cast<RankedTensorType>(op.getType());
  if (in.getRank() != 4 || static_cast<int64_t>(op.getFeatureGroupCount()) != groups ||
      !filter.hasStaticShape() || llvm::any_of(in.getShape().drop_front(), ShapedType::isDynamic) ||
      llvm::any_of(out.getShape().drop_front(), ShapedType::isDynamic) ||
      llvm::any_of(op.getPaddingLow(), [](int64_t p) { return p < 0; }) ||
      llvm::any_of(op.getPaddingHigh(), [](int64_t p) { return p < 0; }))
    return std::nullopt;
  WindowShape s{in.getDimSize(1),     filter.getDimSize(0), filter.getDimSize(2),
                filter.getDimSize(3), out.getDimSize(2),    out.getDimSize(3)};
  if (s.oh < 1 || s.ow < 1)
    return std::nullopt;
  return s;
}

bool tcc::fuse::unfolds(ConvolutionOp op, int64_t vectorBits, bool splitWideFma) {
  std::optional<Shape> shape = shapeOf(op);
  return vectorBits > 0 && shape && pays(op, *shape, vectorBits, splitWideFma);
}

Value tcc::fuse::unfoldWindows(OpBuilder &b, Location loc, ConvolutionOp op, Value input,
                               int64_t kh, int64_t kw, int64_t oh, int64_t ow) {
  tcc::prim::PrimBuilder p(b, loc);
  auto inputType = cast<RankedTensorType>(input.getType());
  Type element = inputType.getElementType();
  int64_t channels = inputType.getDimSize(1);
  OpFoldResult batch = p.dims(input)[0];
  ArrayRef<int64_t> low = op.getPaddingLow(), high = op.getPaddingHigh(), strides = op.getStrides(),
                    dilations = op.getDilations();
  Value padded = input;
  if (llvm::any_of(low, [](int64_t v) { return v != 0; }) ||
      llvm::any_of(high, [](int64_t v) { return v != 0; }))
    padded = tcc::prim::PadOp::create(b, loc, input, p.scalar(element, 0),
                                      ArrayRef<int64_t>{0, 0, low[0], low[1]},
                                      ArrayRef<int64_t>{0, 0, high[0], high[1]});

  // u[n, c, ky, kx, y, x] = xp[n, c, y sy + ky dy, x sx + kx dx]: one copy, a linalg
  // generic (prim has no op for overlapping windows; slices and a concatenation were 18
  // copies, which cost a fifth of the product's time on two threads).
  MLIRContext *ctx = b.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  AffineMap read = AffineMap::get(6, 0,
                                  {d(0), d(1), d(4) * strides[0] + d(2) * dilations[0],
                                   d(5) * strides[1] + d(3) * dilations[1]},
                                  ctx);
  Value empty = tcc::fuse::emptyBatched(b, loc, batch, {channels, kh, kw, oh, ow}, element);
  return linalg::GenericOp::create(
             b, loc, TypeRange{empty.getType()}, ValueRange{padded}, ValueRange{empty},
             ArrayRef<AffineMap>{read, b.getMultiDimIdentityMap(6)},
             SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
             [](OpBuilder &nested, Location at, ValueRange args) {
               linalg::YieldOp::create(nested, at, args[0]);
             })
      .getResult(0);
}

Value tcc::fuse::emptyBatched(OpBuilder &b, Location loc, OpFoldResult batch,
                              ArrayRef<int64_t> extents, Type element) {
  SmallVector<int64_t> shape = {ShapedType::kDynamic};
  llvm::append_range(shape, extents);
  SmallVector<Value> dynamic;
  if (auto n = getConstantIntValue(batch))
    shape[0] = *n;
  else
    dynamic.push_back(cast<Value>(batch));
  return tensor::EmptyOp::create(b, loc, shape, element, dynamic);
}
