//===- PrimInfer.cpp - result type inference of prim ops ------------------------------===//
//
// inferReturnTypes also checks the operands and attributes it reads (it runs as part of the
// verifier), so every error here says what was expected and what was found.
//
//===----------------------------------------------------------------------------------===//
#include "dialects/prim/PrimDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace tcc::prim;

static constexpr int64_t kDynamic = ShapedType::kDynamic;

int64_t tcc::prim::windowOutputSize(int64_t in, int64_t window, int64_t stride,
                                    int64_t dilation, int64_t low, int64_t high) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(window))
    return kDynamic;
  int64_t effective = dilation * (window - 1) + 1;
  int64_t padded = in + low + high;
  if (padded < effective || stride <= 0)
    return -1;
  return (padded - effective) / stride + 1;
}

namespace {
/// Of two extents of the same dim, the static one (they must agree when both are static).
int64_t mergeExtent(int64_t a, int64_t b) { return ShapedType::isDynamic(a) ? b : a; }

/// Checks that every entry of `dims` is a distinct dim of a rank-`rank` tensor.
LogicalResult checkDims(std::optional<Location> loc, ArrayRef<int64_t> dims, int64_t rank,
                        StringRef what) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return emitOptionalError(loc, what, " dim ", d, " is out of range for rank ", rank);
    if (!seen.insert(d).second)
      return emitOptionalError(loc, what, " dim ", d, " is listed twice");
  }
  return success();
}

RankedTensorType ranked(Value v) { return dyn_cast<RankedTensorType>(v.getType()); }

LogicalResult inferPredicate(MLIRContext *ctx, Value operand, SmallVectorImpl<Type> &types) {
  auto type = ranked(operand);
  if (!type)
    return failure();
  types.push_back(type.clone(IntegerType::get(ctx, 1)));
  return success();
}
} // namespace

LogicalResult IsNanOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                        Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferPredicate(ctx, adaptor.getOperand(), types);
}

LogicalResult IsInfOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                        Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferPredicate(ctx, adaptor.getOperand(), types);
}

LogicalResult StringInOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                           Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferPredicate(ctx, adaptor.getOperand(), types);
}

LogicalResult StringEqualOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                              Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferPredicate(ctx, adaptor.getLhs(), types);
}

LogicalResult StringMatchOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                              Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferPredicate(ctx, adaptor.getOperand(), types);
}

LogicalResult CompareOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                          Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferPredicate(ctx, adaptor.getLhs(), types);
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getOnTrue().getType());
  return success();
}

static LogicalResult inferTransposeOp(MLIRContext *, std::optional<Location> loc,
                                            TransposeOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto type = ranked(adaptor.getOperand());
  if (!type)
    return failure();
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != type.getRank())
    return emitOptionalError(loc, "expected a permutation of ", type.getRank(),
                             " dims, got ", perm.size());
  if (failed(checkDims(loc, perm, type.getRank(), "permutation")))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  types.push_back(type.clone(shape));
  return success();
}

static LogicalResult inferPadOp(MLIRContext *, std::optional<Location> loc,
                                      PadOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto type = ranked(adaptor.getOperand());
  if (!type)
    return failure();
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  if (static_cast<int64_t>(low.size()) != type.getRank() ||
      static_cast<int64_t>(high.size()) != type.getRank())
    return emitOptionalError(loc, "expected ", type.getRank(), " low and high paddings, got ",
                             low.size(), " and ", high.size());
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    if (low[d] < 0 || high[d] < 0)
      return emitOptionalError(loc, "paddings must be non-negative, dim ", d, " has ", low[d],
                               " and ", high[d]);
    shape.push_back(ShapedType::isDynamic(size) ? kDynamic : size + low[d] + high[d]);
  }
  types.push_back(type.clone(shape));
  return success();
}

static LogicalResult inferConcatenateOp(MLIRContext *, std::optional<Location> loc,
                                              ConcatenateOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(loc, "expected at least one input");
  auto first = ranked(adaptor.getInputs().front());
  if (!first)
    return failure();
  int64_t dim = adaptor.getDimension();
  if (dim < 0 || dim >= first.getRank())
    return emitOptionalError(loc, "dimension ", dim, " is out of range for rank ",
                             first.getRank());
  SmallVector<int64_t> shape(first.getShape());
  shape[dim] = 0;
  for (auto [index, input] : llvm::enumerate(adaptor.getInputs())) {
    auto type = ranked(input);
    if (!type || type.getRank() != first.getRank() ||
        type.getElementType() != first.getElementType())
      return emitOptionalError(loc, "input ", index, " has type ", input.getType(),
                               ", expected rank ", first.getRank(), " and element type ",
                               first.getElementType());
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t size = type.getDimSize(d);
      if (d == dim) {
        shape[d] = (ShapedType::isDynamic(size) || ShapedType::isDynamic(shape[d]))
                       ? kDynamic
                       : shape[d] + size;
        continue;
      }
      if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(shape[d]) && size != shape[d])
        return emitOptionalError(loc, "input ", index, " has extent ", size, " in dim ", d,
                                 ", expected ", shape[d]);
      shape[d] = mergeExtent(shape[d], size);
    }
  }
  types.push_back(first.clone(shape));
  return success();
}

static LogicalResult inferGatherOp(MLIRContext *, std::optional<Location> loc,
                                         GatherOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto type = ranked(adaptor.getOperand());
  auto indices = ranked(adaptor.getIndices());
  if (!type || !indices)
    return failure();
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= type.getRank())
    return emitOptionalError(loc, "axis ", axis, " is out of range for rank ", type.getRank());
  SmallVector<int64_t> shape(type.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, type.getShape().drop_front(axis + 1));
  types.push_back(type.clone(shape));
  return success();
}

static LogicalResult inferSortOp(MLIRContext *context, std::optional<Location> loc,
                                       SortOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto type = ranked(adaptor.getOperand());
  if (!type)
    return failure();
  int64_t dim = adaptor.getDimension();
  if (dim < 0 || dim >= type.getRank())
    return emitOptionalError(loc, "dimension ", dim, " is out of range for rank ", type.getRank());
  types.push_back(type);
  types.push_back(type.clone(IntegerType::get(context, 64)));
  return success();
}

static LogicalResult inferReduceOp(MLIRContext *, std::optional<Location> loc,
                                         ReduceOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto type = ranked(adaptor.getOperand());
  if (!type)
    return failure();
  ArrayRef<int64_t> dims = adaptor.getDimensions();
  if (failed(checkDims(loc, dims, type.getRank(), "reduced")))
    return failure();
  ReduceKind kind = adaptor.getKind();
  bool bitwise = kind == ReduceKind::And || kind == ReduceKind::Or || kind == ReduceKind::Xor;
  if (bitwise && !isa<IntegerType>(type.getElementType()))
    return emitOptionalError(loc, "reduce ", stringifyReduceKind(kind),
                             " needs integer elements, got ", type.getElementType());
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      shape.push_back(size);
  types.push_back(type.clone(shape));
  return success();
}

static LogicalResult inferArgReduceOp(MLIRContext *ctx, std::optional<Location> loc,
                                            ArgReduceOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto type = ranked(adaptor.getOperand());
  if (!type)
    return failure();
  int64_t dim = adaptor.getDimension();
  if (dim < 0 || dim >= type.getRank())
    return emitOptionalError(loc, "dimension ", dim, " is out of range for rank ",
                             type.getRank());
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + dim);
  types.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
}

static LogicalResult inferReduceWindowOp(MLIRContext *, std::optional<Location> loc,
                                               ReduceWindowOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto type = ranked(adaptor.getOperand());
  if (!type)
    return failure();
  int64_t rank = type.getRank();
  ArrayRef<int64_t> window = adaptor.getWindowDimensions(), strides = adaptor.getWindowStrides(),
                    dilations = adaptor.getWindowDilations(), low = adaptor.getPaddingLow(),
                    high = adaptor.getPaddingHigh();
  for (ArrayRef<int64_t> list : {window, strides, dilations, low, high})
    if (static_cast<int64_t>(list.size()) != rank)
      return emitOptionalError(loc, "expected ", rank,
                               " entries in each window attribute, got ", list.size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (window[d] < 1 || strides[d] < 1 || dilations[d] < 1 || low[d] < 0 || high[d] < 0)
      return emitOptionalError(loc, "dim ", d, ": window ", window[d], ", stride ", strides[d],
                               ", dilation ", dilations[d], ", padding ", low[d], "/", high[d],
                               " (expected window, stride, dilation >= 1 and padding >= 0)");
    int64_t out = windowOutputSize(type.getDimSize(d), window[d], strides[d], dilations[d],
                                   low[d], high[d]);
    if (out == -1)
      return emitOptionalError(loc, "dim ", d, ": the window (", window[d], " dilated by ",
                               dilations[d], ") is larger than the padded input (",
                               type.getDimSize(d), " + ", low[d], " + ", high[d], ")");
    shape.push_back(out);
  }
  types.push_back(type.clone(shape));
  return success();
}

static LogicalResult inferDotGeneralOp(MLIRContext *, std::optional<Location> loc,
                                             DotGeneralOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto lhs = ranked(adaptor.getLhs()), rhs = ranked(adaptor.getRhs());
  if (!lhs || !rhs)
    return failure();
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(loc, "operand element types differ: ", lhs.getElementType(),
                             " and ", rhs.getElementType());
  ArrayRef<int64_t> lb = adaptor.getLhsBatchingDimensions(),
                    rb = adaptor.getRhsBatchingDimensions(),
                    lc = adaptor.getLhsContractingDimensions(),
                    rc = adaptor.getRhsContractingDimensions();
  if (lb.size() != rb.size() || lc.size() != rc.size())
    return emitOptionalError(loc, "lhs and rhs must list as many batching (", lb.size(), " vs ",
                             rb.size(), ") and contracting (", lc.size(), " vs ", rc.size(),
                             ") dims");
  SmallVector<int64_t> lhsDims(lb), rhsDims(rb);
  llvm::append_range(lhsDims, lc);
  llvm::append_range(rhsDims, rc);
  if (failed(checkDims(loc, lhsDims, lhs.getRank(), "lhs")) ||
      failed(checkDims(loc, rhsDims, rhs.getRank(), "rhs")))
    return failure();
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < lhsDims.size(); ++i) {
    int64_t a = lhs.getDimSize(lhsDims[i]), b = rhs.getDimSize(rhsDims[i]);
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
      return emitOptionalError(loc, "lhs dim ", lhsDims[i], " (", a, ") and rhs dim ",
                               rhsDims[i], " (", b, ") must agree");
    if (i < lb.size())
      shape.push_back(mergeExtent(a, b));
  }
  for (int64_t d = 0; d < lhs.getRank(); ++d)
    if (!llvm::is_contained(lhsDims, d))
      shape.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < rhs.getRank(); ++d)
    if (!llvm::is_contained(rhsDims, d))
      shape.push_back(rhs.getDimSize(d));
  types.push_back(lhs.clone(shape));
  return success();
}

static LogicalResult inferConvolutionOp(MLIRContext *, std::optional<Location> loc,
                                              ConvolutionOp::Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto input = ranked(adaptor.getInput()), filter = ranked(adaptor.getFilter());
  if (!input || !filter)
    return failure();
  if (input.getElementType() != filter.getElementType())
    return emitOptionalError(loc, "input and filter element types differ: ",
                             input.getElementType(), " and ", filter.getElementType());
  int64_t rank = input.getRank(), spatial = rank - 2;
  if (rank < 3 || filter.getRank() != rank)
    return emitOptionalError(loc, "expected input and filter of one rank >= 3, got ", rank,
                             " and ", filter.getRank());
  ArrayRef<int64_t> strides = adaptor.getStrides(), low = adaptor.getPaddingLow(),
                    high = adaptor.getPaddingHigh(), dilations = adaptor.getDilations();
  for (ArrayRef<int64_t> list : {strides, low, high, dilations})
    if (static_cast<int64_t>(list.size()) != spatial)
      return emitOptionalError(loc, "expected ", spatial,
                               " entries in each spatial attribute, got ", list.size());
  int64_t groups = adaptor.getFeatureGroupCount();
  if (groups < 1)
    return emitOptionalError(loc, "feature_group_count must be >= 1, got ", groups);
  int64_t channels = input.getDimSize(1), filterChannels = filter.getDimSize(1),
          outChannels = filter.getDimSize(0);
  if (!ShapedType::isDynamic(channels) && !ShapedType::isDynamic(filterChannels) &&
      channels != filterChannels * groups)
    return emitOptionalError(loc, "input has ", channels, " channels, expected filter channels (",
                             filterChannels, ") x groups (", groups, ")");
  if (!ShapedType::isDynamic(outChannels) && outChannels % groups != 0)
    return emitOptionalError(loc, "output channels (", outChannels,
                             ") must be a multiple of groups (", groups, ")");
  SmallVector<int64_t> shape = {input.getDimSize(0), outChannels};
  for (int64_t d = 0; d < spatial; ++d) {
    if (strides[d] < 1 || dilations[d] < 1 || low[d] < 0 || high[d] < 0)
      return emitOptionalError(loc, "spatial dim ", d, ": stride ", strides[d], ", dilation ",
                               dilations[d], ", padding ", low[d], "/", high[d],
                               " (expected stride, dilation >= 1 and padding >= 0)");
    int64_t out = windowOutputSize(input.getDimSize(d + 2), filter.getDimSize(d + 2), strides[d],
                                   dilations[d], low[d], high[d]);
    if (out == -1)
      return emitOptionalError(loc, "spatial dim ", d, ": the dilated filter is larger than the "
                               "padded input");
    shape.push_back(out);
  }
  types.push_back(input.clone(shape));
  return success();
}

//===----------------------------------------------------------------------------------===//
// Soft inference (SoftInferenceScope)
//===----------------------------------------------------------------------------------===//

namespace {
thread_local int softInferenceDepth = 0;
thread_local int64_t softlyBuiltOps = 0;

/// `inferred`, or under a SoftInferenceScope after a failure that was reported (there is a
/// location), `count` results of the first operand's type, so that the op can be built.
LogicalResult soften(LogicalResult inferred, std::optional<Location> loc, ValueRange operands,
                     unsigned count, SmallVectorImpl<Type> &types) {
  if (succeeded(inferred) || !loc || !SoftInferenceScope::active() || operands.empty() ||
      !isa<RankedTensorType>(operands.front().getType()))
    return inferred;
  types.assign(count, operands.front().getType());
  ++softlyBuiltOps;
  return success();
}
} // namespace

tcc::prim::SoftInferenceScope::SoftInferenceScope() { ++softInferenceDepth; }
tcc::prim::SoftInferenceScope::~SoftInferenceScope() { --softInferenceDepth; }
bool tcc::prim::SoftInferenceScope::active() { return softInferenceDepth > 0; }
int64_t tcc::prim::SoftInferenceScope::softlyBuilt() { return softlyBuiltOps; }

// The ops' inference: their checks (infer<Op> above), softened.
#define TCC_PRIM_SOFT_INFERENCE(Op, results)                                                     \
  LogicalResult Op::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,              \
                                     Adaptor adaptor, SmallVectorImpl<Type> &types) {            \
    return soften(infer##Op(ctx, loc, adaptor, types), loc, adaptor.getOperands(), results,      \
                  types);                                                                         \
  }
TCC_PRIM_SOFT_INFERENCE(TransposeOp, 1)
TCC_PRIM_SOFT_INFERENCE(PadOp, 1)
TCC_PRIM_SOFT_INFERENCE(ConcatenateOp, 1)
TCC_PRIM_SOFT_INFERENCE(GatherOp, 1)
TCC_PRIM_SOFT_INFERENCE(SortOp, 2)
TCC_PRIM_SOFT_INFERENCE(ReduceOp, 1)
TCC_PRIM_SOFT_INFERENCE(ArgReduceOp, 1)
TCC_PRIM_SOFT_INFERENCE(ReduceWindowOp, 1)
TCC_PRIM_SOFT_INFERENCE(DotGeneralOp, 1)
TCC_PRIM_SOFT_INFERENCE(ConvolutionOp, 1)
#undef TCC_PRIM_SOFT_INFERENCE
