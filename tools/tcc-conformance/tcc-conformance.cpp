//===- tcc-conformance.cpp - runs ONNX backend test cases through tcc ----------------===//
//
//   tcc-conformance --expected test/conformance/reference-node.txt \
//       /usr/share/libonnx-testdata/data/node
//
// Each case directory holds model.onnx and test_data_set_*/{input,output}_N.pb. A case
// passes when every data set's outputs match within the case's tolerance. Cases run in
// this one process (each under a crash-recovery context, so one crash is one failure).
// The expected-results file is a ratchet: it lists the cases that must pass; a listed case
// that fails is a regression (exit status 1) and an unlisted pass is reported as new.
//
// Today the mode is `reference`: the model is decomposed to prim and run by the reference
// evaluator. The compiled mode (a .so run through the runtime) comes with code generation.
//
//===----------------------------------------------------------------------------------===//
#include "TensorProtoReader.h"

#include "tcc/Evaluate/Evaluator.h"
#include "tcc/Evaluate/Npy.h"
#include "tcc/Import/Importer.h"
#include "tcc/InitAll.h"
#include "tcc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <set>

using namespace mlir;

namespace {

struct Options {
  std::vector<std::string> paths;
  std::string expected;
  std::string filter;
  bool updateExpected = false;
  bool quiet = false;
  bool verbose = false;
  double rtol = 1e-3, atol = 1e-7;
};

/// Case directories: each path is a case (has model.onnx) or a folder of cases.
std::vector<std::string> collectCases(const std::vector<std::string> &paths,
                                      llvm::StringRef filter) {
  std::vector<std::string> cases;
  for (const std::string &path : paths) {
    if (llvm::sys::fs::exists(path + "/model.onnx")) {
      cases.push_back(path);
      continue;
    }
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::sys::fs::exists(it->path() + "/model.onnx"))
        cases.push_back(it->path());
  }
  if (!filter.empty())
    llvm::erase_if(cases, [&](const std::string &c) {
      return llvm::sys::path::filename(c).find(filter) == llvm::StringRef::npos;
    });
  std::sort(cases.begin(), cases.end());
  return cases;
}

/// Compares one output; returns "" or what differs.
std::string compare(const tcc::eval::Tensor &actual, const tcc::eval::Tensor &expected,
                    double rtol, double atol) {
  if (actual.elementType != expected.elementType) {
    std::string a, e;
    llvm::raw_string_ostream as(a), es(e);
    as << actual.elementType;
    es << expected.elementType;
    return "element type " + a + ", expected " + e;
  }
  if (actual.shape != expected.shape) {
    std::string text = "shape [";
    for (int64_t d : actual.shape)
      text += std::to_string(d) + " ";
    text += "], expected [";
    for (int64_t d : expected.shape)
      text += std::to_string(d) + " ";
    return text + "]";
  }
  bool isFloat = isa<FloatType>(actual.elementType);
  for (int64_t i = 0; i < actual.getNumElements(); ++i) {
    if (isFloat) {
      double a = actual.getDouble(i), e = expected.getDouble(i);
      if (std::isnan(a) && std::isnan(e))
        continue;
      if (a == e)
        continue;
      if (!(std::fabs(a - e) <= atol + rtol * std::fabs(e)))
        return "element " + std::to_string(i) + " is " + std::to_string(a) + ", expected " +
               std::to_string(e);
    } else if (actual.getInt(i) != expected.getInt(i)) {
      return "element " + std::to_string(i) + " is " + std::to_string(actual.getInt(i)) +
             ", expected " + std::to_string(expected.getInt(i));
    }
  }
  return "";
}

std::vector<std::string> sortedFiles(const std::string &dir, llvm::StringRef prefix) {
  std::vector<std::string> files;
  for (int i = 0;; ++i) {
    std::string file = dir + "/" + prefix.str() + "_" + std::to_string(i) + ".pb";
    if (!llvm::sys::fs::exists(file))
      break;
    files.push_back(file);
  }
  return files;
}

/// The test data of one case: inputs and expected outputs of each data set.
struct DataSet {
  std::string name;
  std::vector<tcc::eval::Tensor> inputs, expected;
};

/// Inputs the retry binds as constants: small 0-d/1-d integer tensors. ONNX's backend cases
/// pass axes, shapes, k and split sizes as graph inputs; an ahead-of-time compiler needs them
/// at compile time (the rank of the result depends on them), as onnx-mlir's harness also does.
bool isBindable(const tcc::eval::Tensor &t) {
  auto type = dyn_cast<IntegerType>(t.elementType);
  return type && type.getWidth() > 1 && t.shape.size() <= 1 && t.getNumElements() <= 64;
}

/// Replaces argument `index` of `func` with a constant holding `value`.
LogicalResult bindArgument(func::FuncOp func, unsigned index, const tcc::eval::Tensor &value) {
  BlockArgument arg = func.getArgument(index);
  auto type = RankedTensorType::get(value.shape, value.elementType);
  auto argType = dyn_cast<RankedTensorType>(arg.getType());
  if (!argType || argType.getRank() != type.getRank())
    return failure();
  auto attr = DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(value.bytes.data()), value.bytes.size()));
  for (Operation *user : llvm::make_early_inc_range(arg.getUsers()))
    if (user->getName().getStringRef() == "prim.bind_shape")
      user->erase();
  OpBuilder builder(func.getBody());
  auto constant = arith::ConstantOp::create(builder, arg.getLoc(), cast<TypedAttr>(attr));
  arg.replaceAllUsesWith(constant);
  return func.eraseArgument(index);
}

/// Imports and decomposes the case's model, binding the inputs listed in `bind` (by index)
/// to the values of `set`. Returns the module or sets `error`.
OwningOpRef<ModuleOp> compileCase(const std::string &dir, MLIRContext &context,
                                  const std::vector<unsigned> &bind, const DataSet *set,
                                  std::string &error) {
  std::string firstError;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
      firstError = diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = tcc::importOnnxModel(dir + "/model.onnx", {}, context);
  if (!module) {
    error = "import: " + firstError;
    return nullptr;
  }
  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main) {
    error = "no @main function";
    return nullptr;
  }
  for (auto it = bind.rbegin(); it != bind.rend(); ++it)
    if (failed(bindArgument(main, *it, set->inputs[*it]))) {
      error = "cannot bind input " + std::to_string(*it);
      return nullptr;
    }
  PassManager pm(&context);
  tcc::buildOnnxToPrimPipeline(pm);
  if (failed(pm.run(*module))) {
    error = "decompose: " + firstError;
    return nullptr;
  }
  return module;
}

/// Reinterprets data whose file type differs from the model's in bits only (libonnx's
/// bfloat16 cases store their data as uint16).
void adaptTypes(func::FuncOp main, DataSet &set) {
  for (auto [i, type] : llvm::enumerate(main.getArgumentTypes()))
    if (i < set.inputs.size())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        if (tensor.getElementType().isBF16() &&
            set.inputs[i].elementType.isUnsignedInteger(16))
          set.inputs[i].elementType = tensor.getElementType();
  for (auto [i, type] : llvm::enumerate(main.getResultTypes()))
    if (i < set.expected.size())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        if (tensor.getElementType().isBF16() &&
            set.expected[i].elementType.isUnsignedInteger(16))
          set.expected[i].elementType = tensor.getElementType();
}

std::string runDataSet(func::FuncOp main, DataSet set, const std::vector<unsigned> &bound,
                       const Options &options) {
  adaptTypes(main, set);
  std::vector<tcc::eval::Tensor> inputs;
  for (auto [i, t] : llvm::enumerate(set.inputs))
    if (!llvm::is_contained(bound, i))
      inputs.push_back(t);
  auto outputs = tcc::eval::evaluateFunction(main, inputs);
  if (!outputs)
    return "evaluate: " + llvm::toString(outputs.takeError());
  if (outputs->size() != set.expected.size())
    return std::to_string(outputs->size()) + " outputs, expected " +
           std::to_string(set.expected.size());
  for (size_t i = 0; i < set.expected.size(); ++i) {
    std::string diff = compare((*outputs)[i], set.expected[i], options.rtol, options.atol);
    if (!diff.empty())
      return set.name + " output " + std::to_string(i) + ": " + diff;
    if (options.verbose && isa<FloatType>(set.expected[i].elementType)) {
      double maxAbs = 0, sumSq = 0, refSq = 0;
      for (int64_t k = 0; k < set.expected[i].getNumElements(); ++k) {
        double a = (*outputs)[i].getDouble(k), e = set.expected[i].getDouble(k);
        maxAbs = std::max(maxAbs, std::fabs(a - e));
        sumSq += (a - e) * (a - e);
        refSq += e * e;
      }
      llvm::outs() << llvm::format("  %s output %zu: max abs error %.3g, relative L2 error %.3g\n",
                                   set.name.c_str(), i, maxAbs,
                                   refSq > 0 ? std::sqrt(sumSq / refSq) : std::sqrt(sumSq));
    }
  }
  return "";
}

/// Runs one case; returns "" on success or the reason it failed. `note` says how it ran.
std::string runCase(const std::string &dir, const Options &options, std::string &note) {
  DialectRegistry registry;
  tcc::registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  std::vector<DataSet> sets;
  std::error_code ec;
  std::vector<std::string> dirs;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("test_data_set_"))
      dirs.push_back(it->path());
  std::sort(dirs.begin(), dirs.end());
  for (const std::string &path : dirs) {
    DataSet set;
    set.name = llvm::sys::path::filename(path).str();
    for (const std::string &file : sortedFiles(path, "input")) {
      auto tensor = tcc::conformance::readTensorProtoFile(file, context);
      if (!tensor)
        return "input: " + llvm::toString(tensor.takeError());
      set.inputs.push_back(std::move(*tensor));
    }
    for (const std::string &file : sortedFiles(path, "output")) {
      auto tensor = tcc::conformance::readTensorProtoFile(file, context);
      if (!tensor)
        return "expected output: " + llvm::toString(tensor.takeError());
      set.expected.push_back(std::move(*tensor));
    }
    sets.push_back(std::move(set));
  }
  if (sets.empty()) {
    // The corpus layout: input_<k>_<name>.npy and output_<k>_<name>.npy beside the model.
    std::vector<std::string> inputs, outputs;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
      llvm::StringRef file = llvm::sys::path::filename(it->path());
      if (file.ends_with(".npy") && file.starts_with("input_"))
        inputs.push_back(it->path());
      else if (file.ends_with(".npy") && file.starts_with("output_"))
        outputs.push_back(it->path());
    }
    auto byIndex = [](const std::string &a, const std::string &b) {
      auto index = [](const std::string &p) {
        llvm::StringRef f = llvm::sys::path::filename(p);
        f = f.drop_until([](char c) { return c == '_'; }).drop_front();
        unsigned k = 0;
        f.take_while([](char c) { return std::isdigit(c); }).getAsInteger(10, k);
        return k;
      };
      return index(a) < index(b);
    };
    std::sort(inputs.begin(), inputs.end(), byIndex);
    std::sort(outputs.begin(), outputs.end(), byIndex);
    if (!outputs.empty()) {
      DataSet set;
      set.name = "npy";
      for (const std::string &file : inputs) {
        auto tensor = tcc::eval::readNpy(file, context);
        if (!tensor)
          return "input: " + llvm::toString(tensor.takeError());
        set.inputs.push_back(std::move(*tensor));
      }
      for (const std::string &file : outputs) {
        auto tensor = tcc::eval::readNpy(file, context);
        if (!tensor)
          return "expected output: " + llvm::toString(tensor.takeError());
        set.expected.push_back(std::move(*tensor));
      }
      sets.push_back(std::move(set));
    }
  }
  if (sets.empty())
    return "no test data sets";

  std::string error;
  if (OwningOpRef<ModuleOp> module = compileCase(dir, context, {}, nullptr, error)) {
    auto main = module->lookupSymbol<func::FuncOp>("main");
    for (const DataSet &set : sets) {
      std::string reason = runDataSet(main, set, {}, options);
      if (!reason.empty())
        return reason;
    }
    return "";
  }
  // Retry with the shape-like inputs bound as constants, compiling once per data set.
  std::vector<unsigned> bind;
  for (auto [i, t] : llvm::enumerate(sets.front().inputs))
    if (isBindable(t))
      bind.push_back(static_cast<unsigned>(i));
  if (bind.empty())
    return error;
  note = " (shape inputs bound as constants)";
  for (const DataSet &set : sets) {
    std::string retryError;
    OwningOpRef<ModuleOp> module = compileCase(dir, context, bind, &set, retryError);
    if (!module)
      return error;
    std::string reason =
        runDataSet(module->lookupSymbol<func::FuncOp>("main"), set, bind, options);
    if (!reason.empty())
      return reason;
  }
  return "";
}

std::set<std::string> readExpected(const std::string &path) {
  std::set<std::string> names;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return names;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (!line.empty() && !line.starts_with("#"))
      names.insert(line.str());
  }
  return names;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  CLI::App app{"tcc-conformance: runs ONNX backend test cases through tcc"};
  app.add_option("paths", options.paths, "case directories or folders of cases")->required();
  app.add_option("--expected", options.expected,
                 "the ratchet: cases that must pass (one name per line)");
  app.add_flag("--update-expected", options.updateExpected,
               "rewrite the expected file with the cases that pass now");
  app.add_option("--filter", options.filter, "only cases whose name contains this");
  app.add_flag("-q,--quiet", options.quiet, "print only failures and the summary");
  app.add_flag("-v,--verbose", options.verbose, "print each float output's error");
  app.add_option("--rtol", options.rtol, "relative tolerance (default 1e-3)");
  app.add_option("--atol", options.atol, "absolute tolerance (default 1e-7)");
  CLI11_PARSE(app, argc, argv);

  llvm::CrashRecoveryContext::Enable();
  std::vector<std::string> cases = collectCases(options.paths, options.filter);
  std::set<std::string> expected =
      options.expected.empty() ? std::set<std::string>() : readExpected(options.expected);
  std::set<std::string> passed;
  unsigned numPassed = 0, numFailed = 0, regressions = 0, newPasses = 0;
  for (const std::string &dir : cases) {
    std::string name = llvm::sys::path::filename(dir).str();
    std::string reason, note;
    llvm::CrashRecoveryContext crc;
    if (!crc.RunSafely([&] { reason = runCase(dir, options, note); }))
      reason = "crashed";
    bool ok = reason.empty();
    bool listed = expected.count(name);
    if (ok) {
      ++numPassed;
      passed.insert(name);
      if (!options.expected.empty() && !listed) {
        ++newPasses;
        llvm::outs() << "NEW PASS " << name << note << "\n";
      } else if (!options.quiet) {
        llvm::outs() << "PASS " << name << note << "\n";
      }
    } else {
      ++numFailed;
      if (listed) {
        ++regressions;
        llvm::outs() << "REGRESSION " << name << ": " << reason << "\n";
      } else {
        llvm::outs() << "FAIL " << name << ": " << reason << "\n";
      }
    }
    llvm::outs().flush();
  }
  if (options.updateExpected && !options.expected.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(options.expected, ec);
    if (ec) {
      llvm::errs() << "tcc-conformance: error: cannot write " << options.expected << "\n";
      return 2;
    }
    os << "# Cases that pass; written by tcc-conformance --update-expected. A listed case that\n"
          "# fails is a regression. Only add lines (the ratchet moves toward passing).\n";
    for (const std::string &name : passed)
      os << name << "\n";
  }
  if (newPasses)
    llvm::outs() << newPasses << " new passes: run with --update-expected to record them\n";
  if (regressions)
    llvm::outs() << regressions << " regressions\n";
  llvm::outs() << numPassed << " passed, " << numFailed << " failed\n";
  return regressions ? 1 : 0;
}
