//===- PrimElementwise.td - elementwise primitives ------------------------------------===//
//
// All operands and results of an elementwise op have one shape. Integer ops read the
// signedness from the element type (`ui8` is unsigned, `i8` signed, `i1` boolean).
//
//===----------------------------------------------------------------------------------===//

class Prim_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Prim_Op<mnemonic, traits # [Pure, Elementwise, Prim_Reify]> {
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &builder,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return ::tcc::prim::reifyShapeOfOperand(getOperation(), 0, builder, shapes);
    }
  }];
}

class Prim_UnaryOp<string mnemonic, Type type, string doc>
    : Prim_ElementwiseOp<mnemonic, [SameOperandsAndResultType]> {
  let summary = doc;
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

class Prim_BinaryOp<string mnemonic, Type type, string doc>
    : Prim_ElementwiseOp<mnemonic, [SameOperandsAndResultType]> {
  let summary = doc;
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

// Unary, numeric.
def Prim_NegOp : Prim_UnaryOp<"neg", Prim_NumericTensor, "-x (two's complement wrap for integers)"> {
  let hasFolder = 1;
}
def Prim_AbsOp : Prim_UnaryOp<"abs", Prim_NumericTensor, "|x| (abs(INT_MIN) = INT_MIN)">;
def Prim_SignOp : Prim_UnaryOp<"sign", Prim_NumericTensor, "-1, 0 or 1 (NaN stays NaN)">;

// Unary, floating point.
def Prim_FloorOp : Prim_UnaryOp<"floor", Prim_FloatTensor, "round toward -inf">;
def Prim_CeilOp : Prim_UnaryOp<"ceil", Prim_FloatTensor, "round toward +inf">;
def Prim_RoundEvenOp : Prim_UnaryOp<"round_even", Prim_FloatTensor, "round half to even">;
def Prim_ExpOp : Prim_UnaryOp<"exp", Prim_FloatTensor, "e^x">;
def Prim_Expm1Op : Prim_UnaryOp<"expm1", Prim_FloatTensor, "e^x - 1">;
def Prim_LogOp : Prim_UnaryOp<"log", Prim_FloatTensor, "natural logarithm">;
def Prim_Log1pOp : Prim_UnaryOp<"log1p", Prim_FloatTensor, "log(1 + x)">;
def Prim_SqrtOp : Prim_UnaryOp<"sqrt", Prim_FloatTensor, "square root">;
def Prim_RsqrtOp : Prim_UnaryOp<"rsqrt", Prim_FloatTensor, "1 / sqrt(x)">;
def Prim_SinOp : Prim_UnaryOp<"sin", Prim_FloatTensor, "sine">;
def Prim_CosOp : Prim_UnaryOp<"cos", Prim_FloatTensor, "cosine">;
def Prim_TanOp : Prim_UnaryOp<"tan", Prim_FloatTensor, "tangent">;
def Prim_AsinOp : Prim_UnaryOp<"asin", Prim_FloatTensor, "arc sine">;
def Prim_AcosOp : Prim_UnaryOp<"acos", Prim_FloatTensor, "arc cosine">;
def Prim_AtanOp : Prim_UnaryOp<"atan", Prim_FloatTensor, "arc tangent">;
def Prim_SinhOp : Prim_UnaryOp<"sinh", Prim_FloatTensor, "hyperbolic sine">;
def Prim_CoshOp : Prim_UnaryOp<"cosh", Prim_FloatTensor, "hyperbolic cosine">;
def Prim_TanhOp : Prim_UnaryOp<"tanh", Prim_FloatTensor, "hyperbolic tangent">;
def Prim_AsinhOp : Prim_UnaryOp<"asinh", Prim_FloatTensor, "inverse hyperbolic sine">;
def Prim_AcoshOp : Prim_UnaryOp<"acosh", Prim_FloatTensor, "inverse hyperbolic cosine">;
def Prim_AtanhOp : Prim_UnaryOp<"atanh", Prim_FloatTensor, "inverse hyperbolic tangent">;
def Prim_ErfOp : Prim_UnaryOp<"erf", Prim_FloatTensor, "the error function">;
def Prim_LogisticOp : Prim_UnaryOp<"logistic", Prim_FloatTensor, "1 / (1 + e^-x)">;

// Unary, integer and boolean.
def Prim_NotOp : Prim_UnaryOp<"not", Prim_IntTensor, "bitwise not (logical not on i1)">;
def Prim_PopcountOp : Prim_UnaryOp<"popcount", Prim_IntTensor, "number of set bits">;

// Floating-point classification: float -> i1.
class Prim_ClassifyOp<string mnemonic, string doc>
    : Prim_ElementwiseOp<mnemonic, [InferTypeOpAdaptor]> {
  let summary = doc;
  let arguments = (ins Prim_FloatTensor:$operand);
  let results = (outs Prim_BoolTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}
def Prim_IsNanOp : Prim_ClassifyOp<"is_nan", "true where x is NaN">;
def Prim_IsInfOp : Prim_ClassifyOp<"is_inf", "true where x is +inf or -inf">;

// Binary, numeric.
def Prim_AddOp : Prim_BinaryOp<"add", Prim_NumericTensor, "a + b (integers wrap)"> {
  let hasFolder = 1;
}
def Prim_SubOp : Prim_BinaryOp<"sub", Prim_NumericTensor, "a - b (integers wrap)"> {
  let hasFolder = 1;
}
def Prim_MulOp : Prim_BinaryOp<"mul", Prim_NumericTensor, "a * b (integers wrap)"> {
  let hasFolder = 1;
}
def Prim_DivOp : Prim_BinaryOp<"div", Prim_NumericTensor,
    "a / b; integers truncate toward zero, x / 0 = 0 and INT_MIN / -1 = INT_MIN"> {
  let hasFolder = 1;
}
def Prim_RemOp : Prim_BinaryOp<"rem", Prim_NumericTensor,
    "remainder with the sign of a (C fmod); integer x rem 0 = x">;
def Prim_PowOp : Prim_BinaryOp<"pow", Prim_NumericTensor,
    "a^b; for integers, negative exponents give 0 unless a is 1 or -1">;
def Prim_MaxOp : Prim_BinaryOp<"max", Prim_NumericTensor, "maximum, NaN if either is NaN"> {
  let hasFolder = 1;
}
def Prim_MinOp : Prim_BinaryOp<"min", Prim_NumericTensor, "minimum, NaN if either is NaN"> {
  let hasFolder = 1;
}
def Prim_Atan2Op : Prim_BinaryOp<"atan2", Prim_FloatTensor, "atan(a / b) in the right quadrant">;

// Binary, integer and boolean.
def Prim_AndOp : Prim_BinaryOp<"and", Prim_IntTensor, "bitwise and (logical on i1)"> {
  let hasFolder = 1;
}
def Prim_OrOp : Prim_BinaryOp<"or", Prim_IntTensor, "bitwise or (logical on i1)"> {
  let hasFolder = 1;
}
def Prim_XorOp : Prim_BinaryOp<"xor", Prim_IntTensor, "bitwise xor (logical on i1)">;
def Prim_ShiftLeftOp : Prim_BinaryOp<"shift_left", Prim_IntTensor,
    "a << b; shifts by >= the bit width give 0">;
def Prim_ShiftRightLogicalOp : Prim_BinaryOp<"shift_right_logical", Prim_IntTensor,
    "a >> b filling with zeros; shifts by >= the bit width give 0">;
def Prim_ShiftRightArithmeticOp : Prim_BinaryOp<"shift_right_arithmetic", Prim_IntTensor,
    "a >> b filling with the sign bit; shifts by >= the bit width give 0 or -1">;

def Prim_CompareOp : Prim_ElementwiseOp<"compare", [InferTypeOpAdaptor, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "elementwise comparison -> i1 (any comparison with NaN is false, except ne)";
  let arguments = (ins Prim_CompareDirection:$direction, Prim_NumericTensor:$lhs,
                       Prim_NumericTensor:$rhs);
  let results = (outs Prim_BoolTensor:$result);
  let assemblyFormat = "$direction `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
  let hasFolder = 1;
}

def Prim_SelectOp : Prim_ElementwiseOp<"select", [InferTypeOpAdaptor, AllTypesMatch<["on_true", "on_false"]>]> {
  let summary = "pred ? on_true : on_false";
  let arguments = (ins Prim_BoolTensor:$pred, AnyRankedTensor:$on_true, AnyRankedTensor:$on_false);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$pred `,` $on_true `,` $on_false attr-dict `:` type($pred) `,` type($on_true)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Prim_ClampOp : Prim_ElementwiseOp<"clamp", [SameOperandsAndResultType]> {
  let summary = "min(max(x, lo), hi) (NaN in x stays NaN)";
  let arguments = (ins Prim_NumericTensor:$lo, Prim_NumericTensor:$operand, Prim_NumericTensor:$hi);
  let results = (outs Prim_NumericTensor:$result);
  let assemblyFormat = "$lo `,` $operand `,` $hi attr-dict `:` type($result)";
}

def Prim_ConvertOp : Prim_ElementwiseOp<"convert"> {
  let summary = "element type conversion";
  let description = [{
    Float -> float rounds to nearest even. Float -> integer truncates toward zero and
    saturates; NaN gives 0. Integer -> integer wraps (two's complement). Anything -> i1 is
    `x != 0`; i1 -> anything is 0 or 1. Integer -> float rounds to nearest even.
  }];
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Prim_BitcastConvertOp : Prim_ElementwiseOp<"bitcast_convert"> {
  let summary = "reinterpret the bits of each element as another type of the same width";
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
  let hasVerifier = 1;
}
