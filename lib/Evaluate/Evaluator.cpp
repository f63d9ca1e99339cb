//===- Evaluator.cpp - walks a function and evaluates its ops in order -----------------===//
//
// The function's single block is evaluated top to bottom. Each op goes to the op families
// (EvaluateOps.h); whatever they compute is checked against the op's result types, so an
// evaluator bug or an inconsistent dynamic size is an error rather than a wrong tensor.
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Location.h"

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;
namespace prim = tcc::prim;

namespace {
/// `loc` for an error message: the ONNX node name of a NameLoc, `file:line:col`, or the
/// first known part of a fused or call-site location.
std::string describeLocation(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return "'" + name.getName().str() + "'";
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) + ":" +
            llvm::Twine(file.getColumn()))
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations()) {
      std::string text = describeLocation(part);
      if (text != "unknown location")
        return text;
    }
  }
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return describeLocation(callSite.getCallee());
  return "unknown location";
}

/// Prefixes `error` with the name and location of `op`.
llvm::Error atOp(Operation *op, llvm::Error error) {
  std::string what = llvm::toString(std::move(error));
  return makeError(op->getName().getStringRef() + " at " + describeLocation(op->getLoc()) + ": " +
                   what);
}

llvm::Error atOp(Operation *op, const llvm::Twine &what) { return atOp(op, makeError(what)); }

std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

/// An error unless `tensor` can be a value of `type`: a ranked tensor type with the same
/// element type, rank and static extents, or a scalar type held as a 0-d tensor.
llvm::Error checkMatchesType(const Tensor &tensor, Type type, const llvm::Twine &what) {
  auto mismatch = [&]() {
    return makeError(what + " is " + formatShape(tensor.shape) + " of " +
                     typeToString(tensor.elementType) + ", expected " + typeToString(type));
  };
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    if (tensor.elementType != ranked.getElementType() ||
        static_cast<int64_t>(tensor.shape.size()) != ranked.getRank())
      return mismatch();
    for (int64_t d = 0; d < ranked.getRank(); ++d)
      if (!ranked.isDynamicDim(d) && ranked.getDimSize(d) != tensor.shape[d])
        return mismatch();
  } else if (type.isIntOrIndexOrFloat() || isStringElement(type)) {
    if (tensor.elementType != type || !tensor.shape.empty())
      return mismatch();
  } else {
    return makeError(what + " has unsupported type " + typeToString(type));
  }
  if (!isSupportedElementType(tensor.elementType))
    return makeError(what + " has unsupported element type " + typeToString(tensor.elementType));
  if (static_cast<int64_t>(tensor.bytes.size()) !=
      tensor.getNumElements() * getElementByteSize(tensor.elementType))
    return makeError(what + " holds " + llvm::Twine(tensor.bytes.size()) + " bytes, expected " +
                     llvm::Twine(tensor.getNumElements() * getElementByteSize(tensor.elementType)));
  int64_t strings = isStringElement(tensor.elementType) ? tensor.getNumElements() : 0;
  if (static_cast<int64_t>(tensor.strings.size()) != strings)
    return makeError(what + " holds " + llvm::Twine(tensor.strings.size()) +
                     " strings, expected " + llvm::Twine(strings));
  return llvm::Error::success();
}

/// Offers `op` to each op family in turn.
FamilyResult dispatch(Operation *op, const Environment &env, EvaluationState &state) {
  if (FamilyResult r = evaluateElementwiseOp(op, env))
    return r;
  if (FamilyResult r = evaluateDataMovementOp(op, env))
    return r;
  if (FamilyResult r = evaluateStructuredOp(op, env))
    return r;
  if (FamilyResult r = evaluateShapeOp(op, env, state))
    return r;
  if (FamilyResult r = evaluateStringOp(op, env))
    return r;
  return evaluateUpstreamOp(op, env);
}

llvm::Error evaluateOp(Operation *op, Environment &env, EvaluationState &state);

/// prim.loop: the body's ops, in order, `count` times (or until the exit_unless value is
/// false), the carried values passed from each iteration's yield to the next.
llvm::Error evaluateLoop(prim::LoopOp loop, Environment &env, EvaluationState &state) {
  int64_t count = env.get(loop.getCount()).getInt(0);
  std::vector<Tensor> carried;
  for (Value init : loop.getInits())
    carried.push_back(env.get(init));
  Block &body = loop.getBody().front();
  std::optional<int64_t> exitUnless = loop.getExitUnless();
  for (int64_t i = 0; i < count; ++i) {
    // A while loop's condition: an iteration that starts with it false changes nothing.
    if (exitUnless && carried[*exitUnless].getInt(0) == 0)
      break;
    Tensor index = Tensor::zeros(IndexType::get(loop.getContext()), {});
    index.setInt(0, i);
    env.set(body.getArgument(0), std::move(index));
    for (auto [k, value] : llvm::enumerate(carried))
      env.set(body.getArgument(k + 1), value);
    for (Operation &op : body.without_terminator())
      if (llvm::Error error = evaluateOp(&op, env, state))
        return error;
    auto yield = cast<prim::YieldOp>(body.getTerminator());
    for (auto [k, value] : llvm::enumerate(yield.getValues())) {
      if (!env.contains(value))
        return atOp(yield, "operand " + llvm::Twine(k) + " has no value");
      carried[k] = env.get(value);
    }
  }
  for (auto [k, result] : llvm::enumerate(loop.getResults()))
    env.set(result, std::move(carried[k]));
  return llvm::Error::success();
}

/// Evaluates one op of the function body into `env`.
llvm::Error evaluateOp(Operation *op, Environment &env, EvaluationState &state) {
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (!env.contains(operand))
      return atOp(op, "operand " + llvm::Twine(i) +
                          " has no value (it is not defined earlier in the function's block)");
  if (auto loop = dyn_cast<prim::LoopOp>(op))
    return evaluateLoop(loop, env, state);
  if (op->getNumRegions() != 0)
    return atOp(op, "ops with regions are not supported");

  FamilyResult result = dispatch(op, env, state);
  if (!result)
    return atOp(op, "unsupported op");
  if (!*result)
    return atOp(op, result->takeError());
  Results &tensors = **result;
  if (tensors.size() != op->getNumResults())
    return atOp(op, "evaluated " + llvm::Twine(tensors.size()) + " results, expected " +
                        llvm::Twine(op->getNumResults()));
  for (auto [i, value] : llvm::enumerate(op->getResults())) {
    if (llvm::Error error =
            checkMatchesType(tensors[i], value.getType(), "result " + llvm::Twine(i)))
      return atOp(op, std::move(error));
    env.set(value, std::move(tensors[i]));
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<std::vector<Tensor>> tcc::eval::evaluateFunction(func::FuncOp func,
                                                                llvm::ArrayRef<Tensor> inputs) {
  std::string name = "@" + func.getSymName().str();
  if (func.isExternal())
    return makeError(name + " has no body");
  if (!llvm::hasSingleElement(func.getBody()))
    return makeError(name + " has more than one block");
  Block &block = func.getBody().front();
  if (inputs.size() != block.getNumArguments())
    return makeError(name + " takes " + llvm::Twine(block.getNumArguments()) + " arguments, got " +
                     llvm::Twine(inputs.size()) + " inputs");

  Environment env;
  for (auto [i, argument] : llvm::enumerate(block.getArguments())) {
    if (llvm::Error error = checkMatchesType(inputs[i], argument.getType(),
                                             "input " + llvm::Twine(i) + " of " + name))
      return std::move(error);
    env.set(argument, inputs[i]);
  }

  EvaluationState state;
  for (Operation &op : block) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      std::vector<Tensor> results;
      TypeRange types = func.getFunctionType().getResults();
      if (ret.getNumOperands() != types.size())
        return atOp(ret, "returns " + llvm::Twine(ret.getNumOperands()) + " values, expected " +
                             llvm::Twine(types.size()));
      for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
        if (!env.contains(operand))
          return atOp(ret, "operand " + llvm::Twine(i) + " has no value");
        if (llvm::Error error = checkMatchesType(env.get(operand), types[i],
                                                 "result " + llvm::Twine(i) + " of " + name))
          return atOp(ret, std::move(error));
        results.push_back(env.get(operand));
      }
      return results;
    }
    if (llvm::Error error = evaluateOp(&op, env, state))
      return std::move(error);
  }
  return makeError(name + " does not end with func.return");
}
