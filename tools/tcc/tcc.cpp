//===- tcc.cpp - the compiler driver: model.onnx -> IR or (later) model.so -------------===//
//
//   tcc model.onnx -o model.so
//   tcc model.onnx --emit=prim -o model.prim.mlir
//   tcc model.onnx --dim batch=8 --cpu=native -o model.so
//   tcc model.onnx --check [--format=json]      # which nodes would fail, and why
//   tcc inspect model.onnx|model.so [--format=json]   # what a model or a library holds
//   tcc verify model.onnx [--input x.npy ...]   # compiled vs the reference evaluator; bisects
//
// Exit status: 0 success, 1 the model could not be compiled (diagnostics on stderr, one per
// line as `<file>: error: <message>`), 2 the command line is wrong.
//
//===----------------------------------------------------------------------------------===//
#include "Depfile.h"
#include "Inspect.h"
#include "Verify.h"

#include "tcc/Import/Importer.h"
#include "tcc/InitAll.h"
#include "tcc/Pipelines/Compiler.h"
#include "tcc/Decompose/RuleRegistry.h"
#include "tcc/Pipelines/ModelCheck.h"
#include "tcc/Support/Diagnostics.h"
#include "tcc/Version.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "tcc/Import/ModelSummary.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <CLI/CLI.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr int kExitCompileError = 1;
constexpr int kExitUsageError = 2;

struct Options {
  std::string model;
  std::string output;
  std::string emit = "so";
  std::vector<std::string> dims;
  std::vector<std::string> sequenceLengths;
  std::vector<std::string> absentInputs;
  std::vector<std::string> presentInputs;
  bool printIrAfterAll = false;
  std::string target = "host";
  std::string cpu;
  std::string precision = "fp32";
  std::string attention = "auto";
  std::vector<std::string> explain;
  bool check = false;
  bool listOps = false;
  std::string format = "text";
  bool grad = false;
  std::string wrt = "params";
  std::string loss;
  std::string train;
  int64_t kvCache = 0;
  double learningRate = 0.01;
  // Build-system outputs (-MD, -MF, -MT; --emit-header).
  bool depfile = false;
  std::string depfilePath;
  std::string depfileTarget;
  std::string header;
  // Debugging.
  std::vector<std::string> printIrAfter;
  std::string dumpDirectory;
  bool timePasses = false;
  std::string diagnosticsFormat = "text";
  unsigned jobs = 0; // -j: 0 = one per core
};

/// --list-ops: every decomposition rule, one per line (text) or as a JSON array.
int listOps(const Options &options) {
  namespace d = tcc::decompose;
  const d::RuleRegistry &registry = d::RuleRegistry::get();
  llvm::json::Array rules;
  for (const std::string &domain : registry.getDomains())
    for (const std::string &op : registry.getOpTypes(domain))
      for (const d::Rule *rule : registry.getRules(domain, op)) {
        std::string shown = d::getDomainDisplayName(domain).str();
        // The last opset this rule is used at (a later version may have changed the op).
        int64_t until = rule->sinceVersion;
        for (int64_t v = rule->sinceVersion; v <= rule->untilVersion; ++v)
          if (registry.lookup(domain, op, v) == rule)
            until = v;
        if (options.format == "json")
          rules.push_back(llvm::json::Object{{"domain", shown},
                                             {"op_type", op},
                                             {"since", rule->sinceVersion},
                                             {"until", until}});
        else
          llvm::outs() << shown << " " << op << " " << rule->sinceVersion << " " << until << "\n";
      }
  if (options.format == "json")
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(rules))) << "\n";
  return 0;
}

/// Parses `NAME=V` or `NAME=MIN:MAX` into `settings`; returns an error message or "".
std::string parseDim(llvm::StringRef text, llvm::StringMap<tcc::DimSetting> &settings) {
  auto [name, value] = text.split('=');
  if (name.empty() || value.empty())
    return "--dim expects NAME=VALUE or NAME=MIN:MAX, got '" + text.str() + "'";
  tcc::DimSetting setting;
  auto [lo, hi] = value.split(':');
  int64_t min = 0, max = 0;
  if (lo.getAsInteger(10, min) || min < 0)
    return "--dim " + name.str() + ": '" + lo.str() + "' is not a non-negative integer";
  setting.min = min;
  if (value.contains(':')) {
    if (hi.getAsInteger(10, max) || max < min)
      return "--dim " + name.str() + ": '" + hi.str() + "' is not an integer >= " +
             std::to_string(min);
    setting.max = max;
  } else {
    setting.max = min;
  }
  settings[name] = setting;
  return "";
}

/// Parses `NAME=N` (a sequence input's length) into `settings`; returns an error or "".
std::string parseSequenceLength(llvm::StringRef text,
                                llvm::StringMap<tcc::SequenceSetting> &settings) {
  auto [name, value] = text.split('=');
  int64_t length = 0;
  if (name.empty() || value.getAsInteger(10, length) || length < 0)
    return "--sequence-length expects NAME=N with N >= 0, got '" + text.str() + "'";
  settings[name].length = length;
  return "";
}

/// The tool's own errors (usage, files), printed like the compiler's diagnostics.
tcc::DiagnosticFormat diagnosticFormat(const Options &options) {
  return options.diagnosticsFormat == "json" ? tcc::DiagnosticFormat::Json
                                             : tcc::DiagnosticFormat::Text;
}
void reportError(const Options &options, llvm::StringRef file, const llvm::Twine &message) {
  tcc::printToolDiagnostic(llvm::errs(), diagnosticFormat(options), file, "error", message.str());
}

/// The progress display of a compile: one line on stderr, rewritten in place, only when
/// stderr is a terminal (and diagnostics are text); cleared before any diagnostic and at the
/// end, so that nothing of it stays in a log.
class ProgressLine {
public:
  ProgressLine(mlir::MLIRContext &context, std::string prefix, bool enabled)
      : prefix(std::move(prefix)), enabled(enabled),
        handler(&context, [this](mlir::Diagnostic &) {
          clear();
          return mlir::failure(); // the tool's handler prints it
        }) {}
  ~ProgressLine() { clear(); }

  void show(const std::string &what) {
    if (!enabled)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    llvm::errs() << "\r\x1b[K" << prefix << what;
    llvm::errs().flush();
    shown = true;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    if (!shown)
      return;
    llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
    shown = false;
  }
  std::function<void(const std::string &)> callback() {
    if (!enabled)
      return nullptr;
    return [this](const std::string &what) { show(what); };
  }

private:
  std::string prefix;
  bool enabled;
  bool shown = false;
  std::mutex mutex;
  mlir::ScopedDiagnosticHandler handler;
};

/// The options that shape the code, as the artifact records them (no paths: the same bytes
/// whatever the folders).
std::string recordedOptions(const Options &options) {
  std::string text = "--target " + options.target;
  auto add = [&](const char *flag, const std::string &value) {
    text += std::string(" ") + flag + " " + value;
  };
  if (!options.cpu.empty())
    add("--cpu", options.cpu);
  add("--precision", options.precision);
  add("--attention", options.attention);
  for (const std::string &dim : options.dims)
    add("--dim", dim);
  for (const std::string &length : options.sequenceLengths)
    add("--sequence-length", length);
  for (const std::string &name : options.absentInputs)
    add("--absent", name);
  for (const std::string &name : options.presentInputs)
    add("--present", name);
  if (options.grad || !options.train.empty()) {
    text += options.grad ? " --grad" : "";
    add("--wrt", options.wrt);
    if (!options.loss.empty())
      add("--loss", options.loss);
  }
  if (!options.train.empty()) {
    add("--train", options.train);
    add("--lr", llvm::formatv("{0}", options.learningRate).str());
  }
  if (options.kvCache > 0)
    add("--kv-cache", std::to_string(options.kvCache));
  return text;
}

/// Whether the model at `path` has quantized contractions (QLinearConv, MatMulInteger, ...,
/// or the QDQ form's DequantizeLinear): its library then carries the CPU level with
/// AVX512-VNNI. A file that cannot be read says no here; the import reports it.
bool isQuantizedModel(mlir::MLIRContext &context, llvm::StringRef path) {
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  tcc::OnnxModelSummary summary;
  if (mlir::failed(tcc::summarizeOnnxModel(path, mlir::UnknownLoc::get(&context), summary)))
    return false;
  for (const char *op : {"DequantizeLinear", "QLinearConv", "QLinearMatMul", "ConvInteger",
                         "MatMulInteger", "DynamicQuantizeLinear"})
    if (summary.opCounts.count(op))
      return true;
  return false;
}

int compile(const Options &options) {
  mlir::DialectRegistry registry;
  tcc::registerAllDialects(registry);
  tcc::registerAllPasses();
  mlir::MLIRContext context(registry);
  // A user's error is one line naming the node; the generic form of the op it came from
  // (MLIR's "see current operation" note) is for --print-ir-after-all, not for them.
  context.printOpOnDiagnostic(false);
  tcc::ToolDiagnosticHandler diagnostics(context, llvm::errs(), diagnosticFormat(options));

  tcc::ImportOptions importOptions;
  for (const std::string &dim : options.dims) {
    std::string error = parseDim(dim, importOptions.dims);
    if (!error.empty()) {
      reportError(options, "tcc", error);
      return kExitUsageError;
    }
  }
  for (const std::string &length : options.sequenceLengths) {
    std::string error = parseSequenceLength(length, importOptions.sequences);
    if (!error.empty()) {
      reportError(options, "tcc", error);
      return kExitUsageError;
    }
  }
  for (const std::string &name : options.absentInputs)
    importOptions.absentInputs.insert(name);
  for (const std::string &name : options.presentInputs)
    importOptions.presentInputs.insert(name);
  tcc::CompileOptions compileOptions;
  compileOptions.emit = *tcc::parseEmitKind(options.emit);
  compileOptions.printIrAfterAll = options.printIrAfterAll;
  if (!options.train.empty()) {
    if (options.loss.empty()) {
      reportError(options, "tcc", "--train needs --loss OUTPUT (the value to minimize)");
      return kExitUsageError;
    }
    compileOptions.learningRate = options.learningRate;
  }
  if (options.grad || !options.train.empty()) {
    compileOptions.gradWrt = options.wrt;
    compileOptions.gradLoss = options.loss;
  } else if (options.wrt != "params" || !options.loss.empty()) {
    reportError(options, "tcc", "--wrt and --loss need --grad");
    return kExitUsageError;
  }
  if (options.kvCache > 0 && (options.grad || !options.train.empty())) {
    reportError(options, "tcc", "--kv-cache builds a decoding step, not gradients or training");
    return kExitUsageError;
  }
  compileOptions.kvCacheCapacity = options.kvCache;
  compileOptions.printing.elideLargeElementsAttrs(16).elideLargeResourceString(64);
  compileOptions.recordedOptions = recordedOptions(options);
  compileOptions.jobs = options.jobs ? options.jobs
                                     : llvm::hardware_concurrency().compute_thread_count();
  std::string error;
  // A library without --cpu carries the CPU levels the runtime chooses from (x86-64: AVX-512
  // and the x86-64-v3 baseline); IR, assembly and objects show the baseline.
  bool levels = compileOptions.emit == tcc::EmitKind::So;
  mlir::FailureOr<std::vector<std::unique_ptr<tcc::Target>>> targets = tcc::createTargets(
      options.target, options.cpu, error, /*cpuLevels=*/levels, options.precision,
      /*quantized=*/levels && options.cpu.empty() && isQuantizedModel(context, options.model));
  if (mlir::failed(targets)) {
    reportError(options, "tcc", error);
    return kExitUsageError;
  }
  for (std::unique_ptr<tcc::Target> &target : *targets) {
    if (mlir::failed(target->setPrecision(options.precision, error))) {
      reportError(options, "tcc", error);
      return kExitUsageError;
    }
    compileOptions.targets.push_back(std::move(target));
  }
  compileOptions.kernelStage.attention =
      tcc::KernelPipelineOptions::parseAttention(options.attention);
  for (const std::string &what : options.explain) {
    compileOptions.kernelStage.explainAttention |= what == "attention";
    compileOptions.kernelStage.explainBatchSplit |= what == "batch-split";
  }
  bool binary = compileOptions.emit == tcc::EmitKind::Obj || compileOptions.emit == tcc::EmitKind::So;
  if (binary && options.output.empty() && !options.check) {
    reportError(options, "tcc", "--emit=" + options.emit + " needs -o PATH");
    return kExitUsageError;
  }
  if (compileOptions.targets.size() > 1 && compileOptions.emit != tcc::EmitKind::So &&
      compileOptions.emit != tcc::EmitKind::Onnx && compileOptions.emit != tcc::EmitKind::Prim) {
    reportError(options, "tcc",
                "--target " + options.target + " names " +
                    std::to_string(compileOptions.targets.size()) +
                    " targets, which make one library (--emit=so); --emit=" + options.emit +
                    " shows the code of one target");
    return kExitUsageError;
  }
  bool depfile = options.depfile || !options.depfilePath.empty();
  if ((depfile || !options.header.empty()) && (!binary || options.output.empty())) {
    reportError(options, "tcc",
                llvm::Twine(depfile ? "-MD and -MF" : "--emit-header") +
                    " go with a library or object: --emit=so or obj and -o PATH");
    return kExitUsageError;
  }
  tcc::ModelInterface interface;
  if (!options.header.empty())
    compileOptions.interface = &interface;
  for (const std::string &list : options.printIrAfter)
    for (llvm::StringRef pass : llvm::split(list, ','))
      if (!pass.trim().empty())
        compileOptions.printIrAfter.push_back(pass.trim().str());
  compileOptions.dumpDirectory = options.dumpDirectory;
  // --time-passes: every stage's passes, code generation and linking, printed on stderr when
  // the compile ends (the timing manager's destructor), then the peak memory (this one's,
  // declared first so that it runs last).
  struct PeakMemoryReport {
    bool enabled;
    ~PeakMemoryReport() {
      struct rusage usage;
      if (enabled && getrusage(RUSAGE_SELF, &usage) == 0)
        llvm::errs() << "tcc: peak memory (maximum resident set size): "
                     << llvm::format("%.1f", usage.ru_maxrss / 1024.0) << " MiB\n";
    }
  } peakMemory{options.timePasses};
  mlir::DefaultTimingManager timingManager;
  timingManager.setEnabled(options.timePasses);
  mlir::TimingScope timingRoot = timingManager.getRootScope();
  if (options.timePasses)
    compileOptions.timing = &timingRoot;
  std::optional<mlir::TimingScope> importTime;
  if (options.timePasses)
    importTime = timingRoot.nest("0-import");

  if (options.check) {
    // Import errors print as usual; decomposition errors are collected per node.
    mlir::OwningOpRef<mlir::ModuleOp> module =
        tcc::importOnnxModel(options.model, importOptions, context);
    if (!module)
      return kExitCompileError;
    tcc::ModelCheckReport report = tcc::checkModel(*module);
    tcc::printModelCheckReport(report, options.model, options.format == "json", llvm::outs());
    return report.ok() ? 0 : kExitCompileError;
  }

  ProgressLine progress(context, "tcc: " + options.model + ": ",
                        options.diagnosticsFormat == "text" &&
                            llvm::sys::Process::StandardErrIsDisplayed());
  compileOptions.progress = progress.callback();
  progress.show("reading the model");
  std::vector<std::string> filesRead;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tcc::importOnnxModel(options.model, importOptions, context, &filesRead);
  if (!module)
    return kExitCompileError;
  importTime.reset();

  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> text;
  if (!binary) {
    text = mlir::openOutputFile(options.output.empty() ? "-" : options.output, &errorMessage);
    if (!text) {
      reportError(options, "tcc", "cannot write '" + options.output + "': " + errorMessage);
      return kExitCompileError;
    }
  }
  if (mlir::failed(tcc::compileModule(*module, compileOptions,
                                      text ? text->os() : llvm::nulls(), options.output,
                                      error))) {
    progress.clear();
    if (!error.empty())
      reportError(options, options.model, error);
    return kExitCompileError;
  }
  if (text) {
    text->os() << "\n";
    text->keep();
  }
  if (!options.header.empty()) {
    std::unique_ptr<llvm::ToolOutputFile> header =
        mlir::openOutputFile(options.header, &errorMessage);
    if (!header) {
      reportError(options, "tcc", "cannot write '" + options.header + "': " + errorMessage);
      return kExitCompileError;
    }
    tcc::writeModelHeader(interface, llvm::sys::path::stem(options.header), llvm::sys::path::filename(options.model),
                          header->os());
    header->keep();
  }
  // Last, so that a build system sees the depfile only with the outputs it describes.
  if (depfile) {
    std::string path = options.depfilePath.empty() ? tcc::defaultDepfilePath(options.output)
                                                   : options.depfilePath;
    std::string target = options.depfileTarget.empty() ? options.output : options.depfileTarget;
    std::string failure = tcc::writeDepfile(path, target, filesRead);
    if (!failure.empty()) {
      reportError(options, "tcc", failure);
      return kExitCompileError;
    }
  }
  return 0;
}

/// `tcc inspect PATH [--format json]`.
int inspectCommand(int argc, char **argv) {
  std::string path, format = "text";
  CLI::App app{"tcc inspect: what an ONNX model or a library tcc made holds"};
  app.add_option("file", path, "an ONNX model (.onnx, .onnxtxt) or a library tcc made")
      ->required();
  app.add_option("--format", format, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    llvm::errs() << "tcc inspect: error: " << e.what() << "\n";
    return kExitUsageError;
  }
  mlir::MLIRContext context;
  tcc::ToolDiagnosticHandler diagnostics(context, llvm::errs(), tcc::DiagnosticFormat::Text);
  std::string error;
  if (!tcc_tool::inspect(path, format == "json", context, llvm::outs(), error)) {
    if (!error.empty())
      llvm::errs() << path << ": error: " << error << "\n";
    return kExitCompileError;
  }
  return 0;
}

/// `tcc verify MODEL [--input F.npy]... [options]`.
int verifyCommand(int argc, char **argv) {
  tcc_tool::VerifyRequest request;
  std::vector<std::string> dims;
  std::string target = "host", cpu, precision = "fp32", attention = "auto", fault, keep;
  CLI::App app{"tcc verify: compile a model, run it and compare every output with the "
               "reference evaluator; when one differs, find the first kernel that is wrong"};
  app.add_option("model", request.model, "the ONNX model")->required();
  app.add_option("--input", request.inputs,
                 "an input .npy file, in the model's input order (default: random inputs)");
  app.add_option("--dim", dims, "fix a symbolic dim (NAME=VALUE), as tcc --dim")
      ->allow_extra_args(false);
  app.add_option("--extent", request.dynamicExtent,
                 "the extent of dims left symbolic, for random inputs (default 2)")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 20));
  app.add_option("--seed", request.seed, "the random inputs' seed (default 0)");
  app.add_option("--rtol", request.rtol, "relative tolerance (default 1e-4)");
  app.add_option("--atol", request.atol, "absolute tolerance (default 1e-5)");
  app.add_option("--target", target, "as tcc --target (one target that runs here)");
  app.add_option("--cpu", cpu, "as tcc --cpu");
  app.add_option("--precision", precision, "as tcc --precision")
      ->check(CLI::IsMember({"fp32", "tf32", "bf16", "fp16"}));
  app.add_option("--attention", attention, "as tcc --attention")
      ->check(CLI::IsMember({"auto", "fused", "decomposed"}));
  app.add_option("--keep", keep, "keep the compiled libraries in this folder");
  // Test-only: miscompile the kernels of one ONNX node, to show that verify finds them.
  app.add_option("--inject-fault", fault)->group("");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    llvm::errs() << "tcc verify: error: " << e.what() << "\n";
    return kExitUsageError;
  }
  for (const std::string &dim : dims) {
    std::string error = parseDim(dim, request.import.dims);
    if (!error.empty()) {
      llvm::errs() << "tcc verify: error: " << error << "\n";
      return kExitUsageError;
    }
  }
  std::string error;
  // The library a plain compile makes (for the host: its CPU levels).
  mlir::MLIRContext summaryContext;
  auto targets = tcc::createTargets(target, cpu, error, /*cpuLevels=*/true, precision,
                                    cpu.empty() && isQuantizedModel(summaryContext, request.model));
  if (mlir::failed(targets)) {
    llvm::errs() << "tcc verify: error: " << error << "\n";
    return kExitUsageError;
  }
  std::vector<std::shared_ptr<const tcc::Target>> chosen;
  for (std::unique_ptr<tcc::Target> &t : *targets) {
    if (mlir::failed(t->setPrecision(precision, error))) {
      llvm::errs() << "tcc verify: error: " << error << "\n";
      return kExitUsageError;
    }
    chosen.push_back(std::move(t));
  }
  request.compileOptions = [&]() {
    tcc::CompileOptions options;
    options.targets = chosen;
    options.kernelStage.attention = tcc::KernelPipelineOptions::parseAttention(attention);
    options.injectFaultNode = fault;
    Options recorded;
    recorded.target = target;
    recorded.cpu = cpu;
    recorded.precision = precision;
    recorded.attention = attention;
    recorded.dims = dims;
    options.recordedOptions = recordedOptions(recorded);
    return options;
  };
  llvm::SmallString<128> scratch(keep);
  if (keep.empty()) {
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("tcc-verify", scratch)) {
      llvm::errs() << "tcc verify: error: cannot make a scratch folder: " << ec.message() << "\n";
      return kExitCompileError;
    }
  } else if (std::error_code ec = llvm::sys::fs::create_directories(keep)) {
    llvm::errs() << "tcc verify: error: cannot make '" << keep << "': " << ec.message() << "\n";
    return kExitCompileError;
  }
  request.scratch = scratch.str().str();
  mlir::DialectRegistry registry;
  tcc::registerAllDialects(registry);
  tcc::registerAllPasses();
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  tcc::ToolDiagnosticHandler diagnostics(context, llvm::errs(), tcc::DiagnosticFormat::Text);
  int status = tcc_tool::verifyModel(request, context, llvm::outs());
  if (keep.empty())
    llvm::sys::fs::remove_directories(request.scratch);
  return status;
}

} // namespace

int main(int argc, char **argv) {
  // Subcommands: `tcc inspect ...` (a model file named "inspect" is ./inspect).
  if (argc > 1 && llvm::StringRef(argv[1]) == "inspect")
    return inspectCommand(argc - 1, argv + 1);
  if (argc > 1 && llvm::StringRef(argv[1]) == "verify")
    return verifyCommand(argc - 1, argv + 1);
  Options options;
  CLI::App app{"tcc: an ahead-of-time compiler for ONNX models"};
  app.add_flag("--list-ops", options.listOps,
               "print every decomposition rule: domain, op type, first and last opset (no "
               "model needed; --format=json for JSON)");
  app.add_option("model", options.model, "the ONNX model (.onnx, or .onnxtxt text format)");
  app.add_option("-o,--output", options.output, "the output path, exactly (default: stdout)");
  app.add_option("--emit", options.emit,
                 "what to produce: so (default), obj, asm, llvm (LLVM IR), kernel (buffers and "
                 "kernels), prim (decomposed), onnx (as imported)")
      ->check(CLI::IsMember({"onnx", "prim", "kernel", "llvm", "asm", "obj", "so"}));
  // One value per --dim, so that `--dim a=1 model.onnx` leaves the model positional.
  app.add_option("--dim", options.dims,
                 "fix a symbolic dim (NAME=VALUE) or give its range (NAME=MIN:MAX)")
      ->allow_extra_args(false);
  app.add_option("--sequence-length", options.sequenceLengths,
                 "compile sequence input NAME as N tensors NAME[0]..NAME[N-1] (NAME=N)")
      ->allow_extra_args(false);
  app.add_option("--absent", options.absentInputs,
                 "compile optional input NAME as absent (it leaves the signature)")
      ->allow_extra_args(false);
  app.add_option("--present", options.presentInputs,
                 "compile optional input NAME as present (a plain input; by default an "
                 "optional input is present or empty at run time: NAME and NAME.present)")
      ->allow_extra_args(false);
  app.add_option("--target", options.target,
                 "what to compile for: host (default), cpu, cpu:x86_64-linux, cpu:aarch64-linux, "
                 "cpu:arm64-macos (a .dylib), nvidia (sm_80 and sm_90), nvidia:sm_NN[,sm_MM...] "
                 "(NVIDIA GPUs), amd (gfx90a, gfx942 and gfx1100), amd:gfxNNN[,gfxMMM...] (AMD "
                 "GPUs), vulkan, vulkan:subgroups (Vulkan 1.2 compute), apple (an arm64 macOS "
                 ".dylib with kernels for Metal 3 GPUs); several, comma-separated "
                 "(cpu,nvidia:sm_90,amd:gfx942), make one library with code for each, the "
                 "device chosen when a session is created");
  app.add_option("--cpu", options.cpu,
                 "the CPU to tune for and require: default the portable baseline (x86-64-v3), "
                 "native, a CPU name (znver4, neoverse-v2, ...) or a level with features "
                 "(x86-64-v4+avx512bf16)");
  app.add_option("--precision", options.precision,
                 "the inputs of float32 matrix products and convolutions: fp32 (default), or "
                 "tf32, bf16 or fp16 on tensor cores (--target nvidia), or bf16 with vdpbf16ps "
                 "on x86-64 CPUs with AVX512-BF16 (a library's levels without it compute "
                 "fp32); sums stay fp32")
      ->check(CLI::IsMember({"fp32", "tf32", "bf16", "fp16"}));
  app.add_option("--attention", options.attention,
                 "attention blocks: auto (default: one kernel per block where the target's is "
                 "the faster: the CPU), fused (wherever the target has one: the CPU, NVIDIA) or "
                 "decomposed (products and softmax, as the model writes them)")
      ->check(CLI::IsMember({"auto", "fused", "decomposed"}));
  app.add_option("--explain", options.explain,
                 "remarks on stderr saying what the kernel stage did and why not: attention "
                 "(each attention block fused or not), batch-split (why images do not run "
                 "alone)")
      ->delimiter(',')
      ->check(CLI::IsMember({"attention", "batch-split"}));
  app.add_flag("--check", options.check,
               "do not compile: list every node that would fail (name, op type, domain, opset, "
               "dtype, reason) and exit 1 if any; else print the op counts");
  app.add_option("--format", options.format, "--check's output: text or json")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_flag("--grad", options.grad,
               "also compute gradients: the library returns the outputs, then grad.<name> "
               "for each differentiated input or initializer");
  app.add_option("--wrt", options.wrt,
                 "with --grad: differentiate with respect to params (the float initializers, "
                 "default), inputs, or NAME,NAME,...");
  app.add_option("--loss", options.loss,
                 "with --grad: the output to minimize (one element; its gradient seed is 1); "
                 "without it every float output's cotangent is an input cotangent.<output>");
  app.add_option("--train", options.train,
                 "build a training step: each run also updates the parameters (--wrt) in the "
                 "session by the optimizer: sgd (needs --loss; implies --grad)")
      ->check(CLI::IsMember({"sgd"}));
  app.add_option("--lr", options.learningRate, "--train's learning rate (default 0.01)")
      ->check(CLI::PositiveNumber);
  app.add_option("--kv-cache", options.kvCache,
                 "a decoding step whose outputs are Concat(input cache, new positions): keep "
                 "each cache in the session, N positions long, and append to it in place; the "
                 "cached length becomes an int64 input named after its symbol (docs/runtime.md)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--print-ir-after-all", options.printIrAfterAll,
               "print the IR after every pass to stderr (large weights elided)");
  app.add_option("--print-ir-after", options.printIrAfter,
                 "print the IR after the passes named (tcc-opt's pass names, comma-separated) "
                 "to stderr")
      ->allow_extra_args(false);
  app.add_option("--dump-dir", options.dumpDirectory,
                 "write the IR after every pass to files in DIR, a folder per stage "
                 "(1-decompose, 2-kernel, 3-target), then the host code's LLVM IR and assembly "
                 "(model.ll, model.s) and each device image (device-K-ARCH.ptx, .cubin, .hsaco, .spv "
                 "or .metal); with several targets, a folder target-N-KIND for each");
  app.add_option("--diagnostics-format", options.diagnosticsFormat,
                 "how errors are printed: text (`file: error: message`) or json (one object a "
                 "line: file, severity, message, node, notes)")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("-j,--jobs", options.jobs,
                 "threads for the back end of the host code (default: one per core); the "
                 "library is the same bytes for any number")
      ->check(CLI::Range(1u, 1024u));
  app.add_flag("--time-passes", options.timePasses,
               "print the time of every stage and pass, and the peak memory, on stderr");
  app.add_flag("--MD", options.depfile,
               "-MD: also write a depfile (Make syntax: the output depends on the model and its "
               "external data files), next to the output with the extension .d");
  app.add_option("--MF", options.depfilePath, "-MF FILE: write the depfile to FILE (implies -MD)");
  app.add_option("--MT", options.depfileTarget,
                 "-MT TARGET: the depfile rule's target (default: the output path)");
  app.add_option("--emit-header", options.header,
                 "also write a C header for the library: inputs, outputs, dtypes, shapes and "
                 "symbols as macros, and NAME_run(session, inputs..., outputs...), NAME being "
                 "the header file's stem");
  app.set_version_flag("--version", std::string("tcc ") + tcc::kVersion);
  // Compilers spell the depfile options -MD, -MF and -MT; CLI11's single-dash options are one
  // letter, so they are read as --MD, --MF and --MT.
  std::vector<std::string> arguments(argv + 1, argv + argc);
  for (std::string &argument : arguments)
    if (argument == "-MD" || argument == "-MF" || argument == "-MT")
      argument.insert(argument.begin(), '-');
  for (size_t k = 0; k < arguments.size(); ++k)
    if (arguments[k] == "--diagnostics-format=json" ||
        (arguments[k] == "--diagnostics-format" && k + 1 < arguments.size() &&
         arguments[k + 1] == "json"))
      options.diagnosticsFormat = "json"; // for the parse errors below
  std::reverse(arguments.begin(), arguments.end()); // CLI11 takes them last-first
  try {
    app.parse(arguments);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    reportError(options, "tcc", e.what());
    return kExitUsageError;
  }
  if (options.listOps)
    return listOps(options);
  if (options.model.empty()) {
    reportError(options, "tcc", "no model given (tcc model.onnx -o model.so; see --help)");
    return kExitUsageError;
  }
  return compile(options);
}
