//===- ColumnReductions.cpp - reductions over outer dims as vector accumulators ------===//
//
// tcc-vector-column-reductions. After tcc-order-loops a reduction whose output's fastest dim
// c is not reduced runs as loops (parallel dims..., reduction dims..., c): a global pooling of
// channel blocks, sum over (y, x) of in[n, y, x, cb, l] into out[n, cb, l], collapsed to
// [n, R, C]. Its innermost loop updates C outputs in memory on every reduction step; LLVM 22
// unrolled a 32-long one into scalar loads, adds and stores (EfficientNet-B0 QOperator's
// pooling of 112x112x32 bytes: 0.19 ms for 400 KB). Here, where C is static (at most
// kMaxVectors vectors, or whole vectors taken in chunks of at most kMaxVectors, each chunk
// one more index of the parallel loop), each group of parallel indices keeps its chunk of
// outputs in vector registers:
//
//   acc_k = out[p..., k L .. k L + L)                      (L lanes, the last one masked)
//   for r... (the reduction dims, in order): acc_k = combine(acc_k, f(in[p..., r..., k L ..]))
//   out[p..., k L ..] = acc_k
//
// with the body's ops (f and the combine) cloned on vectors. Every lane accumulates its
// output in the same order as the scalar loops did (the reduction dims in order): the same
// values, floats included.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include <functional>

namespace tcc {
#define GEN_PASS_DEF_VECTORCOLUMNREDUCTIONS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

constexpr int64_t kMaxVectors = 8;

/// Whether `memref`'s last dim has unit stride.
bool lastContiguous(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  return type && type.getRank() > 0 && succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

/// Whether `op` combines the accumulator with one value the way a reduction does.
bool isCombine(Operation *op) {
  return isa<arith::AddIOp, arith::AddFOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
             arith::MinUIOp, arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp>(op);
}

struct VectorColumnReductionsPass
    : tcc::impl::VectorColumnReductionsBase<VectorColumnReductionsPass> {
  using VectorColumnReductionsBase::VectorColumnReductionsBase;

  void runOnOperation() override {
    if (vectorBits <= 0)
      return;
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (applies(op))
        ops.push_back(op);
    });
    for (linalg::GenericOp op : ops)
      rewrite(op);
  }

  /// (parallel dims..., reduction dims (at least one)..., c): c the output's fastest dim,
  /// static, at most kMaxVectors vectors of the output's 32-bit elements or whole vectors
  /// (chunks), contiguous in the
  /// output and in every input that reads it (in its last index, and only there); a body of
  /// elementwise arith and math ops ending in `combine(out, v)`, the accumulator read there
  /// alone.
  bool applies(linalg::GenericOp op) const {
    if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.hasIndexSemantics())
      return false;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    unsigned numDims = iterators.size(), c = numDims - 1;
    if (numDims < 2 || iterators[c] != utils::IteratorType::parallel)
      return false;
    bool reducing = false;
    for (unsigned d = 0; d < c; ++d) {
      bool reduction = iterators[d] == utils::IteratorType::reduction;
      if (!reduction && reducing)
        return false; // a parallel dim after a reduction dim
      reducing |= reduction;
    }
    if (!reducing)
      return false;
    OpOperand *init = op.getDpsInitOperand(0);
    auto outType = dyn_cast<MemRefType>(init->get().getType());
    AffineMap outMap = op.getMatchingIndexingMap(init);
    if (!outType || !outMap.isProjectedPermutation() || outMap.getNumResults() == 0 ||
        outMap.getResults().back() != getAffineDimExpr(c, op.getContext()) ||
        !lastContiguous(init->get()) || outType.isDynamicDim(outType.getRank() - 1) ||
        !outType.getElementType().isIntOrFloat() ||
        outType.getElementType().getIntOrFloatBitWidth() != 32)
      return false;
    int64_t lanes = vectorBits / 32;
    // A longer row goes in chunks of whole vectors (rewrite).
    if (outType.getShape().back() > kMaxVectors * lanes && outType.getShape().back() % lanes != 0)
      return false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      auto type = dyn_cast<MemRefType>(input->get().getType());
      if (!type || !type.getElementType().isIntOrFloat() || !map.isProjectedPermutation())
        return false;
      if (!map.isFunctionOfDim(c))
        continue;
      if (map.getResults().back() != getAffineDimExpr(c, op.getContext()) ||
          !lastContiguous(input->get()))
        return false;
    }
    Block *body = op.getBody();
    Value acc = body->getArguments().back();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    Operation *combine = yield.getOperand(0).getDefiningOp();
    if (!combine || !isCombine(combine) || !acc.hasOneUse() || *acc.user_begin() != combine)
      return false;
    for (Operation &inner : body->without_terminator())
      if (inner.getNumRegions() != 0 || inner.getNumResults() != 1 ||
          !isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) ||
          !(inner.hasTrait<OpTrait::Elementwise>() || isa<arith::ConstantOp>(inner)))
        return false;
    return true;
  }

  void rewrite(linalg::GenericOp op) const {
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    unsigned numDims = iterators.size(), c = numDims - 1;
    SmallVector<Range> ranges = cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc);
    auto size = [&](unsigned d) { return getValueOrCreateConstantIndexOp(b, loc, ranges[d].size); };
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    SmallVector<unsigned> parallel, reduction;
    for (unsigned d = 0; d < c; ++d)
      (iterators[d] == utils::IteratorType::parallel ? parallel : reduction).push_back(d);

    OpOperand *init = op.getDpsInitOperand(0);
    auto outType = cast<MemRefType>(init->get().getType());
    int64_t lanes = vectorBits / 32, extent = outType.getShape().back();
    // The row in chunks of `vectors` vectors (at most kMaxVectors, dividing a longer row's
    // whole vectors), each chunk one more index of the parallel loop.
    int64_t total = (extent + lanes - 1) / lanes, vectors = total;
    while (vectors > kMaxVectors || total % vectors != 0)
      --vectors;
    int64_t chunks = total / vectors;
    Block *body = op.getBody();
    Value acc = body->getArguments().back();

    // Dims' values to an operand's indices through its map (a projected permutation).
    auto indices = [&](OpBuilder &ib, AffineMap map, ArrayRef<Value> dims) {
      SmallVector<Value> result;
      for (AffineExpr e : map.getResults())
        result.push_back(dims[cast<AffineDimExpr>(e).getPosition()]);
      return result;
    };
    // The mask of vector k: none but the last's, whose lanes past the extent are off.
    auto maskOf = [&](OpBuilder &ib, int64_t k) -> Value {
      int64_t count = std::min(lanes, extent - k * lanes);
      if (count == lanes)
        return {};
      auto maskType = VectorType::get({lanes}, ib.getI1Type());
      return vector::ConstantMaskOp::create(ib, loc, maskType, ArrayRef<int64_t>{count});
    };
    auto load = [&](OpBuilder &ib, Value memref, ArrayRef<Value> index, Value mask) -> Value {
      auto type = VectorType::get({lanes}, cast<MemRefType>(memref.getType()).getElementType());
      if (!mask)
        return vector::LoadOp::create(ib, loc, type, memref, index);
      Value pass = arith::ConstantOp::create(ib, loc, type, ib.getZeroAttr(type));
      return vector::MaskedLoadOp::create(ib, loc, type, memref, index, mask, pass);
    };

    SmallVector<Value> lower(parallel.size(), zero), steps(parallel.size(), one), upper;
    for (unsigned d : parallel)
      upper.push_back(size(d));
    if (chunks > 1) {
      lower.push_back(zero);
      steps.push_back(one);
      upper.push_back(arith::ConstantIndexOp::create(b, loc, chunks));
    }
    auto emit = [&](OpBuilder &pb, ValueRange outer) {
      SmallVector<Value> dims(numDims, zero);
      for (auto [d, v] : llvm::zip(parallel, outer))
        dims[d] = v;
      // Column of vector k: chunk * vectors * L + k * L.
      Value base =
          chunks > 1
              ? arith::MulIOp::create(pb, loc, outer.back(),
                                      arith::ConstantIndexOp::create(pb, loc, vectors * lanes))
                    .getResult()
              : zero;
      auto columnOf = [&](OpBuilder &cb, int64_t k) -> Value {
        return arith::AddIOp::create(cb, loc, base,
                                     arith::ConstantIndexOp::create(cb, loc, k * lanes));
      };
      AffineMap outMap = op.getMatchingIndexingMap(init);
      SmallVector<Value> masks, accumulators;
      for (int64_t k = 0; k < vectors; ++k) {
        masks.push_back(maskOf(pb, k));
        dims[c] = columnOf(pb, k);
        accumulators.push_back(load(pb, init->get(), indices(pb, outMap, dims), masks.back()));
      }
      // One reduction step: for each vector k, the body on vectors of the inputs at `dims`
      // (c = k L; an input that does not read c broadcast), its accumulator `carried[k]`.
      auto step = [&](OpBuilder &sb, ValueRange carried) {
        SmallVector<Value> next;
        for (auto [k, accumulator] : llvm::enumerate(carried)) {
          IRMapping mapping;
          dims[c] = columnOf(sb, static_cast<int64_t>(k));
          for (OpOperand *input : op.getDpsInputOperands()) {
            BlockArgument arg = body->getArgument(input->getOperandNumber());
            if (arg.use_empty())
              continue;
            AffineMap map = op.getMatchingIndexingMap(input);
            SmallVector<Value> index = indices(sb, map, dims);
            if (map.isFunctionOfDim(c)) {
              mapping.map(arg, load(sb, input->get(), index, masks[k]));
              continue;
            }
            Value scalar = memref::LoadOp::create(sb, loc, input->get(), index);
            mapping.map(arg, vector::BroadcastOp::create(
                                 sb, loc, VectorType::get({lanes}, scalar.getType()), scalar));
          }
          mapping.map(acc, accumulator);
          auto lookup = [&](Value v) -> Value {
            if (Value mapped = mapping.lookupOrNull(v))
              return mapped;
            // A value of the kernel from outside the body: a splat.
            Value splat =
                vector::BroadcastOp::create(sb, loc, VectorType::get({lanes}, v.getType()), v);
            mapping.map(v, splat);
            return splat;
          };
          for (Operation &inner : body->without_terminator()) {
            if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
              auto type = VectorType::get({lanes}, constant.getType());
              mapping.map(constant.getResult(),
                          arith::ConstantOp::create(
                              sb, loc, type, SplatElementsAttr::get(type, constant.getValue())));
              continue;
            }
            OperationState state(loc, inner.getName());
            for (Value operand : inner.getOperands())
              state.operands.push_back(lookup(operand));
            state.types.push_back(VectorType::get({lanes}, inner.getResult(0).getType()));
            state.attributes = inner.getAttrs();
            mapping.map(inner.getResult(0), sb.create(state)->getResult(0));
          }
          next.push_back(lookup(body->getTerminator()->getOperand(0)));
        }
        return next;
      };
      // The reduction dims' loops, outermost first, the accumulators carried through.
      std::function<SmallVector<Value>(OpBuilder &, unsigned, ValueRange)> loops =
          [&](OpBuilder &lb, unsigned level, ValueRange carried) -> SmallVector<Value> {
        if (level == reduction.size())
          return step(lb, carried);
        auto loop = scf::ForOp::create(lb, loc, zero, size(reduction[level]), one, carried,
                                       [&](OpBuilder &fb, Location, Value r, ValueRange inner) {
                                         dims[reduction[level]] = r;
                                         scf::YieldOp::create(fb, loc, loops(fb, level + 1, inner));
                                       });
        return SmallVector<Value>(loop.getResults());
      };
      SmallVector<Value> results = loops(pb, 0, accumulators);
      for (int64_t k = 0; k < vectors; ++k) {
        dims[c] = columnOf(pb, k);
        SmallVector<Value> index = indices(pb, outMap, dims);
        if (masks[k])
          vector::MaskedStoreOp::create(pb, loc, init->get(), index, masks[k], results[k]);
        else
          vector::StoreOp::create(pb, loc, results[k], init->get(), index);
      }
    };
    if (lower.empty()) {
      emit(b, {});
    } else {
      scf::ParallelOp::create(b, loc, lower, upper, steps,
                              [&](OpBuilder &nb, Location, ValueRange outer) {
                                emit(nb, outer);
                                scf::ReduceOp::create(nb, loc);
                              });
    }
    op->erase();
  }
};

} // namespace
