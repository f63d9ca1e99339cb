//===- EvaluateShapes.cpp - prim.dim, prim.check and prim.bind_shape --------------------===//
//
// `prim.bind_shape` binds module symbols to the actual extents the first time it sees them
// and checks every later use: within one evaluation a symbol has one value, and it must lie
// in the range its `prim.symbol` declares.
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;
namespace prim = tcc::prim;

namespace {
/// floor(a / b) and ceil(a / b) for b > 0.
int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t ceilDiv(int64_t a, int64_t b) { return a / b + ((a % b != 0) && ((a < 0) == (b < 0))); }

/// The value of `expr` with symbol i = values[i]; std::nullopt when it reads an unbound
/// symbol (or divides by a non-positive number).
std::optional<int64_t> evaluateExpr(AffineExpr expr,
                                    llvm::ArrayRef<std::optional<int64_t>> values) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbol.getPosition() < values.size() ? values[symbol.getPosition()] : std::nullopt;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<int64_t> lhs = evaluateExpr(binary.getLHS(), values);
  std::optional<int64_t> rhs = evaluateExpr(binary.getRHS(), values);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add: return *lhs + *rhs;
  case AffineExprKind::Mul: return *lhs * *rhs;
  case AffineExprKind::Mod:
    return *rhs > 0 ? std::optional<int64_t>(*lhs - floorDiv(*lhs, *rhs) * *rhs) : std::nullopt;
  case AffineExprKind::FloorDiv:
    return *rhs > 0 ? std::optional<int64_t>(floorDiv(*lhs, *rhs)) : std::nullopt;
  case AffineExprKind::CeilDiv:
    return *rhs > 0 ? std::optional<int64_t>(ceilDiv(*lhs, *rhs)) : std::nullopt;
  default: return std::nullopt;
  }
}

/// An error unless `value` lies in the range the symbol's `prim.symbol` declares.
llvm::Error checkSymbolRange(prim::BindShapeOp op, FlatSymbolRefAttr ref, int64_t value) {
  auto symbol = SymbolTable::lookupNearestSymbolFrom<prim::SymbolOp>(op, ref);
  if (!symbol)
    return llvm::Error::success();
  int64_t min = static_cast<int64_t>(symbol.getMin());
  int64_t divisor = static_cast<int64_t>(symbol.getDivisor());
  std::optional<int64_t> max;
  if (symbol.getMax())
    max = static_cast<int64_t>(*symbol.getMax());
  if (value < min || (max && value > *max) || (divisor > 0 && value % divisor != 0))
    return makeError("symbol @" + ref.getValue() + " = " + llvm::Twine(value) +
                     " is outside its range: min " + llvm::Twine(min) + ", max " +
                     (max ? llvm::Twine(*max) : llvm::Twine("none")) + ", divisor " +
                     llvm::Twine(divisor));
  return llvm::Error::success();
}

llvm::Expected<Results> bindShape(prim::BindShapeOp op, const Environment &env,
                                  EvaluationState &state) {
  const Tensor &operand = env.get(op.getOperand());
  AffineMap map = op.getShape();
  llvm::ArrayRef<Attribute> symbols = op.getSymbols().getValue();
  if (map.getNumResults() != operand.shape.size() || map.getNumSymbols() != symbols.size())
    return makeError("the map does not fit " + llvm::Twine(operand.shape.size()) + " dims and " +
                     llvm::Twine(symbols.size()) + " symbols");
  // First bind the symbols that are a dim on their own, then check every dim.
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    auto symbol = dyn_cast<AffineSymbolExpr>(expr);
    if (!symbol)
      continue;
    auto ref = cast<FlatSymbolRefAttr>(symbols[symbol.getPosition()]);
    int64_t extent = operand.shape[d];
    auto [it, inserted] = state.symbolValues.try_emplace(ref.getValue(), extent);
    if (!inserted && it->second != extent)
      return makeError("dim " + llvm::Twine(d) + " is " + llvm::Twine(extent) + " but symbol @" +
                       ref.getValue() + " is already bound to " + llvm::Twine(it->second));
    if (inserted)
      if (llvm::Error error = checkSymbolRange(op, ref, extent))
        return std::move(error);
  }
  llvm::SmallVector<std::optional<int64_t>> values;
  for (Attribute attr : symbols) {
    auto it = state.symbolValues.find(cast<FlatSymbolRefAttr>(attr).getValue());
    values.push_back(it == state.symbolValues.end() ? std::nullopt
                                                    : std::optional<int64_t>(it->second));
  }
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    // A dim whose expression reads a still-unbound symbol cannot be checked yet.
    std::optional<int64_t> expected = evaluateExpr(expr, values);
    if (expected && *expected != operand.shape[d]) {
      std::string text;
      if (!isa<AffineConstantExpr>(expr))
        llvm::raw_string_ostream(text) << expr << " = ";
      return makeError("dim " + llvm::Twine(d) + " is " + llvm::Twine(operand.shape[d]) +
                       " but the shape map says " + text + llvm::Twine(*expected));
    }
  }
  return Results{};
}

llvm::Expected<Results> dim(prim::DimOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  int64_t index = static_cast<int64_t>(op.getIndex());
  if (index < 0 || index >= static_cast<int64_t>(operand.shape.size()))
    return makeError("dim " + llvm::Twine(index) + " is out of range for rank " +
                     llvm::Twine(operand.shape.size()));
  llvm::Expected<Tensor> result = makeTensor(op.getType(), {});
  if (!result)
    return result.takeError();
  result->setInt(0, operand.shape[index]);
  return Results{std::move(*result)};
}

llvm::Expected<Results> check(prim::CheckOp op, const Environment &env) {
  if (env.get(op.getCondition()).getInt(0) == 0)
    return makeError(op.getMessage());
  return Results{};
}
} // namespace

FamilyResult tcc::eval::detail::evaluateShapeOp(Operation *op, const Environment &env,
                                                EvaluationState &state) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case([&](prim::DimOp typed) { return dim(typed, env); })
      .Case([&](prim::CheckOp typed) { return check(typed, env); })
      .Case([&](prim::BindShapeOp typed) { return bindShape(typed, env, state); })
      .Case([&](prim::SymbolOp) { return llvm::Expected<Results>(Results{}); })
      .Case([&](prim::DataSymbolOp typed) -> llvm::Expected<Results> {
        // A computed symbol is its value; below the minimum 0 there is none (Range's delta 0).
        const Tensor &value = env.get(typed.getValue());
        if (value.getInt(0) < 0)
          return makeError("symbol '" + typed.getSymbol().str() + "', computed from the "
                           "inputs' data, is " + std::to_string(value.getInt(0)) +
                           ", outside its range [0, unbounded]");
        return Results{value};
      })
      .Default(std::nullopt);
}
