//===- BatchProof.cpp - does @main compute each image of its batch alone? ---------------===//
//
// See BatchProof.h for the rules.
//
//===----------------------------------------------------------------------------------===//
#include "BatchProof.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;

namespace {

/// Extents unknown while compiling count as this many in the work estimate.
constexpr int64_t kDynamicExtent = 64;

/// Small coefficients only: larger ones never come from shape arithmetic, and keep the
/// enumerations short and free of overflow.
constexpr int64_t kMaxCoefficient = 1 << 20;

/// The dims of `dims` before and after position `d` in it, as static extents of `shape`:
/// whether those before are all 1, and the product of those after (nullopt: not static).
std::optional<int64_t> staticProductAfter(ArrayRef<int64_t> dims, int64_t d, ArrayRef<int64_t> shape,
                                          bool &onesBefore) {
  onesBefore = true;
  int64_t product = 1;
  bool after = false;
  for (int64_t k : dims) {
    if (k == d) {
      after = true;
      continue;
    }
    if (ShapedType::isDynamic(shape[k]))
      return std::nullopt;
    if (!after)
      onesBefore &= shape[k] == 1;
    else
      product *= shape[k];
  }
  return product;
}

/// A reduction over the images that only a run-time check reads, and that is true when it is
/// true for every image (`out and p(in)` from true: a gather's indices all in range). Run
/// image by image, the check fails for an image exactly when it fails for the batch.
bool isCheckOfEveryImage(linalg::LinalgOp op) {
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
    if (!extract ||
        !llvm::all_of(extract->getUsers(), [](Operation *u) { return isa<prim::CheckOp>(u); }))
      return false;
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------------------===//

std::optional<BatchProof::Batched> BatchProof::batched(Value v) const {
  auto it = tensors.find(v);
  return it == tensors.end() ? std::nullopt : std::optional<Batched>(it->second);
}

bool BatchProof::isInvariant(Value v) const {
  // Index arithmetic that is the same for every N (a form without N, a comparison of one
  // truth) does not depend on the batch either.
  if (auto it = forms.find(v); it != forms.end())
    return it->second.a == 0;
  if (auto it = conditions.find(v); it != conditions.end())
    return it->second.constant().has_value();
  return !tensors.contains(v) && !opaque.contains(v) && !leadingShapes.contains(v);
}

bool BatchProof::isInvariant(OpFoldResult r) const {
  auto v = dyn_cast<Value>(r);
  return !v || isInvariant(v);
}

std::optional<BatchProof::Affine> BatchProof::affine(Value v) const {
  if (auto it = forms.find(v); it != forms.end())
    return it->second;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return Affine{0, *c};
  return std::nullopt;
}

std::optional<BatchProof::Affine> BatchProof::affine(OpFoldResult r) const {
  if (auto v = dyn_cast<Value>(r))
    return affine(v);
  return Affine{0, *getConstantIntValue(r)};
}

std::optional<int64_t> BatchProof::batchExtentFactor(OpFoldResult r) const {
  std::optional<Affine> f = affine(r);
  if (!f || f->b != 0 || f->a < 1)
    return std::nullopt;
  return f->a;
}

bool BatchProof::capturesOnlyInvariants(Operation *op) const {
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

//===----------------------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------------------===//

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

int64_t BatchProof::Condition::turn() const {
  return difference.a == 0 ? 0 : std::abs(difference.b) / std::abs(difference.a) + 1;
}

std::optional<bool> BatchProof::Condition::constant() const {
  int64_t last = turn() + 2;
  bool first = at(0);
  for (int64_t n = 1; n <= last; ++n)
    if (at(n) != first)
      return std::nullopt;
  return first;
}

/// Index arithmetic on the batch extent, as shape formulas leave it. Unsigned predicates are
/// read as signed: every value here is a non-negative extent or a small constant.
bool BatchProof::visitIndexArithmetic(Operation *op) {
  if (op->getNumResults() != 1 || op->getDialect()->getNamespace() != "arith")
    return false;
  Value result = op->getResult(0);
  auto bounded = [](Affine f) {
    return std::abs(f.a) <= kMaxCoefficient && std::abs(f.b) <= kMaxCoefficient;
  };
  // Sums, differences, products with a constant: affine; otherwise opaque.
  auto binary = [&](Value l, Value r, auto combine) {
    std::optional<Affine> x = affine(l), y = affine(r);
    std::optional<Affine> f = x && y ? combine(*x, *y) : std::nullopt;
    if (f && bounded(*f))
      forms[result] = *f;
    else
      opaque.insert(result);
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
    if (x && y)
      conditions[result] = Condition{cmp.getPredicate(), {x->a - y->a, x->b - y->b}};
    else
      opaque.insert(result);
    return true;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    auto condition = conditions.find(select.getCondition());
    if (condition == conditions.end()) {
      opaque.insert(result);
      return true;
    }
    return this->select(result, condition->second, select.getTrueValue(), select.getFalseValue());
  }
  // max(x, y) = x >= y ? x : y; min(x, y) = x <= y ? x : y.
  if (isa<arith::MaxSIOp, arith::MinSIOp>(op)) {
    Value x = op->getOperand(0), y = op->getOperand(1);
    std::optional<Affine> fx = affine(x), fy = affine(y);
    if (!fx || !fy) {
      opaque.insert(result);
      return true;
    }
    auto predicate = isa<arith::MaxSIOp>(op) ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle;
    return this->select(result, Condition{predicate, {fx->a - fy->a, fx->b - fy->b}}, x, y);
  }
  // Divisions, casts, remainders...: integers that depend on N in ways not tracked.
  for (Type t : op->getResultTypes())
    if (!t.isIntOrIndex())
      return false;
  opaque.insert(result);
  return true;
}

bool BatchProof::select(Value result, const Condition &cond, Value x, Value y) {
  // Always one branch: the select is that branch.
  if (std::optional<bool> always = cond.constant()) {
    Value taken = *always ? x : y;
    if (std::optional<Affine> f = affine(taken); f && f->a != 0)
      forms[result] = *f;
    else if (opaque.contains(taken))
      opaque.insert(result);
    else if (!isInvariant(taken))
      return false;
    // An invariant branch (a constant or a value that does not depend on N): so is the result.
    return true;
  }
  // Both affine: the form it takes for large N, if it agrees below the turn too.
  std::optional<Affine> fx = affine(x), fy = affine(y);
  if (!fx || !fy) {
    opaque.insert(result);
    return true;
  }
  int64_t turn = cond.turn();
  Affine tail = cond.at(turn + 1) ? *fx : *fy;
  for (int64_t n = 0; n <= turn + 1; ++n)
    if ((cond.at(n) ? *fx : *fy).at(n) != tail.at(n)) {
      opaque.insert(result);
      return true;
    }
  forms[result] = tail;
  return true;
}

//===----------------------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------------------===//

/// Whether `op` clamps an index of loop `l` (over [0, F N)) to a range that holds it: min with
/// a bound of at least F N - 1, max with a constant of at most 0. Such an index is l itself.
bool BatchProof::isHarmlessClamp(Operation *op, int64_t factor) const {
  if (!isa<arith::MinSIOp, arith::MaxSIOp>(op))
    return false;
  for (Value bound : op->getOperands()) {
    if (op->getParentOp()->isAncestor(bound.getParentBlock()->getParentOp()) &&
        !isa<BlockArgument>(bound) && bound.getDefiningOp() &&
        isa<arith::MinSIOp, arith::MaxSIOp, linalg::IndexOp>(bound.getDefiningOp()))
      continue; // the clamped index
    std::optional<Affine> f = affine(bound);
    if (!f)
      return false;
    if (isa<arith::MinSIOp>(op) ? !(f->a == factor && f->b >= -1) : !(f->a == 0 && f->b <= 0))
      return false;
  }
  return true;
}

/// The linalg.index under harmless clamps of `index`, if that is what it is.
static linalg::IndexOp clampedIndex(Value index) {
  while (Operation *def = index.getDefiningOp()) {
    if (auto direct = dyn_cast<linalg::IndexOp>(def))
      return direct;
    if (!isa<arith::MinSIOp, arith::MaxSIOp>(def))
      return nullptr;
    // The operand defined inside the body is the index; the other is the bound.
    Value inner = def->getOperand(0), other = def->getOperand(1);
    if (!inner.getDefiningOp() || isa<arith::ConstantOp>(inner.getDefiningOp()))
      std::swap(inner, other);
    index = inner;
  }
  return nullptr;
}

bool BatchProof::bodyKeepsImages(linalg::LinalgOp op, std::optional<unsigned> loop,
                                 int64_t factor) const {
  bool ok = true;
  // The image's own index reads the image's own slice of a batched tensor (a gather written
  // as tensor.extract at linalg.index, maybe clamped to the range it is in), and nothing else.
  std::function<bool(Value)> onlyImageIndex = [&](Value index) {
    for (OpOperand &use : index.getUses()) {
      Operation *user = use.getOwner();
      if (isHarmlessClamp(user, factor)) {
        if (!onlyImageIndex(user->getResult(0)))
          return false;
        continue;
      }
      auto extract = dyn_cast<tensor::ExtractOp>(user);
      std::optional<Batched> b = extract ? batched(extract.getTensor()) : std::nullopt;
      if (!b || b->factor != factor || use.getOperandNumber() != 1 + b->dim)
        return false;
    }
    return true;
  };
  op->walk([&](Operation *inner) {
    if (inner == op.getOperation())
      return;
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      if (loop && index.getDim() == *loop)
        ok &= onlyImageIndex(index);
      return;
    }
    if (loop && isHarmlessClamp(inner, factor))
      return; // its bound may be the batch extent; its uses were checked from the index
    for (OpOperand &use : inner->getOpOperands()) {
      Value operand = use.get();
      if (op->isAncestor(operand.getParentBlock()->getParentOp()) || isInvariant(operand))
        continue;
      auto extract = dyn_cast<tensor::ExtractOp>(inner);
      std::optional<Batched> b = batched(operand);
      if (!extract || use.getOperandNumber() != 0 || !b || !loop || b->factor != factor) {
        ok = false;
        continue;
      }
      linalg::IndexOp index = clampedIndex(extract.getIndices()[b->dim]);
      ok &= index && index.getDim() == *loop && op->isAncestor(index);
    }
  });
  return ok;
}

bool BatchProof::visitLinalg(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return false;
  // Loops of one iteration are 0 (a pooling window over the batch dim: n + 0).
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineExpr> ones;
  for (auto [k, extent] : llvm::enumerate(ranges))
    ones.push_back(extent == 1 ? getAffineConstantExpr(0, op.getContext())
                               : getAffineDimExpr(k, op.getContext()));
  auto mapOf = [&](OpOperand &operand) {
    return simplifyAffineMap(
        op.getMatchingIndexingMap(&operand).replaceDimsAndSymbols(ones, {}, ranges.size(), 0));
  };
  // The loop that walks the images: every batched operand reads its batch dim with it.
  std::optional<unsigned> loop;
  int64_t factor = 1;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<Batched> b = batched(operand.get());
    if (!b) {
      if (!isInvariant(operand.get()))
        return false;
      continue;
    }
    auto expr = dyn_cast<AffineDimExpr>(mapOf(operand).getResult(b->dim));
    if (!expr || (loop && (*loop != expr.getPosition() || factor != b->factor)))
      return false;
    loop = expr.getPosition();
    factor = b->factor;
  }
  if (!bodyKeepsImages(op, loop, factor))
    return false;
  if (!loop)
    return true; // nothing batched: weights computed at run time
  if (op.getIteratorTypesArray()[*loop] != utils::IteratorType::parallel)
    return isCheckOfEveryImage(op);
  // No other operand and no other dim reads the loop; every output carries it.
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = mapOf(operand);
    std::optional<Batched> b = batched(operand.get());
    for (auto [k, expr] : llvm::enumerate(map.getResults()))
      if (expr.isFunctionOfDim(*loop) && (!b || static_cast<int64_t>(k) != b->dim))
        return false;
    if (op.isDpsInit(&operand) && !b)
      return false;
  }
  for (auto [result, init] : llvm::zip(op->getResults(), op.getDpsInits()))
    tensors[result] = *batched(init);
  if (op.getNumReductionLoops() > 0) {
    uint64_t product = static_cast<uint64_t>(factor);
    for (auto [k, extent] : llvm::enumerate(ranges))
      if (k != *loop)
        product = llvm::SaturatingMultiply<uint64_t>(
            product, ShapedType::isDynamic(extent) ? kDynamicExtent : extent);
    work = llvm::SaturatingAdd(work, product);
  }
  return true;
}

bool BatchProof::visitPad(tensor::PadOp op) {
  if (!capturesOnlyInvariants(op))
    return false;
  for (auto pads : {op.getMixedLowPad(), op.getMixedHighPad()})
    for (OpFoldResult pad : pads)
      if (!isInvariant(pad))
        return false;
  std::optional<Batched> b = batched(op.getSource());
  if (!b)
    return true;
  if (!isConstantIntValue(op.getMixedLowPad()[b->dim], 0) ||
      !isConstantIntValue(op.getMixedHighPad()[b->dim], 0))
    return false;
  tensors[op.getResult()] = *b;
  return true;
}

bool BatchProof::visitCollapse(tensor::CollapseShapeOp op) {
  std::optional<Batched> b = batched(op.getSrc());
  if (!b)
    return true;
  for (auto [group, dims] : llvm::enumerate(op.getReassociationIndices())) {
    if (!llvm::is_contained(dims, b->dim))
      continue;
    // Image-major: static 1s before the batch dim, any static dims after it.
    bool onesBefore;
    std::optional<int64_t> after = staticProductAfter(dims, b->dim, op.getSrcType().getShape(), onesBefore);
    if (!after || !onesBefore || b->factor * *after > kMaxCoefficient)
      return false;
    tensors[op.getResult()] = Batched{static_cast<int64_t>(group), b->factor * *after};
    return true;
  }
  return false;
}

bool BatchProof::visitExpand(tensor::ExpandShapeOp op) {
  std::optional<Batched> b = batched(op.getSrc());
  SmallVector<OpFoldResult> shape = op.getMixedOutputShape();
  if (!b)
    return llvm::all_of(shape, [&](OpFoldResult r) { return isInvariant(r); });
  // The groups are returned by value: keep them alive while `dims` views one.
  SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
  ArrayRef<int64_t> dims = groups[b->dim];
  for (auto [k, r] : llvm::enumerate(shape))
    if (!llvm::is_contained(dims, static_cast<int64_t>(k)) && !isInvariant(r))
      return false;
  // The first dim of the group that is not a static 1 takes the images, as F' N; the dims
  // after it are static, F' times their product being the source's factor.
  for (auto [position, k] : llvm::enumerate(dims)) {
    if (isConstantIntValue(shape[k], 1))
      continue;
    std::optional<int64_t> outer = batchExtentFactor(shape[k]);
    if (!outer)
      return false;
    int64_t product = 1;
    for (int64_t later : dims.drop_front(position + 1)) {
      std::optional<int64_t> extent = getConstantIntValue(shape[later]);
      if (!extent)
        return false;
      product *= *extent;
    }
    if (*outer * product != b->factor)
      return false;
    tensors[op.getResult()] = Batched{k, *outer};
    return true;
  }
  return false;
}

/// extract_slice (dest empty) and insert_slice (dest batched): the whole batch dim, nothing
/// else batch-dependent.
bool BatchProof::visitSlice(OffsetSizeAndStrideOpInterface op, Value source, Value result,
                            std::optional<Batched> dest) {
  auto insert = dyn_cast<tensor::InsertSliceOp>(op.getOperation());
  auto extract = dyn_cast<tensor::ExtractSliceOp>(op.getOperation());
  // The sliced tensor (the source of an extract, the destination of an insert).
  std::optional<Batched> whole = insert ? dest : batched(source);
  std::optional<Batched> part = insert ? batched(source) : std::nullopt;
  if (!whole) {
    if (part)
      return false;
    for (auto list : {op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides()})
      for (OpFoldResult r : list)
        if (!isInvariant(r))
          return false;
    return true;
  }
  int64_t d = whole->dim;
  if (!isConstantIntValue(op.getMixedOffsets()[d], 0) ||
      !isConstantIntValue(op.getMixedStrides()[d], 1) ||
      batchExtentFactor(op.getMixedSizes()[d]) != std::optional<int64_t>(whole->factor))
    return false;
  for (auto list : {op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides()})
    for (auto [k, r] : llvm::enumerate(list))
      if (static_cast<int64_t>(k) != d && !isInvariant(r))
        return false;
  // Dims of size 1 may be dropped; the batch dim (size F N) is not.
  llvm::SmallBitVector dropped =
      insert ? insert.getDroppedDims() : extract.getDroppedDims();
  int64_t before = 0;
  for (int64_t k = 0; k < d; ++k)
    before += dropped.test(k);
  Batched sliced{d - before, whole->factor};
  if (insert) {
    if (!part || !(*part == sliced))
      return false;
    tensors[result] = *whole;
  } else {
    tensors[result] = sliced;
  }
  return true;
}

bool BatchProof::visitReshape(tensor::ReshapeOp op) {
  std::optional<Batched> b = batched(op.getSource());
  if (!b)
    return isInvariant(op.getShape());
  auto leading = leadingShapes.find(op.getShape());
  if (b->dim != 0 || leading == leadingShapes.end())
    return false;
  // Image b is elements [b F R, (b + 1) F R) of the source (R: the product of its other
  // dims) and must be [b F' R', (b + 1) F' R') of the result: F R = F' R'.
  auto rest = [](RankedTensorType type) -> std::optional<int64_t> {
    int64_t product = 1;
    for (int64_t extent : type.getShape().drop_front()) {
      if (ShapedType::isDynamic(extent))
        return std::nullopt;
      product *= extent;
    }
    return product;
  };
  std::optional<int64_t> from = rest(cast<RankedTensorType>(op.getSource().getType())),
                         to = rest(cast<RankedTensorType>(op.getResult().getType()));
  int64_t factor = leading->second;
  bool same = from && to ? b->factor * *from == factor * *to : b->factor == factor;
  if (!same)
    return false;
  tensors[op.getResult()] = Batched{0, factor};
  return true;
}

bool BatchProof::visitEmpty(tensor::EmptyOp op) {
  std::optional<Batched> b;
  for (auto [k, size] : llvm::enumerate(op.getMixedSizes())) {
    if (isInvariant(size))
      continue;
    std::optional<int64_t> factor = batchExtentFactor(size);
    if (b || !factor)
      return false;
    b = Batched{static_cast<int64_t>(k), *factor};
  }
  if (b)
    tensors[op.getResult()] = *b;
  return true;
}

bool BatchProof::visitAttention(kernel::AttentionOp op) {
  std::optional<Batched> b = batched(op.getInit());
  if (!b || b->dim + 2 >= op.getRank())
    return llvm::all_of(op->getOperands(), [&](Value v) { return isInvariant(v); }) && !b;
  for (Value v : {op.getQuery(), op.getKey(), op.getValue()})
    if (batched(v) != b)
      return false;
  if (Value bias = op.getBias()) {
    if (std::optional<Batched> biasBatch = batched(bias)) {
      if (biasBatch->factor != b->factor || (*op.getBiasDims())[biasBatch->dim] != b->dim)
        return false;
    } else if (!isInvariant(bias)) {
      return false;
    }
  }
  tensors[op.getResult()[0]] = *b;
  // Multiply-adds per image: q·k and p·v over the other dims.
  auto type = cast<RankedTensorType>(op.getInit().getType());
  auto query = cast<RankedTensorType>(op.getQuery().getType());
  auto key = cast<RankedTensorType>(op.getKey().getType());
  int64_t keys = key.getDimSize(op.getKeyTransposed() ? op.getRank() - 1 : op.getRank() - 2);
  uint64_t product = static_cast<uint64_t>(b->factor);
  auto times = [&](int64_t extent) {
    product = llvm::SaturatingMultiply<uint64_t>(
        product, ShapedType::isDynamic(extent) ? kDynamicExtent : extent);
  };
  for (int64_t d = 0; d + 1 < op.getRank(); ++d)
    if (d != b->dim)
      times(type.getDimSize(d));
  times(keys);
  int64_t depth = query.getDimSize(op.getRank() - 1), width = type.getDimSize(op.getRank() - 1);
  times(ShapedType::isDynamic(depth) || ShapedType::isDynamic(width) ? ShapedType::kDynamic
                                                                     : depth + width);
  work = llvm::SaturatingAdd(work, product);
  return true;
}

bool BatchProof::visit(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp);
  if (auto attention = dyn_cast<kernel::AttentionOp>(op))
    return visitAttention(attention);
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return visitPad(pad);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return visitCollapse(collapse);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return visitExpand(expand);
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return visitSlice(slice, slice.getSource(), slice.getResult(), std::nullopt);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return visitSlice(insert, insert.getSource(), insert.getResult(), batched(insert.getDest()));
  if (auto reshape = dyn_cast<tensor::ReshapeOp>(op))
    return visitReshape(reshape);
  if (auto empty = dyn_cast<tensor::EmptyOp>(op))
    return visitEmpty(empty);
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    if (std::optional<Batched> b = batched(cast.getSource()))
      tensors[cast.getResult()] = *b;
    return true;
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    std::optional<Batched> b = batched(dim.getSource());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!b)
      return isInvariant(dim.getIndex());
    if (!index)
      return false;
    if (*index == b->dim)
      forms[dim.getResult()] = Affine{b->factor, 0};
    return true;
  }
  // A shape tensor whose first element is the batch extent, for a reshape that keeps the
  // batch leading.
  if (auto shape = dyn_cast<tensor::FromElementsOp>(op)) {
    auto elements = shape.getElements();
    if (llvm::all_of(elements, [&](Value v) { return isInvariant(v); }))
      return true;
    std::optional<int64_t> factor = batchExtentFactor(elements.front());
    if (!factor || !llvm::all_of(elements.drop_front(), [&](Value v) { return isInvariant(v); }))
      return false;
    leadingShapes[shape.getResult()] = *factor;
    return true;
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    std::optional<Batched> b = batched(concat.getInputs().front());
    for (Value input : concat.getInputs())
      if (batched(input) != b || (!b && !isInvariant(input)))
        return false;
    if (b) {
      if (static_cast<int64_t>(concat.getDim()) == b->dim)
        return false;
      tensors[concat.getResult()] = *b;
    }
    return true;
  }
  // A run-time check that holds for every batch extent holds per image too.
  if (auto check = dyn_cast<prim::CheckOp>(op)) {
    Value condition = check->getOperand(0);
    auto it = conditions.find(condition);
    if (it != conditions.end())
      return it->second.constant() == std::optional<bool>(true);
    return isInvariant(condition);
  }
  // Anything else: fine while it reads nothing batch-dependent (its results then do not
  // depend on the batch either), or index arithmetic on the batch extent.
  if (llvm::all_of(op->getOperands(), [&](Value v) { return isInvariant(v); }))
    return capturesOnlyInvariants(op);
  if (llvm::any_of(op->getOperands(),
                   [&](Value v) { return tensors.contains(v) || leadingShapes.contains(v); }))
    return false;
  return op->getNumRegions() == 0 && visitIndexArithmetic(op);
}
