//===- ComputedSymbols.cpp - extents computed from the inputs' data --------------------===//
//
// Some extents are neither static nor a dim of an input: Range's length when its bounds are
// graph inputs. Such an extent becomes a `computed` module symbol whose value the model
// computes from input elements before the run (prim.data_symbol; tcc-entry-signature moves
// the computation into @data_symbols), so buffers are still planned from symbols and nothing
// is allocated during a run.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// A symbol name from an ONNX node name: letters, digits and `_`.
std::string sanitize(StringRef name) {
  std::string out;
  for (char c : name)
    out.push_back(llvm::isAlnum(c) ? c : '_');
  if (out.empty() || llvm::isDigit(out.front()))
    out.insert(out.begin(), 'n');
  return out;
}

/// The ONNX node's name (its NameLoc), or its op type.
std::string nodeName(NodeRewriter &n) {
  if (auto named = dyn_cast<NameLoc>(n.getLoc()))
    if (!named.getName().getValue().empty())
      return named.getName().str();
  return n.getOpType().str();
}

} // namespace

/// Whether an index value reads tensor elements (a bound that is a graph input's value, not
/// a dim or a constant).
bool tcc::decompose::readsTensorData(OpFoldResult value) {
  auto v = dyn_cast<Value>(value);
  SmallVector<Value> work;
  if (v)
    work.push_back(v);
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (auto extract = dyn_cast<tensor::ExtractOp>(op))
      if (!matchPattern(extract.getTensor(), m_Constant()))
        return true;
    llvm::append_range(work, op->getOperands());
  }
  return false;
}

Value tcc::decompose::readScalar(NodeRewriter &n, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape() || type.getNumElements() != 1)
    return Value();
  OpBuilder &b = n.getBuilder();
  SmallVector<Value> zeros(type.getRank(), arith::ConstantIndexOp::create(b, n.getLoc(), 0));
  return tensor::ExtractOp::create(b, n.getLoc(), value, zeros);
}

Value tcc::decompose::computedSymbol(NodeRewriter &n, Value count, StringRef what) {
  return createDataSymbol(n.getBuilder(), n.getNode()->getParentOfType<ModuleOp>(), n.getLoc(),
                          nodeName(n) + "_" + what.str(), count);
}

Value tcc::decompose::createDataSymbol(OpBuilder &b, ModuleOp module, Location loc,
                                       StringRef what, Value count) {
  std::string base = sanitize(what);
  std::string name = base;
  for (int k = 1; SymbolTable::lookupSymbolIn(module, name); ++k)
    name = base + "_" + std::to_string(k);
  // After the module's other symbols, so symbols keep the order the nodes made them in.
  OpBuilder atModule(module.getBodyRegion());
  for (auto existing : module.getOps<prim::SymbolOp>())
    atModule.setInsertionPointAfter(existing);
  auto symbol = prim::SymbolOp::create(atModule, loc, name, /*min=*/0, IntegerAttr(),
                                       /*divisor=*/1);
  symbol.setComputed(true);
  return prim::DataSymbolOp::create(b, loc, b.getIndexType(),
                                    FlatSymbolRefAttr::get(symbol.getSymNameAttr()), count);
}

FailureOr<Value> tcc::decompose::runtimeRangeCount(NodeRewriter &n, Value start, Value limit,
                                                   Value delta) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value s = readScalar(n, start), l = readScalar(n, limit), d = readScalar(n, delta);
  if (!s || !l || !d) {
    n.emitError() << "start, limit and delta must be scalars (one element, static shape)";
    return failure();
  }
  Type element = s.getType();
  Value index;
  Value bad;
  if (auto integer = dyn_cast<IntegerType>(element)) {
    if (!integer.isSignless() || integer.getWidth() == 1) {
      n.emitError() << "Range of " << element << " is not supported";
      return failure();
    }
    // count = ceil((l - s) / d), in i64; d == 0 has no count.
    Type i64 = b.getI64Type();
    auto widen = [&](Value v) -> Value {
      return integer.getWidth() < 64 ? arith::ExtSIOp::create(b, loc, i64, v).getResult() : v;
    };
    Value si = widen(s), li = widen(l), di = widen(d);
    Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
    Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
    bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, di, zero);
    Value safe = arith::SelectOp::create(b, loc, bad, one, di);
    Value count = arith::CeilDivSIOp::create(b, loc, arith::SubIOp::create(b, loc, li, si), safe);
    count = arith::MaxSIOp::create(b, loc, count, zero);
    index = arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
  } else {
    // count = ceil((l - s) / d) in f64; d == 0, NaN or a count past 2^53 has none.
    Type f64 = b.getF64Type();
    auto widen = [&](Value v) -> Value {
      return v.getType() == f64 ? v : arith::ExtFOp::create(b, loc, f64, v).getResult();
    };
    Value sf = widen(s), lf = widen(l), df = widen(d);
    Value c = math::CeilOp::create(
        b, loc, arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, lf, sf), df));
    Value zero = arith::ConstantFloatOp::create(b, loc, cast<FloatType>(f64), APFloat(0.0));
    Value limitValue =
        arith::ConstantFloatOp::create(b, loc, cast<FloatType>(f64), APFloat(9007199254740992.0));
    bad = arith::OrIOp::create(
        b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, df, zero),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, c, limitValue));
    Value clamped = arith::MaximumFOp::create(
        b, loc, arith::SelectOp::create(b, loc, bad, zero, c), zero);
    index = arith::IndexCastOp::create(
        b, loc, b.getIndexType(), arith::FPToSIOp::create(b, loc, b.getI64Type(), clamped));
  }
  // -1 (below the symbol's minimum 0) is how the run learns that there is no count.
  Value minusOne = arith::ConstantIndexOp::create(b, loc, -1);
  index = arith::SelectOp::create(b, loc, bad, minusOne, index);
  return computedSymbol(n, index, "count");
}
