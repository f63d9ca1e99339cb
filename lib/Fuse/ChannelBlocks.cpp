//===- ChannelBlocks.cpp - activations in blocks of 16 channels, channels last ---------===//
#include "ChannelBlocks.h"

#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using tcc::fuse::kChannelBlock;
using tcc::prim::BroadcastInDimOp;
using tcc::prim::ConcatenateOp;
using tcc::prim::ReduceWindowOp;
using tcc::prim::ReshapeOp;
using tcc::prim::TransposeOp;

namespace {

/// [n, c, y, x] <-> [n, y, x, cb, l] after the reshape to [n, cb, l, y, x] (and back): the
/// same permutation both ways.
constexpr int64_t kPermutation[] = {0, 3, 4, 1, 2};

bool isBlockPermutation(TransposeOp op) {
  return op.getPermutation() == ArrayRef<int64_t>(kPermutation);
}

/// z when `v` is toChannelsFirst(z): reshape(transpose(z, [0, 3, 4, 1, 2])) from
/// [n, y, x, cb, 16] to [n, 16 cb, y, x].
Value channelsFirstOf(Value v) {
  auto reshape = v.getDefiningOp<ReshapeOp>();
  if (!reshape)
    return {};
  auto transpose = reshape.getOperand().getDefiningOp<TransposeOp>();
  if (!transpose || !isBlockPermutation(transpose))
    return {};
  Value z = transpose.getOperand();
  auto blocked = cast<RankedTensorType>(z.getType());
  auto nchw = cast<RankedTensorType>(v.getType());
  if (blocked.getRank() != 5 || nchw.getRank() != 4 || blocked.getDimSize(4) != kChannelBlock ||
      blocked.isDynamicDim(3) || nchw.getDimSize(1) != blocked.getDimSize(3) * kChannelBlock ||
      nchw.getDimSize(2) != blocked.getDimSize(1) || nchw.getDimSize(3) != blocked.getDimSize(2))
    return {};
  return z;
}

/// x when `v` is toChannelBlocks(x): transpose(reshape(x to [n, cb, 16, y, x]), [0, 3, 4, 1, 2]).
Value channelBlocksOf(Value v) {
  auto transpose = v.getDefiningOp<TransposeOp>();
  if (!transpose || !isBlockPermutation(transpose))
    return {};
  auto reshape = transpose.getOperand().getDefiningOp<ReshapeOp>();
  if (!reshape)
    return {};
  Value x = reshape.getOperand();
  auto nchw = cast<RankedTensorType>(x.getType());
  auto split = cast<RankedTensorType>(reshape.getType());
  if (nchw.getRank() != 4 || split.getRank() != 5 || split.getDimSize(2) != kChannelBlock ||
      split.isDynamicDim(1) || nchw.getDimSize(1) != split.getDimSize(1) * kChannelBlock ||
      nchw.getDimSize(2) != split.getDimSize(3) || nchw.getDimSize(3) != split.getDimSize(4))
    return {};
  return x;
}

/// Whether `broadcast` spreads a [n, C, 1, 1] value of each image and channel over the maps
/// (a squeeze-excitation's scale): C static, in whole blocks.
bool isImageChannelBroadcast(BroadcastInDimOp broadcast) {
  auto source = cast<RankedTensorType>(broadcast.getOperand().getType());
  auto type = cast<RankedTensorType>(broadcast.getType());
  return type.getRank() == 4 && source.getRank() == 4 &&
         broadcast.getBroadcastDimensions() == ArrayRef<int64_t>{0, 1, 2, 3} &&
         source.getDimSize(2) == 1 && source.getDimSize(3) == 1 && !type.isDynamicDim(1) &&
         source.getDimSize(1) == type.getDimSize(1) && type.getDimSize(1) % kChannelBlock == 0;
}

/// Whether `broadcast` makes an NCHW operand that SinkElementwise takes as blocks: a
/// scalar, a vector along the channels (a bias), or a value per image and channel.
bool isBlockableBroadcast(BroadcastInDimOp broadcast) {
  ArrayRef<int64_t> mapping = broadcast.getBroadcastDimensions();
  auto source = cast<RankedTensorType>(broadcast.getOperand().getType());
  auto type = cast<RankedTensorType>(broadcast.getType());
  if (mapping.empty() || isImageChannelBroadcast(broadcast))
    return true;
  return type.getRank() == 4 && mapping.size() == 1 && mapping[0] == 1 && source.hasStaticShape() &&
         !type.isDynamicDim(1) && source.getDimSize(0) == type.getDimSize(1) &&
         type.getDimSize(1) % kChannelBlock == 0;
}

/// Whether a reduction sums (or takes the max of, ...) each map: dims 2 and 3 of a rank-4
/// tensor whose channels are whole blocks (a global average pooling).
bool isBlockableReduce(tcc::prim::ReduceOp op) {
  auto type = cast<RankedTensorType>(op.getOperand().getType());
  return type.getRank() == 4 && op.getDimensions() == ArrayRef<int64_t>{2, 3} &&
         !type.isDynamicDim(1) && type.getDimSize(1) % kChannelBlock == 0;
}

/// Whether a slice keeps every channel and image and takes static windows of the maps.
bool isBlockableSlice(tcc::prim::SliceOp op) {
  auto type = op.getType();
  auto source = op.getOperand().getType();
  SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
  ArrayRef<int64_t> strides = op.getStaticStrides();
  auto zero = [](OpFoldResult v) { return isConstantIntValue(v, 0); };
  return type.getRank() == 4 && zero(offsets[0]) && zero(offsets[1]) && strides[0] == 1 &&
         strides[1] == 1 && !type.isDynamicDim(1) && type.getDimSize(1) == source.getDimSize(1) &&
         type.isDynamicDim(0) == source.isDynamicDim(0) &&
         (type.isDynamicDim(0) || type.getDimSize(0) == source.getDimSize(0)) &&
         !type.isDynamicDim(2) && !type.isDynamicDim(3);
}

/// Whether a window reduction (a pooling) slides over the maps alone: a window of one, no
/// stride and no padding along the images and the channels, whole blocks of channels.
bool isBlockableWindow(ReduceWindowOp op) {
  auto type = cast<RankedTensorType>(op.getOperand().getType());
  auto one = [](ArrayRef<int64_t> values) { return values[0] == 1 && values[1] == 1; };
  auto none = [](ArrayRef<int64_t> values) { return values[0] == 0 && values[1] == 0; };
  return type.getRank() == 4 && !type.isDynamicDim(1) && type.getDimSize(1) % kChannelBlock == 0 &&
         one(op.getWindowDimensions()) && one(op.getWindowStrides()) && none(op.getPaddingLow()) &&
         none(op.getPaddingHigh());
}

/// Whether a concatenation joins whole blocks of channels: along dim 1 of rank-4 tensors
/// whose channels are static multiples of 16 (SqueezeNet's fire modules, Inception's and
/// DenseNet's blocks).
bool isBlockableConcat(ConcatenateOp op) {
  return op.getDimension() == 1 && cast<RankedTensorType>(op.getType()).getRank() == 4 &&
         llvm::all_of(op.getInputs(), [](Value v) {
           auto type = cast<RankedTensorType>(v.getType());
           return !type.isDynamicDim(1) && type.getDimSize(1) % kChannelBlock == 0;
         });
}

/// An elementwise prim op with one rank-4 result.
bool isElementwise(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() || !isa<tcc::prim::PrimDialect>(op->getDialect()) ||
      op->getNumResults() != 1 || op->getNumOperands() == 0)
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.getRank() == 4;
}

/// toChannelBlocks(toChannelsFirst(z)) = z.
struct CancelBlocks : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op, PatternRewriter &rewriter) const override {
    Value x = channelBlocksOf(op.getResult());
    Value z = x ? channelsFirstOf(x) : Value();
    if (!z || z.getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, z);
    return success();
  }
};

/// The blocked form of `x` that some user of it already makes, if one is before `at`.
Value existingBlocks(Value x, Operation *at) {
  for (Operation *user : x.getUsers()) {
    auto reshape = dyn_cast<ReshapeOp>(user);
    if (!reshape || reshape->getBlock() != at->getBlock() || !reshape->isBeforeInBlock(at))
      continue;
    for (Operation *next : reshape->getUsers())
      if (auto transpose = dyn_cast<TransposeOp>(next);
          transpose && transpose->getBlock() == at->getBlock() && transpose->isBeforeInBlock(at) &&
          channelBlocksOf(transpose.getResult()) == x)
        return transpose.getResult();
  }
  return {};
}

/// Whether every reader of `nchw` (a toChannelsFirst result) takes its blocked form
/// (cancelled by CancelBlocks) or is an elementwise prim op, a slice, a pooling or a
/// concatenation of whole blocks, which sink the blocks too:
/// then moving `op` after the blocks makes no copy that stays.
bool readersFollow(Value nchw) {
  return llvm::all_of(nchw.getUsers(), [&](Operation *user) {
    if (isa<tcc::prim::SliceOp, tcc::prim::DimOp>(user) || isElementwise(user))
      return true;
    if (auto window = dyn_cast<ReduceWindowOp>(user))
      return isBlockableWindow(window);
    if (auto reduce = dyn_cast<tcc::prim::ReduceOp>(user))
      return isBlockableReduce(reduce);
    if (auto concat = dyn_cast<ConcatenateOp>(user))
      return isBlockableConcat(concat);
    if (!isa<ReshapeOp>(user))
      return false;
    return llvm::all_of(user->getUsers(), [&](Operation *next) {
      return isa<TransposeOp>(next) && channelBlocksOf(next->getResult(0)) == nchw;
    });
  });
}

/// Replaces `op` by toChannelsFirst(blocked), reshaped to `op`'s type where that is more
/// static (a dim the blocked form computes).
void replaceWithChannelsFirst(PatternRewriter &rewriter, Operation *op, Value blocked) {
  Value result = tcc::fuse::toChannelsFirst(rewriter, op->getLoc(), blocked);
  Type type = op->getResult(0).getType();
  if (result.getType() != type)
    result = ReshapeOp::create(
        rewriter, op->getLoc(), type, result,
        tcc::prim::dynamicExtents(tcc::prim::PrimBuilder(rewriter, op->getLoc()).dims(result)));
  rewriter.replaceOp(op, result);
}

/// How many elementwise ops deep blockedOperand makes an operand again on existing blocks.
constexpr int kMaxDepth = 6;

/// The blocked form of `operand`, read by an elementwise op at `at` whose blocked result
/// has the shape of `blocked` (dims `dims`): the z of toChannelsFirst(z); a broadcast
/// scalar or per-channel vector made again on blocks; blocks of it that a reader already
/// makes (existingBlocks); or, up to `depth` elementwise ops deep (kMaxDepth at the top),
/// the same elementwise ops on such blocks (ResNet-int8's residual: the dequantization of bytes
/// whose blocks its first convolution reads). Without `rewriter`, only whether there is one
/// (`operand` then stands for it); nothing on failure.
Value blockedOperand(PatternRewriter *rewriter, Value operand, Operation *at,
                     RankedTensorType blocked, ArrayRef<OpFoldResult> dims, int depth) {
  auto operandType = cast<RankedTensorType>(operand.getType());
  RankedTensorType like = blocked.clone(operandType.getElementType());
  // Deeper down, not an op that sinks by itself: it is made again on blocks only where
  // it does not.
  if (Value z = channelsFirstOf(operand); z && z.getType() == like)
    return depth == kMaxDepth ? z : Value();
  if (auto broadcast = operand.getDefiningOp<BroadcastInDimOp>()) {
    if (!isBlockableBroadcast(broadcast))
      return {};
    if (!rewriter)
      return operand;
    tcc::prim::PrimBuilder p(*rewriter, at->getLoc());
    // A scalar.
    if (broadcast.getBroadcastDimensions().empty())
      return p.broadcast(broadcast.getOperand(), {}, dims);
    // A value per image and channel: [n, cb, 16] along dims 0, 3 and 4.
    if (isImageChannelBroadcast(broadcast)) {
      Value split =
          p.reshape(broadcast.getOperand(), {p.dims(broadcast.getOperand())[0],
                                             rewriter->getIndexAttr(blocked.getDimSize(3)),
                                             rewriter->getIndexAttr(kChannelBlock)});
      return p.broadcast(split, {0, 3, 4}, dims);
    }
    // A vector along the channels (a bias): [cb, 16] along dims 3 and 4.
    Value split = p.reshape(broadcast.getOperand(), {rewriter->getIndexAttr(blocked.getDimSize(3)),
                                                     rewriter->getIndexAttr(kChannelBlock)});
    return p.broadcast(split, {3, 4}, dims);
  }
  if (Value existing = existingBlocks(operand, at); existing && existing.getType() == like)
    return existing;
  Operation *producer = operand.getDefiningOp();
  if (depth == 0 || !producer || !isElementwise(producer))
    return {};
  SmallVector<Value> operands;
  for (Value v : producer->getOperands()) {
    Value b = blockedOperand(rewriter, v, at, blocked, dims, depth - 1);
    if (!b)
      return {};
    operands.push_back(b);
  }
  if (!rewriter)
    return operand;
  OperationState state(producer->getLoc(), producer->getName(), operands, TypeRange{like},
                       producer->getAttrs());
  return rewriter->create(state)->getResult(0);
}

/// e(toChannelsFirst(a), b...) = toChannelsFirst(e(a, b'...)), b' = blockedOperand(b).
struct SinkElementwise : RewritePattern {
  SinkElementwise(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isElementwise(op))
      return failure();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    // The blocked shape, from the first operand already blocked.
    Value first;
    for (Value operand : op->getOperands())
      if (Value z = channelsFirstOf(operand); z && readersFollow(operand)) {
        first = z;
        break;
      }
    if (!first)
      return failure();
    // A widening conversion (the bytes' int32 for a convolution) moves the transpose onto
    // wider elements: only where its readers take the blocks too (and it cancels), not
    // where a reader that stays channels first reads it (a quantized convolution outside
    // the chain, which would then read a transposed int32 tensor, not its bytes).
    if (isa<tcc::prim::ConvertOp>(op) &&
        type.getElementTypeBitWidth() >
            cast<RankedTensorType>(op->getOperand(0).getType()).getElementTypeBitWidth() &&
        !readersFollow(op->getResult(0)))
      return failure();
    auto blocked = cast<RankedTensorType>(first.getType());
    for (Value operand : op->getOperands())
      if (!blockedOperand(nullptr, operand, op, blocked, {}, kMaxDepth))
        return failure();
    SmallVector<OpFoldResult> dims = tcc::prim::PrimBuilder(rewriter, op->getLoc()).dims(first);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(blockedOperand(&rewriter, operand, op, blocked, dims, kMaxDepth));
    OperationState state(op->getLoc(), op->getName(), operands,
                         TypeRange{blocked.clone(type.getElementType())}, op->getAttrs());
    Operation *sunk = rewriter.create(state);
    rewriter.replaceOp(op, tcc::fuse::toChannelsFirst(rewriter, op->getLoc(), sunk->getResult(0)));
    return success();
  }
};

/// slice(toChannelsFirst(z)) = toChannelsFirst(slice(z)) for a slice that keeps every
/// channel and image (a strided pointwise convolution's sampled points).
struct SinkSlice : OpRewritePattern<tcc::prim::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tcc::prim::SliceOp op, PatternRewriter &rewriter) const override {
    Value z = channelsFirstOf(op.getOperand());
    if (!z || !readersFollow(op.getOperand()) || !isBlockableSlice(op))
      return failure();
    auto type = op.getType();
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    ArrayRef<int64_t> strides = op.getStaticStrides();
    tcc::prim::PrimBuilder p(rewriter, op.getLoc());
    SmallVector<OpFoldResult> dims = p.dims(z);
    auto index = [&](int64_t v) -> OpFoldResult { return rewriter.getIndexAttr(v); };
    Value sliced = tcc::prim::SliceOp::create(
        rewriter, op.getLoc(), z, {index(0), offsets[2], offsets[3], index(0), index(0)},
        {dims[0], index(type.getDimSize(2)), index(type.getDimSize(3)), dims[3], dims[4]},
        {1, strides[2], strides[3], 1, 1});
    rewriter.replaceOp(op, tcc::fuse::toChannelsFirst(rewriter, op.getLoc(), sliced));
    return success();
  }
};

/// w(toChannelsFirst(z)) = toChannelsFirst(w'(z)) for a window reduction w over the maps
/// alone (a max or average pooling): w' slides the same window over [n, y, x, cb, l].
struct SinkReduceWindow : OpRewritePattern<ReduceWindowOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceWindowOp op, PatternRewriter &rewriter) const override {
    Value z = channelsFirstOf(op.getOperand());
    if (!z || !readersFollow(op.getOperand()) || !isBlockableWindow(op))
      return failure();
    // [n, c, y, x] -> [n, y, x, cb, l]: the maps' entries move to dims 1 and 2; the
    // images' and channels' (1 or 0) stay as they are on n, cb and l.
    auto blocked = [](ArrayRef<int64_t> v) {
      return SmallVector<int64_t>{v[0], v[2], v[3], v[1], v[1]};
    };
    Value pooled = ReduceWindowOp::create(
        rewriter, op.getLoc(), op.getKind(), z, blocked(op.getWindowDimensions()),
        blocked(op.getWindowStrides()), blocked(op.getWindowDilations()),
        blocked(op.getPaddingLow()), blocked(op.getPaddingHigh()));
    replaceWithChannelsFirst(rewriter, op, pooled);
    return success();
  }
};

/// reduce(toChannelsFirst(z), dims [2, 3]) = reshape(reduce(z, dims [1, 2])) from
/// [n, cb, 16] to [n, C]: each map's reduction (a squeeze-excitation's global average
/// pooling) reads the blocks, a vector of 16 channels per point.
struct SinkReduce : OpRewritePattern<tcc::prim::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tcc::prim::ReduceOp op, PatternRewriter &rewriter) const override {
    Value z = channelsFirstOf(op.getOperand());
    if (!z || !readersFollow(op.getOperand()) || !isBlockableReduce(op))
      return failure();
    Value reduced = tcc::prim::ReduceOp::create(rewriter, op.getLoc(), op.getKind(), z,
                                                ArrayRef<int64_t>{1, 2});
    // [n, C]: n is z's (the same extent as the NCHW operand's).
    SmallVector<OpFoldResult> dims = tcc::prim::PrimBuilder(rewriter, op.getLoc()).dims(z);
    rewriter.replaceOp(op, ReshapeOp::create(rewriter, op.getLoc(), op.getType(), reduced,
                                             tcc::prim::dynamicExtents({dims[0]})));
    return success();
  }
};

/// concat(toChannelsFirst(z1), toChannelsFirst(z2), ..., dim 1)
///   = toChannelsFirst(concat(z1, z2, ..., dim 3)): channel c of operand k is lane
/// c mod 16 of block c / 16 of z_k, and whole blocks keep that order along dim 3. An
/// operand may also be a value whose blocked form another reader already makes.
struct SinkConcatenate : OpRewritePattern<ConcatenateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatenateOp op, PatternRewriter &rewriter) const override {
    if (!isBlockableConcat(op))
      return failure();
    SmallVector<Value> blocks;
    bool sinks = false;
    for (Value input : op.getInputs()) {
      if (Value z = channelsFirstOf(input); z && readersFollow(input)) {
        blocks.push_back(z);
        sinks = true;
      } else if (Value existing = existingBlocks(input, op)) {
        blocks.push_back(existing);
      } else {
        return failure();
      }
    }
    if (!sinks)
      return failure();
    Value joined = ConcatenateOp::create(rewriter, op.getLoc(), blocks, /*dimension=*/3);
    replaceWithChannelsFirst(rewriter, op, joined);
    return success();
  }
};

} // namespace

Value tcc::fuse::toChannelBlocks(OpBuilder &b, Location loc, Value nchw) {
  tcc::prim::PrimBuilder p(b, loc);
  auto type = cast<RankedTensorType>(nchw.getType());
  SmallVector<OpFoldResult> dims = p.dims(nchw);
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  Value split = p.reshape(nchw, {dims[0], index(type.getDimSize(1) / kChannelBlock),
                                 index(kChannelBlock), dims[2], dims[3]});
  return p.transpose(split, kPermutation);
}

Value tcc::fuse::toChannelsFirst(OpBuilder &b, Location loc, Value blocked) {
  tcc::prim::PrimBuilder p(b, loc);
  auto type = cast<RankedTensorType>(blocked.getType());
  SmallVector<OpFoldResult> dims = p.dims(blocked);
  Value transposed = p.transpose(blocked, kPermutation);
  return p.reshape(transposed,
                   {dims[0], b.getIndexAttr(type.getDimSize(3) * kChannelBlock), dims[1], dims[2]});
}

/// The operands of an elementwise op, slice, window reduction, concatenation or padding that
/// would be blocks with its result: its tensors other than broadcasts (a slice's extents and
/// a padding's value are not).
static SmallVector<Value> dataOperands(Operation *op) {
  if (auto slice = dyn_cast<tcc::prim::SliceOp>(op))
    return {slice.getOperand()};
  if (auto pad = dyn_cast<tcc::prim::PadOp>(op))
    return {pad.getOperand()};
  if (auto window = dyn_cast<ReduceWindowOp>(op))
    return {window.getOperand()};
  if (auto concat = dyn_cast<ConcatenateOp>(op))
    return SmallVector<Value>(concat.getInputs());
  SmallVector<Value> values;
  for (Value v : op->getOperands())
    if (isa<RankedTensorType>(v.getType()) && !v.getDefiningOp<BroadcastInDimOp>())
      values.push_back(v);
  return values;
}

DenseSet<Operation *> tcc::fuse::selectChains(ArrayRef<tcc::prim::ConvolutionOp> candidates,
                                              ArrayRef<tcc::prim::ConvolutionOp> stems,
                                              double minConvolutionsPerCopy) {
  // Components of the values that would be blocks: a candidate joins its input and its
  // output (a stem its output alone), an elementwise op, slice, window reduction or
  // concatenation that sinks joins its result and its operands.
  llvm::EquivalenceClasses<Value> classes;
  DenseSet<Operation *> isCandidate, isStem, transparent;
  SmallVector<Operation *> worklist;
  for (tcc::prim::ConvolutionOp op : candidates) {
    isCandidate.insert(op);
    classes.unionSets(op.getInput(), op.getResult());
    worklist.push_back(op);
  }
  for (tcc::prim::ConvolutionOp op : stems) {
    isCandidate.insert(op);
    isStem.insert(op);
    classes.insert(op.getResult());
    worklist.push_back(op);
  }
  // Grow along readers and producers from the candidates.
  DenseSet<Operation *> seen(isCandidate.begin(), isCandidate.end());
  auto joins = [&](Operation *op) {
    if (auto slice = dyn_cast<tcc::prim::SliceOp>(op))
      return isBlockableSlice(slice);
    // A quantized convolution's padding of its uint8 input along the maps, read through a
    // conversion by candidates alone: tcc-channel-vector-convolutions pads the blocks instead.
    if (auto pad = dyn_cast<tcc::prim::PadOp>(op))
      return cast<RankedTensorType>(pad->getResult(0).getType()).getRank() == 4 &&
             pad.getLow()[0] == 0 && pad.getLow()[1] == 0 && pad.getHigh()[0] == 0 &&
             pad.getHigh()[1] == 0 && llvm::all_of(pad->getUsers(), [&](Operation *user) {
               return isa<tcc::prim::ConvertOp>(user) &&
                      llvm::all_of(user->getUses(), [&](OpOperand &use) {
                        auto conv = dyn_cast<tcc::prim::ConvolutionOp>(use.getOwner());
                        return conv && isCandidate.contains(conv) && !isStem.contains(conv) &&
                               use.get() == conv.getInput();
                      });
             });
    if (auto window = dyn_cast<ReduceWindowOp>(op))
      return isBlockableWindow(window);
    if (auto concat = dyn_cast<ConcatenateOp>(op))
      return isBlockableConcat(concat);
    if (!isElementwise(op))
      return false;
    return llvm::all_of(op->getOperands(), [](Value v) {
      auto broadcast = v.getDefiningOp<BroadcastInDimOp>();
      return !broadcast || isBlockableBroadcast(broadcast);
    });
  };
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    SmallVector<Value> values(op->getResults());
    if (isCandidate.contains(op)) {
      if (!isStem.contains(op))
        values.push_back(cast<tcc::prim::ConvolutionOp>(op).getInput());
    } else {
      llvm::append_range(values, dataOperands(op));
    }
    for (Value v : values) {
      SmallVector<Operation *> near(v.getUsers());
      if (Operation *producer = v.getDefiningOp())
        near.push_back(producer);
      for (Operation *other : near)
        if (!seen.contains(other) && joins(other)) {
          seen.insert(other);
          transparent.insert(other);
          for (Value operand : dataOperands(other))
            classes.unionSets(operand, other->getResult(0));
          worklist.push_back(other);
        }
    }
  }
  // Per component: its candidates, and its copies (values made or read elsewhere).
  // A component of stems alone (a stem read by a global pooling only) is not taken: the
  // channels-last form pays along chains.
  DenseMap<Value, int64_t> convolutions, copies, chained;
  for (Operation *op : isCandidate) {
    Value leader = classes.getLeaderValue(cast<tcc::prim::ConvolutionOp>(op).getResult());
    ++convolutions[leader];
    if (!isStem.contains(op))
      ++chained[leader];
  }
  for (auto it = classes.begin(); it != classes.end(); ++it) {
    if (!(*it)->isLeader())
      continue;
    for (auto member = classes.member_begin(**it); member != classes.member_end(); ++member) {
      Value v = *member;
      Operation *producer = v.getDefiningOp();
      bool madeHere =
          producer && (isCandidate.contains(producer) || transparent.contains(producer));
      bool readElsewhere = llvm::any_of(v.getUses(), [&](OpOperand &use) {
        Operation *user = use.getOwner();
        if (isa<tcc::prim::DimOp, tcc::prim::BindShapeOp>(user)) // read the extents alone
          return false;
        if (auto reduce = dyn_cast<tcc::prim::ReduceOp>(user); reduce && isBlockableReduce(reduce))
          return false;                                           // reads the blocks (SinkReduce)
        if (auto conv = dyn_cast<tcc::prim::ConvolutionOp>(user)) // a stem reads channels first
          return !isCandidate.contains(user) || isStem.contains(user) ||
                 use.get() != conv.getInput();
        return !transparent.contains(user);
      });
      copies[(*it)->getData()] += (madeHere ? 0 : 1) + (readElsewhere ? 1 : 0);
    }
  }
  DenseSet<Operation *> chosen;
  for (Operation *op : isCandidate) {
    Value leader = classes.getLeaderValue(cast<tcc::prim::ConvolutionOp>(op).getResult());
    if (chained[leader] > 0 && convolutions[leader] >= minConvolutionsPerCopy * copies[leader])
      chosen.insert(op);
  }
  return chosen;
}

void tcc::fuse::sinkChannelBlocks(ModuleOp module) {
  RewritePatternSet patterns(module.getContext());
  patterns
      .add<CancelBlocks, SinkElementwise, SinkSlice, SinkReduceWindow, SinkReduce, SinkConcatenate>(
          module.getContext());
  (void)applyPatternsGreedily(module, std::move(patterns));
}
