//===- ContractionRoles.cpp - a contraction's dims as rows, columns, reduction, batch -----===//
#include "ContractionRoles.h"

#include "dialects/kernel/KernelDialect.h"

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

BlockLoop tcc::gpu::createBlockLoop(OpBuilder &b, Location loc, const Problem &p, int64_t tileRows,
                                    int64_t tileColumns, int64_t threads) {
  auto cst = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
  Value zero = cst(0), one = cst(1);
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d : p.roles.batch) {
    lbs.push_back(zero);
    ubs.push_back(p.extents[d]);
    steps.push_back(one);
  }
  for (auto [extent, tile] : {std::pair(p.rows, tileRows), std::pair(p.columns, tileColumns)}) {
    lbs.push_back(zero);
    ubs.push_back(b.createOrFold<arith::CeilDivUIOp>(loc, extent, cst(tile)));
    steps.push_back(one);
  }
  lbs.push_back(zero);
  ubs.push_back(cst(threads));
  steps.push_back(one);
  BlockLoop blocks;
  blocks.loop = scf::ParallelOp::create(b, loc, lbs, ubs, steps);
  blocks.loop->setAttr(tcc::kernel::KernelDialect::kBlockThreadsAttrName,
                       b.getI64IntegerAttr(threads));
  SmallVector<Value> inductions(blocks.loop.getInductionVars());
  int64_t numBatch = p.roles.batch.size();
  blocks.thread = inductions.back();
  blocks.rowTile = inductions[numBatch];
  blocks.columnTile = inductions[numBatch + 1];
  blocks.base.assign(linalg::LinalgOp(p.op).getNumLoops(), zero);
  for (auto [i, d] : llvm::enumerate(p.roles.batch))
    blocks.base[d] = inductions[i];
  return blocks;
}

SmallVector<Value> tcc::gpu::outputIvs(OpBuilder &b, Location loc, const Problem &p,
                                       const BlockLoop &blocks, Value row, Value column) {
  SmallVector<Value> ivs = blocks.base;
  unflatten(b, loc, p, p.roles.m, row, ivs);
  unflatten(b, loc, p, p.roles.n, column, ivs);
  return ivs;
}

Value tcc::gpu::accumulatorStart(OpBuilder &b, Location loc, const Problem &p,
                                 const BlockLoop &blocks, Value row, Value column) {
  if (p.fusion.fill)
    return linalg::FillOp(p.fusion.fill).getInputs()[0];
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lastRow = b.createOrFold<arith::SubIOp>(loc, p.rows, one);
  Value lastColumn = b.createOrFold<arith::SubIOp>(loc, p.columns, one);
  SmallVector<Value> ivs =
      outputIvs(b, loc, p, blocks, arith::MinUIOp::create(b, loc, row, lastRow),
                arith::MinUIOp::create(b, loc, column, lastColumn));
  linalg::LinalgOp op = p.op;
  OpOperand *output = op.getDpsInitOperand(0);
  return memref::LoadOp::create(b, loc, output->get(),
                                indicesOf(b, loc, op.getMatchingIndexingMap(output), ivs));
}

void tcc::gpu::storeOutput(OpBuilder &b, Location loc, const Problem &p, const BlockLoop &blocks,
                           Value row, Value column, Value value) {
  linalg::LinalgOp op = p.op;
  Value inRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, p.rows);
  Value inColumns = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, column, p.columns);
  auto store = scf::IfOp::create(b, loc, arith::AndIOp::create(b, loc, inRows, inColumns),
                                 /*withElseRegion=*/false);
  OpBuilder inside = OpBuilder::atBlockTerminator(store.thenBlock());
  SmallVector<Value> ivs = outputIvs(inside, loc, p, blocks, row, column);
  OpOperand *output = op.getDpsInitOperand(0);
  Value out = output->get();
  if (p.fusion.epilogue) {
    SmallVector<Value> parallelIvs;
    for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray()))
      if (kind == utils::IteratorType::parallel)
        parallelIvs.push_back(ivs[d]);
    value =
        emitEpilogue(inside, loc, linalg::GenericOp(p.fusion.epilogue), parallelIvs, value, out)[0];
  }
  memref::StoreOp::create(inside, loc, value, out,
                          indicesOf(inside, loc, op.getMatchingIndexingMap(output), ivs));
}

std::optional<Problem> tcc::gpu::analyze(linalg::LinalgOp op, const Fusion &fusion,
                                         function_ref<bool(const Roles &)> accept) {
  std::optional<Roles> roles = classify(op);
  if (!roles || (accept && !accept(*roles)))
    return std::nullopt;
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Range> ranges = op.createLoopRanges(b, loc);
  for (Range &r : ranges)
    if (getConstantIntValue(r.offset) != 0 || getConstantIntValue(r.stride) != 1)
      return std::nullopt;
  std::optional<Problem> p;
  p.emplace(Problem{op, fusion, *roles, {}, {}, {}, {}});
  for (Range &r : ranges)
    p->extents.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  p->rows = product(b, loc, *p, roles->m);
  p->columns = product(b, loc, *p, roles->n);
  p->depth = product(b, loc, *p, roles->k);
  return p;
}
