//===- ChannelVectorConvolutions.cpp - convolutions vectorized along output channels ------===//
//
// The formula, the conditions and the measurements are in include/tcc/Fuse/Passes.td
// (tcc-channel-vector-convolutions). In short: where all OH x OW output points at once
// leave lanes empty (a 7x7 map's 49 points in vectors of 16), the convolution becomes
//   out'[n, y, x, b, l] = sum_k u[n, k, y, x] w'[b, k, l],  k = (c, ky, kx)
// with u the windows copied out as unfolding does (or the input of a pointwise one) and w'
// the filter packed while compiling in blocks of 16 output channels, so that the tiler's
// vectors run along the output channels (whole vectors) and its rows along the points, each
// row broadcasting one element of u; then out = transpose(out') back to NCHW.
//
//===----------------------------------------------------------------------------------===//
#include "ChannelBlocks.h"
#include "ConvolutionWindows.h"

#include "tcc/Fuse/Passes.h"

#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"
#include "tcc/Target/VectorIssues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tcc {
#define GEN_PASS_DEF_CHANNELVECTORCONVOLUTIONS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using tcc::prim::ConvolutionOp;

namespace {

/// The output channels of one block of the packed filter: one vector of 512 bits (the only
/// width measured; at 256 bits the pass leaves convolutions alone).
constexpr int64_t kBlock = 16;

using Shape = tcc::fuse::WindowShape;

/// The shape of a float32 convolution the pass may rewrite.
std::optional<Shape> shapeOf(ConvolutionOp op) {
  auto isF32 = [](Value v) { return cast<RankedTensorType>(v.getType()).getElementType().isF32(); };
  if (!isF32(op.getInput()) || !isF32(op.getFilter()) || !isF32(op.getResult()))
    return std::nullopt;
  return tcc::fuse::windowShape(op, op.getInput());
}

struct ChannelVectorConvolutionsPass
    : tcc::impl::ChannelVectorConvolutionsBase<ChannelVectorConvolutionsPass> {
  using ChannelVectorConvolutionsBase::ChannelVectorConvolutionsBase;

  void runOnOperation() override {
    if (vectorBits <= 0)
      return;
    SmallVector<ConvolutionOp> candidates;
    getOperation().walk([&](ConvolutionOp op) { candidates.push_back(op); });
    SmallVector<ConvolutionOp> blockable, stems;
    for (ConvolutionOp op : candidates) {
      std::optional<Shape> shape = shapeOf(op);
      if (shape && channelsLast(*shape))
        blockable.push_back(op);
      else if (shape && stem(*shape))
        stems.push_back(op);
    }
    llvm::DenseSet<Operation *> chained =
        tcc::fuse::selectChains(blockable, stems, minConvolutionsPerCopy);
    bool blocked = false;
    for (ConvolutionOp op : candidates) {
      std::optional<Shape> shape = shapeOf(op);
      if (!shape)
        continue;
      if (chained.contains(op)) {
        rewriteBlocked(op, *shape, /*isStem=*/!channelsLast(*shape));
        blocked = true;
      } else if (pays(op, *shape)) {
        rewrite(op, *shape);
      }
    }
    // The blocks' transposes between convolutions cancel once the elementwise ops between
    // them compute on blocks.
    if (blocked)
      tcc::fuse::sinkChannelBlocks(getOperation());
  }

  /// Whether the convolution computes channels last, reading and writing blocks of 16
  /// channels: 512-bit vectors, whole blocks of input and output channels, and output rows
  /// of at least `min-channels-last-width` points (the tiler's rows run along one output row).
  bool channelsLast(const Shape &s) const {
    return minChannelsLastWidth > 0 && vectorBits / 32 == kBlock && s.channels % kBlock == 0 &&
           s.outChannels % kBlock == 0 && s.ow >= minChannelsLastWidth;
  }

  /// Whether the convolution may start a chain: at most `max-stem-channels` input channels
  /// (an image's), read channels first as they are, its output in blocks of 16 channels
  /// with rows of at least `min-channels-last-width` points.
  bool stem(const Shape &s) const {
    return maxStemChannels > 0 && minChannelsLastWidth > 0 && vectorBits / 32 == kBlock &&
           s.channels <= maxStemChannels && s.outChannels % kBlock == 0 &&
           s.ow >= minChannelsLastWidth;
  }

  /// The blocked forms (the formulas are in Passes.td). Channels last:
  ///   xb[n, y, x, cb, cl] = x[n, 16 cb + cl, y, x] padded along y and x
  ///   w'[b, ky, kx, cb, cl, l] = w[16 b + l, 16 cb + cl, ky, kx]        (folded)
  ///   out'[n, y, x, b, l] = sum_{ky, kx, cb, cl} xb[n, y sy + ky dy, x sx + kx dx, cb, cl]
  ///                                              w'[b, ky, kx, cb, cl, l]
  /// A stem's, its input channels first as it is:
  ///   xp = x padded along y and x
  ///   w'[b, ky, kx, c, l] = w[16 b + l, c, ky, kx]                        (folded)
  ///   out'[n, y, x, b, l] = sum_{ky, kx, c} xp[n, c, y sy + ky dy, x sx + kx dx]
  ///                                         w'[b, ky, kx, c, l]
  /// Both: out = toChannelsFirst(out'). A stem adds its products in the order (ky, kx, c),
  /// as the chains' other convolutions: the few channels innermost, so that the loop the
  /// compiler unrolls reads no input value twice (along kx, a strided window reads its
  /// neighbour's values, which then stay live in registers the tile needs).
  static void rewriteBlocked(ConvolutionOp op, const Shape &s, bool isStem) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    tcc::prim::PrimBuilder p(b, loc);
    Type element = b.getF32Type();
    auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    ArrayRef<int64_t> low = op.getPaddingLow(), high = op.getPaddingHigh(),
                      strides = op.getStrides(), dilations = op.getDilations();
    Value input = isStem ? op.getInput() : tcc::fuse::toChannelBlocks(b, loc, op.getInput());
    OpFoldResult batch = p.dims(input)[0];
    if (llvm::any_of(low, [](int64_t v) { return v != 0; }) ||
        llvm::any_of(high, [](int64_t v) { return v != 0; })) {
      // Along y and x: dims 2 and 3 of [n, c, y, x], 1 and 2 of [n, y, x, cb, cl].
      auto maps = [&](ArrayRef<int64_t> v) {
        return isStem ? SmallVector<int64_t>{0, 0, v[0], v[1]}
                      : SmallVector<int64_t>{0, v[0], v[1], 0, 0};
      };
      input = tcc::prim::PadOp::create(b, loc, input, p.scalar(element, 0), maps(low), maps(high));
    }
    int64_t blocks = s.outChannels / kBlock, inBlocks = s.channels / kBlock;
    MLIRContext *ctx = b.getContext();
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    AffineExpr y = d(1) * strides[0] + d(5) * dilations[0];
    AffineExpr x = d(2) * strides[1] + d(6) * dilations[1];
    Value filter;
    AffineMap read, weights;
    unsigned loops;
    if (isStem) {
      // Loops (n, y, x, b, l, ky, kx, c).
      loops = 8;
      filter = p.transpose(p.reshape(op.getFilter(), {index(blocks), index(kBlock),
                                                      index(s.channels), index(s.kh), index(s.kw)}),
                           {0, 3, 4, 2, 1});
      read = AffineMap::get(loops, 0, {d(0), d(7), y, x}, ctx);
      weights = AffineMap::get(loops, 0, {d(3), d(5), d(6), d(7), d(4)}, ctx);
    } else {
      // Loops (n, y, x, b, l, ky, kx, cb, cl).
      loops = 9;
      filter = p.transpose(p.reshape(op.getFilter(), {index(blocks), index(kBlock), index(inBlocks),
                                                      index(kBlock), index(s.kh), index(s.kw)}),
                           {0, 4, 5, 2, 3, 1});
      read = AffineMap::get(loops, 0, {d(0), y, x, d(7), d(8)}, ctx);
      weights = AffineMap::get(loops, 0, {d(3), d(5), d(6), d(7), d(8), d(4)}, ctx);
    }
    AffineMap write = AffineMap::get(loops, 0, {d(0), d(1), d(2), d(3), d(4)}, ctx);
    SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
    iterators.append(loops - 5, utils::IteratorType::reduction);
    Value result = tcc::fuse::toChannelsFirst(b, loc,
                                              contract(b, loc, input, filter, batch,
                                                       {s.oh, s.ow, blocks, kBlock},
                                                       {read, weights, write}, iterators));
    if (result.getType() != op.getType())
      result = tcc::prim::ReshapeOp::create(b, loc, op.getType(), result,
                                            tcc::prim::dynamicExtents(p.dims(result)));
    op.replaceAllUsesWith(result);
    op.erase();
  }

  /// sum over the reduction loops of input x filter into a zero-filled [batch, extents...].
  static Value contract(OpBuilder &b, Location loc, Value input, Value filter, OpFoldResult batch,
                        ArrayRef<int64_t> extents, ArrayRef<AffineMap> maps,
                        ArrayRef<utils::IteratorType> iterators) {
    Type element = b.getF32Type();
    Value empty = tcc::fuse::emptyBatched(b, loc, batch, extents, element);
    Value zero = arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
    Value init = linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty}).getResult(0);
    return linalg::GenericOp::create(
               b, loc, TypeRange{init.getType()}, ValueRange{input, filter}, ValueRange{init}, maps,
               iterators,
               [](OpBuilder &nested, Location at, ValueRange args) {
                 Value product = arith::MulFOp::create(nested, at, args[0], args[1]);
                 linalg::YieldOp::create(
                     nested, at, ValueRange{arith::AddFOp::create(nested, at, args[2], product)});
               })
        .getResult(0);
  }

  /// Whether the output's channels are read by the pass's matrix product without a copy:
  /// a 1x1 window with unit strides and no padding.
  static bool pointwise(ConvolutionOp op, const Shape &s) {
    return s.kh * s.kw == 1 && llvm::all_of(op.getStrides(), [](int64_t v) { return v == 1; }) &&
           llvm::all_of(op.getPaddingLow(), [](int64_t v) { return v == 0; }) &&
           llvm::all_of(op.getPaddingHigh(), [](int64_t v) { return v == 0; });
  }

  /// Whether vectors along the output channels need at most `max-ratio` of the vectors of
  /// the form the convolution gets otherwise, per reduction point: all OH x OW points at
  /// once, a pointwise convolution's lowering or tcc-unfold-convolutions' product. Other
  /// windows only where tcc-unfold-convolutions takes them (its rule and copy limit):
  /// where it does not, the copy of the windows was measured to cost more than the lanes
  /// gain (ResNet-18's 14x14 to 56x56 maps). 512-bit vectors, output channels in whole
  /// blocks of 16 (the filter's packing), and `min-reduction` products per output or more.
  bool pays(ConvolutionOp op, const Shape &s) const {
    int64_t lanes = vectorBits / 32, reduction = s.channels * s.kh * s.kw;
    if (lanes != kBlock || reduction < minReduction || s.outChannels % kBlock != 0)
      return false;
    bool halfTails = tcc::halfIssueTails(vectorBits, splitWideFma);
    if (!pointwise(op, s) && !tcc::fuse::unfolds(op, vectorBits, splitWideFma))
      return false;
    double merged =
        static_cast<double>(s.outChannels) * tcc::vectorIssues(s.oh * s.ow, lanes, halfTails);
    double channels =
        static_cast<double>(s.oh * s.ow) * tcc::vectorIssues(s.outChannels, lanes, halfTails);
    return channels <= maxRatio * merged;
  }

  static void rewrite(ConvolutionOp op, const Shape &s) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    tcc::prim::PrimBuilder p(b, loc);
    Value input = op.getInput();
    OpFoldResult batch = p.dims(input)[0];
    auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    int64_t reduction = s.channels * s.kh * s.kw;

    // u[n, k, y, x] with k = (c, ky, kx): the input itself for a pointwise convolution,
    // else its windows copied out (tcc-unfold-convolutions' copy).
    Value unfolded = input;
    if (!pointwise(op, s))
      unfolded = p.reshape(tcc::fuse::unfoldWindows(b, loc, op, input, s.kh, s.kw, s.oh, s.ow),
                           {batch, index(reduction), index(s.oh), index(s.ow)});
    // w'[b, k, l] = w[16 b + l, (c, ky, kx)]: packed in blocks of 16 output channels.
    int64_t blocks = s.outChannels / kBlock;
    Value filter = p.transpose(
        p.reshape(op.getFilter(), {index(blocks), index(kBlock), index(reduction)}), {0, 2, 1});
    // out'[n, y, x, b, l] = sum_k u[n, k, y, x] w'[b, k, l], loops (n, y, x, b, l, k): each
    // output adds the same products in the same order (c, then ky, then kx) as the other
    // forms, so the same bits.
    MLIRContext *ctx = b.getContext();
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    AffineMap read = AffineMap::get(6, 0, {d(0), d(5), d(1), d(2)}, ctx);
    AffineMap weights = AffineMap::get(6, 0, {d(3), d(5), d(4)}, ctx);
    AffineMap write = AffineMap::get(6, 0, {d(0), d(1), d(2), d(3), d(4)}, ctx);
    SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value result = contract(b, loc, unfolded, filter, batch, {s.oh, s.ow, blocks, kBlock},
                            {read, weights, write}, iterators);
    // out[n, o, y, x] = out'[n, y, x, o / 16, o mod 16].
    result = p.transpose(p.reshape(result, {batch, index(s.oh), index(s.ow), index(s.outChannels)}),
                         {0, 3, 1, 2});
    if (result.getType() != op.getType())
      result = tcc::prim::ReshapeOp::create(b, loc, op.getType(), result,
                                            tcc::prim::dynamicExtents(p.dims(result)));
    op.replaceAllUsesWith(result);
    op.erase();
  }
};

} // namespace
