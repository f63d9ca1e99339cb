//===- Rearrange.cpp - rules for block rearrangements, masks and Einsum ---------------===//
//
// DepthToSpace and SpaceToDepth are reshape + transpose + reshape. OneHot and EyeLike compare
// iotas and select. Shrink and LRN are elementwise around one window sum. Einsum becomes
// diagonal masks, prim.reduce for summed labels and prim.dot_general for each pair of
// operands, then one transpose into the output's label order.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <map>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// `value` (an index) as an i64 tensor of shape `dims`.
Value fillIndex(NodeRewriter &n, OpFoldResult value, ArrayRef<OpFoldResult> dims) {
  return fill(n, makeShapeTensor(n, {value}, n.getBuilder().getI64Type(), true), dims);
}

/// An i64 iota of shape `dims` counting along `dim`.
Value iota(NodeRewriter &n, ArrayRef<OpFoldResult> dims, int64_t dim) {
  OpBuilder &b = n.getBuilder();
  return prim::IotaOp::create(b, n.getLoc(), getTensorType(dims, b.getI64Type()),
                              getDynamicExtents(n, dims), dim);
}

/// extent / divisor, which must be exact (an error when both are constants, else a check).
std::optional<OpFoldResult> divideExtent(NodeRewriter &n, OpFoldResult extent, int64_t divisor,
                                         const std::string &what) {
  if (auto c = getConstantIntValue(extent); c && *c % divisor != 0) {
    n.emitError() << what << " is " << *c << ", expected a multiple of " << divisor;
    return std::nullopt;
  }
  OpFoldResult quotient = floorDivIndex(n, extent, n.getBuilder().getIndexAttr(divisor));
  checkEqual(n, mulIndex(n, quotient, n.getBuilder().getIndexAttr(divisor)), extent,
             what + " must be a multiple of " + std::to_string(divisor));
  return quotient;
}

/// The 4-d input and positive blocksize of DepthToSpace/SpaceToDepth; null after an error.
Value getBlockInput(NodeRewriter &n, int64_t &blocksize) {
  Value x = n.getInput(0);
  std::optional<int64_t> given = n.getOptionalInt("blocksize");
  if (!x || n.hasFailed())
    return nullptr;
  if (rankOf(x) != 4) {
    n.emitError() << "expected a 4-d input (N, C, H, W), got " << x.getType();
    return nullptr;
  }
  if (!given || *given < 1) {
    n.emitError() << "attribute 'blocksize' must be a positive INT, got "
                  << (given ? std::to_string(*given) : std::string("none"));
    return nullptr;
  }
  blocksize = *given;
  return x;
}

/// reshape(x, split) -> transpose(perm) -> reshape(merged)
Value rearrange(NodeRewriter &n, Value x, ArrayRef<OpFoldResult> split, ArrayRef<int64_t> perm,
                ArrayRef<OpFoldResult> merged) {
  Value t = n.getBuilder().createOrFold<prim::TransposeOp>(n.getLoc(), reshape(n, x, split), perm);
  return reshape(n, t, merged);
}

// depth_to_space(x, b), c = C / b^2:
//   DCR: reshape [N, b, b, c, H, W] -> transpose [0, 3, 4, 1, 5, 2] -> reshape [N, c, H b, W b]
//   CRD: reshape [N, c, b, b, H, W] -> transpose [0, 1, 4, 2, 5, 3] -> reshape [N, c, H b, W b]
template <bool HasMode>
LogicalResult depthToSpace(NodeRewriter &n) {
  int64_t bs = 0;
  Value x = getBlockInput(n, bs);
  std::string mode = HasMode ? n.getString("mode", "DCR") : "DCR";
  if (!x)
    return failure();
  if (mode != "DCR" && mode != "CRD")
    return n.emitError() << "attribute 'mode' must be \"DCR\" or \"CRD\", got \"" << mode << "\"";
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> d = getDims(n, x);
  auto channels = divideExtent(n, d[1], bs * bs, "the channel extent");
  if (!channels)
    return failure();
  OpFoldResult block = b.getIndexAttr(bs);
  SmallVector<OpFoldResult> merged = {d[0], *channels, mulIndex(n, d[2], block),
                                      mulIndex(n, d[3], block)};
  if (mode == "DCR")
    return n.setResults(rearrange(n, x, {d[0], block, block, *channels, d[2], d[3]},
                                  {0, 3, 4, 1, 5, 2}, merged));
  return n.setResults(rearrange(n, x, {d[0], *channels, block, block, d[2], d[3]},
                                {0, 1, 4, 2, 5, 3}, merged));
}

// space_to_depth(x, b) = reshape [N, C, H/b, b, W/b, b] -> transpose [0, 3, 5, 1, 2, 4]
//                        -> reshape [N, C b^2, H/b, W/b]   (DCR: channel = (b1 b + b2) C + c;
//                        CRD (opset 28): transpose [0, 1, 3, 5, 2, 4], channel = c b^2 + b1 b + b2)
LogicalResult spaceToDepth(NodeRewriter &n) {
  int64_t bs = 0;
  Value x = getBlockInput(n, bs);
  if (!x)
    return failure();
  std::string mode = n.getVersion() >= 28 ? n.getString("mode", "DCR") : "DCR";
  if (mode != "DCR" && mode != "CRD")
    return n.emitError() << "attribute 'mode' must be \"DCR\" or \"CRD\", got \"" << mode << "\"";
  SmallVector<OpFoldResult> d = getDims(n, x);
  auto height = divideExtent(n, d[2], bs, "the height");
  auto width = divideExtent(n, d[3], bs, "the width");
  if (!height || !width)
    return failure();
  OpFoldResult block = n.getBuilder().getIndexAttr(bs);
  SmallVector<int64_t> permutation = mode == "DCR" ? SmallVector<int64_t>{0, 3, 5, 1, 2, 4}
                                                  : SmallVector<int64_t>{0, 1, 3, 5, 2, 4};
  return n.setResults(rearrange(n, x, {d[0], d[1], *height, block, *width, block}, permutation,
                                {d[0], mulIndex(n, d[1], n.getBuilder().getIndexAttr(bs * bs)),
                                 *height, *width}));
}

/// The one element of a 0-d or 1-element tensor as an index: a constant when the tensor is
/// constant, else read at run time (floats truncated toward zero).
std::optional<OpFoldResult> getScalarIndex(NodeRewriter &n, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.hasStaticShape() || type.getNumElements() != 1 || type.getRank() > 1)
    return std::nullopt;
  OpBuilder &b = n.getBuilder();
  if (isShapeTensor(v))
    if (auto elements = getShapeElements(n, v))
      return (*elements)[0];
  if (!isa<FloatType>(type.getElementType()))
    return std::nullopt;
  DenseFPElementsAttr constant;
  if (matchPattern(v, m_Constant(&constant))) {
    double value = (*constant.getValues<APFloat>().begin()).convertToDouble();
    return OpFoldResult(b.getIndexAttr(static_cast<int64_t>(value)));
  }
  SmallVector<Value> position;
  if (type.getRank() == 1)
    position.push_back(arith::ConstantIndexOp::create(b, n.getLoc(), 0));
  Value element = tensor::ExtractOp::create(b, n.getLoc(), v, position);
  Value integer = arith::FPToSIOp::create(b, n.getLoc(), b.getI64Type(), element);
  return OpFoldResult(
      arith::IndexCastOp::create(b, n.getLoc(), b.getIndexType(), integer).getResult());
}

/// One element of a 1-d tensor as a 0-d tensor.
Value elementAt(NodeRewriter &n, Value v, int64_t i) {
  OpBuilder &b = n.getBuilder();
  Value slice = b.createOrFold<prim::SliceOp>(
      n.getLoc(), v, ArrayRef<OpFoldResult>{b.getIndexAttr(i)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, ArrayRef<int64_t>{1});
  return reshape(n, slice, {});
}

// one_hot(idx, depth, [off, on], axis)[..., k, ...] = idx[...] == k ? on : off, k at `axis`;
// from opset 11 negative indices count from the end (idx + depth); others out of
// [0, depth) give all-off rows
template <bool WrapNegative>
LogicalResult oneHot(NodeRewriter &n) {
  Value indices = n.getInput(0), depthInput = n.getInput(1), values = n.getInput(2);
  if (!indices || !depthInput || !values)
    return failure();
  auto valuesType = cast<RankedTensorType>(values.getType());
  if (valuesType.getRank() != 1 || valuesType.getDimSize(0) != 2)
    return n.emitError() << "input 2 (values) has type " << values.getType()
                         << ", expected 2 elements [off_value, on_value]";
  if (isa<IntegerType>(elementOf(indices)) && elementOf(indices).isInteger(1))
    return n.emitError() << "input 0 (indices) has type " << indices.getType()
                         << ", expected a numeric tensor";
  std::optional<OpFoldResult> depth = getScalarIndex(n, depthInput);
  if (!depth)
    return n.emitError() << "input 1 (depth) has type " << depthInput.getType()
                         << ", expected a tensor of one element";
  if (auto c = getConstantIntValue(*depth); c && *c < 1)
    return n.emitError() << "depth is " << *c << ", expected a positive number of classes";
  int64_t rank = rankOf(indices);
  auto axis = normalizeAxis(n, n.getInt("axis", -1), rank + 1);
  if (!axis)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  if (!getConstantIntValue(*depth)) {
    Value positive = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                           toIndex(n, *depth),
                                           arith::ConstantIndexOp::create(b, loc, 0));
    prim::CheckOp::create(b, loc, positive,
                          b.getStringAttr("node '" + n.getNode().getNodeName() +
                                          "' (OneHot): depth must be positive"));
  }
  SmallVector<OpFoldResult> inDims = getDims(n, indices), outDims(inDims);
  outDims.insert(outDims.begin() + *axis, *depth);
  Value idx = convert(n, indices, b.getI64Type());
  if (WrapNegative) {
    Value negative = prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, idx,
                                             splatLike(n, idx, 0.0));
    Value wrapped = prim::AddOp::create(b, loc, idx, fillIndex(n, *depth, inDims));
    idx = prim::SelectOp::create(b, loc, negative, wrapped, idx);
  }
  SmallVector<int64_t> mapping;
  for (int64_t d = 0; d <= rank; ++d)
    if (d != *axis)
      mapping.push_back(d);
  Value spread = prim::BroadcastInDimOp::create(b, loc, getTensorType(outDims, b.getI64Type()),
                                                idx, getDynamicExtents(n, outDims),
                                                b.getDenseI64ArrayAttr(mapping));
  Value hit = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, spread,
                                      iota(n, outDims, *axis));
  return n.setResults(prim::SelectOp::create(b, loc, hit, fill(n, elementAt(n, values, 1), outDims),
                                             fill(n, elementAt(n, values, 0), outDims))
                          .getResult());
}

// eye_like(x, k)[i, j] = j - i == k ? 1 : 0, of type dtype (default x's element type)
LogicalResult eyeLike(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  if (rankOf(x) != 2)
    return n.emitError() << "expected a 2-d input, got " << x.getType();
  Type element = elementOf(x);
  if (auto code = n.getOptionalInt("dtype")) {
    element = elementTypeOfOnnxCode(n.getContext(), *code);
    if (!element)
      return n.emitError() << "attribute 'dtype' is ONNX data type " << *code
                           << ", expected a numeric or bool type";
  }
  int64_t k = n.getInt("k", 0);
  if (n.hasFailed())
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  Value diff = prim::SubOp::create(b, loc, iota(n, dims, 1), iota(n, dims, 0));
  Value onDiagonal = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, diff,
                                             splatLike(n, diff, static_cast<double>(k)));
  return n.setResults(prim::SelectOp::create(b, loc, onDiagonal, splatLike(n, x, 1.0, element),
                                             splatLike(n, x, 0.0, element))
                          .getResult());
}

// shrink(x) = x < -lambd ? x + bias : (x > lambd ? x - bias : 0)
LogicalResult shrink(NodeRewriter &n) {
  Value x = n.getInput(0);
  float lambd = n.getFloat("lambd", 0.5f), bias = n.getFloat("bias", 0.0f);
  if (!x || n.hasFailed())
    return failure();
  if (isa<IntegerType>(elementOf(x)) && elementOf(x).isInteger(1))
    return n.emitError() << "expected a numeric input, got " << x.getType();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value above =
      prim::CompareOp::create(b, loc, prim::CompareDirection::Gt, x, splatLike(n, x, lambd));
  Value biasTensor = splatLike(n, x, bias);
  Value upper = prim::SelectOp::create(b, loc, above, prim::SubOp::create(b, loc, x, biasTensor),
                                       splatLike(n, x, 0.0));
  // Unsigned x is never below -lambd (and -lambd would wrap).
  if (elementOf(x).isUnsignedInteger())
    return n.setResults(upper);
  Value below =
      prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, x, splatLike(n, x, -lambd));
  return n.setResults(
      prim::SelectOp::create(b, loc, below, prim::AddOp::create(b, loc, x, biasTensor), upper)
          .getResult());
}

// lrn(x)[n, c, ...] = x / (bias + alpha / size * sum_{c' in window(c)} x[n, c', ...]^2)^beta,
// window(c) = [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)] clipped to the channels
LogicalResult lrn(NodeRewriter &n) {
  Value x = n.getFloatInput(0);
  std::optional<int64_t> size = n.getOptionalInt("size");
  float alpha = n.getFloat("alpha", 0.0001f), beta = n.getFloat("beta", 0.75f),
        bias = n.getFloat("bias", 1.0f);
  if (!x || n.hasFailed())
    return failure();
  if (!size || *size < 1)
    return n.emitError() << "attribute 'size' must be a positive INT, got "
                         << (size ? std::to_string(*size) : std::string("none"));
  int64_t rank = rankOf(x);
  if (rank < 3)
    return n.emitError() << "expected an input of rank >= 3 (N, C, d...), got " << x.getType();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<int64_t> window(rank, 1), ones(rank, 1), low(rank, 0), high(rank, 0);
  window[1] = *size;
  low[1] = (*size - 1) / 2;
  high[1] = *size - 1 - low[1];
  Value squares = prim::MulOp::create(b, loc, x, x);
  Value sum = prim::ReduceWindowOp::create(b, loc, prim::ReduceKind::Sum, squares, window, ones,
                                           ones, low, high);
  Value scaled = prim::MulOp::create(b, loc, sum,
                                     splatLike(n, x, static_cast<double>(alpha) / *size));
  Value base = prim::AddOp::create(b, loc, scaled, splatLike(n, x, bias));
  Value denominator = prim::PowOp::create(b, loc, base, splatLike(n, x, beta));
  return n.setResults(prim::DivOp::create(b, loc, x, denominator).getResult());
}

//===- Einsum ------------------------------------------------------------------------===//

/// Labels: a letter is its character code; the dims of "..." are kEllipsisLabel + i, i
/// counted over the broadcast dims of all operands (right-aligned, as numpy broadcasts).
constexpr int kEllipsisLabel = 256;

/// An operand or intermediate result and the label of each of its dims.
struct Labeled {
  Value value;
  SmallVector<int> labels;
};

/// Parses one term ("ab...c"): its letters and where "..." stands (-1 when absent).
bool parseTerm(StringRef term, SmallVector<int> &letters, int64_t &ellipsisAt) {
  ellipsisAt = -1;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term.substr(i).starts_with("...")) {
      if (ellipsisAt >= 0)
        return false;
      ellipsisAt = static_cast<int64_t>(letters.size());
      i += 2;
    } else if (llvm::isAlpha(term[i])) {
      letters.push_back(term[i]);
    } else {
      return false;
    }
  }
  return true;
}

/// The labels of each operand and of the output; false after an error.
bool parseEquation(NodeRewriter &n, StringRef equation, ArrayRef<int64_t> ranks,
                   SmallVector<SmallVector<int>> &inputs, SmallVector<int> &output) {
  std::string compact;
  for (char c : equation)
    if (c != ' ')
      compact.push_back(c);
  StringRef text(compact);
  auto [lhs, rhs] = text.split("->");
  bool explicitOutput = text.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size()) {
    n.emitError() << "equation \"" << equation << "\" has " << terms.size()
                  << " input terms, expected one per input (" << ranks.size() << ")";
    return false;
  }
  SmallVector<SmallVector<int>> letters(terms.size());
  SmallVector<int64_t> ellipsisAt(terms.size()), ellipsisDims(terms.size(), 0);
  int64_t broadcastDims = 0;
  for (auto [i, term] : llvm::enumerate(terms)) {
    if (!parseTerm(term, letters[i], ellipsisAt[i])) {
      n.emitError() << "equation term \"" << term
                    << "\" must be letters with at most one \"...\"";
      return false;
    }
    int64_t named = static_cast<int64_t>(letters[i].size());
    if (ellipsisAt[i] < 0 ? named != ranks[i] : named > ranks[i]) {
      n.emitError() << "equation term \"" << term << "\" names " << named
                    << " dims, expected input " << i << "'s rank " << ranks[i];
      return false;
    }
    ellipsisDims[i] = ranks[i] - named;
    broadcastDims = std::max(broadcastDims, ellipsisDims[i]);
  }
  std::map<int, int> counts;
  for (auto [i, named] : llvm::enumerate(letters)) {
    SmallVector<int> &labels = inputs.emplace_back();
    for (int64_t p = 0; p <= static_cast<int64_t>(named.size()); ++p) {
      if (p == ellipsisAt[i])
        for (int64_t e = 0; e < ellipsisDims[i]; ++e)
          labels.push_back(kEllipsisLabel + broadcastDims - ellipsisDims[i] + e);
      if (p < static_cast<int64_t>(named.size())) {
        labels.push_back(named[p]);
        ++counts[named[p]];
      }
    }
  }
  if (!explicitOutput) {
    // Implicit output: the broadcast dims, then the letters used once, sorted.
    for (int64_t e = 0; e < broadcastDims; ++e)
      output.push_back(kEllipsisLabel + e);
    for (auto [label, count] : counts)
      if (count == 1)
        output.push_back(label);
    return true;
  }
  SmallVector<int> outLetters;
  int64_t outEllipsis;
  if (!parseTerm(rhs, outLetters, outEllipsis)) {
    n.emitError() << "equation output \"" << rhs << "\" must be letters with at most one \"...\"";
    return false;
  }
  for (int64_t p = 0; p <= static_cast<int64_t>(outLetters.size()); ++p) {
    if (p == outEllipsis)
      for (int64_t e = 0; e < broadcastDims; ++e)
        output.push_back(kEllipsisLabel + e);
    if (p < static_cast<int64_t>(outLetters.size())) {
      int label = outLetters[p];
      if (!counts.count(label) || llvm::is_contained(output, label)) {
        n.emitError() << "output label '" << static_cast<char>(label)
                      << "' must appear in the inputs and once in the output";
        return false;
      }
      output.push_back(label);
    }
  }
  return true;
}

/// Sums `t` over the dims at `positions` (which leave its labels).
void sumOver(NodeRewriter &n, Labeled &t, SmallVector<int64_t> positions) {
  if (positions.empty())
    return;
  llvm::sort(positions);
  t.value = prim::ReduceOp::create(n.getBuilder(), n.getLoc(), prim::ReduceKind::Sum, t.value,
                                   ArrayRef<int64_t>(positions));
  for (int64_t p : llvm::reverse(positions))
    t.labels.erase(t.labels.begin() + p);
}

/// Sums `t` over every label that `keep` does not accept.
template <typename Keep>
void sumUnless(NodeRewriter &n, Labeled &t, Keep keep) {
  SmallVector<int64_t> positions;
  for (auto [p, label] : llvm::enumerate(t.labels))
    if (!keep(label))
      positions.push_back(static_cast<int64_t>(p));
  sumOver(n, t, positions);
}

// a repeated label takes the diagonal: t[.., i, .., i, ..] = sum_j (i == j) t[.., i, .., j, ..]
void takeDiagonals(NodeRewriter &n, Labeled &t) {
  OpBuilder &b = n.getBuilder();
  for (int64_t q = 1; q < static_cast<int64_t>(t.labels.size()); ++q) {
    auto *first = llvm::find(ArrayRef<int>(t.labels).take_front(q), t.labels[q]);
    if (first == t.labels.begin() + q)
      continue;
    int64_t p = first - t.labels.begin();
    SmallVector<OpFoldResult> dims = getDims(n, t.value);
    checkEqual(n, dims[p], dims[q], "the dims of a repeated einsum label must be equal");
    Value same = prim::CompareOp::create(b, n.getLoc(), prim::CompareDirection::Eq,
                                         iota(n, dims, p), iota(n, dims, q));
    t.value = prim::SelectOp::create(b, n.getLoc(), same, t.value, splatLike(n, t.value, 0.0));
    sumOver(n, t, {q});
    --q;
  }
}

/// `a` with each extent-1 dim broadcast to the extent its label has in `other` (numpy
/// broadcasting of "..." dims and repeated labels).
Value broadcastLabels(NodeRewriter &n, const Labeled &a, const Labeled &other) {
  SmallVector<OpFoldResult> dims = getDims(n, a.value), otherDims = getDims(n, other.value);
  bool changed = false;
  for (auto [p, label] : llvm::enumerate(a.labels)) {
    auto *at = llvm::find(other.labels, label);
    if (at == other.labels.end())
      continue;
    OpFoldResult there = otherDims[at - other.labels.begin()];
    if (getConstantIntValue(dims[p]) == 1 && getConstantIntValue(there) != 1) {
      dims[p] = there;
      changed = true;
    }
  }
  return changed ? broadcastTo(n, a.value, dims, "an einsum operand") : a.value;
}

// contract(a, b): labels in both and kept are batch dims, in both and not kept are summed
// (dot_general contracting dims), in one only are free; result = batch, a free, b free
std::optional<Labeled> contract(NodeRewriter &n, Labeled a, Labeled b, ArrayRef<int> keep) {
  auto kept = [&](int label) { return llvm::is_contained(keep, label); };
  sumUnless(n, a, [&](int l) { return kept(l) || llvm::is_contained(b.labels, l); });
  sumUnless(n, b, [&](int l) { return kept(l) || llvm::is_contained(a.labels, l); });
  a.value = broadcastLabels(n, a, b);
  b.value = broadcastLabels(n, b, a);
  if (!a.value || !b.value)
    return std::nullopt;
  SmallVector<int64_t> aBatch, bBatch, aContract, bContract;
  Labeled result;
  SmallVector<OpFoldResult> aDims = getDims(n, a.value), bDims = getDims(n, b.value);
  for (auto [p, label] : llvm::enumerate(a.labels)) {
    auto *at = llvm::find(b.labels, label);
    if (at == b.labels.end())
      continue;
    int64_t q = at - b.labels.begin();
    checkEqual(n, aDims[p], bDims[q], "the dims of einsum label shared by two operands must agree");
    if (n.hasFailed())
      return std::nullopt;
    (kept(label) ? aBatch : aContract).push_back(static_cast<int64_t>(p));
    (kept(label) ? bBatch : bContract).push_back(q);
    if (kept(label))
      result.labels.push_back(label);
  }
  for (int label : a.labels)
    if (!llvm::is_contained(b.labels, label))
      result.labels.push_back(label);
  for (int label : b.labels)
    if (!llvm::is_contained(a.labels, label))
      result.labels.push_back(label);
  result.value = prim::DotGeneralOp::create(n.getBuilder(), n.getLoc(), a.value, b.value,
                                            aContract, bContract, aBatch, bBatch);
  return result;
}

// einsum(equation, x...): per operand take diagonals, then contract left to right keeping the
// labels the output or a later operand uses, sum what remains and transpose to the output
LogicalResult einsum(NodeRewriter &n) {
  std::string equation = n.getString("equation", "");
  if (n.hasFailed())
    return failure();
  if (n.getNumInputs() == 0)
    return n.emitError() << "expected at least one input";
  SmallVector<Labeled> operands;
  SmallVector<int64_t> ranks;
  for (unsigned i = 0; i < n.getNumInputs(); ++i) {
    Value v = n.getInput(i);
    if (!v)
      return failure();
    if (elementOf(v) != elementOf(n.getInput(0)))
      return n.emitError() << "input " << i << " has element type " << elementOf(v)
                           << ", expected input 0's " << elementOf(n.getInput(0));
    operands.push_back({v, {}});
    ranks.push_back(rankOf(v));
  }
  SmallVector<SmallVector<int>> inputLabels;
  SmallVector<int> output;
  if (!parseEquation(n, equation, ranks, inputLabels, output))
    return failure();
  for (auto [operand, labels] : llvm::zip(operands, inputLabels)) {
    operand.labels = labels;
    takeDiagonals(n, operand);
  }
  Labeled result = operands[0];
  for (size_t i = 1; i < operands.size(); ++i) {
    SmallVector<int> keep(output);
    for (size_t j = i + 1; j < operands.size(); ++j)
      keep.append(operands[j].labels);
    auto next = contract(n, result, operands[i], keep);
    if (!next)
      return failure();
    result = *next;
  }
  sumUnless(n, result, [&](int l) { return llvm::is_contained(output, l); });
  SmallVector<int64_t> perm;
  for (int label : output) {
    auto *at = llvm::find(result.labels, label);
    if (at == result.labels.end())
      return n.emitError() << "output dim " << perm.size() << " has no label of the inputs";
    perm.push_back(at - result.labels.begin());
  }
  return n.setResults(
      n.getBuilder().createOrFold<prim::TransposeOp>(n.getLoc(), result.value, perm));
}

} // namespace

void tcc::decompose::registerRearrangeRules(RuleRegistry &r) {
  // Opset 13 of DepthToSpace, SpaceToDepth and LRN only adds bfloat16.
  r.add("", "DepthToSpace", 1, depthToSpace<false>);
  r.add("", "DepthToSpace", 11, depthToSpace<true>);
  r.add("", "SpaceToDepth", 1, spaceToDepth);
  r.add("", "SpaceToDepth", 28, spaceToDepth); // + mode
  r.add("", "OneHot", 9, oneHot<false>);
  r.add("", "OneHot", 11, oneHot<true>);
  r.add("", "EyeLike", 9, eyeLike);
  r.add("", "Shrink", 9, shrink);
  r.add("", "LRN", 1, lrn);
  r.add("", "Einsum", 12, einsum);
}
