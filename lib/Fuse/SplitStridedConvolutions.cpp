//===- SplitStridedConvolutions.cpp - strided convolutions over column phases ----------===//
//
// The formula, the conditions and the measurements are in include/tcc/Fuse/Passes.td
// (tcc-split-strided-convolutions). In short: a convolution whose windows step s > 1
// columns becomes the sum of s unit-stride convolutions, phase r reading the input columns
// s x' + r (one strided copy) with the window columns kx = r, r + s, ...; the tiler then
// loads each vector of input in one piece instead of gathering every s-th element.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Fuse/Passes.h"

#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"

namespace tcc {
#define GEN_PASS_DEF_SPLITSTRIDEDCONVOLUTIONS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using tcc::prim::ConvolutionOp;

namespace {

/// Whether the pass may split `op`: 2-D, one group, float, static input columns, filter and
/// output row, a column stride of 2 or more that the window spans, unit column dilation and
/// no negative padding.
bool splittable(ConvolutionOp op) {
  auto in = cast<RankedTensorType>(op.getInput().getType());
  auto filter = cast<RankedTensorType>(op.getFilter().getType());
  auto out = cast<RankedTensorType>(op.getType());
  if (in.getRank() != 4 || op.getFeatureGroupCount() != 1 || !isa<FloatType>(in.getElementType()) ||
      !filter.hasStaticShape() || in.isDynamicDim(3) || out.isDynamicDim(3))
    return false;
  int64_t stride = op.getStrides()[1];
  return stride >= 2 && stride <= filter.getDimSize(3) && op.getDilations()[1] == 1 &&
         op.getPaddingLow()[1] >= 0 && op.getPaddingHigh()[1] >= 0;
}

struct SplitStridedConvolutionsPass
    : tcc::impl::SplitStridedConvolutionsBase<SplitStridedConvolutionsPass> {
  using SplitStridedConvolutionsBase::SplitStridedConvolutionsBase;

  void runOnOperation() override {
    if (vectorBits <= 0)
      return;
    SmallVector<ConvolutionOp> candidates;
    getOperation().walk([&](ConvolutionOp op) {
      if (splittable(op) && (allWidths || fitsOneVector(op)))
        candidates.push_back(op);
    });
    for (ConvolutionOp op : candidates)
      split(op);
  }

  /// Whether an output row fits one vector of the target's.
  bool fitsOneVector(ConvolutionOp op) const {
    auto out = cast<RankedTensorType>(op.getType());
    int64_t lanes = vectorBits / out.getElementType().getIntOrFloatBitWidth();
    return out.getDimSize(3) <= lanes;
  }

  static void split(ConvolutionOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    tcc::prim::PrimBuilder p(b, loc);
    auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    auto out = cast<RankedTensorType>(op.getType());
    Type element = out.getElementType();
    int64_t stride = op.getStrides()[1];
    int64_t windowColumns = cast<RankedTensorType>(op.getFilter().getType()).getDimSize(3);
    int64_t outColumns = out.getDimSize(3);
    ArrayRef<int64_t> low = op.getPaddingLow(), high = op.getPaddingHigh();

    // The columns' padding goes on the input once; the rows' stays with each phase.
    Value padded = op.getInput();
    if (low[1] != 0 || high[1] != 0)
      padded = tcc::prim::PadOp::create(b, loc, padded, p.scalar(element, 0),
                                        ArrayRef<int64_t>{0, 0, 0, low[1]},
                                        ArrayRef<int64_t>{0, 0, 0, high[1]});
    Value sum;
    for (int64_t r = 0; r < stride; ++r) {
      // Window columns r, r + s, ...: T of them; output x' reads phase columns x' .. x' + T - 1,
      // padded columns s x' + r .. s (x' + T - 1) + r, inside the padded row because the
      // strided window's last column, s (OW - 1) + KW - 1, is.
      int64_t taps = (windowColumns - r + stride - 1) / stride;
      Value phase = p.slice(padded, 3, index(r), index(outColumns + taps - 1), stride);
      Value filter = p.slice(op.getFilter(), 3, index(r), index(taps), stride);
      Value part =
          ConvolutionOp::create(b, loc, phase, filter, ArrayRef<int64_t>{op.getStrides()[0], 1},
                                ArrayRef<int64_t>{low[0], 0}, ArrayRef<int64_t>{high[0], 0},
                                ArrayRef<int64_t>{op.getDilations()[0], 1}, /*groups=*/1);
      sum = sum ? p.add(sum, part) : part;
    }
    op.replaceAllUsesWith(sum);
    op.erase();
  }
};

} // namespace
