//===- ContribSupport.h - what the com.microsoft rules share ---------------------*- C++ -*-===//
//
// Contrib.cpp (activations, layer norms, rotary embedding, MatMulNBits) and
// ContribAttention.cpp (MultiHeadAttention, GroupQueryAttention, Attention) build on these.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_CONTRIBSUPPORT_H
#define TCC_LIB_DECOMPOSE_CONTRIBSUPPORT_H

#include "PrimBuilder.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <string>

namespace tcc::decompose::contrib {

using namespace mlir;

inline constexpr char kDomain[] = "com.microsoft";
using Dir = prim::CompareDirection;

/// Shorthands for the prim ops the rules build at the node's location.
struct Emit {
  NodeRewriter &n;
  OpBuilder &b;
  Location loc;
  explicit Emit(NodeRewriter &node) : n(node), b(node.getBuilder()), loc(node.getLoc()) {}

  Value c(Value like, double v) { return splatLike(n, like, v); }
  Value add(Value x, Value y) { return prim::AddOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return prim::SubOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return prim::MulOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return prim::DivOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return prim::MaxOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return prim::MinOp::create(b, loc, x, y); }
  Value tanh(Value x) { return prim::TanhOp::create(b, loc, x); }
  Value cmp(Dir d, Value x, Value y) { return prim::CompareOp::create(b, loc, d, x, y); }
  Value select(Value p, Value t, Value f) { return prim::SelectOp::create(b, loc, p, t, f); }
  /// x and y, x or y (i1, broadcast); a null operand is left out.
  Value both(Value x, Value y) { return x && y ? buildBinary<prim::AndOp>(n, x, y) : x ? x : y; }
  Value either(Value x, Value y) { return x && y ? buildBinary<prim::OrOp>(n, x, y) : x ? x : y; }
  Value transpose(Value x, ArrayRef<int64_t> perm) {
    return b.createOrFold<prim::TransposeOp>(loc, x, perm);
  }
  Value iota(ArrayRef<OpFoldResult> dims, Type element, int64_t dim) {
    return prim::IotaOp::create(b, loc, getTensorType(dims, element), getDynamicExtents(n, dims),
                                dim);
  }
  /// x[..., offset : offset + size * stride : stride, ...] along `dim`.
  Value slice(Value x, int64_t dim, OpFoldResult offset, OpFoldResult size, int64_t stride = 1) {
    int64_t rank = rankOf(x);
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes = getDims(n, x);
    SmallVector<int64_t> strides(rank, 1);
    offsets[dim] = offset;
    sizes[dim] = size;
    strides[dim] = stride;
    return b.createOrFold<prim::SliceOp>(loc, x, offsets, sizes, strides);
  }
  /// `x` with its dims placed at `mapping` of a tensor of extents `dims`.
  Value expand(Value x, ArrayRef<OpFoldResult> dims, ArrayRef<int64_t> mapping) {
    return prim::BroadcastInDimOp::create(b, loc, getTensorType(dims, elementOf(x)), x,
                                          getDynamicExtents(n, dims),
                                          b.getDenseI64ArrayAttr(mapping));
  }
  /// An index extent as a 0-d tensor of `element` filled to `dims`.
  Value extent(OpFoldResult e, ArrayRef<OpFoldResult> dims, Type element) {
    if (auto c = getConstantIntValue(e))
      return fill(n, scalarConstant(n, element, static_cast<double>(*c)), dims);
    Value i64 = makeShapeTensor(n, {e}, b.getI64Type(), /*scalar=*/true);
    return fill(n, convert(n, i64, element), dims);
  }
};

/// f16 and bf16 compute in f32.
Type computeType(Type t);

/// An extent as text ("?" when dynamic), for messages.
std::string show(OpFoldResult e);

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

/// Registers MultiHeadAttention, GroupQueryAttention and Attention (ContribAttention.cpp).
void registerContribAttentionRules(RuleRegistry &r);

} // namespace tcc::decompose::contrib

#endif // TCC_LIB_DECOMPOSE_CONTRIBSUPPORT_H
