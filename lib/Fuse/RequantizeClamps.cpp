//===- RequantizeClamps.cpp - QDQ activations as clamps of the 8-bit values ------------===//
//
// The formula and its conditions are in include/tcc/Fuse/Passes.td (tcc-requantize-clamps):
// QuantizeLinear(Clip(DequantizeLinear(q))) with one scale s > 0 and zero point z is
// min(max(q, Q(lo)), Q(hi)); QuantizeLinear(MaxPool(DequantizeLinear(q))), or of a Clip
// under the pooling, is the same max pooling of q (or of the clamped q).
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Fuse/Passes.h"

#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

namespace tcc {
#define GEN_PASS_DEF_REQUANTIZECLAMPS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc::prim;

namespace {

Type elementOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }

/// The number `v` holds at every index: a splat constant, through broadcasts, reshapes and
/// conversions of it (the zero points' conversions are exact). Null otherwise.
std::optional<double> uniformNumber(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<BroadcastInDimOp, ReshapeOp, ConvertOp>(op))
      break;
    v = op->getOperand(0);
  }
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  Type element = attr.getElementType();
  if (isa<FloatType>(element))
    return attr.getSplatValue<APFloat>().convertToDouble();
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer || integer.getWidth() > 32)
    return std::nullopt;
  APInt value = attr.getSplatValue<APInt>();
  return static_cast<double>(integer.isUnsigned() ? value.getZExtValue() : value.getSExtValue());
}

/// The other operand of a commutative `op` when one of them is `v`'s uniform number.
std::optional<std::pair<Value, double>> withUniform(Operation *op) {
  for (unsigned k = 0; k < 2; ++k)
    if (std::optional<double> number = uniformNumber(op->getOperand(k)))
      return std::make_pair(op->getOperand(1 - k), *number);
  return std::nullopt;
}

/// The range of an 8- or 16-bit integer type.
std::pair<double, double> rangeOf(IntegerType type) {
  unsigned w = type.getWidth();
  if (type.isUnsigned())
    return {0.0, std::ldexp(1.0, w) - 1};
  return {-std::ldexp(1.0, w - 1), std::ldexp(1.0, w - 1) - 1};
}

/// One QuantizeLinear matched on prim: convert(round_even(x / s) [+ z]) into an integer
/// type.
struct Quantize {
  Value x;
  float scale;
  float zero;
  IntegerType type;
};

std::optional<Quantize> matchQuantize(ConvertOp convert) {
  auto type = dyn_cast<IntegerType>(elementOf(convert.getResult()));
  if (!type || (type.getWidth() != 8 && type.getWidth() != 16) ||
      !elementOf(convert.getOperand()).isF32())
    return std::nullopt;
  Value rounded = convert.getOperand();
  float zero = 0;
  if (auto add = rounded.getDefiningOp<AddOp>()) {
    auto other = withUniform(add);
    if (!other)
      return std::nullopt;
    rounded = other->first;
    zero = static_cast<float>(other->second);
  }
  auto round = rounded.getDefiningOp<RoundEvenOp>();
  auto div = round ? round.getOperand().getDefiningOp<DivOp>() : DivOp();
  std::optional<double> scale = div ? uniformNumber(div.getRhs()) : std::nullopt;
  if (!scale)
    return std::nullopt;
  return Quantize{div.getLhs(), static_cast<float>(*scale), zero, type};
}

/// One DequantizeLinear matched on prim: convert(convert(q) [- z]) * s, q of `type`; the
/// int32 conversion of q, or null.
Value matchDequantize(Value v, float scale, float zero, IntegerType type) {
  auto mul = v.getDefiningOp<MulOp>();
  auto other = mul ? withUniform(mul) : std::nullopt;
  if (!other || static_cast<float>(other->second) != scale)
    return nullptr;
  auto toFloat = other->first.getDefiningOp<ConvertOp>();
  if (!toFloat || !elementOf(toFloat.getOperand()).isInteger(32))
    return nullptr;
  Value centered = toFloat.getOperand();
  float z = 0;
  if (auto subOp = centered.getDefiningOp<SubOp>()) {
    std::optional<double> number = uniformNumber(subOp.getRhs());
    if (!number)
      return nullptr;
    z = static_cast<float>(*number);
    centered = subOp.getLhs();
  }
  auto wide = centered.getDefiningOp<ConvertOp>();
  if (z != zero || !wide || elementOf(wide.getOperand()) != type)
    return nullptr;
  return wide.getResult();
}

/// Q(v) = saturate(round_half_even(v / s) + z), in float32 as the run computes it.
double quantized(double bound, const Quantize &q) {
  float r = std::nearbyint(static_cast<float>(bound) / q.scale) + q.zero;
  auto [lo, hi] = rangeOf(q.type);
  return std::isnan(r) ? 0.0 : std::min(std::max(static_cast<double>(r), lo), hi);
}

/// Erases `op` and, transitively, the prim ops only it used.
void eraseDead(Operation *op) {
  SmallVector<Operation *> worklist = {op};
  while (!worklist.empty()) {
    Operation *dead = worklist.pop_back_val();
    if (!dead->use_empty() || !isMemoryEffectFree(dead))
      continue;
    SmallVector<Value> operands(dead->getOperands());
    dead->erase();
    for (Value operand : operands)
      if (Operation *def = operand.getDefiningOp(); def && def->use_empty())
        worklist.push_back(def);
  }
}

/// Rewrites `convert` (a QuantizeLinear) when it matches, leaving it unused; true if it
/// did.
bool requantizeClamp(ConvertOp convert) {
  std::optional<Quantize> q = matchQuantize(convert);
  if (!q || !(q->scale > 0) || !std::isnormal(q->scale) || q->scale > 1e30f)
    return false;
  // A max pooling, the clamps from the outermost in, then the dequantized values under them.
  SmallVector<std::pair<bool, double>> clamps; // (is max, bound)
  SmallVector<Location> locations = {convert.getLoc()};
  Value v = q->x;
  auto window = v.getDefiningOp<ReduceWindowOp>();
  if (window && window.getKind() == ReduceKind::Max) {
    locations.push_back(window.getLoc());
    v = window.getOperand();
  } else {
    window = nullptr;
  }
  while (isa_and_nonnull<MaxOp, MinOp>(v.getDefiningOp())) {
    Operation *op = v.getDefiningOp();
    locations.push_back(op->getLoc());
    auto other = withUniform(op);
    if (!other || std::isnan(other->second))
      return false;
    clamps.push_back({isa<MaxOp>(op), other->second});
    v = other->first;
  }
  if (clamps.empty() && !window)
    return false;
  Value wide = matchDequantize(v, q->scale, q->zero, q->type);
  if (!wide)
    return false;
  OpBuilder b(convert);
  // The clamps stand for the Clip (or Relu) too: its node keeps its kernels in profiles.
  PrimBuilder p(b, b.getFusedLoc(locations));
  Value t = wide;
  for (auto [isMax, bound] : llvm::reverse(clamps)) {
    Value limit = p.splat(t, quantized(bound, *q));
    t = isMax ? p.max(t, limit) : p.min(t, limit);
  }
  t = p.convert(t, q->type);
  // The pooling on the 8- or 16-bit values: s > 0 makes the dequantization monotone, so the
  // largest value dequantized is the largest dequantized; the padding, the type's least
  // value, is what the float padding (-inf) quantizes to.
  if (window)
    t = ReduceWindowOp::create(b, p.loc, ReduceKind::Max, t, window.getWindowDimensions(),
                               window.getWindowStrides(), window.getWindowDilations(),
                               window.getPaddingLow(), window.getPaddingHigh());
  convert.getResult().replaceAllUsesWith(t);
  return true;
}

struct RequantizeClampsPass : tcc::impl::RequantizeClampsBase<RequantizeClampsPass> {
  void runOnOperation() override {
    SmallVector<ConvertOp> converts, replaced;
    getOperation().walk([&](ConvertOp op) { converts.push_back(op); });
    for (ConvertOp op : converts)
      if (requantizeClamp(op))
        replaced.push_back(op);
    // The old chains, once every rewrite is done (a later one may have matched through
    // ops of an earlier one's chain).
    for (ConvertOp op : replaced)
      eraseDead(op);
  }
};

} // namespace
