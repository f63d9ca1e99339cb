//===- LookupTables.cpp - a function of one 8-bit value as a table of its 256 results ---===//
//
// tcc-cpu-lookup-tables. In a kernel's elementwise linalg.generic, the ops that depend on one
// 8-bit integer v and on constants alone compute a function of v's 256 bit patterns. A
// quantized model is full of them: between two quantized convolutions EfficientNet's swish
// dequantizes v, takes its sigmoid (a polynomial by now), requantizes it, multiplies it by v's
// own value, requantizes the product and dequantizes it again for the next convolution, some
// 80 ops per element. Where such a function has one result that ops outside it use, and
// replacing it removes at least `min-ops` ops, its 256 results are computed while compiling by
// folding the very same ops (IEEE arithmetic, integer ops and selects), stored as a private
// constant table, and the ops become one load from the
// table at zext(v) (tcc-tile-contractions' epilogue loads a vector of them with a gather, or,
// on AVX512-BW, a table of entries that fit 16 bits with word permutes; an integer result
// narrower than 32 bits is kept as 32 bits, truncated after the load, since vector gathers
// load 32- or 64-bit lanes).
// The index is always inside the 256 entries: v zero-extended, or, where v truncates a
// 32-bit value (lower::convert's saturation of a float to u8: trunc(fptosi(min(max(x, 0),
// 255)))), that value itself, on 32-bit lanes (tablePosition).
//
// Only ops with an exact IEEE or integer meaning are taken: arith's elementwise ops and math's
// fma, roundeven, floor, ceil, trunc, absf and copysign. A body that converts bytes and has
// transcendental ops (a quantized GELU's erf) first gets tcc-approximate-math's rewrites,
// the polynomial the run would compute later, so they fold like the rest; in other bodies a
// transcendental op ends the function there. The table holds the exact
// results; where an op's fastmath flags let the compiled code compute it otherwise (the
// sigmoid's division carries `arcp`, which x86 code computes as a reciprocal estimate and a
// Newton step) the run without the table could differ in a float's last bits, and a
// requantization after it by a step where a value falls near a rounding boundary. (The
// QOperator EfficientNet-B0's swish became a table when tcc-fuse-elementwise began fusing
// broadcasts into long bodies; a one-step difference of its outputs from ONNX Runtime's seen
// then was a two-thread race, not the table: tcc-cpu-single-lane-stores. Its outputs equal
// ONNX Runtime's exactly at one thread, and at two since that fix.) A
// float-to-integer conversion out of the result's range is poison in the run; the table holds 0
// there (a select always discards it in the quantization code that produces it).
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "dialects/kernel/KernelDialect.h"
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_CPULOOKUPTABLES
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Whether folding `op` on constants gives exactly what the compiled code computes.
bool foldsExactly(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1 || !op->hasTrait<OpTrait::Elementwise>())
    return false;
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!t.isIntOrFloat())
      return false;
  if (isa<arith::ArithDialect>(op->getDialect()))
    return !isa<arith::ConstantOp>(op);
  return isa<math::FmaOp, math::RoundEvenOp, math::FloorOp, math::CeilOp, math::TruncOp,
             math::AbsFOp, math::CopySignOp>(op);
}

/// A function of one 8-bit value inside a body: the ops that compute `result` from `source`
/// and constants, in body order, and how many of them become dead once `result` is a load.
struct Candidate {
  Value source, result;
  SmallVector<Operation *> slice;
  int64_t removed = 0;
};

/// The best candidate of `body` for `source`, if replacing it removes at least `minOps` ops.
std::optional<Candidate> candidateFor(Block *body, Value source, int64_t minOps) {
  // Forward: the ops whose operands are all `source`, cone results or constants.
  llvm::SetVector<Operation *> cone;
  llvm::DenseSet<Value> inCone = {source};
  for (Operation &op : body->without_terminator()) {
    if (!foldsExactly(&op))
      continue;
    bool reads = false, closed = true;
    for (Value operand : op.getOperands()) {
      if (inCone.contains(operand))
        reads = true;
      else if (!matchPattern(operand, m_Constant()))
        closed = false;
    }
    if (!reads || !closed)
      continue;
    cone.insert(&op);
    inCone.insert(op.getResult(0));
  }
  if (static_cast<int64_t>(cone.size()) < minOps)
    return std::nullopt;
  // The cone's outputs: results that ops outside it (or the yield) read.
  SmallVector<Value> outputs;
  for (Operation *op : cone)
    if (llvm::any_of(op->getResult(0).getUsers(),
                     [&](Operation *user) { return !cone.contains(user); }))
      outputs.push_back(op->getResult(0));
  auto sliceOf = [&](Value output) {
    llvm::SetVector<Operation *> slice;
    SmallVector<Value> work = {output};
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || !cone.contains(def) || !slice.insert(def))
        continue;
      llvm::append_range(work, def->getOperands());
    }
    return slice;
  };
  std::optional<Candidate> best;
  for (Value output : outputs) {
    llvm::SetVector<Operation *> slice = sliceOf(output);
    // Ops other outputs still need stay.
    llvm::DenseSet<Operation *> kept;
    for (Value other : outputs)
      if (other != output)
        for (Operation *op : sliceOf(other))
          kept.insert(op);
    int64_t removed = llvm::count_if(slice, [&](Operation *op) { return !kept.contains(op); });
    if (removed < minOps || (best && removed <= best->removed))
      continue;
    Candidate c{source, output, {}, removed};
    for (Operation *op : cone)
      if (slice.contains(op))
        c.slice.push_back(op);
    best = std::move(c);
  }
  return best;
}

/// The value `v` has in one evaluation: computed there, or a constant.
Attribute valueOf(Value v, const llvm::DenseMap<Value, Attribute> &values) {
  Attribute attr = values.lookup(v);
  if (!attr)
    matchPattern(v, m_Constant(&attr));
  return attr;
}

/// `op` folded on `operands`; a float-to-integer conversion out of range (poison) is 0.
/// A select is chosen here: its folder looks at the condition in the IR, not at `operands`.
Attribute evaluate(Operation *op, ArrayRef<Attribute> operands,
                   const llvm::DenseMap<Value, Attribute> &values) {
  if (isa<arith::SelectOp>(op)) {
    auto condition = dyn_cast<IntegerAttr>(operands[0]);
    return condition ? operands[condition.getValue().isZero() ? 2 : 1] : Attribute();
  }
  // fma has no folder: a * b + c rounded once, as the instruction computes it.
  if (isa<math::FmaOp>(op)) {
    auto a = dyn_cast<FloatAttr>(operands[0]), b = dyn_cast<FloatAttr>(operands[1]),
         c = dyn_cast<FloatAttr>(operands[2]);
    if (!a || !b || !c)
      return nullptr;
    APFloat result = a.getValue();
    result.fusedMultiplyAdd(b.getValue(), c.getValue(), APFloat::rmNearestTiesToEven);
    return FloatAttr::get(a.getType(), result);
  }
  SmallVector<OpFoldResult> results;
  if (succeeded(op->fold(operands, results)) && results.size() == 1) {
    if (auto attr = dyn_cast<Attribute>(results[0]))
      return attr;
    return valueOf(cast<Value>(results[0]), values);
  }
  if (isa<arith::FPToUIOp, arith::FPToSIOp>(op))
    return IntegerAttr::get(op->getResult(0).getType(), 0);
  return nullptr;
}

/// The table's element type for results of `type`: 32 bits wide (vector gathers load 32- or
/// 64-bit lanes; narrower integers are widened and truncated after the load), or null.
Type tableElement(Type type) {
  if (type.isF32() || type.isF64() || type.isInteger(32) || type.isInteger(64))
    return type;
  if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
    return IntegerType::get(type.getContext(), 32);
  return nullptr;
}

/// The candidate's 256 results, entry k for the bit pattern k of its source (narrow integers
/// zero-extended to 32 bits); null when an op does not fold.
DenseElementsAttr tabulate(const Candidate &c) {
  Type element = tableElement(c.result.getType());
  if (!element)
    return nullptr;
  SmallVector<Attribute> entries;
  for (unsigned k = 0; k < 256; ++k) {
    llvm::DenseMap<Value, Attribute> values;
    values[c.source] = IntegerAttr::get(c.source.getType(), APInt(8, k));
    for (Operation *op : c.slice) {
      SmallVector<Attribute> operands;
      for (Value operand : op->getOperands()) {
        Attribute attr = valueOf(operand, values);
        if (!attr)
          return nullptr;
        operands.push_back(attr);
      }
      Attribute result = evaluate(op, operands, values);
      if (!result || (!isa<IntegerAttr>(result) && !isa<FloatAttr>(result)))
        return nullptr;
      values[op->getResult(0)] = result;
    }
    Attribute entry = values.lookup(c.result);
    if (auto integer = dyn_cast<IntegerAttr>(entry); integer && integer.getType() != element)
      entry = IntegerAttr::get(element, integer.getValue().zext(32));
    entries.push_back(entry);
  }
  return DenseElementsAttr::get(RankedTensorType::get({256}, element), entries);
}

/// Whether `op`'s body converts 8-bit integers (a quantized model's bytes) to wider values.
bool readsBytes(linalg::GenericOp op) {
  return llvm::any_of(op.getBody()->getOperations(), [](Operation &inner) {
    return isa<arith::ExtUIOp, arith::ExtSIOp, arith::UIToFPOp, arith::SIToFPOp>(inner) &&
           inner.getOperand(0).getType().isInteger(8);
  });
}

/// Whether `op`'s body has a math op that folding cannot evaluate (erf, exp, tanh, ...).
bool hasTranscendental(linalg::GenericOp op) {
  return llvm::any_of(op.getBody()->getOperations(), [](Operation &inner) {
    return isa<math::MathDialect>(inner.getDialect()) && !foldsExactly(&inner);
  });
}

struct CpuLookupTablesPass final : tcc::impl::CpuLookupTablesBase<CpuLookupTablesPass> {
  using CpuLookupTablesBase::CpuLookupTablesBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto function : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (!tcc::kernel::isKernel(function))
        continue;
      SmallVector<linalg::GenericOp> ops;
      function.walk([&](linalg::GenericOp op) {
        if (op.getNumReductionLoops() == 0)
          ops.push_back(op);
      });
      // A quantized body's transcendental ops (a GELU's erf between two requantizations)
      // become their approximations' arithmetic now, as tcc-approximate-math would make them
      // later: then they fold into tables like the rest.
      for (linalg::GenericOp op : ops)
        if (readsBytes(op) && hasTranscendental(op) &&
            failed(tcc::approximateMath(op, /*instructionRounding=*/true)))
          return signalPassFailure();
      unsigned count = 0;
      for (linalg::GenericOp op : ops)
        while (std::optional<Candidate> c = bestCandidate(op)) {
          DenseElementsAttr table = tabulate(*c);
          if (!table)
            break;
          replace(function, op, *c, table, symbols, count++);
        }
    }
  }

  /// The candidate of `op`'s body that removes the most ops.
  std::optional<Candidate> bestCandidate(linalg::GenericOp op) {
    Block *body = op.getBody();
    SmallVector<Value> sources;
    for (BlockArgument arg : body->getArguments())
      if (arg.getType().isInteger(8) && !arg.use_empty())
        sources.push_back(arg);
    for (Operation &inner : body->without_terminator())
      if (inner.getNumResults() == 1 && inner.getResult(0).getType().isInteger(8))
        sources.push_back(inner.getResult(0));
    std::optional<Candidate> best;
    for (Value source : sources)
      if (std::optional<Candidate> c = candidateFor(body, source, minOps))
        if (!best || c->removed > best->removed)
          best = std::move(c);
    return best;
  }

  /// The table position of an 8-bit `v`: zext(v), or, where `v` truncates a 32-bit w (a
  /// float saturated to u8 by lower::convert: trunc(fptosi(min(max(x, 0), 255)))), w itself
  /// when it is that clamp of a float to bounds inside [0, 255], else w & 255 (= zext(v)):
  /// computed on 32-bit lanes, no byte lanes in the vector code (zext of bytes vectorized on
  /// x86 as bytes widened to 64-bit lanes for the gather's index, some 17 shuffles and masked
  /// moves per 16 positions).
  static Value tablePosition(OpBuilder &b, Location loc, Value v) {
    auto truncate = v.getDefiningOp<arith::TruncIOp>();
    Value wide = truncate ? truncate.getIn() : Value();
    if (!wide || !wide.getType().isInteger(32))
      return arith::ExtUIOp::create(b, loc, b.getI32Type(), v);
    auto inside = [](Value bound) {
      FloatAttr value;
      return matchPattern(bound, m_Constant(&value)) && value.getValueAsDouble() >= 0.0 &&
             value.getValueAsDouble() <= 255.0;
    };
    auto convert = wide.getDefiningOp<arith::FPToSIOp>();
    auto upper = convert ? convert.getIn().getDefiningOp<arith::MinNumFOp>() : nullptr;
    auto lower = upper ? upper.getLhs().getDefiningOp<arith::MaxNumFOp>() : nullptr;
    if (lower && inside(upper.getRhs()) && inside(lower.getRhs()))
      return wide;
    return arith::AndIOp::create(b, loc, wide,
                                 arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(255)));
  }

  /// A private constant global of `table` and, in the body, load(global, zext(source))
  /// for the candidate's result; the ops nothing reads any more are erased.
  void replace(func::FuncOp function, linalg::GenericOp op, const Candidate &c,
               DenseElementsAttr table, SymbolTable &symbols, unsigned index) {
    MLIRContext *ctx = op.getContext();
    auto type = MemRefType::get({256}, table.getElementType());
    OpBuilder b(ctx);
    b.setInsertionPoint(function);
    auto global = memref::GlobalOp::create(
        b, op.getLoc(), b.getStringAttr(function.getName() + "_table_" + std::to_string(index)),
        b.getStringAttr("private"), TypeAttr::get(type), table, b.getUnitAttr(),
        /*alignment=*/b.getI64IntegerAttr(64));
    symbols.insert(global);
    b.setInsertionPointToStart(&function.getBody().front());
    Value base = memref::GetGlobalOp::create(b, op.getLoc(), type, global.getSymName());
    b.setInsertionPointAfter(c.result.getDefiningOp());
    Location loc = c.result.getLoc();
    Value wide = tablePosition(b, loc, c.source);
    Value position = arith::IndexCastOp::create(b, loc, b.getIndexType(), wide);
    Value loaded = memref::LoadOp::create(b, loc, base, ValueRange{position});
    if (loaded.getType() != c.result.getType())
      loaded = arith::TruncIOp::create(b, loc, c.result.getType(), loaded);
    Value(c.result).replaceAllUsesWith(loaded);
    for (Operation *dead : llvm::reverse(c.slice))
      if (dead->use_empty())
        dead->erase();
    // The byte saturation the position no longer reads.
    for (Operation &inner : llvm::make_early_inc_range(llvm::reverse(*op.getBody())))
      if (isOpTriviallyDead(&inner))
        inner.erase();
  }
};

} // namespace
