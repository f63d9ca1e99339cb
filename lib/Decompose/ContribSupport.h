//===- ContribSupport.h - what the com.microsoft rules share ---------------------*- C++ -*-===//
//
// Contrib.cpp (activations, layer norms, rotary embedding, MatMulNBits) and
// ContribAttention.cpp (MultiHeadAttention, GroupQueryAttention, Attention) build on these.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_CONTRIBSUPPORT_H
#define TCC_LIB_DECOMPOSE_CONTRIBSUPPORT_H

#include "RuleSupport.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <string>

namespace tcc::decompose::contrib {

using namespace mlir;

inline constexpr char kDomain[] = "com.microsoft";
using Dir = prim::CompareDirection;

/// The prim builder at the node, with what the com.microsoft rules add to it.
struct Emit : RuleBuilder {
  explicit Emit(NodeRewriter &node) : RuleBuilder(node) {}

  /// x and y, x or y (i1, broadcast to one shape); a null operand is left out.
  Value conjoin(Value x, Value y) { return x && y ? buildBinary<prim::AndOp>(n, x, y) : x ? x : y; }
  Value disjoin(Value x, Value y) { return x && y ? buildBinary<prim::OrOp>(n, x, y) : x ? x : y; }
  /// An index extent as a 0-d tensor of `element` filled to `dims`.
  Value extent(OpFoldResult e, ArrayRef<OpFoldResult> dims, Type element) {
    if (auto c = getConstantIntValue(e))
      return fill(scalar(element, static_cast<double>(*c)), dims);
    Value i64 = makeShapeTensor(n, {e}, b.getI64Type(), /*scalar=*/true);
    return fill(convert(i64, element), dims);
  }
};

/// f16 and bf16 compute in f32.
Type computeType(Type t);

/// An extent as text ("?" when dynamic), for messages.
std::string show(OpFoldResult e);

/// A vector [H] converted to `element` and broadcast along the last dim of `dims`; null
/// after an error naming `what` (Contrib.cpp).
Value alongLastDim(NodeRewriter &n, Value v, ArrayRef<OpFoldResult> dims, Type element,
                   StringRef what);

/// softmax over the last dim, with the row max subtracted.
Value softmaxLast(NodeRewriter &n, Value x);

/// Rows `positions` [B, S] (i64) of a [max_position, R/2] table, as `element`.
Value lookupRows(NodeRewriter &n, Value table, Value positions, Type element);

/// rope(x) on x [B, S, N, H] with c, s [B, S, R/2] (see Contrib.cpp).
Value applyRotary(NodeRewriter &n, Value x, Value cosRows, Value sinRows, int64_t rotary,
                  bool interleaved);

/// Checks a [max_position, R/2] cache; R/2 (static) or 0 after an error.
int64_t cacheHalfWidth(NodeRewriter &n, Value cache, StringRef what);

/// Refuses an optional input `index` that tcc does not support.
bool refuseInput(NodeRewriter &n, unsigned index, StringRef what);

/// Registers the quantized ops: QLinearAdd, QLinearConcat, QGemm, ... (ContribQuantization.cpp).
void registerContribQuantizationRules(RuleRegistry &r);

/// Registers MultiHeadAttention, GroupQueryAttention and Attention (ContribAttention.cpp).
void registerContribAttentionRules(RuleRegistry &r);

} // namespace tcc::decompose::contrib

#endif // TCC_LIB_DECOMPOSE_CONTRIBSUPPORT_H
