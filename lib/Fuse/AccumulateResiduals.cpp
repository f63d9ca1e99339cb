//===- AccumulateResiduals.cpp - a residual add becomes the contraction's starting value -===//
//
// A residual block ends in a convolution whose epilogue adds the block's input:
//
//   c[p] = 0 + sum_k a[p, k] b[k]            (the contraction, from a zero fill)
//   y[p] = f((c[p] + bias[p]) + r[p])        (its epilogue; r read at p alone, as a term of
//                                             the sum c is a term of: also (c + b) + (r + b'))
//
// The sum may start from r instead (the same terms, reassociated):
//
//   c'[p] = r[p] + sum_k a[p, k] b[k]
//   y[p]  = f(c'[p] + bias[p])
//
// When r is not read after the contraction, bufferization then writes the result into r's
// buffer: the tile loads its accumulators from r where it stored zeros, and stores over
// them, so the kernel reads one buffer and writes it once instead of reading r and writing
// a second buffer the cache must first fetch (ResNet-50's 56x56 maps: 3.2 MB each).
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Fuse/Passes.h"
#include "tcc/Support/LinalgBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace tcc {
#define GEN_PASS_DEF_ACCUMULATERESIDUALS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// A float contraction (`out + a * b`) that starts from a fill of +0.0 and whose result
/// `generic` alone reads.
linalg::LinalgOp zeroStartedContraction(Value value, linalg::GenericOp generic) {
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  if (!op || op->getNumResults() != 1 || op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      !tcc::accumulatesProducts(op) || !value.hasOneUse() ||
      op->getBlock() != generic->getBlock() ||
      !isa<FloatType>(getElementTypeOrSelf(value.getType())))
    return nullptr;
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!fill || !matchPattern(fill.getInputs()[0], m_PosZeroFloat()))
    return nullptr;
  return op;
}

/// The addf links above `v` while each value on the way has no other use: `v`, then its
/// user when that is an addf, and so on.
SmallVector<Value> sumsAbove(Value v) {
  SmallVector<Value> chain = {v};
  while (v.hasOneUse()) {
    auto add = dyn_cast<arith::AddFOp>(*v.getUsers().begin());
    if (!add)
      break;
    v = add.getResult();
    chain.push_back(v);
  }
  return chain;
}

/// For `add = r + x` (either order): whether `add` and `c` are terms of one sum of single-use
/// addf links (c, add, ..., their first common link), so that dropping r from it (`add`
/// becomes x) and adding r to c leaves the sum's value the same, reassociated.
bool sharesSum(arith::AddFOp add, Value c) {
  SmallVector<Value> fromC = sumsAbove(c);
  SmallVector<Value> fromAdd = sumsAbove(add.getResult());
  for (Value link : fromAdd)
    if (llvm::is_contained(fromC, link))
      // Every link below the common one, on both sides, has one use (sumsAbove), and c
      // must be read only there.
      return c.hasOneUse();
  return false;
}

/// Whether every reader of `value` other than `except` is a linalg op before `point` in its
/// block. A pad, a slice or a reshape would alias it later (kernel formation writes a padded
/// copy's producer into the padded buffer; bufferization could not then write in place).
bool readBefore(Value value, Operation *except, Operation *point) {
  for (Operation *user : value.getUsers())
    if (user != except && (!isa<linalg::LinalgOp>(user) || user->getBlock() != point->getBlock() ||
                           !user->isBeforeInBlock(point)))
      return false;
  return true;
}

struct Residual {
  linalg::GenericOp epilogue;
  linalg::LinalgOp contraction;
  unsigned residualInput; ///< the epilogue's input operand that is r
  arith::AddFOp add;      ///< `r + rest` in the epilogue's body, a term of c's sum
  Value rest;
};

std::optional<Residual> match(linalg::GenericOp generic) {
  if (!generic.hasPureTensorSemantics() || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0 || generic->getNumResults() != 1)
    return std::nullopt;
  AffineMap outMap = generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  if (!outMap.isIdentity())
    return std::nullopt;
  Block *body = generic.getBody();
  for (OpOperand *input : generic.getDpsInputOperands()) {
    linalg::LinalgOp contraction = zeroStartedContraction(input->get(), generic);
    if (!contraction || !generic.getMatchingIndexingMap(input).isIdentity())
      continue;
    Value c = body->getArgument(input->getOperandNumber());
    for (OpOperand *other : generic.getDpsInputOperands()) {
      Value r = other->get();
      Value rArg = body->getArgument(other->getOperandNumber());
      // (r once among the epilogue's operands: another would read the new sums.)
      if (other == input || r.getType() != input->get().getType() ||
          !generic.getMatchingIndexingMap(other).isIdentity() || !rArg.hasOneUse() ||
          llvm::count(generic->getOperands(), r) != 1)
        continue;
      auto add = dyn_cast<arith::AddFOp>(*rArg.getUsers().begin());
      if (!add)
        continue;
      Value rest = add.getLhs() == rArg ? add.getRhs() : add.getLhs();
      if (rest == rArg || !sharesSum(add, c))
        continue;
      // r must be a buffer of its own that nothing reads after the contraction: a linalg
      // op's result (not an input of @main, a constant or a view), read before the epilogue
      // (where the contraction will run).
      if (!r.getDefiningOp<linalg::LinalgOp>() ||
          r.getDefiningOp()->getBlock() != generic->getBlock() || !readBefore(r, generic, generic))
        continue;
      return Residual{generic, contraction, other->getOperandNumber(), add, rest};
    }
  }
  return std::nullopt;
}

/// The epilogue without input `index`.
linalg::GenericOp dropInput(linalg::GenericOp generic, unsigned index) {
  OpBuilder b(generic);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (input->getOperandNumber() != index) {
      inputs.push_back(input->get());
      maps.push_back(generic.getMatchingIndexingMap(input));
    }
  maps.push_back(generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)));
  auto replacement =
      linalg::GenericOp::create(b, generic.getLoc(), generic->getResultTypes(), inputs,
                                generic.getDpsInits(), maps, generic.getIteratorTypesArray());
  replacement->setDiscardableAttrs(generic->getDiscardableAttrDictionary());
  replacement.getRegion().takeBody(generic.getRegion());
  replacement.getBody()->eraseArgument(index);
  generic->replaceAllUsesWith(replacement->getResults());
  generic->erase();
  return replacement;
}

struct AccumulateResidualsPass : tcc::impl::AccumulateResidualsBase<AccumulateResidualsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> epilogues;
    getOperation().walk([&](linalg::GenericOp op) { epilogues.push_back(op); });
    for (linalg::GenericOp generic : epilogues) {
      std::optional<Residual> found = match(generic);
      if (!found)
        continue;
      // The contraction runs just before its epilogue, after every other reader of r
      // (it only moves later: its operands are defined before it already).
      found->contraction->moveBefore(generic);
      found->contraction.getDpsInitOperand(0)->set(
          generic.getDpsInputOperand(found->residualInput)->get());
      found->add.getResult().replaceAllUsesWith(found->rest);
      found->add->erase();
      dropInput(generic, found->residualInput);
    }
  }
};

} // namespace
