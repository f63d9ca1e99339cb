//===- ContractionRoles.cpp - a contraction's dims as rows, columns, reduction, batch -----===//
#include "ContractionRoles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc::gpu;

std::optional<Roles> tcc::gpu::classify(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics() ||
      !op.getBlock()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  Roles roles;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()) || op.getMatchingBlockArgument(input).use_empty())
      continue;
    if (roles.y)
      return std::nullopt; // three tensors read
    (roles.x ? roles.y : roles.x) = input;
  }
  if (!roles.y)
    return std::nullopt;
  AffineMap xMap = op.getMatchingIndexingMap(roles.x);
  AffineMap yMap = op.getMatchingIndexingMap(roles.y);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<int64_t> parallel;
  for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (kind != utils::IteratorType::parallel) {
      roles.k.push_back(d);
      continue;
    }
    parallel.push_back(d);
    bool inX = xMap.isFunctionOfDim(d), inY = yMap.isFunctionOfDim(d);
    (inX && !inY ? roles.m : !inX && inY ? roles.n : roles.batch).push_back(d);
  }
  if (roles.m.empty() || roles.n.empty() || roles.k.empty())
    return std::nullopt;
  // The output is indexed by the parallel dims, in order (the epilogue's indices).
  if (outMap.getNumResults() != static_cast<int64_t>(parallel.size()))
    return std::nullopt;
  for (auto [i, expr] : llvm::enumerate(outMap.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != parallel[i])
      return std::nullopt;
  }
  return roles;
}

Value tcc::gpu::product(OpBuilder &b, Location loc, const Problem &p, ArrayRef<int64_t> dims) {
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d : dims)
    total = b.createOrFold<arith::MulIOp>(loc, total, p.extents[d]);
  return total;
}

void tcc::gpu::unflatten(OpBuilder &b, Location loc, const Problem &p, ArrayRef<int64_t> dims,
                         Value flat, MutableArrayRef<Value> ivs) {
  for (int64_t i = dims.size() - 1; i >= 0; --i) {
    if (i == 0) {
      ivs[dims[i]] = flat;
      break;
    }
    Value extent = p.extents[dims[i]];
    ivs[dims[i]] = b.createOrFold<arith::RemUIOp>(loc, flat, extent);
    flat = b.createOrFold<arith::DivUIOp>(loc, flat, extent);
  }
}

bool tcc::gpu::reductionFastest(const Problem &p, OpOperand *input, ArrayRef<int64_t> own) {
  AffineMap map = linalg::LinalgOp(p.op).getMatchingIndexingMap(input);
  if (map.getNumResults() == 0)
    return true;
  AffineExpr inner = map.getResults().back();
  bool byK = inner.isFunctionOfDim(p.roles.k.back());
  bool byOwn = inner.isFunctionOfDim(own.back());
  if (byK && byOwn) {
    std::optional<int64_t> window = getConstantIntValue(p.extents[p.roles.k.back()]);
    return window && *window >= 8;
  }
  return byK || !byOwn;
}
