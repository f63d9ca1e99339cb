//===- ChannelVectorConvolutions.cpp - convolutions vectorized along output channels ------===//
//
// The formula, the conditions and the measurements are in include/tcc/Fuse/Passes.td
// (tcc-channel-vector-convolutions). In short: where all OH x OW output points at once
// leave lanes empty (a 7x7 map's 49 points in vectors of 16), the convolution becomes
//   out'[n, y, x, b, l] = sum_k u[n, k, y, x] w'[b, k, l],  k = (c, ky, kx)
// with u the windows copied out as unfolding does (or the input of a pointwise one) and w'
// the filter packed while compiling in blocks of 16 output channels, so that the tiler's
// vectors run along the output channels (whole vectors) and its rows along the points, each
// row broadcasting one element of u; then out = transpose(out') back to NCHW. Chains of
// convolutions compute on blocks of 16 channels channels last (ChannelBlocks.h), starting
// at a stem that reads an image's few channels as they are; their 3x3 convolutions with
// unit strides on wide enough maps in Winograd's F(2x2, 3x3) form (rewriteWinograd).
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
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <cstdlib>

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

/// Whether `op` reads and writes float32.
bool isF32(ConvolutionOp op) {
  auto f32 = [](Value v) { return cast<RankedTensorType>(v.getType()).getElementType().isF32(); };
  return f32(op.getInput()) && f32(op.getFilter()) && f32(op.getResult());
}

/// The shape of a float32 convolution the pass may rewrite.
std::optional<Shape> shapeOf(ConvolutionOp op) {
  if (!isF32(op))
    return std::nullopt;
  return tcc::fuse::windowShape(op, op.getInput());
}

/// The shape of a float32 depthwise convolution: one group per channel, one output channel
/// per group (a [C, 1, KH, KW] filter), with windowShape's conditions; `channels` =
/// `outChannels` = C.
std::optional<Shape> depthwiseShape(ConvolutionOp op) {
  auto in = cast<RankedTensorType>(op.getInput().getType());
  if (!isF32(op) || in.getRank() != 4 || in.isDynamicDim(1) || in.getDimSize(1) < 2)
    return std::nullopt;
  int64_t channels = in.getDimSize(1);
  std::optional<Shape> s = tcc::fuse::windowShape(op, op.getInput(), channels);
  if (!s || s->outChannels != channels ||
      cast<RankedTensorType>(op.getFilter().getType()).getDimSize(1) != 1 ||
      cast<RankedTensorType>(op.getType()).getDimSize(1) != channels)
    return std::nullopt;
  return s;
}

/// `blocks` ([n, y, x, cb, l]) padded along y and x by `low` and `high` ([y, x] each) with
/// `value`.
Value padBlocks(OpBuilder &b, Location loc, Value blocks, Value value, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high) {
  return tcc::prim::PadOp::create(b, loc, blocks, value, ArrayRef<int64_t>{0, low[0], low[1], 0, 0},
                                  ArrayRef<int64_t>{0, high[0], high[1], 0, 0});
}

/// The uint8 tensor, [n, c, y, x], whose int32 conversion a quantized convolution reads,
/// padded along y and x or not (tcc-integer-contractions' form): x when `input` is
/// convert(x) or convert(pad(x)).
Value quantizedSource(Value input) {
  auto convert = input.getDefiningOp<tcc::prim::ConvertOp>();
  if (!convert)
    return {};
  Value x = convert.getOperand();
  if (auto pad = x.getDefiningOp<tcc::prim::PadOp>();
      pad && pad.getLow()[0] == 0 && pad.getLow()[1] == 0 && pad.getHigh()[0] == 0 &&
      pad.getHigh()[1] == 0)
    x = pad.getOperand();
  auto type = cast<RankedTensorType>(x.getType());
  return type.getRank() == 4 && type.getElementType().isUnsignedInteger(8) ? x : Value();
}

/// The integer held by a splat constant, or by a 0-d one broadcast (a zero point).
std::optional<int64_t> splatInteger(Value v) {
  if (auto broadcast = v.getDefiningOp<tcc::prim::BroadcastInDimOp>())
    v = broadcast.getOperand();
  DenseIntElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  return attr.getSplatValue<APInt>().getSExtValue();
}

/// A bound on |v| for every element of an integer-valued tensor built from 8- or 16-bit
/// integers by conversions, additions, subtractions and data movement (a quantized filter
/// minus its zero point), or nothing.
std::optional<int64_t> magnitudeBound(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto convert = dyn_cast<tcc::prim::ConvertOp>(op)) {
    auto from = dyn_cast<IntegerType>(
        cast<RankedTensorType>(convert.getOperand().getType()).getElementType());
    if (!from)
      return std::nullopt;
    if (from.getWidth() <= 16)
      return from.isUnsigned() ? (int64_t{1} << from.getWidth()) - 1
                               : int64_t{1} << (from.getWidth() - 1);
    return magnitudeBound(convert.getOperand());
  }
  if (isa<tcc::prim::AddOp, tcc::prim::SubOp>(op)) {
    std::optional<int64_t> x = magnitudeBound(op->getOperand(0)),
                           y = magnitudeBound(op->getOperand(1));
    return x && y ? std::optional<int64_t>(*x + *y) : std::nullopt;
  }
  if (isa<tcc::prim::BroadcastInDimOp, tcc::prim::ReshapeOp, tcc::prim::TransposeOp>(op))
    return magnitudeBound(op->getOperand(0));
  DenseIntElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  int64_t bound = 0;
  for (const APInt &x : attr.getValues<APInt>())
    bound = std::max(bound, std::abs(x.getSExtValue()));
  return bound;
}

/// A float32 depthwise convolution's input made of 8-bit integers q (tcc-integer-contractions'
/// form of a quantized activation): convert(ext(q) - z), convert(ext(q)) or convert(q), ext
/// a conversion to int32 and z a constant zero point in q's range.
struct ByteInput {
  Value bytes;       // q, [n, c, y, x]
  int64_t zeroPoint; // z
};

std::optional<ByteInput> byteInput(Value input) {
  auto toFloat = input.getDefiningOp<tcc::prim::ConvertOp>();
  if (!toFloat)
    return std::nullopt;
  Value x = toFloat.getOperand();
  int64_t zeroPoint = 0;
  if (auto sub = x.getDefiningOp<tcc::prim::SubOp>()) {
    std::optional<int64_t> z = splatInteger(sub.getRhs());
    auto ext = sub.getLhs().getDefiningOp<tcc::prim::ConvertOp>();
    if (!z || !ext)
      return std::nullopt;
    zeroPoint = *z;
    x = sub.getLhs();
  }
  if (auto ext = x.getDefiningOp<tcc::prim::ConvertOp>();
      ext && cast<RankedTensorType>(x.getType()).getElementType().isSignlessInteger(32))
    x = ext.getOperand();
  auto type = cast<RankedTensorType>(x.getType());
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (type.getRank() != 4 || !element || element.getWidth() != 8)
    return std::nullopt;
  int64_t low = element.isUnsigned() ? 0 : -128, high = element.isUnsigned() ? 255 : 127;
  if (zeroPoint < low || zeroPoint > high)
    return std::nullopt;
  return ByteInput{x, zeroPoint};
}

/// Whether `op` is an int32 convolution of uint8 values converted (quantizedSource) and a
/// filter of int8 constants converted: what tcc-quad-int8-contractions computes in quads.
bool isQuantized(ConvolutionOp op) {
  auto isI32 = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType().isSignlessInteger(32);
  };
  if (!isI32(op.getInput()) || !isI32(op.getFilter()) || !isI32(op.getResult()) ||
      !quantizedSource(op.getInput()))
    return false;
  auto weights = op.getFilter().getDefiningOp<tcc::prim::ConvertOp>();
  return weights &&
         cast<RankedTensorType>(weights.getOperand().getType())
             .getElementType()
             .isSignlessInteger(8) &&
         matchPattern(weights.getOperand(), m_Constant());
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
      if (std::optional<Shape> shape = shapeOf(op)) {
        if (channelsLast(*shape))
          blockable.push_back(op);
        else if (stem(*shape))
          stems.push_back(op);
      } else if (std::optional<Shape> shape = quantizedShape(op); shape && channelsLast(*shape)) {
        blockable.push_back(op);
      } else if (std::optional<Shape> shape = depthwiseShape(op);
                 shape && depthwiseChains && channelsLast(*shape)) {
        blockable.push_back(op);
      }
    }
    llvm::DenseSet<Operation *> chained =
        tcc::fuse::selectChains(blockable, stems, minConvolutionsPerCopy);
    bool blocked = false;
    for (ConvolutionOp op : candidates) {
      if (std::optional<Shape> shape = quantizedShape(op); shape && chained.contains(op)) {
        rewriteBlocked(op, *shape, /*isStem=*/false);
        blocked = true;
        continue;
      }
      if (std::optional<Shape> shape = depthwiseShape(op); shape && chained.contains(op)) {
        rewriteDepthwise(op, *shape);
        blocked = true;
        continue;
      }
      std::optional<Shape> shape = shapeOf(op);
      if (!shape)
        continue;
      if (chained.contains(op)) {
        if (channelsLast(*shape) && winogradForm(op, *shape))
          rewriteWinograd(op, *shape);
        else
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

  /// The shape of a quantized convolution (isQuantized) the pass may compute on blocks:
  /// with `integer-quads` only (the target computes their contractions in quads).
  std::optional<Shape> quantizedShape(ConvolutionOp op) const {
    if (!integerQuads || !isQuantized(op))
      return std::nullopt;
    return tcc::fuse::windowShape(op, op.getInput());
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
  /// Both: out = toChannelsFirst(out'). A quantized convolution (isQuantized) computes the
  /// same in int32, its input the conversion of the uint8 blocks, padded as the NCHW bytes
  /// were: xb = convert(pad(toChannelBlocks(x))) for an input convert(pad(x)), so that the
  /// blocks' transposes (cancelled between two convolutions) move bytes, and
  /// tcc-quad-int8-contractions reads quads of the blocks' 16 channels as a view.
  /// A stem adds its products in the order (ky, kx, c),
  /// as the chains' other convolutions: the few channels innermost, so that the loop the
  /// compiler unrolls reads no input value twice (along kx, a strided window reads its
  /// neighbour's values, which then stay live in registers the tile needs).
  static void rewriteBlocked(ConvolutionOp op, const Shape &s, bool isStem) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    tcc::prim::PrimBuilder p(b, loc);
    Type element = op.getType().getElementType();
    auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    ArrayRef<int64_t> low = op.getPaddingLow(), high = op.getPaddingHigh(),
                      strides = op.getStrides(), dilations = op.getDilations();
    Value input = isStem                    ? op.getInput()
                  : isa<FloatType>(element) ? tcc::fuse::toChannelBlocks(b, loc, op.getInput())
                                            : quantizedBlocks(b, loc, op.getInput());
    OpFoldResult batch = p.dims(input)[0];
    if (llvm::any_of(low, [](int64_t v) { return v != 0; }) ||
        llvm::any_of(high, [](int64_t v) { return v != 0; })) {
      // Along y and x: dims 2 and 3 of the stem's [n, c, y, x], else of the blocks.
      Value zero = p.scalar(element, 0);
      input = isStem ? tcc::prim::PadOp::create(b, loc, input, zero,
                                                ArrayRef<int64_t>{0, 0, low[0], low[1]},
                                                ArrayRef<int64_t>{0, 0, high[0], high[1]})
                     : padBlocks(b, loc, input, zero, low, high);
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
    Value oldInput = op.getInput();
    replaceWithChannelsFirst(op, b,
                             contract(b, loc, input, filter, batch, {s.oh, s.ow, blocks, kBlock},
                                      {read, weights, write}, iterators));
    // The NCHW conversion and padding the blocks replace: left, they would read the bytes
    // in NCHW and keep the blocks' transposes from sinking past them.
    for (Operation *dead = oldInput.getDefiningOp();
         dead && dead->use_empty() && isa<tcc::prim::ConvertOp, tcc::prim::PadOp>(dead);) {
      Operation *next = dead->getOperand(0).getDefiningOp();
      dead->erase();
      dead = next;
    }
  }

  /// convert(pad'(toChannelBlocks(x))) for a quantized convolution's input convert(pad(x))
  /// (quantizedSource), pad' padding the blocks' y and x as pad did x's; or
  /// convert(toChannelBlocks(x)) for convert(x).
  static Value quantizedBlocks(OpBuilder &b, Location loc, Value input) {
    Value x = quantizedSource(input);
    Value blocks = tcc::fuse::toChannelBlocks(b, loc, x);
    Value padded = input.getDefiningOp<tcc::prim::ConvertOp>().getOperand();
    if (auto pad = padded.getDefiningOp<tcc::prim::PadOp>()) {
      blocks = padBlocks(b, loc, blocks, pad.getPaddingValue(), pad.getLow().drop_front(2),
                         pad.getHigh().drop_front(2));
    }
    return tcc::prim::PrimBuilder(b, loc).convert(
        blocks, cast<RankedTensorType>(input.getType()).getElementType());
  }

  /// A chain's depthwise convolution on blocks (each channel its own filter):
  ///   xb[n, y, x, cb, l] = x[n, 16 cb + l, y, x] padded along y and x
  ///   w'[cb, ky, kx, l] = w[16 cb + l, 0, ky, kx]                       (folded)
  ///   out'[n, y, x, cb, l] = sum_{ky, kx} xb[n, y sy + ky dy, x sx + kx dx, cb, l]
  ///                                       w'[cb, ky, kx, l]
  /// out = toChannelsFirst(out'). Both operands read the lanes l: the CPU tiler loads the
  /// filter's vector once per window point for all of a tile's output points
  /// (Plan::scalarVector). The products add in the order (ky, kx), as the NCHW form's.
  /// A quantized activation's input x = float(q - z) (byteInput) is read as the blocks of
  /// its 8-bit q, padded with z and converted where the contraction reads them (the tiler
  /// converts the bytes it loads: a quarter of the float blocks' memory traffic):
  ///   out'[n, y, x, cb, l] = sum_{ky, kx} float(qb[...]) w'[cb, ky, kx, l]
  ///                          - z sum_{ky, kx} w'[cb, ky, kx, l]
  /// exact integers in float32 as the dequantized form's (the bound is checked).
  static void rewriteDepthwise(ConvolutionOp op, const Shape &s) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    tcc::prim::PrimBuilder p(b, loc);
    Type element = b.getF32Type();
    auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    ArrayRef<int64_t> low = op.getPaddingLow(), high = op.getPaddingHigh(),
                      strides = op.getStrides(), dilations = op.getDilations();
    std::optional<ByteInput> bytes = byteInput(op.getInput());
    // Every partial sum an integer below 2^24 (|q| <= 255, |z| <= 255): exact in float32
    // either way, so the same bits as the dequantized form.
    std::optional<int64_t> filterBound = magnitudeBound(op.getFilter());
    if (bytes && !(filterBound && s.kh * s.kw * 255 * *filterBound < (int64_t{1} << 24)))
      bytes.reset();
    Value input = tcc::fuse::toChannelBlocks(b, loc, bytes ? bytes->bytes : op.getInput());
    OpFoldResult batch = p.dims(input)[0];
    if (llvm::any_of(low, [](int64_t v) { return v != 0; }) ||
        llvm::any_of(high, [](int64_t v) { return v != 0; })) {
      Type padded = bytes ? cast<RankedTensorType>(input.getType()).getElementType() : element;
      input = padBlocks(b, loc, input, p.scalar(padded, bytes ? bytes->zeroPoint : 0), low, high);
    }
    if (bytes)
      input = p.convert(input, element);
    int64_t blocks = s.channels / kBlock;
    Value filter = p.transpose(
        p.reshape(op.getFilter(), {index(blocks), index(kBlock), index(s.kh), index(s.kw)}),
        {0, 2, 3, 1});
    // Loops (n, y, x, cb, l, ky, kx).
    MLIRContext *ctx = b.getContext();
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    AffineMap read = AffineMap::get(7, 0,
                                    {d(0), d(1) * strides[0] + d(5) * dilations[0],
                                     d(2) * strides[1] + d(6) * dilations[1], d(3), d(4)},
                                    ctx);
    AffineMap weights = AffineMap::get(7, 0, {d(3), d(5), d(6), d(4)}, ctx);
    AffineMap write = AffineMap::get(7, 0, {d(0), d(1), d(2), d(3), d(4)}, ctx);
    SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
    iterators.append(2, utils::IteratorType::reduction);
    Value out = contract(b, loc, input, filter, batch, {s.oh, s.ow, blocks, kBlock},
                         {read, weights, write}, iterators);
    if (bytes && bytes->zeroPoint != 0) {
      // The zero point's share, the same for every output point (the padding is z too):
      //   out'[n, y, x, cb, l] -= z sum_{ky, kx} w'[cb, ky, kx, l]   (folded but the subtraction)
      Value sums = p.sum(filter, {1, 2});
      Value share = p.mul(sums, p.splat(sums, static_cast<double>(bytes->zeroPoint)));
      out = p.sub(out, p.broadcast(share, {3, 4}, p.dims(out)));
    }
    replaceWithChannelsFirst(op, b, out);
  }

  /// Whether a chain's convolution takes Winograd's F(2x2, 3x3) form: a 3x3 window with
  /// unit strides and dilations, output rows of at least `min-winograd-width` points.
  bool winogradForm(ConvolutionOp op, const Shape &s) const {
    auto ones = [](ArrayRef<int64_t> values) {
      return llvm::all_of(values, [](int64_t v) { return v == 1; });
    };
    return minWinogradWidth > 0 && s.ow >= minWinogradWidth && s.kh == 3 && s.kw == 3 &&
           ones(op.getStrides()) && ones(op.getDilations());
  }

  /// F(2x2, 3x3) on blocks (the formula and the transforms are in Passes.td):
  ///   V[n, a, b, ty, tx, cb, cl] = sum_{i, j} K[a, b, i, j] xp[n, 2 ty + i, 2 tx + j, cb, cl]
  ///   U[a, b, ob, cb, cl, ol] = sum_{ky, kx} G[a, ky] G[b, kx] w[16 ob + ol, 16 cb + cl, ky, kx]
  ///   M[n, a, b, ty, tx, ob, ol] = sum_{cb, cl} V[n, a, b, ty, tx, cb, cl] U[a, b, ob, cb, cl, ol]
  ///   out'[n, y, x, ob, ol] = sum_{a, b} KA[y mod 2, x mod 2, a, b]
  ///                                      M[n, a, b, y floordiv 2, x floordiv 2, ob, ol]
  /// with K[a, b, i, j] = BT[a, i] BT[b, j] and KA[p, q, a, b] = AT[p, a] AT[q, b]; the input
  /// padded to whole 4x4 windows, 2 x 2 output tiles. U is folded with the weights.
  static void rewriteWinograd(ConvolutionOp op, const Shape &s) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    tcc::prim::PrimBuilder p(b, loc);
    Type element = b.getF32Type();
    MLIRContext *ctx = b.getContext();
    auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    auto constant = [&](ArrayRef<int64_t> shape, ArrayRef<float> values) -> Value {
      auto type = RankedTensorType::get(shape, element);
      return arith::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, values));
    };
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    auto maps = [&](unsigned loops, ArrayRef<SmallVector<AffineExpr>> results) {
      SmallVector<AffineMap> all;
      for (ArrayRef<AffineExpr> exprs : results)
        all.push_back(AffineMap::get(loops, 0, exprs, ctx));
      return all;
    };
    // Seven parallel loops (V, M) or five (out'), then two reductions.
    auto iterators = [](unsigned parallel) {
      SmallVector<utils::IteratorType> all(parallel, utils::IteratorType::parallel);
      all.append(2, utils::IteratorType::reduction);
      return all;
    };
    int64_t th = (s.oh + 1) / 2, tw = (s.ow + 1) / 2;
    int64_t blocks = s.outChannels / kBlock, inBlocks = s.channels / kBlock;

    // xp: the blocks padded as the convolution pads them, then to 2 th + 2 rows and
    // 2 tw + 2 columns (an odd map's last tile).
    Value input = tcc::fuse::toChannelBlocks(b, loc, op.getInput());
    OpFoldResult batch = p.dims(input)[0];
    auto inputType = cast<RankedTensorType>(input.getType());
    ArrayRef<int64_t> low = op.getPaddingLow(), high = op.getPaddingHigh();
    int64_t extraH = 2 * th + 2 - (inputType.getDimSize(1) + low[0] + high[0]);
    int64_t extraW = 2 * tw + 2 - (inputType.getDimSize(2) + low[1] + high[1]);
    input = padBlocks(b, loc, input, p.scalar(element, 0), low,
                      ArrayRef<int64_t>{high[0] + extraH, high[1] + extraW});

    // Lavin and Gray's F(2, 3) transforms (cross-correlation, as convolutions compute).
    const float bt[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
    const float g[4][3] = {{1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
    const float at[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
    SmallVector<float> k, ka;
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 4; ++c)
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j)
            k.push_back(bt[a][i] * bt[c][j]);
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        for (int a = 0; a < 4; ++a)
          for (int c = 0; c < 4; ++c)
            ka.push_back(at[y][a] * at[x][c]);

    // V: loops (n, a, b, ty, tx, cb, cl, i, j).
    Value v =
        contract(b, loc, input, constant({4, 4, 4, 4}, k), batch, {4, 4, th, tw, inBlocks, kBlock},
                 maps(9, {{d(0), d(3) * 2 + d(7), d(4) * 2 + d(8), d(5), d(6)},
                          {d(1), d(2), d(7), d(8)},
                          {d(0), d(1), d(2), d(3), d(4), d(5), d(6)}}),
                 iterators(7));

    // U[a, b] = sum of the 9 taps times G[a, ky] G[b, kx]: 16 products of [O, C, 9] with a
    // vector of 9, each no larger than the filter, so that tcc-fold-weights folds them.
    Value taps = p.reshape(op.getFilter(), {index(s.outChannels), index(s.channels), index(9)});
    SmallVector<Value> rows;
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 4; ++c) {
        SmallVector<float> kg;
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx)
            kg.push_back(g[a][ky] * g[c][kx]);
        Value row = tcc::prim::DotGeneralOp::create(b, loc, taps, constant({9}, kg),
                                                    ArrayRef<int64_t>{2}, ArrayRef<int64_t>{0},
                                                    ArrayRef<int64_t>{}, ArrayRef<int64_t>{});
        rows.push_back(p.reshape(row, {index(1), index(s.outChannels), index(s.channels)}));
      }
    Value u = tcc::prim::ConcatenateOp::create(b, loc, rows, 0);
    u = p.transpose(p.reshape(u, {index(4), index(4), index(blocks), index(kBlock), index(inBlocks),
                                  index(kBlock)}),
                    {0, 1, 2, 4, 5, 3});

    // M: loops (n, a, b, ty, tx, ob, ol, cb, cl): 16 products over the channels.
    Value m = contract(b, loc, v, u, batch, {4, 4, th, tw, blocks, kBlock},
                       maps(9, {{d(0), d(1), d(2), d(3), d(4), d(7), d(8)},
                                {d(1), d(2), d(5), d(7), d(8), d(6)},
                                {d(0), d(1), d(2), d(3), d(4), d(5), d(6)}}),
                       iterators(7));

    // out': loops (n, y, x, ob, ol, a, b), each output point from its tile's M.
    Value out =
        contract(b, loc, m, constant({2, 2, 4, 4}, ka), batch, {s.oh, s.ow, blocks, kBlock},
                 maps(7, {{d(0), d(5), d(6), d(1).floorDiv(2), d(2).floorDiv(2), d(3), d(4)},
                          {d(1) % 2, d(2) % 2, d(5), d(6)},
                          {d(0), d(1), d(2), d(3), d(4)}}),
                 iterators(5));
    replaceWithChannelsFirst(op, b, out);
  }

  /// Replaces `op` by toChannelsFirst(`blocked`), its [n, y, x, cb, 16] result, reshaped to
  /// `op`'s type where that is more static.
  static void replaceWithChannelsFirst(ConvolutionOp op, OpBuilder &b, Value blocked) {
    Location loc = op.getLoc();
    Value result = tcc::fuse::toChannelsFirst(b, loc, blocked);
    if (result.getType() != op.getType())
      result = tcc::prim::ReshapeOp::create(
          b, loc, op.getType(), result,
          tcc::prim::dynamicExtents(tcc::prim::PrimBuilder(b, loc).dims(result)));
    op.replaceAllUsesWith(result);
    op.erase();
  }

  /// sum over the reduction loops of input x filter into a zero-filled [batch, extents...],
  /// in the input's element type (float32, or int32 for a quantized convolution).
  static Value contract(OpBuilder &b, Location loc, Value input, Value filter, OpFoldResult batch,
                        ArrayRef<int64_t> extents, ArrayRef<AffineMap> maps,
                        ArrayRef<utils::IteratorType> iterators) {
    Type element = cast<RankedTensorType>(input.getType()).getElementType();
    Value empty = tcc::fuse::emptyBatched(b, loc, batch, extents, element);
    Value zero = arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
    Value init = linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty}).getResult(0);
    bool isFloat = isa<FloatType>(element);
    return linalg::GenericOp::create(
               b, loc, TypeRange{init.getType()}, ValueRange{input, filter}, ValueRange{init}, maps,
               iterators,
               [&](OpBuilder &nested, Location at, ValueRange args) {
                 Value sum;
                 if (isFloat)
                   sum = arith::AddFOp::create(nested, at, args[2],
                                               arith::MulFOp::create(nested, at, args[0], args[1]));
                 else
                   sum = arith::AddIOp::create(nested, at, args[2],
                                               arith::MulIOp::create(nested, at, args[0], args[1]));
                 linalg::YieldOp::create(nested, at, ValueRange{sum});
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
