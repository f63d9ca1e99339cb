//===- tcc-conformance.cpp - runs ONNX backend test cases through tcc ----------------===//
//
//   tcc-conformance [--mode reference|compiled] [--expected FILE] PATH...
//
// Each case directory holds model.onnx and test_data_set_*/{input,output}_N.pb (or the
// corpus layout of .npy files). A case passes when every data set's outputs match within
// the tolerance. In `reference` mode the model is decomposed to prim and run by the
// reference evaluator; in `compiled` mode it is compiled to a model.so twice (the bytes must
// be identical), loaded by the runtime and run. Cases run in this one process, each under a
// crash-recovery context, so that one crash is one failure.
//
// The expected-results file is a ratchet, one per suite for every mode and target. A name
// alone on a line is a case that must pass: a listed case that fails is a regression (exit
// status 1) and an unlisted pass is reported as new. `!NAME  REASON` excludes a case that tcc
// does not pass and says why; `!NAME [SCOPE]  REASON` excludes it only in SCOPE: `reference`
// (the evaluator), `compiled` (every target), `gpu` (every GPU target: nvidia, amd) or a target
// as --target names it (`nvidia`, `cpu:aarch64-linux`: compiled for it), and the case must
// pass everywhere else. An excluded
// case that passes is reported (its exclusion is to be removed), and a case that neither
// passes nor is excluded is an unlisted failure (exit status 1), so that the file lists every
// case.
//
//===----------------------------------------------------------------------------------===//
#include "CaseData.h"
#include "Executors.h"
#include "Sizes.h"

#include "tcc/Evaluate/Npy.h"

#include "tcc/InitAll.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace mlir;
using namespace tcc::conformance;

namespace {

struct Options {
  std::vector<std::string> paths;
  std::string mode = "reference";
  std::string expected;
  std::string filter;
  bool updateExpected = false;
  bool quiet = false;
  bool verbose = false;
  double rtol = 1e-3, atol = 1e-7;
  std::vector<std::string> sizeSpecs;
  std::vector<SymbolSizes> sizes;
  std::string saveDir;
  std::string target = "host";
  std::string cpu;
  std::string attention = "auto";
  std::string exportDir;
  std::string guardPages;
  bool bindShapeInputs = false;
};

/// What compiled mode compiles `dir` for (--target, and --export's folder for the case).
CompileTarget compileTarget(const Options &options, const std::string &dir) {
  CompileTarget compile;
  compile.target = options.target;
  compile.cpu = options.cpu;
  compile.attention = options.attention;
  if (!options.guardPages.empty())
    compile.guardPages =
        options.guardPages == "after" ? tcc::GuardPages::After : tcc::GuardPages::Before;
  if (!options.exportDir.empty())
    compile.exportDir = options.exportDir + "/" + llvm::sys::path::filename(dir).str();
  return compile;
}

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

std::string saveTensors(const std::string &dir, const std::string &prefix,
                        const std::vector<tcc::eval::Tensor> &tensors);

/// Runs one data set on an executable, leaving out the bound inputs. An exported library's
/// data set is saved beside it instead (<set>_input_<k>.npy, <set>_expected_<k>.npy).
std::string runSet(Executable &executable, const DataSet &set, const std::vector<unsigned> &bound,
                   const Options &options, MLIRContext &context, bool packInputs = false) {
  std::vector<tcc::eval::Tensor> inputs, outputs;
  if (packInputs) {
    // Compiled without sequence settings: sequence inputs are packed.
    std::string error = packSequences(set.inputs, set.inputGroups, context, inputs);
    if (!error.empty())
      return error;
  } else {
    for (auto [i, t] : llvm::enumerate(set.inputs))
      if (!llvm::is_contained(bound, i))
        inputs.push_back(t);
  }
  if (const std::string *folder = executable.exportFolder()) {
    // Sequence outputs are packed: so are the expected ones saved for the run elsewhere.
    std::vector<tcc::eval::Tensor> expected;
    std::string error = packSequences(set.expected, set.expectedGroups, context, expected);
    if (error.empty())
      error = saveTensors(*folder, set.name + "_input", inputs);
    return error.empty() ? saveTensors(*folder, set.name + "_expected", expected) : error;
  }
  std::string error = executable.run(inputs, outputs);
  if (!error.empty())
    return error;
  // Sequence outputs are packed (NAME.shapes, NAME.data): compared element by element.
  if (hasSequences(set) && !(error = unpackSequenceOutputs(set, outputs)).empty())
    return set.name + ": " + error;
  if (outputs.size() != set.expected.size())
    return std::to_string(outputs.size()) + " outputs, expected " +
           std::to_string(set.expected.size());
  for (size_t i = 0; i < set.expected.size(); ++i) {
    tcc::eval::Tensor &actual = outputs[i];
    const tcc::eval::Tensor &expected = set.expected[i];
    // libonnx stores bfloat16 data as uint16: compare the bits.
    if (expected.elementType.isUnsignedInteger(16) && actual.elementType.isBF16())
      actual.elementType = expected.elementType;
    std::string diff = compareTensors(actual, expected, options.rtol, options.atol);
    if (!diff.empty())
      return set.name + " output " + std::to_string(i) + ": " + diff;
    if (options.verbose && isa<FloatType>(expected.elementType)) {
      double maxAbs = 0, sumSq = 0, refSq = 0;
      for (int64_t k = 0; k < expected.getNumElements(); ++k) {
        double a = actual.getDouble(k), e = expected.getDouble(k);
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

/// Writes `tensors` as DIR/PREFIX_<k>.npy.
std::string saveTensors(const std::string &dir, const std::string &prefix,
                        const std::vector<tcc::eval::Tensor> &tensors) {
  for (auto [k, t] : llvm::enumerate(tensors))
    if (llvm::Error e = tcc::eval::writeNpy(dir + "/" + prefix + "_" + std::to_string(k) + ".npy", t))
      return llvm::toString(std::move(e));
  return "";
}

/// --size: the case's inputs at every combination of the given symbol sizes, the reference
/// evaluator's outputs as the expected ones, and one model.so compiled with symbolic dims
/// that must match at every size. With --save, each size's inputs and outputs (the
/// reference's as expected_<k>.npy) go to SAVE/<case>/<size>/.
std::string runSizes(const std::string &dir, MLIRContext &context, const DataSet &base,
                     const std::string &scratch, const Options &options, std::string &note) {
  std::vector<std::vector<std::string>> symbols;
  std::string error = readInputSymbols(dir, context, symbols);
  if (!error.empty())
    return error;
  std::vector<DataSet> sets;
  if (!(error = makeSizedDataSets(base, symbols, options.sizes, sets)).empty())
    return error;
  auto reference = prepare(Mode::Reference, dir, {}, nullptr, nullptr, scratch, error);
  if (!reference)
    return "reference: " + error;
  auto compiled = prepare(Mode::Compiled, dir, {}, nullptr, nullptr, scratch, error,
                          compileTarget(options, dir));
  if (!compiled)
    return error;
  std::string caseName = llvm::sys::path::filename(dir).str();
  for (DataSet &set : sets) {
    if (!(error = reference->run(set.inputs, set.expected)).empty())
      return set.name + ": reference: " + error;
    std::string reason = runSet(*compiled, set, {}, options, context);
    if (!reason.empty())
      return set.name + ": " + reason;
    if (!options.saveDir.empty()) {
      std::string out = options.saveDir + "/" + caseName + "/" + set.name;
      if (llvm::sys::fs::create_directories(out))
        return "cannot create " + out;
      if (!(error = saveTensors(out, "input", set.inputs)).empty() ||
          !(error = saveTensors(out, "expected", set.expected)).empty())
        return error;
    }
  }
  note = " (" + std::to_string(sets.size()) + " sizes, one model.so)";
  return "";
}

/// Runs one case; returns "" on success or the reason it failed. `note` says how it ran.
std::string runCase(const std::string &dir, Mode mode, const std::string &scratch,
                    const Options &options, std::string &note) {
  DialectRegistry registry;
  tcc::registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  std::vector<DataSet> sets;
  std::string error = readDataSets(dir, context, sets);
  if (!error.empty())
    return error;

  if (!options.sizes.empty())
    return runSizes(dir, context, sets.front(), scratch, options, note);

  // The model is prepared once with its symbolic dims (compiled: one library), sequence
  // inputs packed with their lengths known at run time, optional inputs with their flags,
  // and every data set runs. What fails this way is specialized to each data set (below).
  bool packed = hasSequences(sets.front());
  if (auto executable = prepare(mode, dir, {}, nullptr, nullptr, scratch, error,
                                compileTarget(options, dir))) {
    for (const DataSet &set : sets) {
      std::string reason = runSet(*executable, set, {}, options, context, packed);
      if (!reason.empty())
        return reason;
    }
    return "";
  }
  {
    // Otherwise each data set's shapes are fixed, as with tcc --dim.
    std::string dynamicError = error;
    bool prepared = true;
    for (const DataSet &set : sets) {
      error.clear();
      auto executable =
          prepare(mode, dir, {}, nullptr, &set, scratch, error, compileTarget(options, dir));
      if (!executable) {
        prepared = false;
        break;
      }
      std::string reason = runSet(*executable, set, {}, options, context);
      if (!reason.empty())
        return reason;
    }
    if (prepared) {
      note = " (static shapes only: " + dynamicError + ")";
      return "";
    }
    error = dynamicError;
  }
  // With --bind-shape-inputs only: retry with the shape-like inputs bound as constants,
  // preparing once per data set (a different, specialized model; by default a case is
  // compiled as its file is).
  if (!options.bindShapeInputs)
    return error;
  std::vector<unsigned> bind;
  for (auto [i, t] : llvm::enumerate(sets.front().inputs))
    if (isBindable(t))
      bind.push_back(static_cast<unsigned>(i));
  if (bind.empty())
    return error;
  note = " (shape inputs bound as constants)";
  for (const DataSet &set : sets) {
    std::string retryError;
    auto executable =
        prepare(mode, dir, bind, &set, &set, scratch, retryError, compileTarget(options, dir));
    if (!executable)
      return error + " (with shape inputs bound as constants: " + retryError + ")";
    std::string reason = runSet(*executable, set, bind, options, context);
    if (!reason.empty())
      return reason;
  }
  return "";
}

/// Where a run is: the mode, and for compiled runs the target (as --target names it).
struct Configuration {
  Mode mode;
  std::string target;

  /// Whether an exclusion scoped to `scope` ("" for everywhere) applies to this run.
  bool inScope(llvm::StringRef scope) const {
    if (scope.empty())
      return true;
    if (scope == "reference" || scope == "compiled")
      return (scope == "compiled") == (mode == Mode::Compiled);
    if (mode != Mode::Compiled)
      return false;
    llvm::StringRef t = target.empty() || target == "host" ? "cpu" : llvm::StringRef(target);
    if (scope == "gpu") // what the GPU targets share: their kernels and host code
      return llvm::is_contained({"nvidia", "amd", "vulkan"}, t.split(':').first);
    return t == scope || t.starts_with((scope + ":").str());
  }
};

/// The expected-results file: the cases that must pass and the excluded ones with reasons.
struct Expected {
  struct Exclusion {
    std::string scope; // "" for everywhere
    std::string reason;
  };
  std::set<std::string> passes;
  std::map<std::string, std::vector<Exclusion>> exclusions; // name -> where and why

  /// The exclusion of `name` that applies to `configuration`, or null.
  const Exclusion *find(const std::string &name, const Configuration &configuration) const {
    auto it = exclusions.find(name);
    if (it != exclusions.end())
      for (const Exclusion &e : it->second)
        if (configuration.inScope(e.scope))
          return &e;
    return nullptr;
  }
  /// Whether the file names `name` at all (then it must pass wherever it is not excluded).
  bool mentions(const std::string &name) const {
    return passes.count(name) || exclusions.count(name);
  }
};

/// The header of a file written by --update-expected.
constexpr llvm::StringLiteral kExpectedHeader =
    "# Expected results (tcc-conformance --expected; --update-expected rewrites it), for every\n"
    "# mode and target. NAME: a case that passes; if it fails, that is a regression.\n"
    "# `!NAME  REASON`: a case tcc does not pass, and why. `!NAME [SCOPE]  REASON`: it fails\n"
    "# only in SCOPE (reference, compiled, gpu, or a target: nvidia, cpu:aarch64-linux, ...)\n"
    "# and passes elsewhere. An excluded case that passes is reported (remove its exclusion); a\n"
    "# case neither passing nor excluded fails the run as an unlisted failure. Only move toward\n"
    "# passing.\n";

/// Reads `path` into `expected`; returns "" or what is wrong with the file.
std::string readExpected(const std::string &path, bool updating, Expected &expected) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) // --update-expected may create the file
    return buffer.getError() == std::errc::no_such_file_or_directory && updating
               ? ""
               : "cannot read " + path;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (auto [number, line] : llvm::enumerate(lines)) {
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    if (!line.consume_front("!")) {
      expected.passes.insert(line.str());
      continue;
    }
    std::string where = path + ":" + std::to_string(number + 1) + ": ";
    size_t space = line.find_first_of(" \t");
    llvm::StringRef name = line.take_front(space), rest = line.drop_front(name.size()).trim();
    llvm::StringRef scope;
    if (rest.consume_front("[")) {
      size_t close = rest.find(']');
      scope = rest.take_front(close).trim();
      if (close == llvm::StringRef::npos || scope.empty() || scope.contains(' '))
        return where + "expected `!NAME [SCOPE]  REASON` with one word as the scope, got `!" +
               line.str() + "`";
      rest = rest.drop_front(close + 1).trim();
    }
    if (name.empty() || rest.empty())
      return where + "expected `!NAME  REASON` or `!NAME [SCOPE]  REASON`, got `!" + line.str() +
             "`";
    expected.exclusions[name.str()].push_back({scope.str(), rest.str()});
  }
  return "";
}

/// Rewrites `path` after a run in `configuration`: the cases that pass here join the passing
/// ones and lose the exclusions that applied here (one for everywhere becomes one for the
/// other mode: a pass in one mode says nothing of the other); listed cases that failed here
/// unexcluded are dropped; exclusions of other scopes stay.
std::string writeExpected(const std::string &path, const std::set<std::string> &passed,
                          const std::set<std::string> &regressed, const Expected &old,
                          const Configuration &configuration) {
  std::set<std::string> passes;
  for (const std::string &name : old.passes)
    if (!regressed.count(name))
      passes.insert(name);
  passes.insert(passed.begin(), passed.end());
  std::vector<std::tuple<std::string, std::string, std::string>> exclusions; // reason, name, scope
  llvm::StringRef otherMode = configuration.mode == Mode::Compiled ? "reference" : "compiled";
  for (const auto &[name, list] : old.exclusions)
    for (const Expected::Exclusion &e : list) {
      if (!passed.count(name) || !configuration.inScope(e.scope))
        exclusions.emplace_back(e.reason, name, e.scope);
      else if (e.scope.empty())
        exclusions.emplace_back(e.reason, name, otherMode.str());
    }
  for (const auto &[reason, name, scope] : exclusions)
    if (scope.empty())
      passes.erase(name);
  llvm::sort(exclusions);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return "cannot write " + path;
  os << kExpectedHeader;
  for (const std::string &name : passes)
    os << name << "\n";
  for (const auto &[reason, name, scope] : exclusions)
    os << "!" << name << (scope.empty() ? "" : " [" + scope + "]") << "  " << reason << "\n";
  return "";
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  CLI::App app{"tcc-conformance: runs ONNX backend test cases through tcc"};
  app.add_option("paths", options.paths, "case directories or folders of cases")->required();
  app.add_option("--mode", options.mode,
                 "reference (decompose and evaluate) or compiled (model.so through the runtime)")
      ->check(CLI::IsMember({"reference", "compiled"}));
  app.add_option("--expected", options.expected,
                 "the ratchet: cases that must pass (one name per line) and excluded cases "
                 "(`!NAME  REASON`)");
  app.add_flag("--update-expected", options.updateExpected,
               "rewrite the expected file with the cases that pass now, keeping the exclusions "
               "of the cases that still fail");
  app.add_option("--filter", options.filter, "only cases whose name contains this");
  app.add_flag("-q,--quiet", options.quiet, "print only failures and the summary");
  app.add_flag("-v,--verbose", options.verbose, "print each float output's error");
  app.add_option("--rtol", options.rtol, "relative tolerance (default 1e-3)");
  app.add_option("--atol", options.atol, "absolute tolerance (default 1e-7)");
  app.add_option("--size", options.sizeSpecs,
                 "NAME=V[,V...]: run the case at these values of symbol NAME (its inputs cycled "
                 "to each size; every combination of the --size options), comparing one model.so "
                 "compiled with symbolic dims against the reference evaluator");
  app.add_option("--save", options.saveDir,
                 "with --size: write each size's inputs and reference outputs as .npy under DIR");
  app.add_option("--target", options.target,
                 "compiled mode: what to compile for, as tcc --target (default host)");
  app.add_option("--cpu", options.cpu,
                 "compiled mode: the CPU to compile for, as tcc --cpu (default the target's)");
  app.add_option("--attention", options.attention,
                 "compiled mode: attention blocks as tcc --attention (auto, fused, decomposed)")
      ->check(CLI::IsMember({"auto", "fused", "decomposed"}));
  app.add_option("--export", options.exportDir,
                 "compiled mode: keep each case's library in DIR/<case>/<n>/model.so with its data "
                 "sets as <set>_input_<k>.npy and <set>_expected_<k>.npy instead of running it "
                 "(for a target that runs elsewhere: a case counts as passed once exported)");
  app.add_flag("--bind-shape-inputs", options.bindShapeInputs,
               "where a case does not compile as its file is, retry with the inputs that decide "
               "shapes (shapes, pads, axes, k...) bound to each data set's values as constants "
               "(a specialized model; the default compiles each case as its file is)");
  app.add_option("--guard-pages", options.guardPages,
                 "compiled mode: run with every numeric input and output against an "
                 "inaccessible page, after its last byte or before its first (as tcc-run "
                 "--guard-pages), so that a kernel reading or writing beyond one faults")
      ->check(CLI::IsMember({"after", "before"}));
  CLI11_PARSE(app, argc, argv);
  for (const std::string &spec : options.sizeSpecs) {
    SymbolSizes sizes;
    std::string problem = parseSymbolSizes(spec, sizes);
    if (!problem.empty()) {
      llvm::errs() << "tcc-conformance: error: --size: " << problem << "\n";
      return 2;
    }
    options.sizes.push_back(sizes);
  }

  Expected expected;
  if (!options.expected.empty()) {
    std::string problem = readExpected(options.expected, options.updateExpected, expected);
    if (!problem.empty()) {
      llvm::errs() << "tcc-conformance: error: " << problem << "\n";
      return 2;
    }
  }

  Mode mode = options.mode == "compiled" ? Mode::Compiled : Mode::Reference;
  if (!options.exportDir.empty() && (mode != Mode::Compiled || !options.sizes.empty())) {
    llvm::errs() << "tcc-conformance: error: --export needs --mode compiled and no --size\n";
    return 2;
  }
  tcc::registerAllPasses();
  llvm::SmallString<128> scratch;
  if (llvm::sys::fs::createUniqueDirectory("tcc-conformance", scratch)) {
    llvm::errs() << "tcc-conformance: error: cannot create a scratch directory\n";
    return 2;
  }
  llvm::CrashRecoveryContext::Enable();
  std::vector<std::string> cases = collectCases(options.paths, options.filter);
  bool checked = !options.expected.empty();
  Configuration configuration{mode, options.target};
  std::set<std::string> passed, regressed;
  unsigned numPassed = 0, numFailed = 0, numExcluded = 0, regressions = 0, newPasses = 0,
           excludedPasses = 0, unlisted = 0;
  for (const std::string &dir : cases) {
    std::string name = llvm::sys::path::filename(dir).str();
    std::string reason, note;
    llvm::CrashRecoveryContext crc;
    if (!crc.RunSafely([&] { reason = runCase(dir, mode, scratch.str().str(), options, note); }))
      reason = "crashed";
    const Expected::Exclusion *exclusion = expected.find(name, configuration);
    bool excluded = exclusion != nullptr;
    bool listed = !excluded && expected.mentions(name);
    if (reason.empty()) {
      ++numPassed;
      passed.insert(name);
      if (checked && excluded) {
        ++excludedPasses;
        llvm::outs() << "NEW PASS " << name << note
                     << " of an excluded case: remove its exclusion (" << exclusion->reason
                     << ")\n";
      } else if (checked && !listed) {
        ++newPasses;
        llvm::outs() << "NEW PASS " << name << note << "\n";
      } else if (!options.quiet) {
        llvm::outs() << "PASS " << name << note << "\n";
      }
    } else {
      ++numFailed;
      if (listed) {
        ++regressions;
        regressed.insert(name);
        llvm::outs() << "REGRESSION " << name << ": " << reason << "\n";
      } else if (excluded) {
        ++numExcluded;
        if (!options.quiet)
          llvm::outs() << "EXCLUDED " << name << " (" << exclusion->reason << "): " << reason
                       << "\n";
      } else if (checked) {
        ++unlisted;
        llvm::outs() << "UNLISTED FAILURE " << name << ": " << reason << "\n";
      } else {
        llvm::outs() << "FAIL " << name << ": " << reason << "\n";
      }
    }
    llvm::outs().flush();
  }
  llvm::sys::fs::remove_directories(scratch);
  if (options.updateExpected && checked) {
    std::string problem =
        writeExpected(options.expected, passed, regressed, expected, configuration);
    if (!problem.empty()) {
      llvm::errs() << "tcc-conformance: error: " << problem << "\n";
      return 2;
    }
  }
  if (newPasses)
    llvm::outs() << newPasses << " new passes: run with --update-expected to record them\n";
  if (excludedPasses)
    llvm::outs() << excludedPasses
                 << " new passes of excluded cases: remove their exclusions (--update-expected)\n";
  if (regressions)
    llvm::outs() << regressions << " regressions\n";
  if (unlisted)
    llvm::outs() << unlisted << " unlisted failures: each needs `!NAME [SCOPE]  REASON` in "
                 << options.expected << "\n";
  llvm::outs() << numPassed << " passed, " << numFailed << " failed";
  if (checked)
    llvm::outs() << " (" << numExcluded << " excluded)";
  llvm::outs() << "\n";
  return regressions || unlisted ? 1 : 0;
}
