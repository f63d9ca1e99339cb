//===- ContractionPlan.cpp - how a contraction maps onto register-tiled vector code -----===//
//
// See ContractionPlan.h; the scheme itself is described at the top of TileContractions.cpp.
//
//===----------------------------------------------------------------------------------===//
#include "ContractionPlan.h"
#include "dialects/kernel/KernelDialect.h"

#include "tcc/Support/LinalgBodies.h"
#include "tcc/Target/VectorIssues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc::tiling;

/// Whether a memref's last dim has unit stride.
static bool lastDimContiguous(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || type.getRank() == 0)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides.back() == 1;
}

/// For a body `yield combine(out, in_k)` (max/min/add pooling over a window), the combine
/// and the input k it reads; the other inputs (a window-shape operand) must be unused.
static std::optional<std::pair<Plan::Combine, unsigned>> windowCombine(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || body->getOperations().size() != 2)
    return std::nullopt;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  Operation *combine =
      yield && yield.getNumOperands() == 1 ? yield.getOperand(0).getDefiningOp() : nullptr;
  if (!combine || combine->getNumOperands() != 2)
    return std::nullopt;
  Plan::Combine kind;
  if (isa<arith::MaximumFOp>(combine))
    kind = Plan::Combine::Max;
  else if (isa<arith::MinimumFOp>(combine))
    kind = Plan::Combine::Min;
  else if (isa<arith::AddFOp>(combine))
    kind = Plan::Combine::Add;
  else if (isa<arith::MaxSIOp>(combine))
    kind = Plan::Combine::MaxSigned;
  else if (isa<arith::MaxUIOp>(combine))
    kind = Plan::Combine::MaxUnsigned;
  else if (isa<arith::MinSIOp>(combine))
    kind = Plan::Combine::MinSigned;
  else if (isa<arith::MinUIOp>(combine))
    kind = Plan::Combine::MinUnsigned;
  else
    return std::nullopt;
  Value acc = body->getArgument(body->getNumArguments() - 1);
  Value other = combine->getOperand(0) == acc   ? combine->getOperand(1)
                : combine->getOperand(1) == acc ? combine->getOperand(0)
                                                : Value();
  auto arg = dyn_cast_or_null<BlockArgument>(other);
  if (!arg || arg.getOwner() != body || arg.getArgNumber() >= op.getNumDpsInputs())
    return std::nullopt;
  for (unsigned k = 0; k < op.getNumDpsInputs(); ++k)
    if (k != arg.getArgNumber() && !body->getArgument(k).use_empty())
      return std::nullopt;
  return std::make_pair(kind, arg.getArgNumber());
}

/// The constant by which `expr` grows when dim `d` grows by one, if that is a constant
/// for every value of the dims (i.e. `expr` is linear in d).
static std::optional<int64_t> coefficient(AffineExpr expr, unsigned d, unsigned numDims) {
  MLIRContext *ctx = expr.getContext();
  AffineExpr dim = getAffineDimExpr(d, ctx);
  AffineExpr shifted = expr.replace(dim, dim + 1);
  AffineExpr difference = simplifyAffineExpr(shifted - expr, numDims, 0);
  if (auto constant = dyn_cast<AffineConstantExpr>(difference))
    return constant.getValue();
  return std::nullopt;
}

/// Whether `op` is tcc-pair-bf16-contractions' form: out + f32(a) * f32(b) on bf16 inputs
/// whose last index is the op's last dim, a reduction of static extent 2 read nowhere else,
/// from buffers whose last two dims are contiguous pairs; or with `group` 4,
/// tcc-quad-int8-contractions' quads (out + zext(a) * sext(b), i8 inputs, contiguous quads).
static bool isPacked(linalg::LinalgOp op, int64_t group) {
  if (group == 2 ? !tcc::isWideningMultiplyAdd(op, BFloat16Type::get(op.getContext()))
                 : !tcc::isQuadMultiplyAdd(op))
    return false;
  unsigned p = op.getNumLoops() - 1;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (op.getIteratorTypesArray()[p] != utils::IteratorType::reduction || extents[p] != group)
    return false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    auto type = dyn_cast<MemRefType>(input->get().getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!type || type.getRank() < 2 || failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1 || strides[strides.size() - 2] != group ||
        type.getShape().back() != group)
      return false;
    if (map.getNumResults() == 0 || map.getResults().back() != getAffineDimExpr(p, op.getContext()))
      return false;
    for (AffineExpr expr : map.getResults().drop_back())
      if (expr.isFunctionOfDim(p))
        return false;
  }
  return !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isFunctionOfDim(p);
}

/// Whether `combine` is an integer max or min (signed or unsigned).
static bool isIntegerCombine(Plan::Combine combine) {
  switch (combine) {
  case Plan::Combine::MaxSigned:
  case Plan::Combine::MaxUnsigned:
  case Plan::Combine::MinSigned:
  case Plan::Combine::MinUnsigned:
    return true;
  case Plan::Combine::MultiplyAdd:
  case Plan::Combine::Max:
  case Plan::Combine::Min:
  case Plan::Combine::Add:
    return false;
  }
  llvm_unreachable("a combine kind");
}

/// The plan for `op`, or nothing when it does not have the outer-product form.
std::optional<Plan> tcc::tiling::planContraction(linalg::LinalgOp op, int64_t vectorBits) {
  std::optional<std::pair<Plan::Combine, unsigned>> window = windowCombine(op);
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.hasIndexSemantics())
    return std::nullopt;
  bool pairs = !window && isPacked(op, 2);
  bool quads = !window && !pairs && isPacked(op, 4);
  std::optional<tcc::ByteFactor> bytes =
      window || pairs || quads ? std::nullopt : tcc::byteMultiplyAdd(op);
  if (!(window || pairs || quads || bytes || tcc::isMultiplyAdd(op)))
    return std::nullopt;
  Plan plan;
  plan.op = op;
  plan.pairs = pairs;
  plan.quads = quads;
  plan.bytes = bytes.has_value();
  plan.bytesSigned = bytes && bytes->isSigned;
  if (window)
    plan.combine = window->first;
  plan.out = op.getDpsInitOperand(0)->get();
  auto outType = dyn_cast<MemRefType>(plan.out.getType());
  if (!outType || outType.getRank() == 0)
    return std::nullopt;
  Type element = outType.getElementType();
  // Integer windows: a max or min pooling of 8- to 32-bit integers (quantized models').
  bool integerWindow = window && isIntegerCombine(window->first);
  if (integerWindow ? !(element.isInteger(8) || element.isInteger(16) || element.isInteger(32))
      : quads       ? !element.isInteger(32)
                    : !element.isF32() && !element.isF64())
    return std::nullopt;
  if ((pairs || bytes) && !element.isF32())
    return std::nullopt;
  Type inputElement = pairs   ? Type(BFloat16Type::get(op.getContext()))
                      : quads ? Type(IntegerType::get(op.getContext(), 8))
                              : element;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    bool isBytes = bytes && input->getOperandNumber() == bytes->input;
    if (!type ||
        type.getElementType() != (isBytes ? IntegerType::get(op.getContext(), 8) : inputElement))
      return std::nullopt;
  }
  int64_t lanes = vectorBits / element.getIntOrFloatBitWidth();
  if (lanes < 2)
    return std::nullopt;
  plan.vectorType = VectorType::get({lanes}, element);

  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numDims = op.getNumLoops();
  if (llvm::none_of(iterators,
                    [](utils::IteratorType t) { return t == utils::IteratorType::reduction; }))
    return std::nullopt;
  plan.outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  // The output indexes every parallel dim once, and nothing else.
  if (!plan.outMap.isProjectedPermutation() || !lastDimContiguous(plan.out))
    return std::nullopt;
  for (unsigned d = 0; d < numDims; ++d) {
    bool parallel = iterators[d] == utils::IteratorType::parallel;
    if (parallel != plan.outMap.isFunctionOfDim(d))
      return std::nullopt;
  }
  plan.j = cast<AffineDimExpr>(plan.outMap.getResults().back()).getPosition();

  if (window) {
    // Pooling: the one input read is the vector operand; there is no scalar operand.
    OpOperand *vectorOperand = op.getDpsInputOperand(window->second);
    plan.vector = vectorOperand->get();
    plan.vectorMap = op.getMatchingIndexingMap(vectorOperand);
    if (!plan.vectorMap.isFunctionOfDim(plan.j))
      return std::nullopt;
  } else {
    // Exactly one input reads j, in its last index only; or both do (a depthwise
    // convolution on channel blocks): the one that reads an output dim the other does not
    // is the vector operand, the other is read as vectors along j (scalarVector).
    OpOperand *first = op.getDpsInputOperand(0), *second = op.getDpsInputOperand(1);
    AffineMap firstMap = op.getMatchingIndexingMap(first),
              secondMap = op.getMatchingIndexingMap(second);
    bool firstReads = firstMap.isFunctionOfDim(plan.j),
         secondReads = secondMap.isFunctionOfDim(plan.j);
    if (firstReads && secondReads) {
      if (pairs || quads)
        return std::nullopt;
      auto readsMore = [&](AffineMap a, AffineMap other) {
        return llvm::any_of(plan.outMap.getResults(), [&](AffineExpr e) {
          unsigned d = cast<AffineDimExpr>(e).getPosition();
          return a.isFunctionOfDim(d) && !other.isFunctionOfDim(d);
        });
      };
      // The second operand (weights) reads no output dim the first does not.
      if (!readsMore(firstMap, secondMap) || readsMore(secondMap, firstMap) ||
          !lastDimContiguous(second->get()) || secondMap.getNumResults() == 0 ||
          secondMap.getResults().back() != getAffineDimExpr(plan.j, op.getContext()) ||
          llvm::any_of(secondMap.getResults().drop_back(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(plan.j); }))
        return std::nullopt;
      plan.scalarVector = true;
      secondReads = false;
    }
    if (firstReads == secondReads)
      return std::nullopt;
    OpOperand *vectorOperand = firstReads ? first : second,
              *scalarOperand = firstReads ? second : first;
    plan.vector = vectorOperand->get();
    plan.scalar = scalarOperand->get();
    plan.vectorMap = firstReads ? firstMap : secondMap;
    plan.scalarMap = firstReads ? secondMap : firstMap;
    plan.scalarUnsigned = !firstReads; // quads: input 0 is the uint8 one
  }
  if (plan.vectorMap.getNumResults() == 0 || !lastDimContiguous(plan.vector))
    return std::nullopt;
  // With pairs or quads, j is read by the index before the group's (isPacked: contiguous).
  ArrayRef<AffineExpr> vectorExprs = plan.vectorMap.getResults().drop_back(pairs || quads ? 1 : 0);
  if (vectorExprs.empty())
    return std::nullopt;
  for (AffineExpr expr : vectorExprs.drop_back())
    if (expr.isFunctionOfDim(plan.j))
      return std::nullopt;
  std::optional<int64_t> stride = coefficient(vectorExprs.back(), plan.j, numDims);
  // Strided reads load stride x lanes elements and pick every stride-th: worth it for small
  // strides only.
  if (!stride || *stride < 1 || *stride > 4)
    return std::nullopt;
  plan.stride = *stride;

  // The row dim: a parallel dim the scalar operand reads and the vector operand does not;
  // the innermost such in the output's order.
  for (AffineExpr expr : plan.outMap.getResults().drop_back()) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    if (plan.scalar && plan.scalarMap.isFunctionOfDim(d) && !plan.vectorMap.isFunctionOfDim(d))
      plan.i = d;
  }
  // Without one, rows of the vector operand that the scalar does not read: each accumulator
  // then has its own vector loads, but a tile of them hides the FMA latency that one row of
  // vectors waits on (a depthwise 5x5 convolution's 25 dependent FMAs per output row).
  // Not for strided reads: their loads (two vectors and a shuffle each) would then be per
  // row too (measured slower: efficientnet_b0's stride-2 depthwise kernels).
  if (plan.scalarVector && (plan.i || plan.stride != 1))
    return std::nullopt;
  if (!plan.i && plan.stride == 1)
    for (AffineExpr expr : plan.outMap.getResults().drop_back()) {
      unsigned d = cast<AffineDimExpr>(expr).getPosition();
      if (plan.vectorMap.isFunctionOfDim(d) &&
          !(plan.scalar && plan.scalarMap.isFunctionOfDim(d))) {
        plan.i = d;
        plan.rowsOnVector = true;
      }
    }
  for (AffineExpr expr : plan.outMap.getResults().drop_back()) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    if (d != plan.i)
      plan.outer.push_back(d);
  }
  for (unsigned d = 0; d < numDims - (pairs || quads ? 1 : 0); ++d)
    if (iterators[d] == utils::IteratorType::reduction)
      plan.reductions.push_back(d);
  return plan;
}

/// Whether `map` (in the contraction's dims) reads a vector along j: j in its last index
/// only, with unit step, from a buffer whose last dim is contiguous; or not j at all.
static bool isVectorizableRead(AffineMap map, Value buffer, unsigned j) {
  if (!map.isFunctionOfDim(j))
    return true;
  if (!lastDimContiguous(buffer) || map.getNumResults() == 0)
    return false;
  for (AffineExpr expr : map.getResults().drop_back())
    if (expr.isFunctionOfDim(j))
      return false;
  return coefficient(map.getResults().back(), j, map.getNumDims()) == 1;
}

bool tcc::tiling::isTableLoad(memref::LoadOp load) {
  auto type = load.getMemRefType();
  auto cast = load.getIndices().size() == 1
                  ? load.getIndices()[0].getDefiningOp<arith::IndexCastOp>()
                  : arith::IndexCastOp();
  return type.getRank() == 1 && type.hasStaticShape() && type.getLayout().isIdentity() &&
         load.getMemRef().getDefiningOp<memref::GetGlobalOp>() && cast &&
         cast.getIn().getType().isInteger(32);
}

/// Whether the scalar body of `epilogue` can run on vectors lane by lane: arith and math
/// ops that are elementwise (f64 math has no vector approximation here: not those), and
/// tcc-cpu-lookup-tables' loads (a gather each).
static bool isVectorizableBody(linalg::GenericOp epilogue) {
  for (Operation &op : epilogue.getBody()->without_terminator()) {
    if (isa<arith::ConstantOp>(op))
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (!tcc::tiling::isTableLoad(load))
        return false;
      continue;
    }
    if (auto cast = dyn_cast<arith::IndexCastOp>(op)) {
      if (!llvm::all_of(cast->getUsers(), [](Operation *user) {
            auto load = dyn_cast<memref::LoadOp>(user);
            return load && tcc::tiling::isTableLoad(load);
          }))
        return false;
      continue;
    }
    if (!op.hasTrait<OpTrait::Elementwise>() || op.getNumRegions() != 0 ||
        !isa<arith::ArithDialect, math::MathDialect>(op.getDialect()))
      return false;
    for (Type t : llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes()))
      if (!t.isIntOrIndexOrFloat() || t.isIndex())
        return false;
    if (isa<math::MathDialect>(op.getDialect()) &&
        llvm::any_of(op.getResultTypes(), [](Type t) { return t.isF64(); }))
      return false;
  }
  return true;
}

/// Adds kernel formation's fill and epilogue (tcc-outline-kernels groups them with the
/// contraction and sets `epilogue` in the kernel's #kernel.kernel when the contraction's
/// result has no other reader) to `plan`, where the tiled code can absorb them.
void tcc::tiling::absorbNeighbours(Plan &plan) {
  Operation *op = plan.op;
  // The buffer under views that merged its dims (tcc-collapse-dims): the fill covers it all.
  auto base = [](Value v) {
    while (auto collapse = v.getDefiningOp<memref::CollapseShapeOp>())
      v = collapse.getSrc();
    return v;
  };
  // Views and extents (tcc-collapse-dims) may come between the fill, the op and the
  // epilogue: ops that touch no memory.
  auto touchesNoMemory = [](Operation *o) {
    return o->getNumRegions() == 0 && isMemoryEffectFree(o);
  };
  Operation *before = op->getPrevNode();
  while (before && touchesNoMemory(before))
    before = before->getPrevNode();
  auto fill = dyn_cast_or_null<linalg::FillOp>(before);
  if (fill)
    if (fill.hasPureBufferSemantics() && base(fill.getDpsInitOperand(0)->get()) == base(plan.out) &&
        fill.getInputs()[0].getType() == plan.vectorType.getElementType())
      plan.fill = fill;
  auto function = op->getParentOfType<func::FuncOp>();
  Operation *next = op->getNextNode();
  while (next && touchesNoMemory(next))
    next = next->getNextNode();
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!function || !tcc::kernel::isKernel(function) ||
      !tcc::kernel::getKernelAttr(function).getEpilogue() || !epilogue ||
      !epilogue.hasPureBufferSemantics() || epilogue.getNumDpsInits() != 1 ||
      epilogue.getNumReductionLoops() != 0 || epilogue.hasIndexSemantics() ||
      !isVectorizableBody(epilogue))
    return;
  auto outType = cast<MemRefType>(plan.out.getType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(outType.getRank(), op->getContext());
  int reads = 0;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : epilogue->getOpOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(&operand);
    if (operand.get() == plan.out && epilogue.isDpsInput(&operand)) {
      if (map != identity)
        return;
      ++reads;
    }
    // Epilogue dim k is the output's index k: the op's dim outMap(k).
    AffineMap inOpDims = map.compose(plan.outMap);
    if (!isVectorizableRead(inOpDims, operand.get(), plan.j))
      return;
    maps.push_back(inOpDims);
  }
  Value epilogueOut = epilogue.getDpsInitOperand(0)->get();
  if (reads != 1 || epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0)) != identity ||
      !lastDimContiguous(epilogueOut))
    return;
  plan.epilogue = epilogue;
  plan.epilogueOut = epilogueOut;
  plan.epilogueMaps = maps;
}

/// Cycles of one reduction step of a rows x vectors register tile: `fmas` full-width FMAs
/// per cycle (2; 1 where a 512-bit FMA issues as two halves), a dependent FMA every 4
/// cycles per accumulator, two loads per cycle, and `streamedCycles` per vector of b when
/// those come from L2 rather than L1.
static double stepCycles(int64_t rows, double vectors, double fmas, bool rowsOnVector,
                         double streamedCycles) {
  double loads = rowsOnVector ? rows * std::ceil(vectors) + 1 : rows + std::ceil(vectors);
  return std::max({rows * vectors / fmas, 4.0, loads / 2.0, std::ceil(vectors) * streamedCycles});
}

/// Cycles per reduction point to cover an i x j output with rows x vectors tiles, the
/// remainders done by exact smaller tiles (a column tail that fits half a vector counts
/// half a vector when `halfTails`: tcc::halfIssueTails, the emitter's half-width tail on a
/// core that issues a full-width FMA as two halves).
double tcc::tiling::tileCost(int64_t rows, int64_t vectors, int64_t lanes, int64_t iExtent,
                             int64_t jExtent, bool halfTails, double fmas, bool rowsOnVector,
                             double streamedCycles) {
  int64_t block = vectors * lanes;
  double tailVectors = tailIssues(jExtent % block, lanes, halfTails);
  auto rowCost = [&](int64_t r) {
    return (jExtent / block) * stepCycles(r, vectors, fmas, rowsOnVector, streamedCycles) +
           (tailVectors ? stepCycles(r, tailVectors, fmas, rowsOnVector, streamedCycles) : 0.0);
  };
  return (iExtent / rows) * rowCost(rows) + (iExtent % rows ? rowCost(iExtent % rows) : 0.0);
}
