//===- Strings.cpp - StringNormalizer, StringConcat, RegexFullMatch --------------------===//
//
// String tensors meet seven primitives (prim.format, prim.parse, prim.change_case,
// prim.string_in, prim.string_equal, prim.string_concat, prim.string_match; Cast's rule
// reaches the first two through `convert`, Equal's the fifth). StringNormalizer
// removes stopwords with prim.compact, so its output extent is data-dependent.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

// StringNormalizer(X [C] or [1, C]):
//   keep[i] = not string_in(X[i], stopwords, ignore_case = !is_case_sensitive)
//   Y       = change_case(X) (LOWER, UPPER; NONE keeps X)
//   out     = compact(concat(Y, [""]), concat(keep, [not any(keep)]))
// so the output is [C'] (or [1, C']) with the kept strings in order, and [""] when every
// string was a stopword (ONNX: "an empty string in a tensor of shape [1]"). Without stopwords
// nothing is removed and the shape stays X's. The locale attribute is accepted; case maps are
// the runtime's (Unicode simple case mapping of C.UTF-8), not the named locale's.
LogicalResult stringNormalizer(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  RankedTensorType type = typeOf(x);
  if (!isa<prim::StringType>(type.getElementType()))
    return n.emitError() << "X must be a string tensor, got " << type;
  if (type.getRank() != 1 && type.getRank() != 2)
    return n.emitError() << "X must have shape [C] or [1, C], got rank " << type.getRank();
  if (type.getRank() == 2 && !type.isDynamicDim(0) && type.getDimSize(0) != 1)
    return n.emitError() << "X must have shape [C] or [1, C], got [" << type.getDimSize(0)
                         << ", ...]";
  SmallVector<OpFoldResult> dims = getDims(n, x);
  if (type.getRank() == 2) {
    if (type.isDynamicDim(0))
      checkEqual(n, dims[0], b.getIndexAttr(1),
                 "StringNormalizer: X must have shape [C] or [1, C] (dim 0 is not 1)");
    x = reshape(n, x, {dims[1]});
  }

  std::string action = n.getString("case_change_action", "NONE");
  if (action != "NONE" && action != "LOWER" && action != "UPPER")
    return n.emitError() << "case_change_action must be NONE, LOWER or UPPER, got '" << action
                         << "'";
  bool caseSensitive = n.getInt("is_case_sensitive", 0) != 0;
  SmallVector<Attribute> stopwords;
  if (Attribute attr = n.getNode().getNodeAttr("stopwords")) {
    auto array = dyn_cast<ArrayAttr>(attr);
    if (!array || !llvm::all_of(array, [](Attribute a) { return isa<StringAttr>(a); }))
      return n.emitError() << "attribute 'stopwords' must be a list of strings";
    stopwords.assign(array.begin(), array.end());
  }

  Value y = x;
  if (action != "NONE")
    y = prim::ChangeCaseOp::create(b, loc, x, action == "UPPER");
  if (!stopwords.empty()) {
    Value found = prim::StringInOp::create(b, loc, x, b.getArrayAttr(stopwords), !caseSensitive);
    Value keep = prim::NotOp::create(b, loc, found);
    Value anyKept = prim::ReduceOp::create(b, loc, prim::ReduceKind::Or, keep, ArrayRef<int64_t>{0});
    Value noneKept = reshape(n, prim::NotOp::create(b, loc, anyKept), {b.getIndexAttr(1)});
    auto emptyType = RankedTensorType::get({1}, type.getElementType());
    Value empty = arith::ConstantOp::create(
        b, loc, emptyType, DenseStringElementsAttr::get(emptyType, {StringRef()}));
    Value values = prim::ConcatenateOp::create(b, loc, ValueRange{y, empty}, 0);
    Value mask = prim::ConcatenateOp::create(b, loc, ValueRange{keep, noneKept}, 0);
    auto resultType = RankedTensorType::get({ShapedType::kDynamic}, type.getElementType());
    y = prim::CompactOp::create(b, loc, resultType, values, mask, 0);
  }
  if (type.getRank() == 2)
    y = reshape(n, y, {b.getIndexAttr(1), getDims(n, y)[0]});
  return n.setResults(y);
}

// StringConcat(X, Y) = string_concat(X, Y), broadcast (NumPy rules)
LogicalResult stringConcat(NodeRewriter &n) {
  Value x = n.getInput(0), y = n.getInput(1);
  if (!x || !y)
    return failure();
  for (Value v : {x, y})
    if (!isa<prim::StringType>(typeOf(v).getElementType()))
      return n.emitError() << "inputs must be string tensors, got " << v.getType();
  SmallVector<Value> ops = broadcastAll(n, {x, y});
  if (ops.empty())
    return failure();
  return n.setResults(
      prim::StringConcatOp::create(n.getBuilder(), n.getLoc(), ops[0], ops[1]).getResult());
}

// RegexFullMatch(X) = string_match(X, pattern): the runtime's engine (RE2 syntax)
LogicalResult regexFullMatch(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  if (!isa<prim::StringType>(typeOf(x).getElementType()))
    return n.emitError() << "X must be a string tensor, got " << x.getType();
  if (!n.hasAttr("pattern"))
    return n.emitError() << "the attribute 'pattern' is required";
  std::string pattern = n.getString("pattern", "");
  return n.setResults(prim::StringMatchOp::create(n.getBuilder(), n.getLoc(), x,
                                                  n.getBuilder().getStringAttr(pattern))
                          .getResult());
}

} // namespace

void tcc::decompose::registerStringRules(RuleRegistry &r) {
  r.add("", "RegexFullMatch", 20, regexFullMatch);
  r.add("", "StringNormalizer", 10, stringNormalizer);
  r.add("", "StringConcat", 20, stringConcat);
}
