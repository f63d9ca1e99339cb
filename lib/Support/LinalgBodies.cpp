//===- LinalgBodies.cpp - what a linalg op's body computes ------------------------------===//
#include "tcc/Support/LinalgBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

bool tcc::accumulatesProducts(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 || !op.getBlock())
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  Operation *add = yield.getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add))
    return false;
  return llvm::any_of(add->getOperands(), [](Value term) {
    return isa_and_nonnull<arith::MulFOp, arith::MulIOp>(term.getDefiningOp());
  });
}

/// The product of `out + product` yielded by `op`'s body of `ops` operations (the yield
/// included), with two inputs and one output, the add and the product of types Add and Mul
/// (float or integer); null when the body is not so.
template <typename Add, typename Mul>
static Mul accumulatedProduct(linalg::LinalgOp op, size_t ops) {
  Block *body = op.getBlock();
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !body || body->getNumArguments() != 3 || body->getOperations().size() != ops)
    return nullptr;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return nullptr;
  auto add = yield.getOperand(0).getDefiningOp<Add>();
  if (!add)
    return nullptr;
  Value acc = body->getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getRhs() == acc ? add.getLhs() : nullptr;
  return product ? product.template getDefiningOp<Mul>() : nullptr;
}

bool tcc::isQuadMultiplyAdd(linalg::LinalgOp op) {
  auto mul = accumulatedProduct<arith::AddIOp, arith::MulIOp>(op, 5);
  if (!mul || !mul.getType().isInteger(32))
    return false;
  auto u = mul.getLhs().getDefiningOp<arith::ExtUIOp>();
  auto s = mul.getRhs().getDefiningOp<arith::ExtSIOp>();
  Block *body = op.getBlock();
  return u && s && u.getIn() == body->getArgument(0) && s.getIn() == body->getArgument(1) &&
         u.getIn().getType().isInteger(8) && s.getIn().getType().isInteger(8);
}

bool tcc::isIntegerMultiplyAdd(linalg::LinalgOp op) {
  auto mul = accumulatedProduct<arith::AddIOp, arith::MulIOp>(op, 3);
  if (!mul)
    return false;
  Value x = op.getBlock()->getArgument(0), y = op.getBlock()->getArgument(1);
  return (mul.getLhs() == x && mul.getRhs() == y) || (mul.getLhs() == y && mul.getRhs() == x);
}

bool tcc::isWideningMultiplyAdd(linalg::LinalgOp op, Type narrow) {
  auto mul = accumulatedProduct<arith::AddFOp, arith::MulFOp>(op, 5);
  if (!mul)
    return false;
  Value factors[] = {mul.getLhs(), mul.getRhs()};
  for (auto [k, factor] : llvm::enumerate(factors)) {
    auto ext = factor.getDefiningOp<arith::ExtFOp>();
    if (!ext || ext.getIn() != op.getBlock()->getArgument(k) || ext.getIn().getType() != narrow)
      return false;
  }
  return true;
}

bool tcc::isMultiplyAdd(linalg::LinalgOp op) {
  auto mul = accumulatedProduct<arith::AddFOp, arith::MulFOp>(op, 3);
  if (!mul)
    return false;
  Value x = op.getBlock()->getArgument(0), y = op.getBlock()->getArgument(1);
  return (mul.getLhs() == x && mul.getRhs() == y) || (mul.getLhs() == y && mul.getRhs() == x);
}

std::optional<std::pair<BlockArgument, bool>> tcc::convertedByte(Value value) {
  Operation *convert = value.getDefiningOp();
  if (!isa_and_nonnull<arith::UIToFPOp, arith::SIToFPOp>(convert))
    return std::nullopt;
  Value source = convert->getOperand(0);
  bool isSigned = isa<arith::SIToFPOp>(convert);
  if (auto ext = source.getDefiningOp<arith::ExtUIOp>()) {
    source = ext.getIn();
    isSigned = false;
  } else if (auto ext = source.getDefiningOp<arith::ExtSIOp>()) {
    source = ext.getIn();
  }
  auto arg = dyn_cast<BlockArgument>(source);
  if (!arg || !arg.getType().isInteger(8))
    return std::nullopt;
  return std::make_pair(arg, isSigned);
}

std::optional<tcc::ByteFactor> tcc::byteMultiplyAdd(linalg::LinalgOp op) {
  for (size_t ops : {4, 5}) {
    auto mul = accumulatedProduct<arith::AddFOp, arith::MulFOp>(op, ops);
    if (!mul)
      continue;
    Block *body = op.getBlock();
    for (unsigned k = 0; k < 2; ++k) {
      Value converted = k == 0 ? mul.getLhs() : mul.getRhs(), other = k == 0 ? mul.getRhs() : mul.getLhs();
      std::optional<std::pair<BlockArgument, bool>> byte = convertedByte(converted);
      if (!byte || byte->first.getOwner() != body || byte->first.getArgNumber() > 1)
        continue;
      unsigned input = byte->first.getArgNumber();
      if (other != body->getArgument(1 - input))
        continue;
      // The conversions are the body's only other ops (one, or an extension and one).
      size_t conversions = body->getOperations().size() - 3;
      Operation *first = converted.getDefiningOp();
      if ((conversions == 2) != (first->getOperand(0) != byte->first))
        continue;
      return ByteFactor{input, byte->second};
    }
  }
  return std::nullopt;
}
