//===- Elementwise.cpp - rules for ONNX's elementwise math, logic and casts -----------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"
#include "RuntimeAxes.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// Checks the element type of input `index`: float when `floatOnly`, else any number.
Value getTypedInput(NodeRewriter &n, unsigned index, bool floatOnly) {
  Value v = n.getInput(index);
  if (!v)
    return nullptr;
  Type element = cast<RankedTensorType>(v.getType()).getElementType();
  if (floatOnly && !isa<FloatType>(element)) {
    n.emitError() << "input " << index << " has element type " << element
                  << ", expected a floating-point type";
    return nullptr;
  }
  return v;
}

template <typename OpTy, bool FloatOnly>
LogicalResult unaryRule(NodeRewriter &n) {
  Value x = getTypedInput(n, 0, FloatOnly);
  if (!x)
    return failure();
  return n.setResults(n.getBuilder().createOrFold<OpTy>(n.getLoc(), x));
}

/// Add, Sub and Mul of two shape tensors (small int64 vectors of dims) stay index
/// arithmetic, so that shapes computed in the graph remain known to the compiler.
template <typename OpTy>
Value shapeArithmetic(NodeRewriter &n, Value a, Value b) {
  constexpr bool isAdd = std::is_same_v<OpTy, prim::AddOp>;
  constexpr bool isSub = std::is_same_v<OpTy, prim::SubOp>;
  constexpr bool isMul = std::is_same_v<OpTy, prim::MulOp>;
  if constexpr (!isAdd && !isSub && !isMul) {
    return nullptr;
  } else {
    if (!isShapeTensor(a) || !isShapeTensor(b))
      return nullptr;
    auto ea = getShapeElements(n, a), eb = getShapeElements(n, b);
    if (!ea || !eb || (ea->size() != eb->size() && ea->size() != 1 && eb->size() != 1))
      return nullptr;
    size_t count = std::max(ea->size(), eb->size());
    SmallVector<OpFoldResult> out;
    for (size_t i = 0; i < count; ++i) {
      OpFoldResult x = (*ea)[ea->size() == 1 ? 0 : i], y = (*eb)[eb->size() == 1 ? 0 : i];
      out.push_back(isAdd ? addIndex(n, x, y) : isSub ? subIndex(n, x, y) : mulIndex(n, x, y));
    }
    auto type = cast<RankedTensorType>(a.getType());
    bool scalar = type.getRank() == 0 && cast<RankedTensorType>(b.getType()).getRank() == 0;
    return makeShapeTensor(n, out, type.getElementType(), scalar);
  }
}

/// Opsets before 7 broadcast B onto A only with broadcast=1, B's dims aligned at `axis`
/// (default: the trailing dims, as numpy does): B is reshaped to A's rank with 1s around it,
/// then numpy broadcasting applies. (Without broadcast=1 the shapes are equal.)
Value alignLegacyBroadcast(NodeRewriter &n, Value a, Value b) {
  if (n.getVersion() >= 7 || !n.getInt("broadcast", 0) || !n.hasAttr("axis"))
    return b;
  int64_t ra = rankOf(a), rb = rankOf(b);
  auto axis = normalizeAxis(n, n.getInt("axis", 0), ra);
  if (!axis)
    return nullptr;
  if (*axis + rb > ra) {
    n.emitError() << "B (rank " << rb << ") does not fit in A (rank " << ra << ") at axis "
                  << *axis;
    return nullptr;
  }
  SmallVector<OpFoldResult> dims(*axis, n.getBuilder().getIndexAttr(1));
  llvm::append_range(dims, getDims(n, b));
  dims.resize(ra, n.getBuilder().getIndexAttr(1));
  return reshape(n, b, dims);
}

template <typename OpTy>
LogicalResult binaryRule(NodeRewriter &n) {
  Value a = n.getInput(0), b = n.getInput(1);
  if (!a || !b)
    return failure();
  if (!(b = alignLegacyBroadcast(n, a, b)))
    return failure();
  Type ta = cast<RankedTensorType>(a.getType()).getElementType();
  Type tb = cast<RankedTensorType>(b.getType()).getElementType();
  if (ta != tb)
    return n.emitError() << "inputs have element types " << ta << " and " << tb
                         << ", expected one type";
  if (Value shape = shapeArithmetic<OpTy>(n, a, b))
    return n.setResults(shape);
  Value r = buildBinary<OpTy>(n, a, b);
  return r ? n.setResults(r) : failure();
}

// reciprocal(x) = 1 / x
LogicalResult reciprocal(NodeRewriter &n) {
  Value x = getTypedInput(n, 0, true);
  if (!x)
    return failure();
  return n.setResults(
      prim::DivOp::create(n.getBuilder(), n.getLoc(), splatLike(n, x, 1.0), x).getResult());
}

// pow(a, b) with b converted to a's type (opset 12 allows mixed types)
LogicalResult pow(NodeRewriter &n) {
  Value a = n.getInput(0), b = n.getInput(1);
  if (!a || !b)
    return failure();
  if (!(b = alignLegacyBroadcast(n, a, b)))
    return failure();
  // A constant exponent of 1, 2 or 3 (RMSNorm's x^2, GELU's x^3): exact products.
  if (isa<FloatType>(elementOf(a)) && rankOf(b) <= 1) {
    DenseElementsAttr exponent;
    if (matchPattern(b, m_Constant(&exponent)) && exponent.isSplat() &&
        (rankOf(b) == 0 || exponent.getNumElements() == 1)) {
      double e = isa<FloatType>(exponent.getElementType())
                     ? exponent.getSplatValue<APFloat>().convertToDouble()
                     : static_cast<double>(exponent.getSplatValue<APInt>().getSExtValue());
      if (e == 1.0 || e == 2.0 || e == 3.0) {
        Value r = a;
        for (int k = 1; k < static_cast<int>(e); ++k)
          r = prim::MulOp::create(n.getBuilder(), n.getLoc(), r, a);
        return n.setResults(r);
      }
    }
  }
  b = convert(n, b, cast<RankedTensorType>(a.getType()).getElementType());
  Value r = buildBinary<prim::PowOp>(n, a, b);
  return r ? n.setResults(r) : failure();
}

template <prim::CompareDirection Direction>
LogicalResult compareRule(NodeRewriter &n) {
  Value a = n.getInput(0), b = n.getInput(1);
  if (!a || !b)
    return failure();
  if (!(b = alignLegacyBroadcast(n, a, b)))
    return failure();
  SmallVector<Value> ops = broadcastAll(n, {a, b});
  if (ops.empty())
    return failure();
  // Strings (Equal, opset 19) compare their bytes.
  if (isa<prim::StringType>(elementOf(ops[0])) || isa<prim::StringType>(elementOf(ops[1]))) {
    if (Direction != prim::CompareDirection::Eq || elementOf(ops[0]) != elementOf(ops[1]))
      return n.emitError() << "strings compare only for equality, and only with strings";
    return n.setResults(
        prim::StringEqualOp::create(n.getBuilder(), n.getLoc(), ops[0], ops[1]).getResult());
  }
  return n.setResults(
      prim::CompareOp::create(n.getBuilder(), n.getLoc(), Direction, ops[0], ops[1]).getResult());
}

// where(c, x, y) = c ? x : y, all three broadcast
LogicalResult where(NodeRewriter &n) {
  Value c = n.getInput(0), x = n.getInput(1), y = n.getInput(2);
  if (!c || !x || !y)
    return failure();
  SmallVector<Value> ops = broadcastAll(n, {c, x, y});
  if (ops.empty())
    return failure();
  return n.setResults(
      prim::SelectOp::create(n.getBuilder(), n.getLoc(), ops[0], ops[1], ops[2]).getResult());
}

/// Max, Min, Sum, Mean: a left fold of a binary op over all (broadcast) inputs.
template <typename OpTy, bool Mean>
LogicalResult variadicRule(NodeRewriter &n) {
  if (n.getNumInputs() == 0)
    return n.emitError() << "expected at least one input";
  Value acc = n.getInput(0);
  for (unsigned i = 1; acc && i < n.getNumInputs(); ++i) {
    Value next = n.getInput(i);
    acc = next ? buildBinary<OpTy>(n, acc, next) : nullptr;
  }
  if (!acc)
    return failure();
  // mean(x1..xk) = (x1 + ... + xk) / k
  if (Mean)
    acc = prim::DivOp::create(n.getBuilder(), n.getLoc(), acc,
                              splatLike(n, acc, static_cast<double>(n.getNumInputs())));
  return n.setResults(acc);
}

// isinf(x) restricted by detect_negative / detect_positive
LogicalResult isInf(NodeRewriter &n) {
  Value x = getTypedInput(n, 0, true);
  if (!x)
    return failure();
  OpBuilder &b = n.getBuilder();
  Value inf = prim::IsInfOp::create(b, n.getLoc(), x);
  bool negative = n.getInt("detect_negative", 1), positive = n.getInt("detect_positive", 1);
  if (negative && positive)
    return n.setResults(inf);
  Value zero = splatLike(n, x, 0.0);
  Value sign = prim::CompareOp::create(
      b, n.getLoc(), positive ? prim::CompareDirection::Gt : prim::CompareDirection::Lt, x, zero);
  if (!negative && !positive)
    return n.setResults(splatLike(n, inf, 0.0));
  return n.setResults(prim::AndOp::create(b, n.getLoc(), inf, sign).getResult());
}

// mod(a, b): fmod=1 -> C fmod (sign of a); fmod=0 -> floored mod with the sign of b:
//   r = rem(a, b); r != 0 && (r < 0) != (b < 0) ? r + b : r
// (floats with fmod=0 from opset 28, as numpy.mod: a zero remainder takes b's sign)
LogicalResult mod(NodeRewriter &n) {
  Value a = n.getInput(0), b = n.getInput(1);
  if (!a || !b)
    return failure();
  SmallVector<Value> ops = broadcastAll(n, {a, b});
  if (ops.empty())
    return failure();
  OpBuilder &bld = n.getBuilder();
  Location loc = n.getLoc();
  Type element = cast<RankedTensorType>(ops[0].getType()).getElementType();
  Value r = prim::RemOp::create(bld, loc, ops[0], ops[1]);
  if (n.getInt("fmod", 0))
    return n.setResults(r);
  bool isFloat = isa<FloatType>(element);
  if (isFloat && n.getVersion() < 28)
    return n.emitError() << "fmod=0 is only defined for integer inputs before opset 28, got "
                         << element;
  if (element.isUnsignedInteger())
    return n.setResults(r);
  Value zero = splatLike(n, r, 0.0);
  Value nonZero = prim::CompareOp::create(bld, loc, prim::CompareDirection::Ne, r, zero);
  Value rNeg = prim::CompareOp::create(bld, loc, prim::CompareDirection::Lt, r, zero);
  Value bNeg = prim::CompareOp::create(bld, loc, prim::CompareDirection::Lt, ops[1], zero);
  Value differ = prim::XorOp::create(bld, loc, rNeg, bNeg);
  Value fix = prim::AndOp::create(bld, loc, nonZero, differ);
  Value adjusted = prim::AddOp::create(bld, loc, r, ops[1]);
  Value result = prim::SelectOp::create(bld, loc, fix, adjusted, r);
  if (isFloat) {
    Value isZero = prim::CompareOp::create(bld, loc, prim::CompareDirection::Eq, r, zero);
    Value signedZero = prim::SelectOp::create(bld, loc, bNeg, splatLike(n, r, -0.0), zero);
    result = prim::SelectOp::create(bld, loc, isZero, signedZero, result);
  }
  return n.setResults(result);
}

// bitshift(a, b) = direction == "LEFT" ? a << b : a >> b; opset 28 adds signed types, whose
// right shift fills with the sign bit; shifts by >= the width (or negative) shift all out
LogicalResult bitShift(NodeRewriter &n) {
  std::string direction = n.getString("direction", "");
  if (direction == "LEFT")
    return binaryRule<prim::ShiftLeftOp>(n);
  Value a = n.getInput(0);
  if (!a)
    return failure();
  bool isSigned = isa<IntegerType>(elementOf(a)) && !elementOf(a).isUnsignedInteger();
  if (direction == "RIGHT" && isSigned)
    return binaryRule<prim::ShiftRightArithmeticOp>(n);
  if (direction == "RIGHT")
    return binaryRule<prim::ShiftRightLogicalOp>(n);
  return n.emitError() << "attribute 'direction' must be \"LEFT\" or \"RIGHT\", got \""
                       << direction << "\"";
}

/// clip(x, lo, hi) = min(max(x, lo), hi); bounds from attributes before opset 11.
LogicalResult clipWithBounds(NodeRewriter &n, Value x, Value lo, Value hi) {
  if (lo)
    x = buildBinary<prim::MaxOp>(n, x, lo);
  if (x && hi)
    x = buildBinary<prim::MinOp>(n, x, hi);
  return x ? n.setResults(x) : failure();
}

LogicalResult clip6(NodeRewriter &n) {
  Value x = getTypedInput(n, 0, true);
  if (!x)
    return failure();
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  Value lo = scalarConstant(n, element, n.getFloat("min", -std::numeric_limits<float>::max()));
  Value hi = scalarConstant(n, element, n.getFloat("max", std::numeric_limits<float>::max()));
  return clipWithBounds(n, x, lo, hi);
}

LogicalResult clip11(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  return clipWithBounds(n, x, n.getOptionalInput(1), n.getOptionalInput(2));
}

// cast(x) = convert(x, to); to STRING = format(x) (NumPy's text), from STRING = parse(x)
LogicalResult castRule(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t to = n.getInt("to", 0);
  constexpr int64_t kString = 8; // TensorProto.STRING
  Type element = to == kString ? Type(prim::StringType::get(n.getContext()))
                               : elementTypeOfOnnxCode(n.getContext(), to);
  if (!element)
    return n.emitError() << "casting to ONNX data type " << to
                         << " is not supported (supported: float, double, float16, bfloat16, "
                            "bool, int8..int64, uint8..uint64, string)";
  return n.setResults(convert(n, x, element));
}

// bitcast(x, to) = the bits of each element read as `to` (same width); bool <-> 8-bit is 0/1
LogicalResult bitCast(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t to = n.getInt("to", 0);
  Type element = elementTypeOfOnnxCode(n.getContext(), to);
  if (!element)
    return n.emitError() << "bit-casting to ONNX data type " << to << " is not supported";
  Type from = elementOf(x);
  auto bits = [](Type t) { return t.isInteger(1) ? 8u : t.getIntOrFloatBitWidth(); };
  if (!from.isIntOrFloat() || bits(from) != bits(element))
    return n.emitError() << "cannot bit-cast " << from << " to " << element
                         << ": the widths differ";
  if (from.isInteger(1) || element.isInteger(1) || from == element)
    return n.setResults(convert(n, x, element));
  auto type = cast<RankedTensorType>(x.getType()).clone(element);
  return n.setResults(
      prim::BitcastConvertOp::create(n.getBuilder(), n.getLoc(), type, x).getResult());
}

// castlike(x, like) = convert(x, element type of like)
LogicalResult castLike(NodeRewriter &n) {
  Value x = n.getInput(0), like = n.getInput(1);
  if (!x || !like)
    return failure();
  return n.setResults(convert(n, x, cast<RankedTensorType>(like.getType()).getElementType()));
}

// identity(x) = x (also a sequence or an optional, opsets 14 and 16)
LogicalResult identity(NodeRewriter &n) {
  if (n.getNumInputs() == 1 && !isa<RankedTensorType>(n.getNode().getInputs()[0].getType()))
    return n.setResults(n.getNode().getInputs()[0]);
  Value x = n.getInput(0);
  return x ? n.setResults(x) : failure();
}

/// True when `v` is a constant floating-point tensor whose elements are all zero.
bool isConstantZero(Value v) {
  DenseElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)) || !isa<FloatType>(attr.getElementType()))
    return false;
  return llvm::all_of(attr.getValues<APFloat>(), [](const APFloat &f) { return f.isZero(); });
}

// dropout at inference, or in training with ratio 0: (x, mask = all true)
// (training: y = x * mask / (1 - ratio) with mask drawn at random, all true when ratio = 0)
LogicalResult dropout(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  if (n.getVersion() >= 12 && n.hasInput(2) && !isConstantZero(n.getOptionalInput(1))) {
    Value trainingInput = n.getOptionalInput(2), ratioInput = n.getOptionalInput(1);
    auto training = getConstantInts(trainingInput);
    bool trainingKnown = training && training->size() == 1;
    if (!trainingKnown || (*training)[0] != 0) {
      // Known only at run time: a check that training is off or the ratio 0 (ratio defaults
      // to 0.5).
      OpBuilder &b = n.getBuilder();
      Location loc = n.getLoc();
      Value trainingOn = trainingKnown ? Value() : readScalar(n, trainingInput);
      bool ratioNonZero = !ratioInput || matchPattern(ratioInput, m_Constant());
      Value ratio = ratioNonZero ? Value() : readScalar(n, ratioInput);
      if ((!trainingKnown && !trainingOn) || (!ratioNonZero && !ratio) ||
          (trainingKnown && ratioNonZero))
        return n.emitError()
               << "training_mode must be false, or the ratio 0: dropout in training draws "
                  "random numbers, which tcc does not generate";
      Value ok = arith::ConstantIntOp::create(b, loc, 0, 1);
      if (trainingOn) {
        Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(trainingOn.getType(), 0));
        ok = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, trainingOn, zero);
      }
      if (ratio)
        ok = b.createOrFold<arith::OrIOp>(
            loc, ok,
            b.createOrFold<arith::CmpFOp>(
                loc, arith::CmpFPredicate::OEQ, ratio,
                arith::ConstantOp::create(b, loc, b.getFloatAttr(ratio.getType(), 0.0))));
      checkTrue(n, ok,
                "training_mode is true and the ratio is not 0: dropout in training draws "
                "random numbers, which tcc does not generate");
    }
  }
  Value mask = splatLike(n, x, 1.0, IntegerType::get(n.getContext(), 1));
  return n.setResults({x, mask});
}

} // namespace

void tcc::decompose::registerElementwiseRules(RuleRegistry &r) {
  r.add("", "Exp", 6, unaryRule<prim::ExpOp, true>);
  r.add("", "Log", 6, unaryRule<prim::LogOp, true>);
  r.add("", "Sqrt", 6, unaryRule<prim::SqrtOp, true>);
  r.add("", "Sin", 7, unaryRule<prim::SinOp, true>);
  r.add("", "Cos", 7, unaryRule<prim::CosOp, true>);
  r.add("", "Tan", 7, unaryRule<prim::TanOp, true>);
  r.add("", "Asin", 7, unaryRule<prim::AsinOp, true>);
  r.add("", "Acos", 7, unaryRule<prim::AcosOp, true>);
  r.add("", "Atan", 7, unaryRule<prim::AtanOp, true>);
  r.add("", "Sinh", 9, unaryRule<prim::SinhOp, true>);
  r.add("", "Cosh", 9, unaryRule<prim::CoshOp, true>);
  r.add("", "Asinh", 9, unaryRule<prim::AsinhOp, true>);
  r.add("", "Acosh", 9, unaryRule<prim::AcoshOp, true>);
  r.add("", "Atanh", 9, unaryRule<prim::AtanhOp, true>);
  r.add("", "Erf", 9, unaryRule<prim::ErfOp, true>);
  r.add("", "Floor", 6, unaryRule<prim::FloorOp, true>);
  r.add("", "Ceil", 6, unaryRule<prim::CeilOp, true>);
  r.add("", "Round", 11, unaryRule<prim::RoundEvenOp, true>);
  r.add("", "Tanh", 6, unaryRule<prim::TanhOp, true>);
  r.add("", "Sigmoid", 6, unaryRule<prim::LogisticOp, true>);
  r.add("", "Neg", 6, unaryRule<prim::NegOp, false>);
  r.add("", "Abs", 6, unaryRule<prim::AbsOp, false>);
  r.add("", "Sign", 9, unaryRule<prim::SignOp, false>);
  r.add("", "Reciprocal", 6, reciprocal);
  r.add("", "Not", 1, unaryRule<prim::NotOp, false>);
  r.add("", "BitwiseNot", 18, unaryRule<prim::NotOp, false>);
  r.add("", "IsNaN", 9, unaryRule<prim::IsNanOp, true>);
  r.add("", "IsInf", 10, isInf);

  r.add("", "Add", 6, binaryRule<prim::AddOp>); // legacy broadcast/axis attributes
  r.add("", "Add", 7, binaryRule<prim::AddOp>);
  r.add("", "Sub", 6, binaryRule<prim::SubOp>); // legacy broadcast/axis attributes
  r.add("", "Sub", 7, binaryRule<prim::SubOp>);
  r.add("", "Mul", 6, binaryRule<prim::MulOp>); // legacy broadcast/axis attributes
  r.add("", "Mul", 7, binaryRule<prim::MulOp>);
  r.add("", "Div", 6, binaryRule<prim::DivOp>); // legacy broadcast/axis attributes
  r.add("", "Div", 7, binaryRule<prim::DivOp>);
  r.add("", "Pow", 1, pow); // legacy broadcast/axis attributes before 7
  r.add("", "Pow", 7, pow);
  r.add("", "Mod", 10, mod);
  r.add("", "BitShift", 11, bitShift);
  r.add("", "And", 1, binaryRule<prim::AndOp>); // legacy broadcast/axis attributes
  r.add("", "And", 7, binaryRule<prim::AndOp>);
  r.add("", "Or", 1, binaryRule<prim::OrOp>); // legacy broadcast/axis attributes
  r.add("", "Or", 7, binaryRule<prim::OrOp>);
  r.add("", "Xor", 1, binaryRule<prim::XorOp>); // legacy broadcast/axis attributes
  r.add("", "Xor", 7, binaryRule<prim::XorOp>);
  r.add("", "BitwiseAnd", 18, binaryRule<prim::AndOp>);
  r.add("", "BitwiseOr", 18, binaryRule<prim::OrOp>);
  r.add("", "BitwiseXor", 18, binaryRule<prim::XorOp>);
  r.add("", "Equal", 1, compareRule<prim::CompareDirection::Eq>); // legacy broadcast
  r.add("", "Equal", 7, compareRule<prim::CompareDirection::Eq>);
  r.add("", "Less", 1, compareRule<prim::CompareDirection::Lt>); // legacy broadcast
  r.add("", "Less", 7, compareRule<prim::CompareDirection::Lt>);
  r.add("", "Greater", 1, compareRule<prim::CompareDirection::Gt>); // legacy broadcast
  r.add("", "Greater", 7, compareRule<prim::CompareDirection::Gt>);
  r.add("", "LessOrEqual", 12, compareRule<prim::CompareDirection::Le>);
  r.add("", "GreaterOrEqual", 12, compareRule<prim::CompareDirection::Ge>);
  r.add("", "Where", 9, where);
  r.add("", "Max", 6, variadicRule<prim::MaxOp, false>); // equal shapes (a case of 8's broadcasting)
  r.add("", "Max", 8, variadicRule<prim::MaxOp, false>);
  r.add("", "Min", 6, variadicRule<prim::MinOp, false>); // equal shapes (a case of 8's broadcasting)
  r.add("", "Min", 8, variadicRule<prim::MinOp, false>);
  r.add("", "Sum", 6, variadicRule<prim::AddOp, false>); // equal shapes (a case of 8's broadcasting)
  r.add("", "Sum", 8, variadicRule<prim::AddOp, false>);
  r.add("", "Mean", 6, variadicRule<prim::AddOp, true>); // equal shapes (a case of 8's broadcasting)
  r.add("", "Mean", 8, variadicRule<prim::AddOp, true>);
  r.add("", "Clip", 6, clip6);
  r.add("", "Clip", 11, clip11);
  r.add("", "Cast", 6, castRule);
  // 24 added round_mode, which only affects conversions to float8e8m0 (not supported).
  r.add("", "Cast", 24, castRule);
  r.add("", "CastLike", 15, castLike);
  r.add("", "CastLike", 24, castLike);
  r.add("", "BitCast", 26, bitCast);
  r.add("", "Identity", 1, identity);
  r.add("", "Dropout", 7, dropout);
}
