//===- LowerContractions.cpp - dot_general and convolution -> linalg ---------------------===//
//
// Both accumulate into a zero-filled destination: floats narrower than f32 in f32 (rounded
// once at the end), everything else in its own type (integers wrap). Layouts that match a
// named linalg op (matmul, batch_matmul, conv_Nd_nc..._fc...) use it, since later stages
// tile and vectorize those best; the rest are linalg.generic ops.
//
//===----------------------------------------------------------------------------------===//
#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc;

namespace {

/// A zero-filled tensor of `type` made signless, with dynamic extents `sizes`.
Value createZeros(OpBuilder &b, Location loc, RankedTensorType type, ValueRange sizes) {
  type = lower::signless(type);
  Type element = type.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
  Value empty = lower::createEmpty(b, loc, type, sizes);
  return linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty}).getResult(0);
}

/// acc + a * b with a and b (of prim's type `element`) extended to the accumulator's
/// type `accType`.
Value multiplyAdd(OpBuilder &b, Location loc, Type element, Type accType, Value x, Value y,
                  Value acc) {
  x = lower::convertScalar(b, loc, x, element, accType);
  y = lower::convertScalar(b, loc, y, element, accType);
  if (isa<FloatType>(accType))
    return arith::AddFOp::create(b, loc, acc, arith::MulFOp::create(b, loc, x, y));
  return arith::AddIOp::create(b, loc, acc, arith::MulIOp::create(b, loc, x, y));
}

/// dot_general: result[b..., i..., j...] = sum over k... of lhs[b, i, k] * rhs[b, j, k].
/// The iteration space is (batch..., lhs free..., rhs free..., contracting...).
struct DotGeneralToLinalg : OpRewritePattern<prim::DotGeneralOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::DotGeneralOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = lower::castToSignless(rewriter, loc, op.getLhs()),
          rhs = lower::castToSignless(rewriter, loc, op.getRhs());
    auto lhsType = op.getLhs().getType(), rhsType = op.getRhs().getType();
    auto type = op.getType();
    ArrayRef<int64_t> lb = op.getLhsBatchingDimensions(), rb = op.getRhsBatchingDimensions(),
                      lc = op.getLhsContractingDimensions(), rc = op.getRhsContractingDimensions();
    Type element = type.getElementType(), acc = lower::accumulatorType(element);

    SmallVector<int64_t> lhsFree, rhsFree;
    for (int64_t d = 0; d < lhsType.getRank(); ++d)
      if (!llvm::is_contained(lb, d) && !llvm::is_contained(lc, d))
        lhsFree.push_back(d);
    for (int64_t d = 0; d < rhsType.getRank(); ++d)
      if (!llvm::is_contained(rb, d) && !llvm::is_contained(rc, d))
        rhsFree.push_back(d);
    int64_t numBatch = lb.size(), numLhsFree = lhsFree.size();
    int64_t outRank = type.getRank(), numLoops = outRank + lc.size();

    // Result dim r reads (operand, dim) = its source.
    SmallVector<std::pair<Value, int64_t>> sources;
    for (int64_t d : lb)
      sources.push_back({lhs, d});
    for (int64_t d : lhsFree)
      sources.push_back({lhs, d});
    for (int64_t d : rhsFree)
      sources.push_back({rhs, d});
    SmallVector<Value> sizes;
    for (int64_t r = 0; r < outRank; ++r)
      if (type.isDynamicDim(r))
        sizes.push_back(tensor::DimOp::create(rewriter, loc, sources[r].first, sources[r].second));
    Value init = createZeros(rewriter, loc, type.clone(acc), sizes);

    Value result;
    // Named ops add i1 with `or`, where prim wraps (xor): booleans take the generic.
    bool named = !element.isInteger(1);
    bool isMatmul = named && lb.empty() && lhsType.getRank() == 2 && rhsType.getRank() == 2 &&
                    lc == ArrayRef<int64_t>{1} && rc == ArrayRef<int64_t>{0};
    bool isBatchMatmul = named && lhsType.getRank() == 3 && rhsType.getRank() == 3 &&
                         lb == ArrayRef<int64_t>{0} && rb == ArrayRef<int64_t>{0} &&
                         lc == ArrayRef<int64_t>{2} && rc == ArrayRef<int64_t>{1};
    if (isMatmul) {
      result = linalg::MatmulOp::create(rewriter, loc, TypeRange{init.getType()},
                                        ValueRange{lhs, rhs}, ValueRange{init})
                   .getResult(0);
    } else if (isBatchMatmul) {
      result = linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{init.getType()},
                                             ValueRange{lhs, rhs}, ValueRange{init})
                   .getResult(0);
    } else {
      auto operandMap = [&](int64_t rank, ArrayRef<int64_t> batch, ArrayRef<int64_t> free,
                            int64_t freeStart, ArrayRef<int64_t> contracting) {
        SmallVector<AffineExpr> exprs;
        for (int64_t d = 0; d < rank; ++d) {
          int64_t loop;
          if (auto it = llvm::find(batch, d); it != batch.end())
            loop = it - batch.begin();
          else if (auto it = llvm::find(free, d); it != free.end())
            loop = freeStart + (it - free.begin());
          else
            loop = outRank + (llvm::find(contracting, d) - contracting.begin());
          exprs.push_back(rewriter.getAffineDimExpr(loop));
        }
        return AffineMap::get(numLoops, 0, exprs, rewriter.getContext());
      };
      SmallVector<AffineExpr> outputExprs;
      for (int64_t r = 0; r < outRank; ++r)
        outputExprs.push_back(rewriter.getAffineDimExpr(r));
      SmallVector<AffineMap> maps = {
          operandMap(lhsType.getRank(), lb, lhsFree, numBatch, lc),
          operandMap(rhsType.getRank(), rb, rhsFree, numBatch + numLhsFree, rc),
          AffineMap::get(numLoops, 0, outputExprs, rewriter.getContext())};
      SmallVector<utils::IteratorType> iterators(outRank, utils::IteratorType::parallel);
      iterators.append(lc.size(), utils::IteratorType::reduction);
      result = linalg::GenericOp::create(rewriter, loc, TypeRange{init.getType()},
                                         ValueRange{lhs, rhs}, ValueRange{init}, maps, iterators,
                                         [&](OpBuilder &b, Location nested, ValueRange args) {
                                           linalg::YieldOp::create(
                                               b, nested,
                                               multiplyAdd(b, nested, element, acc, args[0],
                                                           args[1], args[2]));
                                         })
                   .getResult(0);
    }
    rewriter.replaceOp(op, lower::castToType(rewriter, loc,
                                             lower::convertElements(rewriter, loc, result, acc, element),
                                             type));
    return success();
  }
};

Value dimValue(OpBuilder &b, Location loc, Value tensor, int64_t d) {
  return getValueOrCreateConstantIndexOp(b, loc, tensor::getMixedSize(b, loc, tensor, d));
}

/// convolution: out[n, o, x...] = sum over c < C/G and k... of
///   padded[n, g * C/G + c, x * stride + k * dilation] * filter[o, c, k...], g = o / (O/G).
/// One group, 1-3 spatial dims: the named linalg.conv_Nd op. Otherwise a generic over
/// (n, g, o, x..., c, k...) on the channels split into groups by tensor.expand_shape.
struct ConvolutionToLinalg : OpRewritePattern<prim::ConvolutionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ConvolutionOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = lower::castToSignless(rewriter, loc, op.getInput()),
          filter = lower::castToSignless(rewriter, loc, op.getFilter());
    auto inputType = lower::signless(op.getInput().getType());
    auto type = op.getType();
    int64_t rank = type.getRank(), spatial = rank - 2;
    int64_t groups = op.getFeatureGroupCount();
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations(),
                      low = op.getPaddingLow(), high = op.getPaddingHigh();
    Type element = type.getElementType(), acc = lower::accumulatorType(element);

    Value padded = input;
    if (llvm::any_of(low, [](int64_t p) { return p != 0; }) ||
        llvm::any_of(high, [](int64_t p) { return p != 0; })) {
      SmallVector<int64_t> padLow = {0, 0}, padHigh = {0, 0};
      padLow.append(low.begin(), low.end());
      padHigh.append(high.begin(), high.end());
      SmallVector<int64_t> shape(inputType.getShape());
      for (int64_t d = 2; d < rank; ++d)
        if (!ShapedType::isDynamic(shape[d]))
          shape[d] += padLow[d] + padHigh[d];
      Type zeroType = lower::signless(element);
      Value zero = arith::ConstantOp::create(rewriter, loc, zeroType, rewriter.getZeroAttr(zeroType));
      padded = tensor::PadOp::create(rewriter, loc, inputType.clone(shape), input,
                                     getAsIndexOpFoldResult(rewriter.getContext(), padLow),
                                     getAsIndexOpFoldResult(rewriter.getContext(), padHigh), zero);
    }

    // Dynamic output extents: n from the input, o from the filter, spatial ones from the
    // window formula.
    SmallVector<Value> outDims(rank);
    for (int64_t d = 0; d < rank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d < 2)
        outDims[d] = dimValue(rewriter, loc, d == 0 ? input : filter, 0);
      else
        outDims[d] =
            lower::windowExtent(rewriter, loc, dimValue(rewriter, loc, padded, d),
                                tensor::getMixedSize(rewriter, loc, filter, d), strides[d - 2],
                                dilations[d - 2]);
    }

    Value result;
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto allOnes = [](ArrayRef<int64_t> values) { return llvm::all_of(values, [](int64_t v) { return v == 1; }); };
    bool unitWindow = llvm::all_of(filterType.getShape().drop_front(2), [](int64_t k) { return k == 1; });
    int64_t channels = inputType.getDimSize(1), outChannels = filterType.getDimSize(0);
    if (groups == 1 && spatial >= 1 && unitWindow && allOnes(strides) && padded == input) {
      result = pointwiseConvolution(rewriter, op, input, filter, outDims, acc);
    } else if (groups > 1 && spatial >= 1 && channels == groups && outChannels == groups &&
               filterType.getDimSize(1) == 1) {
      result = depthwiseConvolution(rewriter, op, padded, filter, outDims, acc);
    } else if (groups == 1 && spatial >= 1 && spatial <= 3 && !element.isInteger(1)) {
      // Named ops add i1 with `or`, where prim wraps (xor): booleans take the generic.
      SmallVector<Value> sizes;
      for (Value size : outDims)
        if (size)
          sizes.push_back(size);
      Value init = createZeros(rewriter, loc, type.clone(acc), sizes);
      auto attr = [&](ArrayRef<int64_t> values) {
        return DenseIntElementsAttr::get(RankedTensorType::get({spatial}, rewriter.getI64Type()),
                                         values);
      };
      SmallVector<Type> types = {init.getType()};
      SmallVector<Value> ins = {padded, filter}, outs = {init};
      Operation *conv;
      if (spatial == 1)
        conv = linalg::Conv1DNcwFcwOp::create(rewriter, loc, types, ins, outs, attr(strides),
                                              attr(dilations));
      else if (spatial == 2)
        conv = linalg::Conv2DNchwFchwOp::create(rewriter, loc, types, ins, outs, attr(strides),
                                                attr(dilations));
      else
        conv = linalg::Conv3DNcdhwFcdhwOp::create(rewriter, loc, types, ins, outs, attr(strides),
                                                  attr(dilations));
      result = conv->getResult(0);
    } else {
      result = groupedConvolution(rewriter, op, padded, filter, outDims, acc);
    }
    rewriter.replaceOp(op, lower::castToType(rewriter, loc,
                                             lower::convertElements(rewriter, loc, result, acc, element),
                                             type));
    return success();
  }

  /// The accumulator of a convolution's result: zeros of `acc` with the dynamic extents.
  static Value zeroResult(PatternRewriter &rewriter, prim::ConvolutionOp op, ArrayRef<Value> outDims, Type acc) {
    SmallVector<Value> sizes;
    for (Value size : outDims)
      if (size)
        sizes.push_back(size);
    return createZeros(rewriter, op.getLoc(), lower::signless(op.getType()).clone(acc), sizes);
  }

  /// `body` over `maps` (input, filter, result) and `iterators`, accumulating in `acc`.
  /// `out += input * filter` over `parallel` then `reductions` loops, each operand indexed by
  /// its expressions of those loops; the output starts from zero (`outDims`).
  static Value convolutionGeneric(PatternRewriter &rewriter, prim::ConvolutionOp op, Value input, Value filter,
                                  ArrayRef<Value> outDims, ArrayRef<AffineExpr> inExprs,
                                  ArrayRef<AffineExpr> filterExprs, ArrayRef<AffineExpr> outExprs,
                                  int64_t parallel, int64_t reductions, Type acc) {
    Type element = op.getType().getElementType();
    MLIRContext *ctx = rewriter.getContext();
    int64_t numLoops = parallel + reductions;
    SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, inExprs, ctx),
                                   AffineMap::get(numLoops, 0, filterExprs, ctx),
                                   AffineMap::get(numLoops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(parallel, utils::IteratorType::parallel);
    iterators.append(reductions, utils::IteratorType::reduction);
    Value init = zeroResult(rewriter, op, outDims, acc);
    return linalg::GenericOp::create(
               rewriter, op.getLoc(), TypeRange{init.getType()}, ValueRange{input, filter},
               ValueRange{init}, maps, iterators,
               [&](OpBuilder &b, Location nested, ValueRange args) {
                 linalg::YieldOp::create(b, nested, multiplyAdd(b, nested, element, acc, args[0], args[1], args[2]));
               })
        .getResult(0);
  }

  /// A 1x1 window with unit strides, no padding, one group: a matrix product per image,
  ///   out[n, o, y...] = sum over c of input[n, c, y...] * filter[o, c],
  /// over loops (n, o, y..., c). The pixels y... are read contiguously by input and output
  /// alike, so tcc-collapse-dims merges them and the tiler vectorizes across all of them.
  static Value pointwiseConvolution(PatternRewriter &rewriter, prim::ConvolutionOp op, Value input,
                                    Value filter, ArrayRef<Value> outDims, Type acc) {
    Location loc = op.getLoc();
    auto filterType = cast<RankedTensorType>(filter.getType());
    int64_t rank = filterType.getRank(), spatial = rank - 2;
    SmallVector<ReassociationIndices> toMatrix = {{0}, {}};
    for (int64_t d = 1; d < rank; ++d)
      toMatrix[1].push_back(d);
    Value matrix = tensor::CollapseShapeOp::create(rewriter, loc, filter, toMatrix);
    int64_t c = 2 + spatial;
    auto dim = [&](int64_t i) { return rewriter.getAffineDimExpr(i); };
    SmallVector<AffineExpr> inExprs = {dim(0), dim(c)}, outExprs = {dim(0), dim(1)};
    for (int64_t s = 0; s < spatial; ++s) {
      inExprs.push_back(dim(2 + s));
      outExprs.push_back(dim(2 + s));
    }
    return convolutionGeneric(rewriter, op, input, matrix, outDims, inExprs, {dim(1), dim(c)}, outExprs,
                              /*parallel=*/c, /*reductions=*/1, acc);
  }

  /// One input and one output channel per group (depthwise):
  ///   out[n, o, y...] = sum over k... of padded[n, o, y * stride + k * dilation] * filter[o, 0, k...],
  /// over loops (n, o, y..., k...), with the filter as [O, K...]: no regrouping reshapes, so
  /// the result is the output itself and kernel formation can give it an epilogue.
  static Value depthwiseConvolution(PatternRewriter &rewriter, prim::ConvolutionOp op, Value padded,
                                    Value filter, ArrayRef<Value> outDims, Type acc) {
    Location loc = op.getLoc();
    auto filterType = cast<RankedTensorType>(filter.getType());
    int64_t rank = filterType.getRank(), spatial = rank - 2;
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
    SmallVector<ReassociationIndices> dropOne = {{0, 1}};
    for (int64_t d = 2; d < rank; ++d)
      dropOne.push_back({d});
    Value taps = tensor::CollapseShapeOp::create(rewriter, loc, filter, dropOne);
    auto dim = [&](int64_t i) { return rewriter.getAffineDimExpr(i); };
    SmallVector<AffineExpr> inExprs = {dim(0), dim(1)}, filterExprs = {dim(1)}, outExprs = {dim(0), dim(1)};
    for (int64_t s = 0; s < spatial; ++s) {
      AffineExpr y = dim(2 + s), k = dim(2 + spatial + s);
      inExprs.push_back(y * strides[s] + k * dilations[s]);
      filterExprs.push_back(k);
      outExprs.push_back(y);
    }
    return convolutionGeneric(rewriter, op, padded, taps, outDims, inExprs, filterExprs, outExprs,
                              /*parallel=*/2 + spatial, /*reductions=*/spatial, acc);
  }

  /// `padded` and `filter` are signless; so is the result.
  static Value groupedConvolution(PatternRewriter &rewriter, prim::ConvolutionOp op, Value padded,
                                  Value filter, ArrayRef<Value> outDims, Type acc) {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = lower::signless(op.getType());
    Type element = op.getType().getElementType();
    auto paddedType = cast<RankedTensorType>(padded.getType());
    auto filterType = cast<RankedTensorType>(filter.getType());
    int64_t rank = type.getRank(), spatial = rank - 2;
    int64_t groups = op.getFeatureGroupCount();
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
    auto divide = [](int64_t extent, int64_t by) {
      return ShapedType::isDynamic(extent) ? ShapedType::kDynamic : extent / by;
    };
    auto divideValue = [&](Value extent) -> OpFoldResult {
      return arith::DivUIOp::create(rewriter, loc, extent,
                                    arith::ConstantIndexOp::create(rewriter, loc, groups))
          .getResult();
    };
    auto mixed = [&](int64_t extent, function_ref<OpFoldResult()> dynamic) -> OpFoldResult {
      return ShapedType::isDynamic(extent) ? dynamic() : rewriter.getIndexAttr(extent);
    };

    // input [N, C, X...] -> [N, G, C/G, X...]
    SmallVector<int64_t> inShape = {paddedType.getDimSize(0), groups,
                                    divide(paddedType.getDimSize(1), groups)};
    SmallVector<OpFoldResult> inSizes = {
        tensor::getMixedSize(rewriter, loc, padded, 0), rewriter.getIndexAttr(groups),
        mixed(inShape[2], [&] { return divideValue(dimValue(rewriter, loc, padded, 1)); })};
    SmallVector<ReassociationIndices> inGroups = {{0}, {1, 2}};
    for (int64_t d = 2; d < rank; ++d) {
      inShape.push_back(paddedType.getDimSize(d));
      inSizes.push_back(tensor::getMixedSize(rewriter, loc, padded, d));
      inGroups.push_back({d + 1});
    }
    Value groupedInput = tensor::ExpandShapeOp::create(rewriter, loc, paddedType.clone(inShape),
                                                       padded, inGroups, inSizes);

    // filter [O, C/G, K...] -> [G, O/G, C/G, K...]
    SmallVector<int64_t> filterShape = {groups, divide(filterType.getDimSize(0), groups)};
    SmallVector<OpFoldResult> filterSizes = {
        rewriter.getIndexAttr(groups),
        mixed(filterShape[1], [&] { return divideValue(dimValue(rewriter, loc, filter, 0)); })};
    SmallVector<ReassociationIndices> filterGroups = {{0, 1}};
    for (int64_t d = 1; d < rank; ++d) {
      filterShape.push_back(filterType.getDimSize(d));
      filterSizes.push_back(tensor::getMixedSize(rewriter, loc, filter, d));
      filterGroups.push_back({d + 1});
    }
    Value groupedFilter = tensor::ExpandShapeOp::create(
        rewriter, loc, filterType.clone(filterShape), filter, filterGroups, filterSizes);

    // out [N, G, O/G, Y...]
    SmallVector<int64_t> outShape = {type.getDimSize(0), groups, filterShape[1]};
    SmallVector<Value> outSizes;
    if (type.isDynamicDim(0))
      outSizes.push_back(outDims[0]);
    if (ShapedType::isDynamic(filterShape[1]))
      outSizes.push_back(cast<Value>(filterSizes[1]));
    for (int64_t d = 2; d < rank; ++d) {
      outShape.push_back(type.getDimSize(d));
      if (type.isDynamicDim(d))
        outSizes.push_back(outDims[d]);
    }
    Value init = createZeros(rewriter, loc, RankedTensorType::get(outShape, acc), outSizes);

    // Loops: n, g, o, y... (parallel), c, k... (reduction).
    int64_t numLoops = 4 + 2 * spatial, c = 3 + spatial;
    auto dim = [&](int64_t i) { return rewriter.getAffineDimExpr(i); };
    SmallVector<AffineExpr> inExprs = {dim(0), dim(1), dim(c)},
                            filterExprs = {dim(1), dim(2), dim(c)},
                            outExprs = {dim(0), dim(1), dim(2)};
    for (int64_t s = 0; s < spatial; ++s) {
      AffineExpr y = dim(3 + s), k = dim(c + 1 + s);
      inExprs.push_back(y * strides[s] + k * dilations[s]);
      filterExprs.push_back(k);
      outExprs.push_back(y);
    }
    SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, inExprs, ctx),
                                   AffineMap::get(numLoops, 0, filterExprs, ctx),
                                   AffineMap::get(numLoops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(c, utils::IteratorType::parallel);
    iterators.append(1 + spatial, utils::IteratorType::reduction);
    Value grouped =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{init.getType()}, ValueRange{groupedInput, groupedFilter},
            ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location nested, ValueRange args) {
              linalg::YieldOp::create(
                  b, nested, multiplyAdd(b, nested, element, acc, args[0], args[1], args[2]));
            })
            .getResult(0);

    // [N, G, O/G, Y...] -> [N, O, Y...]
    SmallVector<ReassociationIndices> outGroups = {{0}, {1, 2}};
    for (int64_t d = 2; d < rank; ++d)
      outGroups.push_back({d + 1});
    Value collapsed = tensor::CollapseShapeOp::create(rewriter, loc, grouped, outGroups);
    Type wanted = type.clone(lower::signless(acc));
    return collapsed.getType() == wanted
               ? collapsed
               : tensor::CastOp::create(rewriter, loc, wanted, collapsed).getResult();
  }
};

} // namespace

void tcc::lower::populateContractionLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<DotGeneralToLinalg, ConvolutionToLinalg>(patterns.getContext());
}
