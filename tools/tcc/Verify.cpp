//===- Verify.cpp - tcc verify: compiled numbers against the reference evaluator ---------===//
//
// The reference is the prim evaluator (lib/Evaluate) on the decomposed graph; the compiled
// side is the library tcc builds with the user's options, run by the runtime
// (tcc::run::CompiledModel). When an output differs, the bisection compiles the decomposed
// graph again with a few intermediate values as extra outputs (both sides compute them),
// keeping the earliest that differs and the latest that agrees, until one value differs
// while every value it reads agrees: the op that computes it, its ONNX node and the kernels
// that compute that node in the user's library are the answer. Extra outputs change what
// the fuser sees, so the kernels of a probe are not those of the library; the report names
// the library's kernels by the ONNX node they share.
//
//===----------------------------------------------------------------------------------===//
#include "Verify.h"

#include "tcc/Evaluate/Evaluator.h"
#include "tcc/Evaluate/Npy.h"
#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Run/CompiledModel.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

using namespace mlir;
using tcc::eval::Tensor;
using namespace tcc_tool;

namespace {

constexpr int kProbesPerRound = 8;
constexpr int kMaxRounds = 64;

/// How a compiled tensor compares with the reference's.
struct Comparison {
  std::string problem;              ///< set when they cannot be compared (shape, strings)
  llvm::SmallVector<int64_t> shape; ///< the reference's
  int64_t elements = 0, mismatches = 0, first = -1;
  double actual = 0, expected = 0, maxAbsError = 0;
  bool differs() const { return !problem.empty() || mismatches > 0; }
};

std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

Comparison compare(const Tensor &actual, const Tensor &expected, double rtol, double atol) {
  Comparison c;
  if (isa<tcc::prim::StringType>(expected.elementType) ||
      isa<tcc::prim::StringType>(actual.elementType)) {
    c.problem = "string tensors are not compared";
    return c;
  }
  if (actual.shape != expected.shape) {
    c.problem = "the compiled shape is " + shapeText(actual.shape) + ", the reference's " +
                shapeText(expected.shape);
    return c;
  }
  c.shape = expected.shape;
  c.elements = expected.getNumElements();
  for (int64_t i = 0; i < c.elements; ++i) {
    double a = actual.getDouble(i), b = expected.getDouble(i);
    if ((std::isnan(a) && std::isnan(b)) || a == b)
      continue;
    double error = std::fabs(a - b);
    if (!(error <= atol + rtol * std::fabs(b))) {
      if (c.mismatches++ == 0) {
        c.first = i;
        c.actual = a;
        c.expected = b;
      }
    }
    if (std::isnan(error) || error > c.maxAbsError)
      c.maxAbsError = std::isnan(error) ? INFINITY : std::max(c.maxAbsError, error);
  }
  return c;
}

std::string numberText(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

/// Flat index `i` of `shape` as coordinates.
std::string coordinates(int64_t i, llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> at(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    at[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
  return shapeText(at);
}

std::string describe(const Comparison &c) {
  llvm::ArrayRef<int64_t> shape = c.shape;
  if (!c.problem.empty())
    return c.problem;
  if (!c.mismatches)
    return llvm::formatv("agrees ({0} elements, max abs error {1:e2})", c.elements, c.maxAbsError)
        .str();
  return llvm::formatv("{0} of {1} elements differ (max abs error {2:e2}); first at {3}: "
                       "compiled {4}, reference {5}",
                       c.mismatches, c.elements, c.maxAbsError, coordinates(c.first, shape),
                       numberText(c.actual), numberText(c.expected))
      .str();
}

/// A random tensor of `type`: floats in [-1, 1), integers in [0, 4), booleans; dynamic dims
/// of extent `dynamicExtent`.
Tensor randomTensor(RankedTensorType type, int64_t dynamicExtent, std::mt19937_64 &random) {
  llvm::SmallVector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? dynamicExtent : d);
  Tensor t = Tensor::zeros(type.getElementType(), shape);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> small(0, 3);
  bool isFloat = isa<FloatType>(type.getElementType());
  bool isBool = type.getElementType().isInteger(1);
  for (int64_t i = 0; i < t.getNumElements(); ++i) {
    if (isFloat)
      t.setDouble(i, real(random));
    else
      t.setInt(i, isBool ? small(random) % 2 : small(random));
  }
  return t;
}

/// The ONNX node names in `loc`.
std::vector<std::string> nodesOf(Location loc) {
  std::vector<std::string> names;
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner))
      if (llvm::find(names, name.getName().str()) == names.end())
        names.push_back(name.getName().str());
    return WalkResult::advance();
  });
  return names;
}

class Verifier {
public:
  Verifier(const VerifyRequest &request, MLIRContext &context, llvm::raw_ostream &os)
      : request(request), context(context), os(os) {}

  int run();

private:
  /// Compiles `module` (consumed: passes run on it) to `name`.so in the scratch folder and
  /// runs it on the inputs; returns "" or the error.
  std::string compileAndRun(ModuleOp module, const std::string &name, std::vector<Tensor> &outputs,
                            std::unique_ptr<tcc::run::CompiledModel> *keep = nullptr);
  /// Compiles and evaluates the decomposed graph with `values` (indices into `candidates`)
  /// as extra outputs; per value, whether it differs (nullopt: not comparable), and the
  /// comparisons.
  std::string probe(llvm::ArrayRef<size_t> values, std::vector<Comparison> &comparisons);
  /// The values `root` depends on (itself included), in graph order, as candidate indices.
  std::vector<size_t> ancestors(Value root);

  const VerifyRequest &request;
  MLIRContext &context;
  llvm::raw_ostream &os;
  OwningOpRef<ModuleOp> prim;
  func::FuncOp main;
  std::vector<Tensor> inputs;
  /// Values of the decomposed graph that can be probed: tensors (not strings) that ops of
  /// @main's body compute, in graph order.
  std::vector<Value> candidates;
  llvm::DenseMap<Value, size_t> candidateIndex;
  int compiles = 0;
};

std::string Verifier::compileAndRun(ModuleOp module, const std::string &name,
                                    std::vector<Tensor> &outputs,
                                    std::unique_ptr<tcc::run::CompiledModel> *keep) {
  tcc::CompileOptions options = request.compileOptions();
  options.emit = tcc::EmitKind::So;
  std::string path = request.scratch + "/" + name + ".so", error;
  std::string diagnostics;
  {
    ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && diagnostics.empty())
        diagnostics = diag.str();
      return success();
    });
    ++compiles;
    if (failed(tcc::compileModule(module, options, llvm::nulls(), path, error)))
      return "compiling failed: " + (diagnostics.empty() ? error : diagnostics);
  }
  auto compiled = std::make_unique<tcc::run::CompiledModel>();
  std::string problem = compiled->load(path);
  if (problem.empty())
    problem = compiled->run(inputs, outputs, context);
  if (keep)
    *keep = std::move(compiled);
  return problem;
}

std::vector<size_t> Verifier::ancestors(Value root) {
  llvm::DenseSet<Operation *> needed;
  llvm::SmallVector<Operation *> work;
  if (Operation *op = root.getDefiningOp())
    work.push_back(op);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (op->getBlock() != &main.getBody().front() || !needed.insert(op).second)
      continue;
    // Values that nested regions read count too.
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (Operation *def = operand.getDefiningOp())
          work.push_back(def);
    });
  }
  std::vector<size_t> order;
  for (auto [i, value] : llvm::enumerate(candidates))
    if (needed.count(value.getDefiningOp()))
      order.push_back(i);
  return order;
}

std::string Verifier::probe(llvm::ArrayRef<size_t> values, std::vector<Comparison> &comparisons) {
  // A copy of the decomposed graph whose @main also returns the probed values.
  IRMapping mapping;
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(prim->getOperation()->clone(mapping));
  auto copyMain = copy->lookupSymbol<func::FuncOp>("main");
  Operation *ret = copyMain.getBody().front().getTerminator();
  unsigned first = ret->getNumOperands();
  llvm::SmallVector<Value> returned(ret->getOperands());
  for (size_t index : values)
    returned.push_back(mapping.lookup(candidates[index]));
  SmallVector<DictionaryAttr> resultAttrs;
  copyMain.getAllResultAttrs(resultAttrs);
  resultAttrs.resize(first, DictionaryAttr::get(&context));
  for (unsigned k = first; k < returned.size(); ++k)
    resultAttrs.push_back(DictionaryAttr::get(
        &context,
        {NamedAttribute(StringAttr::get(&context, "onnx.name"),
                        StringAttr::get(&context, "tcc.verify.probe." + std::to_string(k)))}));
  OpBuilder b(ret);
  func::ReturnOp::create(b, ret->getLoc(), returned);
  ret->erase();
  copyMain.setFunctionType(
      FunctionType::get(&context, copyMain.getArgumentTypes(), ValueRange(returned).getTypes()));
  copyMain.setAllResultAttrs(resultAttrs);
  auto expected = tcc::eval::evaluateFunction(copyMain, inputs);
  if (!expected)
    return "the reference evaluator failed: " + llvm::toString(expected.takeError());
  std::vector<Tensor> actual;
  std::string problem = compileAndRun(*copy, "probe-" + std::to_string(compiles), actual);
  if (!problem.empty())
    return problem;
  if (actual.size() != expected->size())
    return "the probe library has " + std::to_string(actual.size()) + " outputs, expected " +
           std::to_string(expected->size());
  comparisons.clear();
  for (size_t k = 0; k < values.size(); ++k)
    comparisons.push_back(
        compare(actual[first + k], (*expected)[first + k], request.rtol, request.atol));
  return "";
}

int Verifier::run() {
  tcc::ImportOptions importOptions = request.import;
  OwningOpRef<ModuleOp> imported = tcc::importOnnxModel(request.model, importOptions, context);
  if (!imported)
    return 1;
  prim = cast<ModuleOp>(imported->getOperation()->clone());
  {
    PassManager pm(&context);
    tcc::buildOnnxToPrimPipeline(pm);
    if (failed(pm.run(*prim)))
      return 1;
  }
  main = prim->lookupSymbol<func::FuncOp>("main");
  if (!main) {
    os << "tcc verify: error: the model has no @main function after decomposition\n";
    return 1;
  }
  // Inputs: the files given, or random ones.
  if (!request.inputs.empty()) {
    if (request.inputs.size() != main.getNumArguments()) {
      os << "tcc verify: error: the model has " << main.getNumArguments() << " inputs, "
         << request.inputs.size() << " --input files given\n";
      return 1;
    }
    for (const std::string &file : request.inputs) {
      auto tensor = tcc::eval::readNpy(file, context);
      if (!tensor) {
        os << "tcc verify: error: " << file << ": " << llvm::toString(tensor.takeError()) << "\n";
        return 1;
      }
      inputs.push_back(std::move(*tensor));
    }
  } else {
    std::mt19937_64 random(request.seed);
    for (auto [i, type] : llvm::enumerate(main.getArgumentTypes())) {
      auto ranked = dyn_cast<RankedTensorType>(type);
      if (!ranked || !tcc::eval::isSupportedElementType(ranked.getElementType()) ||
          isa<tcc::prim::StringType>(ranked.getElementType())) {
        os << "tcc verify: error: input " << i << " has type " << type
           << ", for which no random values are made; give the inputs with --input\n";
        return 1;
      }
      inputs.push_back(randomTensor(ranked, request.dynamicExtent, random));
    }
  }
  auto expected = tcc::eval::evaluateFunction(main, inputs);
  if (!expected) {
    os << "tcc verify: error: the reference evaluator failed: "
       << llvm::toString(expected.takeError()) << "\n";
    return 1;
  }
  std::vector<Tensor> actual;
  std::unique_ptr<tcc::run::CompiledModel> library;
  std::string problem =
      compileAndRun(cast<ModuleOp>(imported->getOperation()), "model", actual, &library);
  if (!problem.empty()) {
    os << "tcc verify: error: " << problem << "\n";
    return 1;
  }
  os << "tcc verify: " << request.model << ": the library against the reference evaluator, "
     << (request.inputs.empty() ? "random inputs (seed " + std::to_string(request.seed) + ")"
                                : "the inputs given")
     << ", |compiled - reference| <= " << numberText(request.atol) << " + "
     << numberText(request.rtol) << " |reference|\n";
  int firstBad = -1;
  for (size_t o = 0; o < expected->size() && o < actual.size(); ++o) {
    Comparison c = compare(actual[o], (*expected)[o], request.rtol, request.atol);
    auto name = main.getResultAttrOfType<StringAttr>(o, "onnx.name");
    os << "  output " << o << " '" << (name ? name.getValue() : "") << "' "
       << shapeText((*expected)[o].shape) << ": " << describe(c) << "\n";
    if (c.differs() && c.problem != "string tensors are not compared" && firstBad < 0)
      firstBad = static_cast<int>(o);
  }
  if (firstBad < 0) {
    os << "verified: every output agrees\n";
    return 0;
  }

  // Bisect among the values output `firstBad` depends on.
  for (Operation &op : main.getBody().front().without_terminator()) {
    if (op.getNumOperands() == 0) // constants agree by construction
      continue;
    for (Value result : op.getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || isa<tcc::prim::StringType>(type.getElementType()) ||
          !tcc::eval::isSupportedElementType(type.getElementType()))
        continue;
      candidateIndex[result] = candidates.size();
      candidates.push_back(result);
    }
  }
  Value output = main.getBody().front().getTerminator()->getOperand(firstBad);
  if (!candidateIndex.count(output)) {
    os << "output " << firstBad << " is not computed by an op of the graph's body: nothing to "
       << "bisect\n";
    return 1;
  }
  std::vector<size_t> order = ancestors(output);
  os << "bisecting: output " << firstBad << " depends on " << order.size()
     << " values of the decomposed graph\n";
  // order[hi] differs; order[lo] (lo < hi) agrees, or lo = -1.
  auto position = [&](size_t candidate) {
    return static_cast<int64_t>(llvm::find(order, candidate) - order.begin());
  };
  int64_t hi = position(candidateIndex[output]), lo = -1;
  Comparison culprit = compare(actual[firstBad], (*expected)[firstBad], request.rtol, request.atol);
  for (int round = 0; round < kMaxRounds; ++round) {
    if (hi - lo > 1) {
      // Probe up to kProbesPerRound values evenly between lo and hi.
      std::vector<int64_t> at;
      int64_t gap = hi - lo - 1, count = std::min<int64_t>(gap, kProbesPerRound);
      for (int64_t k = 1; k <= count; ++k)
        at.push_back(lo + (gap + 1) * k / (count + 1));
      at.erase(std::unique(at.begin(), at.end()), at.end());
      std::vector<size_t> values;
      for (int64_t p : at)
        values.push_back(order[p]);
      std::vector<Comparison> results;
      std::string failure = probe(values, results);
      if (!failure.empty()) {
        os << "tcc verify: error: bisection stopped: " << failure << "\n";
        return 1;
      }
      int64_t newHi = hi, newLo = lo;
      for (size_t k = 0; k < at.size(); ++k) {
        if (results[k].differs()) {
          newHi = at[k];
          culprit = results[k];
          break;
        }
        newLo = at[k];
      }
      os << "  round " << round + 1 << ": " << at.size() << " values compiled as outputs: "
         << (newHi != hi ? "the first that differs is number " + std::to_string(newHi + 1) +
                               " of " + std::to_string(order.size())
                         : std::string("all agree"))
         << "\n";
      lo = newLo;
      hi = newHi;
      continue;
    }
    // order[hi] differs and nothing between lo and hi is left: do its inputs agree?
    Value bad = candidates[order[hi]];
    std::vector<size_t> operands;
    for (Value operand : bad.getDefiningOp()->getOperands())
      if (candidateIndex.count(operand) &&
          llvm::find(operands, candidateIndex[operand]) == operands.end())
        operands.push_back(candidateIndex[operand]);
    if (operands.empty())
      break;
    std::vector<Comparison> results;
    std::string failure = probe(operands, results);
    if (!failure.empty()) {
      os << "tcc verify: error: bisection stopped: " << failure << "\n";
      return 1;
    }
    std::optional<size_t> badOperand;
    for (size_t k = 0; k < operands.size() && !badOperand; ++k)
      if (results[k].differs()) {
        badOperand = operands[k];
        culprit = results[k];
      }
    if (!badOperand)
      break; // its inputs agree: this value is the first that differs
    // An input differs too (the values between were not all on this path): continue from it.
    order = ancestors(candidates[*badOperand]);
    hi = position(*badOperand);
    lo = -1;
    os << "  an input of that value differs too; continuing among the " << order.size()
       << " values it depends on\n";
  }
  Value bad = candidates[order[hi]];
  Operation *op = bad.getDefiningOp();
  std::vector<std::string> nodes = nodesOf(op->getLoc());
  auto type = cast<RankedTensorType>(bad.getType());
  std::string nodeList;
  for (const std::string &n : nodes)
    nodeList += (nodeList.empty() ? "'" : ", '") + n + "'";
  os << "first value that differs: " << op->getName() << " of ONNX node"
     << (nodes.size() == 1 ? " " : "s ") << (nodeList.empty() ? "(unknown)" : nodeList) << ", "
     << type << "\n";
  os << "  " << describe(culprit) << "\n  every value it reads agrees with the reference\n";
  // The kernels of the library that compute those nodes.
  tcc_model *model = library->getModel();
  int32_t variant = tcc_model_default_variant(model);
  int found = 0;
  for (int32_t k = 0; k < tcc_model_num_kernels(model, variant); ++k) {
    const char *name = nullptr, *kernelNodes = nullptr;
    if (tcc_status s = tcc_model_kernel_info(model, variant, k, &name, &kernelNodes)) {
      tcc_status_free(s);
      continue;
    }
    llvm::SmallVector<llvm::StringRef> list;
    llvm::StringRef(kernelNodes).split(list, ", ");
    if (llvm::any_of(nodes, [&](const std::string &n) { return llvm::is_contained(list, n); })) {
      os << "  computed in the library by " << name << " (ONNX nodes " << kernelNodes << ")\n";
      ++found;
    }
  }
  if (!found)
    os << "  no kernel of the library lists that node (it may run inside control flow)\n";
  os << "(" << compiles << " compiles)\n";
  return 1;
}

} // namespace

int tcc_tool::verifyModel(const VerifyRequest &request, MLIRContext &context,
                          llvm::raw_ostream &os) {
  return Verifier(request, context, os).run();
}
