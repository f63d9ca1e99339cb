//===- MarkBatchSplit.cpp - prove that a model computes each image alone ----------------===//
//
// A model whose inputs and outputs all lead with one symbol (the batch) and whose ops never
// mix two images can run image by image: out[b] = model(in[b : b+1]). The runtime then
// keeps one image's intermediates in cache instead of the whole batch's, and gives each of
// its threads whole images instead of splitting every kernel (model_abi.h, batch_symbol).
//
// The proof walks @main in order and gives every tensor value its batch dim (the dim whose
// extent is the batch and whose slice b depends only on image b of the inputs) or none (a
// weight, a value computed from weights only), and every index value "is the batch extent"
// or "does not depend on it". An op is understood only in the forms listed below; any other
// op that touches a batch-dependent value ends the proof (the model runs whole batches):
//
//   linalg ops  the batched operands' batch dims are one parallel loop l, read by the dim
//               expression l alone; no other operand reads l; the body reads neither
//               linalg.index l nor a batch-dependent value from outside
//   tensor      empty (the batch extent as the size of one dim), pad (none on the batch dim),
//               collapse/expand_shape (the batch dim grouped with static 1s only),
//               extract/insert_slice (the whole batch dim), concat (not on it), cast, dim
//   return      every result's dim 0 is the batch dim
//
// Running image by image repeats the weights' reads per image. So the model is marked only
// when each weight element is used at least `min-weight-reuse` times per image on average
// (multiply-adds of the contractions per image / weight elements): a convolutional network
// (~100) or a transformer over a sequence (its length) is, an MLP (1) or a decoder step is
// not.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Codegen/Passes.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

namespace tcc {
#define GEN_PASS_DEF_MARKBATCHSPLIT
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;

namespace {

/// Extents unknown while compiling count as this many in the reuse estimate.
constexpr int64_t kDynamicExtent = 64;

/// What the proof knows about each value of @main.
class BatchProof {
public:
  /// The batch dim of `v`, or std::nullopt when v does not depend on the batch. Values that
  /// depend on it in another way never get here: the proof stops at their definition.
  std::optional<int64_t> batchDim(Value v) const {
    auto it = tensorDims.find(v);
    return it == tensorDims.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  bool isBatchExtent(Value v) const {
    auto it = forms.find(v);
    return it != forms.end() && it->second == Affine{1, 0};
  }
  bool isInvariant(Value v) const {
    return !tensorDims.contains(v) && !forms.contains(v) && !conditions.contains(v) &&
           !leadingShapes.contains(v);
  }
  bool isInvariant(OpFoldResult r) const {
    auto v = dyn_cast<Value>(r);
    return !v || isInvariant(v);
  }

  void setBatched(Value v, int64_t dim) { tensorDims[v] = dim; }
  void setBatchExtent(Value v) { forms[v] = Affine{1, 0}; }

  /// Whether every value that `op`'s regions use but do not define does not depend on the
  /// batch.
  bool capturesOnlyInvariants(Operation *op) const {
    bool ok = true;
    op->walk([&](Operation *inner) {
      if (inner == op)
        return;
      for (Value operand : inner->getOperands())
        if (!op->isAncestor(operand.getParentBlock()->getParentOp()) && !isInvariant(operand))
          ok = false;
    });
    return ok;
  }

  /// Applies `op`'s rule; false when the op does not keep images apart (or is not understood).
  bool visit(Operation *op);

  /// Multiply-adds per image of the contractions seen (loops with a reduction).
  uint64_t work = 0;

private:
  bool visitLinalg(linalg::LinalgOp op);
  /// Whether the body of `op` (walking images with `loop`) reads batched values only at the
  /// image `loop` stands at, and nothing else from outside that depends on the batch.
  bool bodyKeepsImages(linalg::LinalgOp op, std::optional<unsigned> loop) const;
  bool visitPad(tensor::PadOp op);
  bool visitCollapse(tensor::CollapseShapeOp op);
  bool visitExpand(tensor::ExpandShapeOp op);
  bool visitExtractSlice(tensor::ExtractSliceOp op);
  bool visitInsertSlice(tensor::InsertSliceOp op);

  /// A slice's range on dim `d` covers the whole batch: offset 0, size the batch extent,
  /// stride 1.
  bool wholeBatch(OffsetSizeAndStrideOpInterface op, int64_t d) const {
    OpFoldResult size = op.getMixedSizes()[d];
    auto sizeValue = dyn_cast<Value>(size);
    return isConstantIntValue(op.getMixedOffsets()[d], 0) &&
           isConstantIntValue(op.getMixedStrides()[d], 1) && sizeValue && isBatchExtent(sizeValue);
  }
  /// Every offset, size and stride other than those of dim `d` is batch-independent.
  bool othersInvariant(OffsetSizeAndStrideOpInterface op, int64_t d) const {
    for (auto list : {op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides()})
      for (auto [k, r] : llvm::enumerate(list))
        if (static_cast<int64_t>(k) != d && !isInvariant(r))
          return false;
    return true;
  }

  /// An index a N + b of the batch extent N (N >= 0).
  struct Affine {
    int64_t a = 0, b = 0;
    bool operator==(const Affine &other) const { return a == other.a && b == other.b; }
    int64_t at(int64_t n) const { return a * n + b; }
  };
  /// A comparison `d(N) pred 0` of an affine difference with zero.
  struct Condition {
    arith::CmpIPredicate predicate;
    Affine difference;
    bool at(int64_t n) const;
  };
  std::optional<Affine> affine(Value v) const {
    if (auto it = forms.find(v); it != forms.end())
      return it->second;
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return Affine{0, *c};
    return std::nullopt;
  }
  bool visitIndexArithmetic(Operation *op);

  DenseMap<Value, int64_t> tensorDims;
  DenseMap<Value, Affine> forms;
  DenseMap<Value, Condition> conditions;
  DenseSet<Value> leadingShapes;
};

/// Small coefficients only: larger ones never come from shape arithmetic, and keep the
/// enumeration below short and free of overflow.
constexpr int64_t kMaxCoefficient = 1 << 20;

bool BatchProof::Condition::at(int64_t n) const {
  int64_t d = difference.at(n);
  switch (predicate) {
  case arith::CmpIPredicate::eq: return d == 0;
  case arith::CmpIPredicate::ne: return d != 0;
  case arith::CmpIPredicate::slt: case arith::CmpIPredicate::ult: return d < 0;
  case arith::CmpIPredicate::sle: case arith::CmpIPredicate::ule: return d <= 0;
  case arith::CmpIPredicate::sgt: case arith::CmpIPredicate::ugt: return d > 0;
  case arith::CmpIPredicate::sge: case arith::CmpIPredicate::uge: return d >= 0;
  }
  return false;
}

/// Index arithmetic on the batch extent, as shape formulas leave it (a pooling's output
/// extent `N - 1 >= 0 ? N : 0`): sums, differences and products with constants stay affine
/// in N; a select between affine forms on an affine comparison is the form it takes for all
/// large N when it agrees with it for every N >= 0 below the comparison's turning point (a
/// linear difference changes sign once). Unsigned predicates are read as signed: every value
/// here is a non-negative extent or a small constant.
bool BatchProof::visitIndexArithmetic(Operation *op) {
  auto bounded = [](Affine f) {
    return std::abs(f.a) <= kMaxCoefficient && std::abs(f.b) <= kMaxCoefficient;
  };
  auto binary = [&](Value l, Value r, auto combine) -> bool {
    std::optional<Affine> x = affine(l), y = affine(r);
    if (!x || !y)
      return false;
    std::optional<Affine> result = combine(*x, *y);
    if (!result || !bounded(*result))
      return false;
    forms[op->getResult(0)] = *result;
    return true;
  };
  if (auto add = dyn_cast<arith::AddIOp>(op))
    return binary(add.getLhs(), add.getRhs(),
                  [](Affine x, Affine y) { return std::optional<Affine>({x.a + y.a, x.b + y.b}); });
  if (auto sub = dyn_cast<arith::SubIOp>(op))
    return binary(sub.getLhs(), sub.getRhs(),
                  [](Affine x, Affine y) { return std::optional<Affine>({x.a - y.a, x.b - y.b}); });
  if (auto mul = dyn_cast<arith::MulIOp>(op))
    return binary(mul.getLhs(), mul.getRhs(), [](Affine x, Affine y) -> std::optional<Affine> {
      if (x.a != 0 && y.a != 0)
        return std::nullopt;
      return x.a == 0 ? Affine{y.a * x.b, y.b * x.b} : Affine{x.a * y.b, x.b * y.b};
    });
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    std::optional<Affine> x = affine(cmp.getLhs()), y = affine(cmp.getRhs());
    if (!x || !y)
      return false;
    conditions[cmp.getResult()] = Condition{cmp.getPredicate(), {x->a - y->a, x->b - y->b}};
    return true;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    auto condition = conditions.find(select.getCondition());
    std::optional<Affine> x = affine(select.getTrueValue()), y = affine(select.getFalseValue());
    if (condition == conditions.end() || !x || !y)
      return false;
    const Condition &c = condition->second;
    // Beyond `turn` the difference keeps its sign (or is constant).
    int64_t turn = c.difference.a == 0 ? 0 : std::abs(c.difference.b) / std::abs(c.difference.a) + 1;
    Affine tail = c.at(turn + 1) == c.at(turn + 2) ? (c.at(turn + 1) ? *x : *y) : Affine{};
    if (c.at(turn + 1) != c.at(turn + 2))
      return false; // eq/ne on a constant difference cannot differ; anything else is a bug
    for (int64_t n = 0; n <= turn; ++n)
      if ((c.at(n) ? *x : *y).at(n) != tail.at(n))
        return false;
    forms[select.getResult()] = tail;
    return true;
  }
  return false;
}

/// A reduction over the images that only a run-time check reads, and that is true when it is
/// true for every image (`out and p(in)` from true: a gather's indices all in range). Run
/// image by image, the check fails for an image exactly when it fails for the batch.
static bool isCheckOfEveryImage(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return false;
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!fill || !matchPattern(fill.getInputs()[0], m_One()))
    return false;
  Block *body = op.getBlock();
  auto conjunction = dyn_cast_or_null<arith::AndIOp>(
      cast<linalg::YieldOp>(body->getTerminator()).getOperand(0).getDefiningOp());
  Value out = body->getArguments().back();
  if (!conjunction || !conjunction.getType().isInteger(1) ||
      (conjunction.getLhs() != out && conjunction.getRhs() != out) || !out.hasOneUse())
    return false;
  for (Operation *user : op->getResult(0).getUsers()) {
    auto extract = dyn_cast<tensor::ExtractOp>(user);
    if (!extract || !llvm::all_of(extract->getUsers(), [](Operation *u) { return isa<prim::CheckOp>(u); }))
      return false;
  }
  return true;
}

bool BatchProof::bodyKeepsImages(linalg::LinalgOp op, std::optional<unsigned> loop) const {
  bool ok = true;
  op->walk([&](Operation *inner) {
    if (inner == op.getOperation())
      return;
    // The image's own index reads the image's own slice of a batched tensor (a gather
    // written as tensor.extract at linalg.index), and nothing else.
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      if (loop && index.getDim() == *loop)
        for (OpOperand &use : index->getUses()) {
          auto extract = dyn_cast<tensor::ExtractOp>(use.getOwner());
          std::optional<int64_t> d = extract ? batchDim(extract.getTensor()) : std::nullopt;
          ok &= d && use.getOperandNumber() == 1 + *d;
        }
      return;
    }
    for (OpOperand &use : inner->getOpOperands()) {
      Value operand = use.get();
      if (op->isAncestor(operand.getParentBlock()->getParentOp()) || isInvariant(operand))
        continue;
      auto extract = dyn_cast<tensor::ExtractOp>(inner);
      std::optional<int64_t> d = batchDim(operand);
      if (!extract || use.getOperandNumber() != 0 || !d || !loop) {
        ok = false;
        continue;
      }
      auto index = extract.getIndices()[*d].getDefiningOp<linalg::IndexOp>();
      ok &= index && index.getDim() == *loop && op->isAncestor(index);
    }
  });
  return ok;
}

bool BatchProof::visitLinalg(linalg::LinalgOp op) {
  // Loops of one iteration are 0 (a pooling window over the batch dim: n + 0).
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineExpr> ones;
  for (auto [k, extent] : llvm::enumerate(ranges))
    ones.push_back(extent == 1 ? getAffineConstantExpr(0, op.getContext())
                               : getAffineDimExpr(k, op.getContext()));
  auto mapOf = [&](OpOperand &operand) {
    return simplifyAffineMap(op.getMatchingIndexingMap(&operand).replaceDimsAndSymbols(
        ones, {}, ranges.size(), 0));
  };
  // The loop that walks the images: every batched operand reads its batch dim with it.
  std::optional<unsigned> loop;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<int64_t> d = batchDim(operand.get());
    if (!d) {
      if (!isInvariant(operand.get()))
        return false;
      continue;
    }
    auto expr = dyn_cast<AffineDimExpr>(mapOf(operand).getResult(*d));
    if (!expr || (loop && *loop != expr.getPosition()))
      return false;
    loop = expr.getPosition();
  }
  if (!op.hasPureTensorSemantics() || !bodyKeepsImages(op, loop))
    return false;
  if (!loop) {
    // Nothing batched: weights computed at run time.
    return true;
  }
  if (op.getIteratorTypesArray()[*loop] != utils::IteratorType::parallel)
    return isCheckOfEveryImage(op);
  // No other operand and no other dim reads the loop; every output carries it.
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = mapOf(operand);
    std::optional<int64_t> d = batchDim(operand.get());
    for (auto [k, expr] : llvm::enumerate(map.getResults()))
      if (expr.isFunctionOfDim(*loop) && (!d || static_cast<int64_t>(k) != *d))
        return false;
    if (op.isDpsInit(&operand) && !d)
      return false;
  }
  for (auto [result, init] : llvm::zip(op->getResults(), op.getDpsInits()))
    setBatched(result, *batchDim(init));
  if (op.getNumReductionLoops() > 0) {
    uint64_t product = 1;
    for (auto [k, extent] : llvm::enumerate(ranges))
      if (k != *loop)
        product = llvm::SaturatingMultiply<uint64_t>(
            product, ShapedType::isDynamic(extent) ? kDynamicExtent : extent);
    work = llvm::SaturatingAdd(work, product);
  }
  return true;
}

bool BatchProof::visitPad(tensor::PadOp op) {
  std::optional<int64_t> d = batchDim(op.getSource());
  if (!d)
    return true;
  if (!isConstantIntValue(op.getMixedLowPad()[*d], 0) ||
      !isConstantIntValue(op.getMixedHighPad()[*d], 0))
    return false;
  setBatched(op.getResult(), *d);
  return true;
}

bool BatchProof::visitCollapse(tensor::CollapseShapeOp op) {
  std::optional<int64_t> d = batchDim(op.getSrc());
  if (!d)
    return true;
  ArrayRef<int64_t> shape = op.getSrcType().getShape();
  for (auto [group, dims] : llvm::enumerate(op.getReassociationIndices())) {
    if (!llvm::is_contained(dims, *d))
      continue;
    for (int64_t k : dims)
      if (k != *d && shape[k] != 1)
        return false;
    setBatched(op.getResult(), group);
    return true;
  }
  return false;
}

bool BatchProof::visitExpand(tensor::ExpandShapeOp op) {
  std::optional<int64_t> d = batchDim(op.getSrc());
  if (!d)
    return true;
  SmallVector<OpFoldResult> shape = op.getMixedOutputShape();
  ArrayRef<int64_t> dims = op.getReassociationIndices()[*d];
  std::optional<int64_t> batch;
  for (int64_t k : dims) {
    auto value = dyn_cast<Value>(shape[k]);
    if (value && isBatchExtent(value) && !batch)
      batch = k;
    else if (!isConstantIntValue(shape[k], 1))
      return false;
  }
  for (auto [k, r] : llvm::enumerate(shape))
    if (!llvm::is_contained(dims, static_cast<int64_t>(k)) && !isInvariant(r))
      return false;
  if (!batch)
    return false;
  setBatched(op.getResult(), *batch);
  return true;
}

bool BatchProof::visitExtractSlice(tensor::ExtractSliceOp op) {
  std::optional<int64_t> d = batchDim(op.getSource());
  if (!d)
    return true;
  if (!wholeBatch(op, *d) || !othersInvariant(op, *d))
    return false;
  // Dims of size 1 may be dropped; the batch dim (size the batch extent) is not.
  llvm::SmallBitVector dropped = op.getDroppedDims();
  int64_t before = 0;
  for (int64_t k = 0; k < *d; ++k)
    before += dropped.test(k);
  setBatched(op.getResult(), *d - before);
  return true;
}

bool BatchProof::visitInsertSlice(tensor::InsertSliceOp op) {
  std::optional<int64_t> d = batchDim(op.getDest());
  std::optional<int64_t> source = batchDim(op.getSource());
  if (!d)
    return !source;
  if (!source || !wholeBatch(op, *d) || !othersInvariant(op, *d))
    return false;
  llvm::SmallBitVector dropped = op.getDroppedDims();
  int64_t before = 0;
  for (int64_t k = 0; k < *d; ++k)
    before += dropped.test(k);
  if (*source != *d - before)
    return false;
  setBatched(op.getResult(), *d);
  return true;
}

bool BatchProof::visit(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp);
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return capturesOnlyInvariants(op) && visitPad(pad);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return visitCollapse(collapse);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return visitExpand(expand);
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return visitExtractSlice(slice);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return visitInsertSlice(insert);
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    if (std::optional<int64_t> d = batchDim(cast.getSource()))
      setBatched(cast.getResult(), *d);
    return true;
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    std::optional<int64_t> d = batchDim(dim.getSource());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!d)
      return isInvariant(dim.getIndex());
    if (!index)
      return false;
    if (*index == *d)
      setBatchExtent(dim.getResult());
    return true;
  }
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    std::optional<int64_t> batch;
    for (auto [k, size] : llvm::enumerate(empty.getMixedSizes())) {
      auto value = dyn_cast<Value>(size);
      if (!value || isInvariant(value))
        continue;
      if (batch || !isBatchExtent(value))
        return false;
      batch = k;
    }
    if (batch)
      setBatched(empty.getResult(), *batch);
    return true;
  }
  // A shape tensor whose first element is the batch extent, for a reshape that keeps the
  // batch leading (each image's elements stay one contiguous block, in order).
  if (auto shape = dyn_cast<tensor::FromElementsOp>(op)) {
    auto elements = shape.getElements();
    if (llvm::all_of(elements, [&](Value v) { return isInvariant(v); }))
      return true;
    if (!isBatchExtent(elements.front()) ||
        !llvm::all_of(elements.drop_front(), [&](Value v) { return isInvariant(v); }))
      return false;
    leadingShapes.insert(shape.getResult());
    return true;
  }
  if (auto reshape = dyn_cast<tensor::ReshapeOp>(op)) {
    std::optional<int64_t> d = batchDim(reshape.getSource());
    if (!d)
      return isInvariant(reshape.getShape());
    if (*d != 0 || !leadingShapes.contains(reshape.getShape()))
      return false;
    setBatched(reshape.getResult(), 0);
    return true;
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    std::optional<int64_t> d = batchDim(concat.getInputs().front());
    for (Value input : concat.getInputs())
      if (batchDim(input) != d || (!d && !isInvariant(input)))
        return false;
    if (d) {
      if (static_cast<int64_t>(concat.getDim()) == *d)
        return false;
      setBatched(concat.getResult(), *d);
    }
    return true;
  }
  // Anything else: fine while it reads nothing batch-dependent (its results then do not
  // depend on the batch either), or index arithmetic on the batch extent.
  for (Value operand : op->getOperands())
    if (!isInvariant(operand))
      return visitIndexArithmetic(op);
  return capturesOnlyInvariants(op);
}

struct MarkBatchSplitPass : tcc::impl::MarkBatchSplitBase<MarkBatchSplitPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    module->removeAttr(kAttr);
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal() || main.getNumArguments() == 0 || main.getNumResults() == 0 ||
        !llvm::hasSingleElement(main.getBody()))
      return;
    std::optional<StringAttr> symbol = batchSymbol(module, main);
    if (!symbol)
      return;
    BatchProof proof;
    for (BlockArgument arg : main.getArguments())
      proof.setBatched(arg, 0);
    uint64_t weights = 0;
    for (Operation &op : main.getBody().front()) {
      if (isa<prim::BindShapeOp>(op))
        continue;
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value v : ret.getOperands())
          if (proof.batchDim(v) != std::optional<int64_t>(0))
            return;
        continue;
      }
      if (!proof.visit(&op)) {
        if (explain)
          op.emitRemark("the batch is not split: this op does not keep the images apart (or is "
                        "not understood)");
        return;
      }
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto elements = dyn_cast<ElementsAttr>(constant.getValue()))
          if (!elements.isSplat())
            weights = llvm::SaturatingAdd<uint64_t>(weights, elements.getNumElements());
    }
    if (weights > 0 && proof.work / weights < static_cast<uint64_t>(minWeightReuse)) {
      if (explain)
        main.emitRemark() << "the batch is not split: each weight element is used "
                          << proof.work / weights << " times per image, below "
                          << minWeightReuse;
      return;
    }
    module->setAttr(kAttr, FlatSymbolRefAttr::get(*symbol));
  }

  /// The symbol that is dim 0 of every input, alone, and appears in no other input dim; it
  /// must admit the value 1 (min <= 1, divisor 1). Parameters (tcc --grad/--train) update
  /// across images, so such models have none.
  std::optional<StringAttr> batchSymbol(ModuleOp module, func::FuncOp main) {
    DenseMap<Value, prim::BindShapeOp> binds;
    for (auto bind : main.getOps<prim::BindShapeOp>())
      binds[bind.getOperand()] = bind;
    std::optional<StringAttr> symbol;
    for (BlockArgument arg : main.getArguments()) {
      if (main.getArgAttr(arg.getArgNumber(), "tcc.parameter"))
        return std::nullopt;
      prim::BindShapeOp bind = binds.lookup(arg);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!bind || !type || type.getRank() == 0 || !type.isDynamicDim(0))
        return std::nullopt;
      AffineMap map = bind.getShape();
      auto first = dyn_cast<AffineSymbolExpr>(map.getResult(0));
      if (!first)
        return std::nullopt;
      auto name = cast<FlatSymbolRefAttr>(bind.getSymbols()[first.getPosition()]).getAttr();
      if (symbol && *symbol != name)
        return std::nullopt;
      symbol = name;
      for (AffineExpr expr : map.getResults().drop_front())
        if (expr.isFunctionOfSymbol(first.getPosition()))
          return std::nullopt;
    }
    auto declared = symbol ? module.lookupSymbol<prim::SymbolOp>(*symbol) : nullptr;
    if (!declared || declared.getMin() > 1 || declared.getDivisor() != 1)
      return std::nullopt;
    return symbol;
  }

  static constexpr llvm::StringLiteral kAttr = "tcc.batch_split";
};

} // namespace
