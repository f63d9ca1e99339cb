//===- LowerDataMovement.cpp - reshape, transpose, slice, pad, concat, reverse, gather ---===//
//
// Reshapes become tensor.collapse_shape/expand_shape views (tensor.reshape when a group
// would hold two dynamic extents); every other op produces a fresh dense tensor (a linalg
// op, or tensor.pad / insert_slice into a tensor.empty). Reads whose position depends on
// run-time values (dynamic slice offsets, gather indices) are clamped into the operand, so
// no input can make the code read out of bounds; gather also emits a prim.check that
// reports an out-of-range index.
//
//===----------------------------------------------------------------------------------===//
#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tcc;

namespace {

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The ONNX node name carried by `loc` ("" when there is none), for run-time messages.
std::string nodeName(Location loc) {
  std::string name;
  loc->walk([&](Location inner) {
    if (auto named = dyn_cast<NameLoc>(inner)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

/// `x` clamped into [0, last] (index values).
Value clampIndex(OpBuilder &b, Location loc, Value x, Value last) {
  Value upper = arith::MinSIOp::create(b, loc, x, last);
  return arith::MaxSIOp::create(b, loc, upper, indexConstant(b, loc, 0));
}

/// True when the index value `size` is known to equal dim `dim` of `tensor`: the same
/// prim.dim / tensor.dim, or a dim carried unchanged through shape-preserving producers.
bool isKnownExtent(Value size, Value tensor, int64_t dim, int depth = 0) {
  if (depth > 16)
    return false;
  if (prim::isDimOf(size, tensor, dim))
    return true;
  if (auto tensorDim = size.getDefiningOp<tensor::DimOp>()) {
    std::optional<int64_t> index = tensorDim.getConstantIndex();
    if (tensorDim.getSource() == tensor && index && *index == dim)
      return true;
  }
  Operation *producer = tensor.getDefiningOp();
  if (!producer || !isa<prim::PrimDialect>(producer->getDialect()))
    return false;
  if (auto transpose = dyn_cast<prim::TransposeOp>(producer))
    return isKnownExtent(size, transpose.getOperand(), transpose.getPermutation()[dim], depth + 1);
  // Ops whose result extents are their `dynamic_sizes` operands.
  if (isa<prim::BroadcastInDimOp, prim::ReshapeOp, prim::IotaOp>(producer)) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(dim))
      return false;
    unsigned position = type.getDynamicDimIndex(dim);
    OperandRange sizes = isa<prim::IotaOp>(producer) ? producer->getOperands()
                                                     : producer->getOperands().drop_front();
    return position < sizes.size() && sizes[position] == size;
  }
  bool sameShape = producer->hasTrait<OpTrait::Elementwise>() ||
                   producer->hasTrait<OpTrait::SameOperandsAndResultType>();
  if (sameShape && producer->getNumOperands() > 0)
    return isKnownExtent(size, producer->getOperand(0), dim, depth + 1);
  return false;
}

//===----------------------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------------------===//

/// A product of extents: a static factor times dynamic extents named by ids.
struct SymbolicProduct {
  int64_t factor = 1;
  SmallVector<int64_t> symbols; // sorted

  void multiply(int64_t staticExtent, std::optional<int64_t> symbol) {
    if (symbol) {
      symbols.insert(llvm::upper_bound(symbols, *symbol), *symbol);
      return;
    }
    factor *= staticExtent;
  }
  bool operator==(const SymbolicProduct &o) const {
    return factor == o.factor && symbols == o.symbols;
  }
  /// True when `o` is this times something.
  bool divides(const SymbolicProduct &o) const {
    return o.factor % factor == 0 &&
           std::includes(o.symbols.begin(), o.symbols.end(), symbols.begin(), symbols.end());
  }
};

/// One extent of a reshape's operand or result: static, or a dynamic one named by an id
/// (equal ids are equal at run time).
struct Extent {
  int64_t size;
  std::optional<int64_t> symbol;
};

/// Groups `src` and `dst` dims into runs of provably equal products (the reassociation of
/// a collapse of `src` followed by an expand to `dst`), or nothing when no such grouping is
/// known. Trailing unit dims join the last group.
std::optional<std::pair<SmallVector<ReassociationIndices>, SmallVector<ReassociationIndices>>>
groupReshape(ArrayRef<Extent> src, ArrayRef<Extent> dst) {
  for (ArrayRef<Extent> list : {src, dst})
    for (const Extent &e : list)
      if (!e.symbol && e.size == 0)
        return std::nullopt;
  SmallVector<ReassociationIndices> srcGroups, dstGroups;
  size_t i = 0, j = 0;
  while (i < src.size() && j < dst.size()) {
    ReassociationIndices gs = {static_cast<int64_t>(i)}, gd = {static_cast<int64_t>(j)};
    SymbolicProduct ps, pd;
    ps.multiply(src[i].size, src[i].symbol);
    pd.multiply(dst[j].size, dst[j].symbol);
    ++i, ++j;
    while (!(ps == pd)) {
      if (ps.divides(pd) && i < src.size()) {
        ps.multiply(src[i].size, src[i].symbol);
        gs.push_back(i++);
      } else if (pd.divides(ps) && j < dst.size()) {
        pd.multiply(dst[j].size, dst[j].symbol);
        gd.push_back(j++);
      } else {
        return std::nullopt;
      }
    }
    srcGroups.push_back(gs);
    dstGroups.push_back(gd);
  }
  if (srcGroups.empty())
    return std::nullopt;
  for (; i < src.size(); ++i) {
    if (src[i].symbol || src[i].size != 1)
      return std::nullopt;
    srcGroups.back().push_back(i);
  }
  for (; j < dst.size(); ++j) {
    if (dst[j].symbol || dst[j].size != 1)
      return std::nullopt;
    dstGroups.back().push_back(j);
  }
  return std::make_pair(srcGroups, dstGroups);
}

ReassociationIndices allDims(int64_t rank) {
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  return all;
}

Value castIfNeeded(OpBuilder &b, Location loc, Value v, Type type) {
  return v.getType() == type ? v : tensor::CastOp::create(b, loc, type, v).getResult();
}

/// reshape: row-major order is unchanged, so it is a collapse followed by an expand, either
/// over the groups of dims whose extents provably match or through a 1-D view (with several
/// dynamic result extents, a tensor.reshape).
struct ReshapeToCollapseExpand : OpRewritePattern<prim::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ReshapeOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value operand = op.getOperand();
    auto srcType = op.getOperand().getType();
    auto dstType = op.getType();
    int64_t srcRank = srcType.getRank(), dstRank = dstType.getRank();
    SmallVector<OpFoldResult> dstSizes =
        getMixedValues(dstType.getShape(), op.getDynamicSizes(), rewriter);

    // Rank 0 on either side: all extents are 1.
    if (srcRank == 0 || dstRank == 0) {
      Type element = dstType.getElementType();
      if (srcRank == 0) {
        auto ones = RankedTensorType::get(SmallVector<int64_t>(dstRank, 1), element);
        Value expanded = tensor::ExpandShapeOp::create(
            rewriter, loc, ones, operand, ArrayRef<ReassociationIndices>{},
            SmallVector<OpFoldResult>(dstRank, rewriter.getIndexAttr(1)));
        rewriter.replaceOp(op, castIfNeeded(rewriter, loc, expanded, dstType));
        return success();
      }
      auto ones = RankedTensorType::get(SmallVector<int64_t>(srcRank, 1), element);
      Value source = castIfNeeded(rewriter, loc, operand, ones);
      rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, dstType, source,
                                                           ArrayRef<ReassociationIndices>{});
      return success();
    }

    // Name the dynamic extents: operand dim d is symbol d; a result extent known to be an
    // operand dim shares its symbol, any other gets a fresh one.
    SmallVector<Extent> src, dst;
    for (int64_t d = 0; d < srcRank; ++d)
      src.push_back({srcType.getDimSize(d),
                     srcType.isDynamicDim(d) ? std::optional<int64_t>(d) : std::nullopt});
    unsigned nextDynamic = 0;
    for (int64_t d = 0; d < dstRank; ++d) {
      if (!dstType.isDynamicDim(d)) {
        dst.push_back({dstType.getDimSize(d), std::nullopt});
        continue;
      }
      Value size = op.getDynamicSizes()[nextDynamic++];
      std::optional<int64_t> symbol = srcRank + d;
      for (int64_t s = 0; s < srcRank; ++s)
        if (srcType.isDynamicDim(s) && isKnownExtent(size, operand, s)) {
          symbol = s;
          break;
        }
      dst.push_back({ShapedType::kDynamic, symbol});
    }

    // memref.expand_shape with two dynamic extents in one group does not lower
    // (expand-strided-metadata), so such groupings take the general path.
    auto groups = groupReshape(src, dst);
    if (groups && llvm::any_of(groups->second, [&](const ReassociationIndices &group) {
          return llvm::count_if(group, [&](int64_t d) { return dstType.isDynamicDim(d); }) > 1;
        }))
      groups = std::nullopt;
    if (groups) {
      auto [srcGroups, dstGroups] = *groups;
      Value value = operand;
      if (static_cast<int64_t>(srcGroups.size()) != srcRank)
        value = tensor::CollapseShapeOp::create(rewriter, loc, value, srcGroups);
      if (static_cast<int64_t>(dstGroups.size()) != dstRank)
        value = tensor::ExpandShapeOp::create(rewriter, loc, dstType, value, dstGroups, dstSizes);
      rewriter.replaceOp(op, castIfNeeded(rewriter, loc, value, dstType));
      return success();
    }

    // Several dynamic result extents: tensor.reshape with the extents as a shape tensor.
    if (dstType.getNumDynamicDims() > 1) {
      SmallVector<Value> extents;
      for (OpFoldResult size : dstSizes)
        extents.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, size));
      Value shape = tensor::FromElementsOp::create(rewriter, loc, extents);
      rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, dstType, operand, shape);
      return success();
    }

    // Through a 1-D view.
    Value flat = operand;
    if (srcRank != 1)
      flat = tensor::CollapseShapeOp::create(rewriter, loc, flat,
                                             ArrayRef<ReassociationIndices>{allDims(srcRank)});
    if (dstRank == 1) {
      rewriter.replaceOp(op, castIfNeeded(rewriter, loc, flat, dstType));
      return success();
    }
    int64_t count = dstType.hasStaticShape() ? dstType.getNumElements() : ShapedType::kDynamic;
    flat =
        castIfNeeded(rewriter, loc, flat, RankedTensorType::get({count}, dstType.getElementType()));
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, dstType, flat, ArrayRef<ReassociationIndices>{allDims(dstRank)}, dstSizes);
    return success();
  }
};

//===----------------------------------------------------------------------------------===//
// transpose, slice, pad, concatenate, reverse
//===----------------------------------------------------------------------------------===//

/// transpose: result dim i is operand dim permutation[i] (linalg.transpose's convention).
struct TransposeToLinalg : OpRewritePattern<prim::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::TransposeOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> perm = op.getPermutation();
    SmallVector<Value> sizes;
    for (auto [i, p] : llvm::enumerate(perm))
      if (op.getType().isDynamicDim(i))
        sizes.push_back(tensor::DimOp::create(rewriter, loc, op.getOperand(), p));
    Value init = lower::createEmpty(rewriter, loc, op.getType(), sizes);
    auto transpose = linalg::TransposeOp::create(rewriter, loc, op.getOperand(), init, perm);
    rewriter.replaceOp(op, transpose->getResults());
    return success();
  }
};

/// slice: result[i] = operand[offset + i * stride], a fresh dense tensor.
///
/// With static offsets the read is an affine map, unless a dim reads [0, size) of a larger
/// or dynamic extent: there the map would be a plain dim, from which linalg would take the
/// operand's extent as the loop bound. Such slices, and those with dynamic offsets, read
/// with tensor.extract; positions with a dynamic offset are clamped into the operand.
struct SliceToGeneric : OpRewritePattern<prim::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::SliceOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    auto operandType = op.getOperand().getType();
    int64_t rank = type.getRank();
    Value operand = op.getOperand();
    ArrayRef<int64_t> offsets = op.getStaticOffsets(), strides = op.getStaticStrides();
    Value init = lower::createEmpty(rewriter, loc, type, op.getSizes());
    // An empty slice reads nothing (its offset may equal the extent).
    if (llvm::is_contained(type.getShape(), 0)) {
      rewriter.replaceOp(op, init);
      return success();
    }
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);

    bool affine = op.getOffsets().empty();
    for (int64_t d = 0; d < rank && affine; ++d)
      if (offsets[d] == 0 && strides[d] == 1)
        affine = !type.isDynamicDim(d) && type.getDimSize(d) == operandType.getDimSize(d);
    if (affine) {
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < rank; ++d)
        exprs.push_back(rewriter.getAffineDimExpr(d) * strides[d] + offsets[d]);
      AffineMap read = AffineMap::get(rank, 0, exprs, rewriter.getContext());
      auto generic =
          linalg::GenericOp::create(rewriter, loc, TypeRange{type}, ValueRange{operand},
                                    ValueRange{init}, ArrayRef<AffineMap>{read, identity},
                                    iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
                                      linalg::YieldOp::create(b, nested, args[0]);
                                    });
      rewriter.replaceOp(op, generic.getResults());
      return success();
    }

    // Per dim: the offset (a value when dynamic) and, for dynamic offsets, the last index.
    SmallVector<Value> offsetValues, strideValues(rank), lasts(rank);
    for (OpFoldResult offset : op.getMixedOffsets())
      offsetValues.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, offset));
    for (int64_t d = 0; d < rank; ++d) {
      if (strides[d] != 1)
        strideValues[d] = indexConstant(rewriter, loc, strides[d]);
      if (ShapedType::isDynamic(offsets[d]))
        lasts[d] = arith::SubIOp::create(
            rewriter, loc,
            getValueOrCreateConstantIndexOp(rewriter, loc,
                                            tensor::getMixedSize(rewriter, loc, operand, d)),
            indexConstant(rewriter, loc, 1));
    }
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{identity}, iterators, [&](OpBuilder &b, Location nested, ValueRange) {
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d) {
            Value at = linalg::IndexOp::create(b, nested, d);
            if (strideValues[d])
              at = arith::MulIOp::create(b, nested, at, strideValues[d]);
            if (offsets[d] != 0)
              at = arith::AddIOp::create(b, nested, offsetValues[d], at);
            position.push_back(lasts[d] ? clampIndex(b, nested, at, lasts[d]) : at);
          }
          linalg::YieldOp::create(
              b, nested, tensor::ExtractOp::create(b, nested, operand, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// pad -> tensor.pad yielding the 0-d padding value.
struct PadToTensorPad : OpRewritePattern<prim::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::PadOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = tensor::ExtractOp::create(rewriter, loc, op.getPaddingValue(), ValueRange{});
    SmallVector<OpFoldResult> low, high;
    for (auto [l, h] : llvm::zip(op.getLow(), op.getHigh())) {
      low.push_back(rewriter.getIndexAttr(l));
      high.push_back(rewriter.getIndexAttr(h));
    }
    rewriter.replaceOpWithNewOp<tensor::PadOp>(op, op.getType(), op.getOperand(), low, high, value);
    return success();
  }
};

/// concatenate -> each input inserted at its running offset into a tensor.empty.
struct ConcatenateToInsertSlices : OpRewritePattern<prim::ConcatenateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ConcatenateOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    int64_t axis = op.getDimension(), rank = type.getRank();
    OpFoldResult total = rewriter.getIndexAttr(0);
    SmallVector<OpFoldResult> offsets;
    for (Value input : op.getInputs()) {
      offsets.push_back(total);
      OpFoldResult extent = tensor::getMixedSize(rewriter, loc, input, axis);
      total = addOpFoldResults(rewriter, loc, total, extent);
    }
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      sizes.push_back(
          d == axis ? getValueOrCreateConstantIndexOp(rewriter, loc, total)
                    : tensor::DimOp::create(rewriter, loc, op.getInputs().front(), d).getResult());
    }
    Value result = lower::createEmpty(rewriter, loc, type, sizes);
    SmallVector<OpFoldResult> unitStrides(rank, rewriter.getIndexAttr(1));
    for (auto [input, offset] : llvm::zip(op.getInputs(), offsets)) {
      // An input with no elements writes nothing (its offset may equal the extent).
      if (llvm::is_contained(cast<RankedTensorType>(input.getType()).getShape(), 0))
        continue;
      SmallVector<OpFoldResult> at(rank, rewriter.getIndexAttr(0));
      at[axis] = offset;
      result =
          tensor::InsertSliceOp::create(rewriter, loc, input, result, at,
                                        tensor::getMixedSizes(rewriter, loc, input), unitStrides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  static OpFoldResult addOpFoldResults(OpBuilder &b, Location loc, OpFoldResult x, OpFoldResult y) {
    auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
    if (cx && cy)
      return b.getIndexAttr(*cx + *cy);
    if (cx && *cx == 0)
      return y;
    return arith::AddIOp::create(b, loc, getValueOrCreateConstantIndexOp(b, loc, x),
                                 getValueOrCreateConstantIndexOp(b, loc, y))
        .getResult();
  }
};

/// reverse: result[i] = operand[extent - 1 - i] in the listed dims. Static extents give an
/// affine read; dynamic ones read with tensor.extract.
struct ReverseToGeneric : OpRewritePattern<prim::ReverseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ReverseOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    int64_t rank = type.getRank();
    Value operand = op.getOperand();
    ArrayRef<int64_t> dims = op.getDimensions();
    SmallVector<Value> sizes = lower::getDynamicDims(rewriter, loc, operand);
    Value init = lower::createEmpty(rewriter, loc, type, sizes);
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    bool staticDims = llvm::none_of(dims, [&](int64_t d) { return type.isDynamicDim(d); });

    if (staticDims) {
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < rank; ++d) {
        AffineExpr e = rewriter.getAffineDimExpr(d);
        exprs.push_back(llvm::is_contained(dims, d) ? type.getDimSize(d) - 1 - e : e);
      }
      AffineMap read = AffineMap::get(rank, 0, exprs, rewriter.getContext());
      auto generic =
          linalg::GenericOp::create(rewriter, loc, TypeRange{type}, ValueRange{operand},
                                    ValueRange{init}, ArrayRef<AffineMap>{read, identity},
                                    iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
                                      linalg::YieldOp::create(b, nested, args[0]);
                                    });
      rewriter.replaceOp(op, generic.getResults());
      return success();
    }

    SmallVector<Value> lasts(rank);
    for (int64_t d : dims) {
      Value extent = type.isDynamicDim(d) ? sizes[type.getDynamicDimIndex(d)]
                                          : indexConstant(rewriter, loc, type.getDimSize(d));
      lasts[d] = arith::SubIOp::create(rewriter, loc, extent, indexConstant(rewriter, loc, 1));
    }
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{identity}, iterators, [&](OpBuilder &b, Location nested, ValueRange) {
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = linalg::IndexOp::create(b, nested, d);
            position.push_back(lasts[d] ? arith::SubIOp::create(b, nested, lasts[d], i).getResult()
                                        : i);
          }
          linalg::YieldOp::create(
              b, nested, tensor::ExtractOp::create(b, nested, operand, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

//===----------------------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------------------===//

/// gather: result[p, j, q] = operand[p, clamp(indices[j], 0, extent - 1), q], after a
/// prim.check that every index is in [0, extent). The clamp keeps the read in bounds even
/// where the check's failure is not acted on before the gather runs.
struct GatherToGeneric : OpRewritePattern<prim::GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::GatherOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    Value operand = op.getOperand(), indices = op.getIndices();
    auto indicesType = op.getIndices().getType();
    int64_t axis = op.getAxis(), rank = type.getRank(), indexRank = indicesType.getRank();
    int64_t staticExtent = op.getOperand().getType().getDimSize(axis);
    Value extent = getValueOrCreateConstantIndexOp(
        rewriter, loc, tensor::getMixedSize(rewriter, loc, operand, axis));

    // prim.check becomes an early return from the function, so it lives at function level;
    // nested in another region, the clamp alone keeps the read in bounds.
    bool topLevel = isa<FunctionOpInterface>(op->getParentOp());
    if (topLevel && !allIndicesKnownInRange(indices, staticExtent))
      emitRangeCheck(rewriter, op, extent);
    Value last = arith::SubIOp::create(rewriter, loc, extent, indexConstant(rewriter, loc, 1));

    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d < axis)
        sizes.push_back(tensor::DimOp::create(rewriter, loc, operand, d));
      else if (d < axis + indexRank)
        sizes.push_back(tensor::DimOp::create(rewriter, loc, indices, d - axis));
      else
        sizes.push_back(tensor::DimOp::create(rewriter, loc, operand, d - indexRank + 1));
    }
    Value init = lower::createEmpty(rewriter, loc, type, sizes);
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < indexRank; ++d)
      indexExprs.push_back(rewriter.getAffineDimExpr(axis + d));
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, indexExprs, rewriter.getContext()),
                                   rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    // Unsigned indices are read as signless and extended with zeros.
    bool unsignedIndices = indicesType.getElementType().isUnsignedInteger();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{lower::castToSignless(rewriter, loc, indices)},
        ValueRange{init}, maps, iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
          Value index =
              unsignedIndices
                  ? arith::IndexCastUIOp::create(b, nested, b.getIndexType(), args[0]).getResult()
                  : arith::IndexCastOp::create(b, nested, b.getIndexType(), args[0]).getResult();
          SmallVector<Value> position;
          for (int64_t d = 0; d < axis; ++d)
            position.push_back(linalg::IndexOp::create(b, nested, d));
          position.push_back(clampIndex(b, nested, index, last));
          for (int64_t d = axis + indexRank; d < rank; ++d)
            position.push_back(linalg::IndexOp::create(b, nested, d));
          linalg::YieldOp::create(
              b, nested, tensor::ExtractOp::create(b, nested, operand, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }

  /// True when `indices` is a constant whose every value is in [0, extent).
  static bool allIndicesKnownInRange(Value indices, int64_t extent) {
    DenseIntElementsAttr values;
    if (ShapedType::isDynamic(extent) || !matchPattern(indices, m_Constant(&values)))
      return false;
    return llvm::all_of(values.getValues<APInt>(), [&](const APInt &v) {
      return !v.isNegative() && v.getSExtValue() < extent;
    });
  }

  /// prim.check that every index is in [0, extent): an and-reduction over the indices.
  static void emitRangeCheck(PatternRewriter &rewriter, prim::GatherOp op, Value extent) {
    Location loc = op.getLoc();
    Value indices = lower::castToSignless(rewriter, loc, op.getIndices());
    int64_t indexRank = op.getIndices().getType().getRank();
    Type i1 = rewriter.getI1Type(), i64 = rewriter.getI64Type();
    Value extent64 = arith::IndexCastOp::create(rewriter, loc, i64, extent);
    Value allTrue = arith::ConstantOp::create(rewriter, loc, i1, rewriter.getBoolAttr(true));
    auto okType = RankedTensorType::get({}, i1);
    Value okInit = linalg::FillOp::create(rewriter, loc, ValueRange{allTrue},
                                          ValueRange{lower::createEmpty(rewriter, loc, okType, {})})
                       .getResult(0);
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(indexRank),
                                   AffineMap::get(indexRank, 0, {}, rewriter.getContext())};
    SmallVector<utils::IteratorType> iterators(indexRank, utils::IteratorType::reduction);
    Type indexElement = op.getIndices().getType().getElementType();
    auto reduction = linalg::GenericOp::create(
        rewriter, loc, TypeRange{okType}, ValueRange{indices}, ValueRange{okInit}, maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value index = lower::convertScalar(b, nested, args[0], indexElement, i64);
          // Unsigned compare: negative indices read as huge values.
          Value inRange =
              arith::CmpIOp::create(b, nested, arith::CmpIPredicate::ult, index, extent64);
          linalg::YieldOp::create(b, nested,
                                  arith::AndIOp::create(b, nested, args[1], inRange).getResult());
        });
    Value ok = tensor::ExtractOp::create(rewriter, loc, reduction.getResult(0), ValueRange{});
    std::string message;
    llvm::raw_string_ostream os(message);
    std::string node = nodeName(loc);
    // A gather a rule made over a flattened operand says what was wrong in its op's terms.
    if (auto custom = op->getAttrOfType<StringAttr>(prim::PrimDialect::kIndexErrorAttrName)) {
      if (!node.empty())
        os << "node '" << node << "' ";
      os << custom.getValue();
      prim::CheckOp::create(rewriter, loc, ok, rewriter.getStringAttr(message));
      return;
    }
    if (!node.empty())
      os << "node '" << node << "' (Gather): ";
    os << "gather index out of range: indices must be in [0, ";
    int64_t staticExtent = op.getOperand().getType().getDimSize(op.getAxis());
    if (ShapedType::isDynamic(staticExtent))
      os << "the extent of axis " << op.getAxis();
    else
      os << staticExtent;
    os << ") for axis " << op.getAxis();
    prim::CheckOp::create(rewriter, loc, ok, rewriter.getStringAttr(message));
  }
};

/// scatter: an scf.for over the index rows carrying the result (initialized with a copy of
/// the operand, which bufferization then updates in place). Row b reads its tuple t, and when
/// every entry is inside its extent an inner scf.for over the slice's elements stores
/// updates[b, e] (or combine(result[t, e], updates[b, e])) at result[t, e].
struct ScatterToLoop : OpRewritePattern<prim::ScatterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ScatterOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    Type element = type.getElementType();
    Value operand = lower::castToSignless(rewriter, loc, op.getOperand());
    Value indices = lower::castToSignless(rewriter, loc, op.getIndices());
    Value updates = lower::castToSignless(rewriter, loc, op.getUpdates());
    bool unsignedIndices = op.getIndices().getType().getElementType().isUnsignedInteger();
    auto indicesType = op.getIndices().getType();
    int64_t rank = type.getRank(), batchRank = indicesType.getRank() - 1;
    int64_t k = indicesType.getShape().back();
    std::optional<prim::ReduceKind> kind = op.getCombine();

    auto cst = [&](OpBuilder &b, int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
    auto dim = [&](OpBuilder &b, Value t, int64_t d) {
      return getValueOrCreateConstantIndexOp(b, loc, tensor::getMixedSize(b, loc, t, d));
    };
    SmallVector<Value> batchExtents, sliceExtents, operandExtents;
    Value rows = cst(rewriter, 1), slice = cst(rewriter, 1);
    for (int64_t d = 0; d < batchRank; ++d) {
      batchExtents.push_back(dim(rewriter, indices, d));
      rows = arith::MulIOp::create(rewriter, loc, rows, batchExtents.back());
    }
    for (int64_t d = 0; d < rank; ++d)
      operandExtents.push_back(dim(rewriter, operand, d));
    for (int64_t d = k; d < rank; ++d) {
      sliceExtents.push_back(operandExtents[d]);
      slice = arith::MulIOp::create(rewriter, loc, slice, sliceExtents.back());
    }
    // Row-major delinearization of `linear` over `extents`.
    auto delinearize = [&](OpBuilder &b, Value linear, ArrayRef<Value> extents) {
      SmallVector<Value> position(extents.size());
      for (int64_t d = static_cast<int64_t>(extents.size()) - 1; d >= 0; --d) {
        position[d] = arith::RemUIOp::create(b, loc, linear, extents[d]);
        linear = arith::DivUIOp::create(b, loc, linear, extents[d]);
      }
      return position;
    };

    // The loop updates a copy: writing the operand's own buffer could clobber values that
    // the indices or updates (or later ops) still read, and bufferization would then
    // allocate inside the kernel.
    Value copy = linalg::CopyOp::create(
                     rewriter, loc, operand,
                     lower::createEmpty(rewriter, loc, cast<RankedTensorType>(operand.getType()),
                                        lower::getDynamicDims(rewriter, loc, operand)))
                     .getResult(0);
    Value zero = cst(rewriter, 0), one = cst(rewriter, 1);
    auto outer = scf::ForOp::create(
        rewriter, loc, zero, rows, one, ValueRange{copy},
        [&](OpBuilder &b, Location, Value row, ValueRange iterArgs) {
          SmallVector<Value> batch = delinearize(b, row, batchExtents);
          SmallVector<Value> tuple;
          Value inside = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
          for (int64_t d = 0; d < k; ++d) {
            SmallVector<Value> at(batch);
            at.push_back(cst(b, d));
            Value raw = tensor::ExtractOp::create(b, loc, indices, at);
            Value index = unsignedIndices
                              ? arith::IndexCastUIOp::create(b, loc, b.getIndexType(), raw).getResult()
                              : arith::IndexCastOp::create(b, loc, b.getIndexType(), raw).getResult();
            // 0 <= index < extent, as one unsigned comparison.
            Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                             operandExtents[d]);
            inside = arith::AndIOp::create(b, loc, inside, ok);
            tuple.push_back(index);
          }
          auto guarded = scf::IfOp::create(
              b, loc, inside,
              [&](OpBuilder &then, Location) {
                auto inner = scf::ForOp::create(
                    then, loc, zero, slice, one, ValueRange{iterArgs[0]},
                    [&](OpBuilder &ib, Location, Value e, ValueRange acc) {
                      SmallVector<Value> tail = delinearize(ib, e, sliceExtents);
                      SmallVector<Value> from(batch), to(tuple);
                      llvm::append_range(from, tail);
                      llvm::append_range(to, tail);
                      Value value = tensor::ExtractOp::create(ib, loc, updates, from);
                      if (kind) {
                        Value current = tensor::ExtractOp::create(ib, loc, acc[0], to);
                        value = lower::combine(ib, loc, static_cast<int>(*kind), element, current,
                                               value);
                      }
                      Value stored = tensor::InsertOp::create(ib, loc, value, acc[0], to);
                      scf::YieldOp::create(ib, loc, stored);
                    });
                scf::YieldOp::create(then, loc, inner.getResult(0));
              },
              [&](OpBuilder &otherwise, Location) {
                scf::YieldOp::create(otherwise, loc, iterArgs[0]);
              });
          scf::YieldOp::create(b, loc, guarded.getResult(0));
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc, outer.getResult(0), type));
    return success();
  }
};

/// compact: an scf.for over the dim carrying the result buffer (the operand's size: the
/// capacity) and the count as a 0-d i64 tensor; slice i is copied to position `count` when
/// mask[i] is set. The result is the first `count` slices: an extract_slice whose size is
/// the count read back on the host, as min(count, extent) so that later stages see the
/// capacity.
struct CompactToLoop : OpRewritePattern<prim::CompactOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::CompactOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value operand = lower::castToSignless(rewriter, loc, op.getOperand());
    Value mask = op.getMask();
    auto operandType = cast<RankedTensorType>(operand.getType());
    int64_t rank = operandType.getRank(), dim = op.getDimension();
    Value full = lower::createEmpty(rewriter, loc, operandType,
                                    lower::getDynamicDims(rewriter, loc, operand));
    auto countType = RankedTensorType::get({}, rewriter.getI64Type());
    Value zeroCount = arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 0);
    Value count = linalg::FillOp::create(rewriter, loc, zeroCount,
                                         tensor::EmptyOp::create(rewriter, loc, countType.getShape(),
                                                                 countType.getElementType())
                                             .getResult())
                      .getResult(0);
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, operand);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[dim]);
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, extent, one, ValueRange{full, count},
        [&](OpBuilder &b, Location, Value i, ValueRange acc) {
          Value keep = tensor::ExtractOp::create(b, loc, mask, ValueRange{i});
          auto guarded = scf::IfOp::create(
              b, loc, keep,
              [&](OpBuilder &then, Location) {
                Value c = tensor::ExtractOp::create(then, loc, acc[1], ValueRange{});
                Value at = arith::IndexCastOp::create(then, loc, then.getIndexType(), c);
                SmallVector<OpFoldResult> from(rank, then.getIndexAttr(0)), to(from),
                    sliceSizes(sizes), strides(rank, then.getIndexAttr(1));
                from[dim] = i;
                to[dim] = at;
                sliceSizes[dim] = then.getIndexAttr(1);
                Value slice = tensor::ExtractSliceOp::create(then, loc, operand, from, sliceSizes,
                                                             strides);
                Value stored = tensor::InsertSliceOp::create(then, loc, slice, acc[0], to,
                                                             sliceSizes, strides);
                Value next = arith::AddIOp::create(
                    then, loc, c, arith::ConstantIntOp::create(then, loc, then.getI64Type(), 1));
                Value counted = tensor::InsertOp::create(then, loc, next, acc[1], ValueRange{});
                scf::YieldOp::create(then, loc, ValueRange{stored, counted});
              },
              [&](OpBuilder &otherwise, Location) {
                scf::YieldOp::create(otherwise, loc, acc);
              });
          scf::YieldOp::create(b, loc, guarded.getResults());
        });
    Value kept = tensor::ExtractOp::create(rewriter, loc, loop.getResult(1), ValueRange{});
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)), resultSizes(sizes),
        strides(rank, rewriter.getIndexAttr(1));
    // min(count, extent) == count; the min tells later stages the capacity (an upper bound
    // they can size buffers with: tcc::cloneUpperBound).
    Value found = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), kept);
    resultSizes[dim] = arith::MinUIOp::create(rewriter, loc, found, extent).getResult();
    Value result = tensor::ExtractSliceOp::create(rewriter, loc, loop.getResult(0), offsets,
                                                  resultSizes, strides);
    rewriter.replaceOp(op, lower::castToType(rewriter, loc, result, op.getType()));
    return success();
  }
};

} // namespace

void tcc::lower::populateDataMovementLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<ReshapeToCollapseExpand, TransposeToLinalg, SliceToGeneric, PadToTensorPad,
               ConcatenateToInsertSlices, ReverseToGeneric, GatherToGeneric, ScatterToLoop, CompactToLoop>(patterns.getContext());
}
