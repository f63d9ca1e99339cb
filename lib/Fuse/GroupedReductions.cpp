//===- GroupedReductions.cpp - contractions over groups of a reduction's points ---------===//
#include "GroupedReductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

/// The result index of `map` that is exactly dim `d`, when no other result reads d.
static std::optional<unsigned> soleReader(AffineMap map, unsigned d) {
  std::optional<unsigned> found;
  for (auto [k, expr] : llvm::enumerate(map.getResults())) {
    if (!expr.isFunctionOfDim(d))
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (found || !dim)
      return std::nullopt;
    found = k;
  }
  return found;
}

std::optional<tcc::fuse::GroupedDim>
tcc::fuse::chooseGroupedDim(linalg::LinalgOp op, const unsigned inputs[2], int64_t group,
                            int64_t minExtent, bool preferLast, bool allowDynamic) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<GroupedDim> best;
  int64_t lastOfFirst =
      cast<ShapedType>(op.getDpsInputOperand(inputs[0])->get().getType()).getRank() - 1;
  // An extent that is not a multiple of the group completes its last group with zeros:
  // taken only where no other qualifies (ResNet's stem: 3 channels). With `preferLast`,
  // whole groups along the first input's last dim come first (a view).
  // A dynamic extent counts as neither whole nor long: after every static one.
  auto worth = [&](const GroupedDim &choice) {
    int64_t extent = extents[choice.dim];
    if (ShapedType::isDynamic(extent))
      return int64_t(0);
    bool whole = extent % group == 0;
    bool view = preferLast && whole && choice.positions[0] == lastOfFirst;
    return (view ? int64_t(1) << 41 : int64_t(0)) + (whole ? int64_t(1) << 40 : int64_t(0)) +
           extent;
  };
  for (unsigned d = 0; d < extents.size(); ++d) {
    bool dynamic = ShapedType::isDynamic(extents[d]);
    if (iterators[d] != utils::IteratorType::reduction || (dynamic && !allowDynamic) ||
        (!dynamic && extents[d] < minExtent))
      continue;
    GroupedDim choice{d, {0, 0}};
    bool reads = true;
    for (unsigned k = 0; k < 2 && reads; ++k) {
      OpOperand *input = op.getDpsInputOperand(inputs[k]);
      std::optional<unsigned> position = soleReader(op.getMatchingIndexingMap(input), d);
      // The input's extent there is static too (grouping divides it), unless dynamic ones
      // are allowed.
      reads = position &&
              (allowDynamic || !cast<ShapedType>(input->get().getType()).isDynamicDim(*position));
      if (reads)
        choice.positions[k] = *position;
    }
    if (reads && (!best || worth(choice) > worth(*best)))
      best = choice;
  }
  return best;
}

Value tcc::fuse::peelReshapes(Value value) {
  while (Operation *reshape = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(reshape))
      break;
    value = reshape->getOperand(0);
  }
  return value;
}

SmallVector<int64_t> tcc::fuse::groupedShape(ShapedType type, unsigned pos, int64_t group) {
  SmallVector<int64_t> shape(type.getShape());
  if (!ShapedType::isDynamic(shape[pos]))
    shape[pos] = (shape[pos] + group - 1) / group;
  shape.push_back(group);
  return shape;
}

Value tcc::fuse::groupElements(OpBuilder &b, Location loc, Value x, unsigned pos, int64_t group,
                               Type element,
                               const std::function<Value(OpBuilder &, Location, Value)> &convert) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  bool dynamic = type.isDynamicDim(pos);
  if (dynamic || type.getDimSize(pos) % group) {
    // Zeros complete the last group: (-extent) mod group of them.
    SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)), high(rank, b.getIndexAttr(0));
    if (dynamic) {
      Value extent = tensor::DimOp::create(b, loc, x, pos);
      Value g = arith::ConstantIndexOp::create(b, loc, group);
      Value rest = arith::RemUIOp::create(b, loc, extent, g);
      high[pos] =
          arith::RemUIOp::create(b, loc, arith::SubIOp::create(b, loc, g, rest), g).getResult();
    } else {
      high[pos] = b.getIndexAttr(group - type.getDimSize(pos) % group);
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    x = tensor::PadOp::create(b, loc, Type(), x, low, high, zero);
    type = cast<RankedTensorType>(x.getType());
  }
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != pos) {
      sizes.push_back(tensor::getMixedSize(b, loc, x, d));
    } else if (dynamic) {
      Value extent = tensor::DimOp::create(b, loc, x, pos);
      sizes.push_back(
          arith::DivUIOp::create(b, loc, extent, arith::ConstantIndexOp::create(b, loc, group))
              .getResult());
    } else {
      sizes.push_back(b.getIndexAttr(type.getDimSize(d) / group));
    }
  }
  sizes.push_back(b.getIndexAttr(group));
  MLIRContext *ctx = b.getContext();
  auto convertAll = [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
    linalg::YieldOp::create(nested, nestedLoc,
                            convert ? convert(nested, nestedLoc, args[0]) : args[0]);
  };
  if (pos == rank - 1) {
    // Groups along the last dim are x's own order: converted elementwise (which fuses with
    // x's producer), then a view with the groups split off.
    Value converted = x;
    if (convert) {
      Value init = tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, x), element);
      AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
      converted =
          linalg::GenericOp::create(
              b, loc, init.getType(), ValueRange{x}, ValueRange{init}, {identity, identity},
              SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel), convertAll)
              .getResult(0);
    }
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d + 1 < rank; ++d)
      groups.push_back({d});
    groups.push_back({rank - 1, rank});
    auto groupedType = RankedTensorType::get(groupedShape(type, pos, group), element);
    return tensor::ExpandShapeOp::create(b, loc, groupedType, converted, groups, sizes);
  }
  Value init = tensor::EmptyOp::create(b, loc, sizes, element);
  SmallVector<AffineExpr> reads;
  for (int64_t d = 0; d < rank; ++d)
    reads.push_back(d == pos ? group * getAffineDimExpr(d, ctx) + getAffineDimExpr(rank, ctx)
                             : getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, reads, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank + 1, ctx)};
  SmallVector<utils::IteratorType> iterators(rank + 1, utils::IteratorType::parallel);
  return linalg::GenericOp::create(b, loc, init.getType(), ValueRange{x}, ValueRange{init}, maps,
                                   iterators, convertAll)
      .getResult(0);
}

linalg::GenericOp tcc::fuse::groupContraction(
    linalg::LinalgOp op, const unsigned inputs[2], Value grouped0, Value grouped1,
    const std::function<Value(OpBuilder &, Location, Value, Value, Value)> &accumulate) {
  OpBuilder b(op);
  unsigned numDims = op.getNumLoops();
  MLIRContext *ctx = op.getContext();
  AffineExpr groupExpr = getAffineDimExpr(numDims, ctx);
  SmallVector<AffineMap> maps;
  for (unsigned k = 0; k < 2; ++k) {
    SmallVector<AffineExpr> results(
        op.getMatchingIndexingMap(op.getDpsInputOperand(inputs[k])).getResults());
    results.push_back(groupExpr);
    maps.push_back(AffineMap::get(numDims + 1, 0, results, ctx));
  }
  OpOperand *init = op.getDpsInitOperand(0);
  maps.push_back(AffineMap::get(numDims + 1, 0, op.getMatchingIndexingMap(init).getResults(), ctx));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::reduction);
  auto grouped = linalg::GenericOp::create(
      b, op.getLoc(), op->getResultTypes(), ValueRange{grouped0, grouped1}, ValueRange{init->get()},
      maps, iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                accumulate(nested, nestedLoc, args[2], args[0], args[1]));
      });
  op->replaceAllUsesWith(grouped->getResults());
  op->erase();
  return grouped;
}

std::vector<int64_t> tcc::fuse::groupedSources(ShapedType type, unsigned pos, int64_t group) {
  SmallVector<int64_t> shape = groupedShape(type, pos, group);
  int64_t rank = type.getRank();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  int64_t count = 1;
  for (int64_t e : shape)
    count *= e;
  std::vector<int64_t> sources(count);
  // coords: the grouped element's, its last (rank) the place in the group
  SmallVector<int64_t> coords(rank + 1, 0);
  for (int64_t &source : sources) {
    int64_t r = group * coords[pos] + coords[rank];
    source = 0;
    for (int64_t d = 0; d < rank; ++d)
      source += (d == pos ? r : coords[d]) * strides[d];
    if (r >= type.getDimSize(pos))
      source = -1;
    for (int64_t d = rank; d >= 0; --d) {
      if (++coords[d] < shape[d])
        break;
      coords[d] = 0;
    }
  }
  return sources;
}

Value tcc::fuse::createGroupedConstant(OpBuilder &b, Location loc, RankedTensorType type,
                                       ArrayRef<char> bytes, StringRef name, size_t alignment) {
  ElementsAttr attr =
      type.getNumElements() <= 16
          ? ElementsAttr(DenseElementsAttr::getFromRawBuffer(type, bytes))
          : ElementsAttr(DenseResourceElementsAttr::get(
                type, name, HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignment)));
  return arith::ConstantOp::create(b, loc, type, cast<TypedAttr>(attr));
}
