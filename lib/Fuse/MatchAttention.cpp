//===- MatchAttention.cpp - decomposed attention blocks become kernel.attention ---------===//
//
// The pattern and its conditions are in include/tcc/Fuse/Passes.td (tcc-match-attention).
// The match walks up from the second product, operand by operand; every step either
// advances or says, in words, why the block is left to the generic path.
//
//===-------------------------------------------------------------------------------------===//
#include "tcc/Fuse/Passes.h"

#include "CausalMask.h"
#include "NarrowBias.h"

#include "dialects/kernel/KernelDialect.h"
#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

#include <limits>

namespace tcc {
#define GEN_PASS_DEF_MATCHATTENTION
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;
namespace prim = tcc::prim;

namespace {

/// What a matched block becomes, and the ops it replaces.
struct AttentionBlock {
  Value query, key, value, bias;
  /// Null, or the number of leading keys and values that take part (a filled KV cache).
  Value keyCount;
  SmallVector<int64_t> biasDims;
  float scale = 1.0f;
  /// 0, or the softcap c: scores c · tanh(s / c).
  float softcap = 0.0f;
  /// The diagonal of a causal mask computed from the indices (the bias was proved to be one).
  std::optional<int64_t> causal;
  bool keyTransposed = false, nanToZero = false, safeSoftmax = false;
  /// zero_masked_rows: the rows whose values of `maskedRowsOf` (which must be the bias) are
  /// all -inf are zeroed.
  Value maskedRowsOf;
  /// The score dims of `maskedRowsOf`'s dims, as the row flags are broadcast.
  SmallVector<int64_t> maskedRowsDims;
  /// Intermediates that must have no user outside the block, with their expected use count.
  SmallVector<std::pair<Value, unsigned>> intermediates;
};

/// `[0, n)`.
bool isIota(ArrayRef<int64_t> dims, int64_t n) {
  if (static_cast<int64_t>(dims.size()) != n)
    return false;
  for (int64_t i = 0; i < n; ++i)
    if (dims[i] != i)
      return false;
  return true;
}

/// `v` itself, or the operand of an identity `prim.broadcast_in_dim` (same type, dims in
/// order): the exporters' MatMul broadcasting of equal batch dims.
Value throughIdentityBroadcast(Value v) {
  auto broadcast = v.getDefiningOp<prim::BroadcastInDimOp>();
  if (broadcast && broadcast.getOperand().getType() == v.getType() &&
      isIota(broadcast.getBroadcastDimensions(), cast<ShapedType>(v.getType()).getRank()))
    return broadcast.getOperand();
  return v;
}

/// One extent of a tensor as the IR states it: a sum of products of dims and constants
/// where it is one (prim::asSum), else the `index` value of the sizes of the prim op that
/// made the tensor.
struct Extent {
  std::optional<prim::ExtentSum> sum;
  Value value;
  bool known() const { return sum || value; }
  bool operator==(const Extent &other) const {
    if (sum && other.sum)
      return *sum == *other.sum;
    return value && value == other.value;
  }
};

/// Dim `d` of `v`, followed through the ops that keep it (transposes, elementwise ops,
/// concatenations) to the op that states it.
Extent extentOf(Value v, int64_t d, unsigned depth = 0) {
  auto type = cast<RankedTensorType>(v.getType());
  Extent e;
  if (!type.isDynamicDim(d) || isa<BlockArgument>(v)) {
    e.sum = prim::dimAsSum(v, d);
    return e;
  }
  Operation *op = v.getDefiningOp();
  if (!op || depth > 32)
    return e;
  // The prim ops that take their dynamic extents as `sizes` operands, in dim order.
  auto stated = [&](ValueRange sizes) {
    int64_t k = 0;
    for (int64_t i = 0; i < d; ++i)
      k += type.isDynamicDim(i);
    if (k >= static_cast<int64_t>(sizes.size()))
      return e;
    e.value = sizes[k];
    e.sum = prim::asSum(e.value);
    return e;
  };
  if (auto reshape = dyn_cast<prim::ReshapeOp>(op))
    return stated(reshape.getDynamicSizes());
  if (auto broadcast = dyn_cast<prim::BroadcastInDimOp>(op))
    return stated(broadcast.getDynamicSizes());
  if (auto slice = dyn_cast<prim::SliceOp>(op)) {
    if (auto size = dyn_cast<Value>(slice.getMixedSizes()[d])) {
      e.value = size;
      e.sum = prim::asSum(size);
    }
    return e;
  }
  if (auto transpose = dyn_cast<prim::TransposeOp>(op))
    return extentOf(transpose.getOperand(), transpose.getPermutation()[d], depth + 1);
  if (auto concat = dyn_cast<prim::ConcatenateOp>(op)) {
    if (d != static_cast<int64_t>(concat.getDimension()))
      return extentOf(concat.getInputs()[0], d, depth + 1);
    prim::ExtentSum sum;
    for (Value input : concat.getInputs()) {
      Extent part = extentOf(input, d, depth + 1);
      if (!part.sum)
        return e;
      sum = prim::addSums(sum, *part.sum);
    }
    e.sum = sum;
    return e;
  }
  if (op->getNumOperands() >= 1 && op->getNumResults() == 1 &&
      op->hasTrait<OpTrait::Elementwise>() && op->getOperand(0).getType() == v.getType())
    return extentOf(op->getOperand(0), d, depth + 1);
  return e;
}

/// Whether dim `a` of `x` and dim `b` of `y` are stated to be equal.
bool sameExtent(Value x, int64_t a, Value y, int64_t b) {
  Extent ex = extentOf(x, a), ey = extentOf(y, b);
  return ex.known() && ey.known() && ex == ey;
}

/// The value of a constant scalar, or a splat constant broadcast to a tensor.
std::optional<float> scalarConstant(Value v) {
  if (auto broadcast = v.getDefiningOp<prim::BroadcastInDimOp>())
    v = broadcast.getOperand();
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat() || !attr.getElementType().isF32())
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToFloat();
}

/// The reduction `r` of `select(r == when, then, r)` (ONNX Attention's safe softmax: a row
/// maximum of -inf taken as 0, a row sum of 0 as 1), or null.
Value safeReduction(Value v, float when, float then) {
  auto select = v.getDefiningOp<prim::SelectOp>();
  if (!select)
    return {};
  auto compare = select.getPred().getDefiningOp<prim::CompareOp>();
  std::optional<float> constant = compare ? scalarConstant(compare.getRhs()) : std::nullopt;
  std::optional<float> replacement = scalarConstant(select.getOnTrue());
  if (!compare || compare.getDirection() != prim::CompareDirection::Eq ||
      compare.getLhs() != select.getOnFalse() || !constant || *constant != when || !replacement ||
      *replacement != then)
    return {};
  return select.getOnFalse();
}

/// `operand`'s reduction of `kind` over the last dim, broadcast back over it; with `safe`,
/// also through safeReduction's select (`*safe` then says whether there was one).
Value rowReductionOperand(Value v, prim::ReduceKind kind, int64_t rank, bool *safe = nullptr) {
  auto broadcast = v.getDefiningOp<prim::BroadcastInDimOp>();
  if (!broadcast || !isIota(broadcast.getBroadcastDimensions(), rank - 1))
    return {};
  Value reduced = broadcast.getOperand();
  if (safe) {
    float when = kind == prim::ReduceKind::Max ? -std::numeric_limits<float>::infinity() : 0.0f;
    float then = kind == prim::ReduceKind::Max ? 0.0f : 1.0f;
    Value inner = safeReduction(reduced, when, then);
    *safe = bool(inner);
    if (inner)
      reduced = inner;
  }
  auto reduce = reduced.getDefiningOp<prim::ReduceOp>();
  if (!reduce || reduce.getKind() != kind ||
      !llvm::equal(reduce.getDimensions(), ArrayRef<int64_t>{rank - 1}))
    return {};
  return reduce.getOperand();
}

/// Query rows below which keys are taken in rows and heads grouped (decoding steps).
constexpr int64_t kFewQueryRows = 4;

class Matcher {
public:
  Matcher(prim::DotGeneralOp product, int64_t maxWidth, int64_t minKeys, int64_t depthMultiple)
      : product(product), maxWidth(maxWidth), minKeys(minKeys), depthMultiple(depthMultiple) {}

  /// Whether `product` reads a softmax: the blocks the remarks count.
  static bool readsSoftmax(prim::DotGeneralOp product) {
    Value p = throughIdentityBroadcast(product.getLhs());
    if (auto select = p.getDefiningOp<prim::SelectOp>())
      p = select.getOnFalse();
    return p.getDefiningOp<prim::DivOp>() &&
           p.getDefiningOp<prim::DivOp>().getLhs().getDefiningOp<prim::ExpOp>();
  }

  /// The block, or why `product` is not the end of one.
  FailureOr<AttentionBlock> match(std::string &why) {
    auto fail = [&](const Twine &reason) {
      why = reason.str();
      return failure();
    };
    auto type = cast<RankedTensorType>(product.getType());
    int64_t rank = type.getRank();
    if (!type.getElementType().isF32())
      return fail("only f32 attention is fused");
    if (!isIota(product.getLhsBatchingDimensions(), rank - 2) ||
        !isIota(product.getRhsBatchingDimensions(), rank - 2) ||
        !llvm::equal(product.getLhsContractingDimensions(), ArrayRef<int64_t>{rank - 1}) ||
        !llvm::equal(product.getRhsContractingDimensions(), ArrayRef<int64_t>{rank - 2}))
      return fail("the probabilities times values product is not [B.., M, N] x [B.., N, E]");
    block.value = product.getRhs();
    int64_t width = type.getDimSize(rank - 1);
    if (maxWidth > 0 && (ShapedType::isDynamic(width) || width > maxWidth))
      return fail("the target's attention kernel takes a static value depth of at most " +
                  std::to_string(maxWidth));
    int64_t keys = cast<ShapedType>(block.value.getType()).getDimSize(rank - 2);
    if (minKeys > 0 && !ShapedType::isDynamic(keys) && keys < minKeys)
      return fail(std::to_string(keys) + " keys: the target fuses blocks of at least " +
                  std::to_string(minKeys) + " keys by default (on fewer, its kernel is not " +
                  "faster than the products at every batch size); --attention=fused fuses it");

    // Probabilities, possibly with masked rows zeroed (ONNX Attention), NaN rows zeroed.
    Value p = use(product.getLhs(), 1);
    if (Value inner = throughIdentityBroadcast(p); inner != p)
      p = use(inner, 1);
    if (auto select = p.getDefiningOp<prim::SelectOp>())
      if (Value source = maskedRowsSource(select, rank, block.maskedRowsDims)) {
        // A constant mask with no wholly masked row (the function-expanded ONNX Attention
        // without a mask reads a constant bias of zeros): the select never applies.
        if (!noRowMasked(source))
          block.maskedRowsOf = source;
        p = use(select.getOnFalse(), 1);
      }
    if (auto select = p.getDefiningOp<prim::SelectOp>()) {
      auto isNan = select.getPred().getDefiningOp<prim::IsNanOp>();
      std::optional<float> zero = scalarConstant(select.getOnTrue());
      if (!isNan || isNan.getOperand() != select.getOnFalse() || !zero || *zero != 0.0f)
        return fail("the probabilities pass through a select other than is_nan -> 0");
      block.nanToZero = true;
      use(isNan.getResult(), 1);
      p = use(select.getOnFalse(), 2);
    }
    // Softmax: e / bcast(sum(e)), e = exp(x - bcast(max(x))); or ONNX Attention's safe
    // softmax, whose max of -inf counts as 0 and sum of 0 as 1 (both or neither).
    auto divide = p.getDefiningOp<prim::DivOp>();
    if (!divide)
      return fail("the probabilities are not a softmax (no division by a row sum)");
    Value e = divide.getLhs();
    bool safeSum = false, safeMax = false;
    Value sumOf =
        rowReductionOperand(use(divide.getRhs(), 1), prim::ReduceKind::Sum, rank, &safeSum);
    if (sumOf != e)
      return fail("the softmax divides by something other than its row sum");
    useReduction(divide.getRhs(), safeSum);
    auto exp = use(e, 2).getDefiningOp<prim::ExpOp>();
    if (!exp)
      return fail("the softmax's numerator is not an exponential");
    auto centred = use(exp.getOperand(), 1).getDefiningOp<prim::SubOp>();
    if (!centred)
      return fail("the softmax does not subtract the row maximum");
    Value scores = centred.getLhs();
    Value maxOf =
        rowReductionOperand(use(centred.getRhs(), 1), prim::ReduceKind::Max, rank, &safeMax);
    if (maxOf != scores)
      return fail("the softmax subtracts something other than its row maximum");
    if (safeMax != safeSum)
      return fail("the softmax guards its row maximum or its row sum, not both");
    block.safeSoftmax = safeMax;
    useReduction(centred.getRhs(), safeMax);
    use(scores, 2);

    // Scores: [bias +] [scale *] q k.
    if (auto add = scores.getDefiningOp<prim::AddOp>()) {
      bool lhsIsScores = reachesProduct(add.getLhs());
      Value bias = lhsIsScores ? add.getRhs() : add.getLhs();
      scores = lhsIsScores ? add.getLhs() : add.getRhs();
      if (!cast<RankedTensorType>(bias.getType()).getElementType().isF32())
        return fail("the bias is not f32");
      if (auto broadcast = bias.getDefiningOp<prim::BroadcastInDimOp>()) {
        block.bias = broadcast.getOperand();
        llvm::append_range(block.biasDims, broadcast.getBroadcastDimensions());
      } else {
        block.bias = bias;
        for (int64_t d = 0; d < rank; ++d)
          block.biasDims.push_back(d);
      }
      use(scores, 1);
    }
    if (block.maskedRowsOf &&
        (block.maskedRowsOf != block.bias || block.maskedRowsDims != block.biasDims))
      return fail("the rows zeroed are not those whose bias is all -inf");
    // Softcap (ONNX Attention): c · tanh(s / c) of the scaled products, before the bias.
    if (auto cap = scores.getDefiningOp<prim::MulOp>()) {
      std::optional<float> c = scalarConstant(cap.getLhs());
      Value other = cap.getRhs();
      if (!c)
        c = scalarConstant(cap.getRhs()), other = cap.getLhs();
      auto tanh = other.getDefiningOp<prim::TanhOp>();
      auto div = tanh ? tanh.getOperand().getDefiningOp<prim::DivOp>() : nullptr;
      std::optional<float> divisor = div ? scalarConstant(div.getRhs()) : std::nullopt;
      if (c && tanh && divisor) {
        if (*divisor != *c || !(*c > 0.0f))
          return fail("the scores pass through tanh other than a softcap c · tanh(s / c)");
        block.softcap = *c;
        use(other, 1);
        use(div.getResult(), 1);
        scores = use(div.getLhs(), 1);
      }
    }
    if (auto mul = scores.getDefiningOp<prim::MulOp>()) {
      std::optional<float> c = scalarConstant(mul.getRhs());
      Value other = mul.getLhs();
      if (!c)
        c = scalarConstant(mul.getLhs()), other = mul.getRhs();
      if (!c)
        return fail("the scores are multiplied by something other than a scalar constant");
      block.scale = *c;
      scores = use(other, 1);
    } else if (auto div = scores.getDefiningOp<prim::DivOp>()) {
      std::optional<float> c = scalarConstant(div.getRhs());
      if (!c || *c == 0.0f)
        return fail("the scores are divided by something other than a scalar constant");
      block.scale = 1.0f / *c;
      scores = use(div.getLhs(), 1);
    }
    auto first = scores.getDefiningOp<prim::DotGeneralOp>();
    if (!first)
      return fail("the scores are not a product of queries and keys (or pass through an op "
                  "other than a scalar scale and an added bias)");
    if (!isIota(first.getLhsBatchingDimensions(), rank - 2) ||
        !isIota(first.getRhsBatchingDimensions(), rank - 2) ||
        !llvm::equal(first.getLhsContractingDimensions(), ArrayRef<int64_t>{rank - 1}))
      return fail("the queries times keys product is not [B.., M, D] x [B.., N, D]");
    ArrayRef<int64_t> keyContracting = first.getRhsContractingDimensions();
    if (llvm::equal(keyContracting, ArrayRef<int64_t>{rank - 2}))
      block.keyTransposed = true;
    else if (!llvm::equal(keyContracting, ArrayRef<int64_t>{rank - 1}))
      return fail("the keys are contracted over neither of their last two dims");
    block.query = throughIdentityBroadcast(first.getLhs());
    block.key = throughIdentityBroadcast(first.getRhs());
    // The dynamo exporter's scale split between the queries and the keys (each times
    // sqrt(scale)), its keys transposed through a merge of the batch dims, and grouped-query
    // attention's keys and values repeated per group: folded into the op, so that none of
    // them is a copy of the keys.
    block.query = peelScale(block.query);
    block.key = peelScale(block.key);
    // Keys in rows and grouped heads only for a few query rows (decoding): there the copies
    // would cost more than the products, while with more rows the CPU kernel is faster on
    // transposed keys, whose copy the rows then share (in-kernel transposition: not yet).
    int64_t queryRows = cast<RankedTensorType>(block.query.getType()).getDimSize(rank - 2);
    bool fewRows = ShapedType::isStatic(queryRows) && queryRows < kFewQueryRows;
    if (fewRows && block.keyTransposed)
      if (Value key = untransposed(block.key, rank)) {
        block.key = key;
        block.keyTransposed = false;
      }
    if (fewRows && !block.keyTransposed) {
      int64_t keyGroup = 1, valueGroup = 1;
      Value key = ungrouped(block.key, rank, keyGroup);
      Value value = ungrouped(block.value, rank, valueGroup);
      if (key && value && keyGroup == valueGroup) {
        block.key = key;
        block.value = value;
      }
    }
    // Keys and values that are the leading positions of larger tensors (a KV cache of a
    // fixed capacity, tcc --kv-cache): the kernel reads them in place, the first n only.
    if (!block.keyTransposed)
      peelLeadingSlices(rank);
    for (Value v : {block.query, block.key, block.value})
      if (!cast<RankedTensorType>(v.getType()).getElementType().isF32())
        return fail("only f32 attention is fused");
    if (depthMultiple > 0)
      for (Value v : {block.query, block.value}) {
        int64_t depth = cast<RankedTensorType>(v.getType()).getDimSize(rank - 1);
        if (ShapedType::isDynamic(depth) || depth % depthMultiple != 0)
          return fail("the target's attention kernel takes static query and value depths "
                      "that are multiples of " +
                      std::to_string(depthMultiple));
      }
    for (auto [value, uses] : block.intermediates)
      if (!value.hasNUses(uses))
        return fail("an intermediate (scores or probabilities) is also used outside the "
                    "block");
    return block;
  }

private:
  /// x of `x * c` or `x / c` (c a scalar constant, which multiplies the op's scale); else v.
  Value peelScale(Value v) {
    if (auto mul = v.getDefiningOp<prim::MulOp>()) {
      for (auto [constant, other] :
           {std::pair(mul.getRhs(), mul.getLhs()), std::pair(mul.getLhs(), mul.getRhs())})
        if (std::optional<float> c = scalarConstant(constant)) {
          block.scale *= *c;
          return other;
        }
    }
    if (auto div = v.getDefiningOp<prim::DivOp>())
      if (std::optional<float> c = scalarConstant(div.getRhs()); c && *c != 0.0f) {
        block.scale /= *c;
        return div.getLhs();
      }
    return v;
  }

  /// K of transposed keys [B.., D, N] that are K [B.., N, D] with its last two dims swapped:
  /// `transpose(K)`, or the dynamo exporter's `reshape(transpose(reshape(K, [P, N, D])),
  /// [B.., D, N])` (P the product of the batch dims); null otherwise.
  Value untransposed(Value key, int64_t rank) {
    SmallVector<int64_t> swap;
    for (int64_t d = 0; d < rank; ++d)
      swap.push_back(d);
    std::swap(swap[rank - 1], swap[rank - 2]);
    if (auto transpose = key.getDefiningOp<prim::TransposeOp>())
      return transpose.getPermutation() == ArrayRef<int64_t>(swap) ? transpose.getOperand()
                                                                   : Value();
    auto split = key.getDefiningOp<prim::ReshapeOp>();
    auto transpose = split ? split.getOperand().getDefiningOp<prim::TransposeOp>() : nullptr;
    auto merge = transpose ? transpose.getOperand().getDefiningOp<prim::ReshapeOp>() : nullptr;
    if (!merge || transpose.getPermutation() != ArrayRef<int64_t>{0, 2, 1})
      return {};
    Value source = merge.getOperand();
    if (cast<RankedTensorType>(source.getType()).getRank() != rank ||
        cast<RankedTensorType>(merge.getType()).getRank() != 3)
      return {};
    // merge: [B.., N, D] -> [P, N, D]; split: [P, D, N] -> [B.., D, N]. With N and D kept,
    // P is the product of the batch dims (or nothing is read).
    if (!sameExtent(merge, 1, source, rank - 2) || !sameExtent(merge, 2, source, rank - 1) ||
        !sameExtent(key, rank - 2, source, rank - 1) ||
        !sameExtent(key, rank - 1, source, rank - 2))
      return {};
    for (int64_t d = 0; d + 2 < rank; ++d)
      if (!sameExtent(key, d, source, d))
        return {};
    return source;
  }

  /// Keys and values `slice(K, 0, [B.., n, D])` and `slice(V, 0, [B.., n, E])` (offsets 0,
  /// unit strides, every other dim whole): K and V, with n keys taking part.
  void peelLeadingSlices(int64_t rank) {
    auto keySlice = block.key.getDefiningOp<prim::SliceOp>();
    auto valueSlice = block.value.getDefiningOp<prim::SliceOp>();
    if (!keySlice || !valueSlice)
      return;
    Value count;
    for (prim::SliceOp slice : {keySlice, valueSlice}) {
      auto source = cast<RankedTensorType>(slice.getOperand().getType());
      if (source.getRank() != rank ||
          llvm::any_of(slice.getStaticStrides(), [](int64_t s) { return s != 1; }) ||
          llvm::any_of(slice.getMixedOffsets(),
                       [](OpFoldResult o) { return getConstantIntValue(o) != 0; }))
        return;
      SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
      for (int64_t d = 0; d < rank; ++d) {
        if (d == rank - 2)
          continue;
        std::optional<int64_t> size = getConstantIntValue(sizes[d]);
        bool whole = size ? source.getDimSize(d) == *size
                          : sameExtent(slice.getResult(), d, slice.getOperand(), d);
        if (!whole)
          return;
      }
      // One run-time count for keys and values (a static one: nothing to gain).
      Value n = dyn_cast<Value>(sizes[rank - 2]);
      if (!n || (count && n != count))
        return;
      count = n;
    }
    block.key = keySlice.getOperand();
    block.value = valueSlice.getOperand();
    block.keyCount = count;
  }

  /// K of keys (or values) [B.., H·G, N, D] that repeat each head of K [B.., H, N, D] G
  /// times in a row: `reshape(broadcast(reshape(K, [B.., H, 1, N, D]), [B.., H, G, N, D]))`
  /// (torch's repeat_interleave as exported); sets `group` (1: no repetition).
  Value ungrouped(Value v, int64_t rank, int64_t &group) {
    group = 1;
    if (rank < 3)
      return v;
    auto merge = v.getDefiningOp<prim::ReshapeOp>();
    auto broadcast = merge ? merge.getOperand().getDefiningOp<prim::BroadcastInDimOp>() : nullptr;
    auto split = broadcast ? broadcast.getOperand().getDefiningOp<prim::ReshapeOp>() : nullptr;
    if (!split)
      return v;
    Value source = split.getOperand();
    auto sourceType = cast<RankedTensorType>(source.getType());
    auto splitType = cast<RankedTensorType>(split.getType());
    auto broadcastType = cast<RankedTensorType>(broadcast.getType());
    int64_t heads = rank - 3;
    if (sourceType.getRank() != rank || splitType.getRank() != rank + 1 ||
        !isIota(broadcast.getBroadcastDimensions(), rank + 1) ||
        splitType.getDimSize(heads + 1) != 1 || sourceType.isDynamicDim(heads) ||
        broadcastType.isDynamicDim(heads + 1))
      return v;
    int64_t g = broadcastType.getDimSize(heads + 1);
    auto type = cast<RankedTensorType>(v.getType());
    if (g < 1 || type.getDimSize(heads) != sourceType.getDimSize(heads) * g)
      return v;
    // Every other dim kept through the three ops.
    for (int64_t d = 0; d < rank; ++d) {
      if (d == heads)
        continue;
      int64_t inner = d < heads ? d : d + 1;
      if (!sameExtent(split, inner, source, d) || !sameExtent(broadcast, inner, source, d) ||
          !sameExtent(v, d, source, d))
        return v;
    }
    if (!sameExtent(split, heads, source, heads) || !sameExtent(broadcast, heads, source, heads))
      return v;
    group = g;
    return source;
  }

  /// The source X of `select(bcast(reshape(max_row(X) == -inf)), 0, p)` or of
  /// `select(bcast(reshape(max_row(X)) == -inf), 0, p)` (ONNX Attention's zeroing of the rows
  /// its mask wholly masks): X of at most the scores' rank, reduced over its last dim and
  /// broadcast onto the trailing score dims (`dims`); null for any other select.
  Value maskedRowsSource(prim::SelectOp select, int64_t rank, SmallVector<int64_t> &dims) {
    std::optional<float> zero = scalarConstant(select.getOnTrue());
    auto broadcast = select.getPred().getDefiningOp<prim::BroadcastInDimOp>();
    if (!zero || *zero != 0.0f || !broadcast)
      return {};
    // reshape(max == -inf) (the function body of ONNX Attention as tcc decomposes it), or
    // reshape(max) == -inf (the function-expanded graph: ReduceMax keepdims, then Equal).
    auto reshape = broadcast.getOperand().getDefiningOp<prim::ReshapeOp>();
    auto compare = reshape ? reshape.getOperand().getDefiningOp<prim::CompareOp>()
                           : broadcast.getOperand().getDefiningOp<prim::CompareOp>();
    if (compare && !reshape)
      reshape = compare.getLhs().getDefiningOp<prim::ReshapeOp>();
    std::optional<float> minusInf = compare ? scalarConstant(compare.getRhs()) : std::nullopt;
    if (!compare || !reshape || compare.getDirection() != prim::CompareDirection::Eq || !minusInf ||
        *minusInf != -std::numeric_limits<float>::infinity())
      return {};
    bool reshapeFirst = reshape.getResult() == compare.getLhs();
    auto reduce =
        (reshapeFirst ? reshape.getOperand() : compare.getLhs()).getDefiningOp<prim::ReduceOp>();
    if (!reduce || reduce.getKind() != prim::ReduceKind::Max)
      return {};
    auto source = cast<RankedTensorType>(reduce.getOperand().getType());
    auto reshaped = cast<RankedTensorType>(reshape.getType());
    // [.., n] -> max over n -> [..] -> [.., 1]: the row's flag, broadcast over the keys (and,
    // from a bias of lower rank, over the leading score dims, as the bias itself is).
    int64_t sourceRank = source.getRank();
    if (sourceRank < 1 || sourceRank > rank ||
        !llvm::equal(reduce.getDimensions(), ArrayRef<int64_t>{sourceRank - 1}) ||
        reshaped.getRank() != sourceRank || reshaped.getDimSize(sourceRank - 1) != 1 ||
        reshaped.getShape().drop_back() != source.getShape().drop_back())
      return {};
    ArrayRef<int64_t> flagDims = broadcast.getBroadcastDimensions();
    for (int64_t t = 0; t < sourceRank; ++t)
      if (flagDims[t] != rank - sourceRank + t)
        return {};
    for (Value flag :
         {broadcast.getResult(), reshape.getResult(), compare.getResult(), reduce.getResult()})
      use(flag, 1);
    dims.assign(flagDims.begin(), flagDims.end());
    return reduce.getOperand();
  }

  /// Whether `source` is a constant each of whose rows (along the last dim) has a value
  /// above -inf: no row is wholly masked, so zeroing the masked rows changes nothing.
  static bool noRowMasked(Value source) {
    DenseElementsAttr attr;
    if (!matchPattern(source, m_Constant(&attr)) || !attr.getElementType().isF32())
      return false;
    auto type = cast<RankedTensorType>(attr.getType());
    int64_t row = type.getRank() ? type.getDimSize(type.getRank() - 1) : 1;
    if (row <= 0)
      return false;
    float minusInf = -std::numeric_limits<float>::infinity();
    if (attr.isSplat())
      return attr.getSplatValue<APFloat>().convertToFloat() != minusInf;
    auto values = attr.getValues<APFloat>();
    for (int64_t start = 0, n = attr.getNumElements(); start < n; start += row) {
      bool live = false;
      for (int64_t i = start; i < start + row && !live; ++i)
        live = values[i].convertToFloat() != minusInf;
      if (!live)
        return false;
    }
    return true;
  }

  /// The row reduction `broadcast` reads (through the safe softmax's select): used only there.
  void useReduction(Value broadcast, bool safe) {
    Value reduced = broadcast.getDefiningOp()->getOperand(0);
    if (!safe) {
      use(reduced, 1);
      return;
    }
    auto select = reduced.getDefiningOp<prim::SelectOp>();
    use(reduced, 1);
    use(select.getPred(), 1);
    use(select.getOnFalse(), 2); // the reduction: compared and selected
  }

  /// Records that `v` must have exactly `uses` users, all inside the block.
  Value use(Value v, unsigned uses) {
    block.intermediates.push_back({v, uses});
    return v;
  }

  /// Whether `v` is the scores: a product, possibly scaled, possibly softcapped.
  static bool reachesProduct(Value v) {
    if (auto mul = v.getDefiningOp<prim::MulOp>()) {
      // A softcap's c · tanh(s / c), then the scale's multiplication or division.
      for (Value side : {mul.getLhs(), mul.getRhs()})
        if (auto tanh = side.getDefiningOp<prim::TanhOp>())
          return reachesProduct(tanh.getOperand());
      return mul.getLhs().getDefiningOp<prim::DotGeneralOp>() ||
             mul.getRhs().getDefiningOp<prim::DotGeneralOp>();
    }
    if (auto div = v.getDefiningOp<prim::DivOp>())
      return reachesProduct(div.getLhs());
    return bool(v.getDefiningOp<prim::DotGeneralOp>());
  }

  prim::DotGeneralOp product;
  int64_t maxWidth, minKeys, depthMultiple;
  AttentionBlock block;
};

/// The block's kernel op, in place of `product`.
void replace(prim::DotGeneralOp product, const AttentionBlock &block) {
  OpBuilder b(product);
  Location loc = product.getLoc();
  auto type = cast<RankedTensorType>(product.getType());
  int64_t rank = type.getRank();
  // [B.., M] from the queries, E from the values.
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, d + 1 < rank ? block.query : block.value, d));
  Value init = tensor::EmptyOp::create(b, loc, type, sizes);
  auto attention = tcc::kernel::AttentionOp::create(
      b, loc, TypeRange{type}, block.query, block.key, block.value, block.bias, block.keyCount,
      init, b.getF32FloatAttr(block.scale), block.keyTransposed ? b.getUnitAttr() : UnitAttr(),
      block.bias ? b.getDenseI64ArrayAttr(block.biasDims) : DenseI64ArrayAttr(),
      block.nanToZero ? b.getUnitAttr() : UnitAttr(),
      block.safeSoftmax ? b.getUnitAttr() : UnitAttr(),
      block.maskedRowsOf ? b.getUnitAttr() : UnitAttr(),
      block.softcap > 0.0f ? b.getF32FloatAttr(block.softcap) : FloatAttr(),
      block.causal ? b.getI64IntegerAttr(*block.causal) : IntegerAttr());
  product.getResult().replaceAllUsesWith(attention.getResult()[0]);
  product.erase();
}

/// Erases the prim ops of `function` that nothing uses any more (a replaced block's
/// intermediates): walking backwards, each op's users have gone before it.
void eraseDeadPrimOps(func::FuncOp function) {
  function.walk<WalkOrder::PostOrder, ReverseIterator>([](Operation *op) {
    if (isa<prim::PrimDialect>(op->getDialect()) && isOpTriviallyDead(op))
      op->erase();
  });
}

struct MatchAttentionPass : public tcc::impl::MatchAttentionBase<MatchAttentionPass> {
  using MatchAttentionBase::MatchAttentionBase;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp function) {
      SmallVector<prim::DotGeneralOp> candidates;
      function.walk([&](prim::DotGeneralOp product) {
        if (Matcher::readsSoftmax(product))
          candidates.push_back(product);
      });
      unsigned matched = 0;
      for (prim::DotGeneralOp product : candidates) {
        std::string why;
        FailureOr<AttentionBlock> block =
            Matcher(product, maxWidth, minKeys, depthMultiple).match(why);
        if (failed(block)) {
          if (explain)
            product.emitRemark("attention not fused: ") << why;
          continue;
        }
        // A bias that is a causal mask is computed from the indices instead of read. Its
        // diagonal keeps key 0 in every row, so no row is wholly masked: zeroing such rows
        // (zero_masked_rows) never applies then.
        int64_t rank = cast<ShapedType>(product.getType()).getRank();
        if (block->bias) {
          std::string notCausal;
          block->causal = tcc::causalOffset(block->bias, block->biasDims, rank, notCausal);
          if (block->causal) {
            block->bias = block->maskedRowsOf = {};
            block->biasDims.clear();
          } else if (explain) {
            product.emitRemark("attention bias kept as a tensor: ") << notCausal;
          }
        }
        // A bias whose rows along the queries are all the same (a padding mask broadcast
        // over them) is read as one row.
        if (block->bias) {
          auto query = llvm::find(block->biasDims, rank - 2);
          std::string notNarrowed;
          OpBuilder b(product);
          if (query != block->biasDims.end())
            if (Value narrowed = tcc::narrowQueryDim(
                    b, block->bias, query - block->biasDims.begin(), notNarrowed)) {
              if (block->maskedRowsOf == block->bias)
                block->maskedRowsOf = narrowed;
              block->bias = narrowed;
            }
        }
        replace(product, *block);
        eraseDeadPrimOps(function);
        ++matched;
      }
      if (explain && !candidates.empty())
        function.emitRemark() << "attention: " << matched << " of " << candidates.size()
                              << " blocks fused";
    });
  }
};

} // namespace
