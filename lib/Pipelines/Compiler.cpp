//===- Compiler.cpp - one call from an imported model to any output ------------------===//
#include "tcc/Pipelines/Compiler.h"
#include "tcc/Autodiff/Passes.h"
#include "tcc/Decompose/Passes.h"
#include "tcc/Package/ModelAbi.h"

#include "tcc/Pipelines/Pipelines.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <future>
#include <list>

using namespace mlir;

std::optional<tcc::EmitKind> tcc::parseEmitKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<EmitKind>>(name)
      .Case("onnx", EmitKind::Onnx)
      .Case("prim", EmitKind::Prim)
      .Case("kernel", EmitKind::Kernel)
      .Case("llvm", EmitKind::LLVM)
      .Case("asm", EmitKind::Asm)
      .Case("obj", EmitKind::Obj)
      .Case("so", EmitKind::So)
      .Default(std::nullopt);
}

namespace {
/// The debugging options on one stage's pass manager (`stage` names its folder in
/// `dumpDirectory`, which is options.dumpDirectory or a target's folder in it; `timing`,
/// options.timing or a target's scope under it).
void configure(PassManager &pm, const tcc::CompileOptions &options, llvm::StringRef dumpDirectory,
               TimingScope *timing, llvm::StringRef stage) {
  auto never = [](Pass *, Operation *) { return false; };
  if (options.printIrAfterAll || !options.printIrAfter.empty() ||
      !options.dumpDirectory.empty())
    pm.getContext()->disableMultithreading();
  if (options.printIrAfterAll || !options.printIrAfter.empty()) {
    std::vector<std::string> passes = options.printIrAfter;
    bool all = options.printIrAfterAll;
    pm.enableIRPrinting(
        never,
        [passes, all](Pass *pass, Operation *) {
          return all || llvm::is_contained(passes, pass->getArgument().str());
        },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, llvm::errs(), options.printing);
  } else if (!dumpDirectory.empty()) {
    // (MLIR keeps one IR printer per pass manager: stderr printing wins over the dump.)
    // The printer keeps the folder's name by reference: it must outlive the pass manager.
    static std::list<std::string> folders;
    llvm::SmallString<256> folder(dumpDirectory);
    llvm::sys::path::append(folder, stage);
    folders.push_back(std::string(folder));
    (void)llvm::sys::fs::create_directories(folder); // MLIR makes the levels below it
    pm.enableIRPrintingToFileTree(never, [](Pass *, Operation *) { return true; },
                                  /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
                                  /*printAfterOnlyOnFailure=*/false, folders.back(),
                                  options.printing);
  }
  if (timing)
    pm.enableTiming(*timing);
}

LogicalResult writeFile(llvm::StringRef path, llvm::ArrayRef<char> bytes, std::string &error) {
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return failure();
  }
  file.os().write(bytes.data(), bytes.size());
  file.keep();
  return success();
}
/// The assembly of function `name` in `assembly` (an ELF target's: from its `.type` line to
/// its `.size` line); "" when it is not found.
llvm::StringRef functionAssembly(llvm::StringRef assembly, llvm::StringRef name) {
  size_t begin = assembly.find(("\t.type\t" + name + ",@function\n").str());
  if (begin == llvm::StringRef::npos)
    return "";
  size_t size = assembly.find(("\t.size\t" + name + ", ").str(), begin);
  if (size == llvm::StringRef::npos)
    return "";
  size_t end = assembly.find('\n', size);
  return assembly.slice(begin, end == llvm::StringRef::npos ? assembly.size() : end + 1);
}

/// --dump-dir's host code: its LLVM IR (model.ll) and, from a copy (emitting optimizes the
/// module it is given), its assembly (model.s); then each kernel's (kernels/<name>.ll, the
/// function as it enters the middle end, and kernels/<name>.s, where the assembly is ELF's).
LogicalResult dumpHostCode(llvm::Module &module, const tcc::Target &target,
                           llvm::StringRef directory, std::string &error) {
  llvm::SmallString<256> kernels(directory);
  llvm::sys::path::append(kernels, "kernels");
  if (std::error_code ec = llvm::sys::fs::create_directories(kernels)) {
    error = "cannot create the dump folder '" + kernels.str().str() + "': " + ec.message();
    return failure();
  }
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, "model.ll");
  std::string ir;
  llvm::raw_string_ostream os(ir);
  module.print(os, nullptr);
  if (failed(writeFile(path, llvm::ArrayRef<char>(ir.data(), ir.size()), error)))
    return failure();
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(module);
  llvm::SmallVector<char, 0> assembly;
  if (failed(target.emitHostCode(*copy, /*assembly=*/true, assembly, error)))
    return failure();
  llvm::sys::path::replace_extension(path, "s");
  if (failed(writeFile(path, assembly, error)))
    return failure();
  llvm::StringRef text(assembly.data(), assembly.size());
  for (llvm::Function &function : module) {
    // Kernels are named kernel_<index>_<node> (tcc-outline-kernels), with _range trampolines.
    if (function.isDeclaration() || !function.getName().starts_with("kernel_"))
      continue;
    llvm::SmallString<256> file(kernels);
    llvm::sys::path::append(file, function.getName() + ".ll");
    std::string body;
    llvm::raw_string_ostream bodyStream(body);
    function.print(bodyStream);
    if (failed(writeFile(file, llvm::ArrayRef<char>(body.data(), body.size()), error)))
      return failure();
    llvm::StringRef code = functionAssembly(text, function.getName());
    if (code.empty())
      continue;
    llvm::sys::path::replace_extension(file, "s");
    if (failed(writeFile(file, llvm::ArrayRef<char>(code.data(), code.size()), error)))
      return failure();
  }
  return success();
}

/// --dump-dir's device code: each device image of the model (after the target pipeline) as
/// device-<k>-<arch>.<format>: .ptx, .cubin, .hsaco, .spv or .metal (Metal Shading Language,
/// a translation unit per kernel after each TCC_MSL_KERNEL_MARKER line).
LogicalResult dumpDeviceImages(ModuleOp module, llvm::StringRef directory, std::string &error) {
  auto images = module->getAttrOfType<ArrayAttr>(tcc::kernel::KernelDialect::kDeviceImagesAttrName);
  if (!images)
    return success();
  if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
    error = "cannot create the dump folder '" + directory.str() + "': " + ec.message();
    return failure();
  }
  for (auto [k, image] : llvm::enumerate(images.getAsRange<DictionaryAttr>())) {
    StringRef format = image.getAs<StringAttr>("format").getValue();
    auto global = SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(
        module, image.getAs<FlatSymbolRefAttr>("symbol"));
    auto bytes = global ? dyn_cast_if_present<StringAttr>(global.getValueOrNull()) : StringAttr();
    if (!bytes) {
      error = "internal error: device image " + std::to_string(k) + " has no bytes";
      return failure();
    }
    StringRef data = bytes.getValue();
    bool text = format == "ptx" || format == "msl";
    if (text && data.ends_with(StringRef("\0", 1)))
      data = data.drop_back();
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, "device-" + std::to_string(k) + "-" +
                                      image.getAs<StringAttr>("arch").getValue() + "." +
                                      (format == "spirv" ? "spv"
                                       : format == "msl" ? "metal"
                                                         : format));
    if (failed(writeFile(path, llvm::ArrayRef<char>(data.data(), data.size()), error)))
      return failure();
  }
  return success();
}

/// The model compiled for one target as far as LLVM IR: the host code with its descriptor,
/// the bytes of the weights and of the initial parameters, and the interface the descriptor
/// publishes.
struct TargetModule {
  std::unique_ptr<llvm::Module> code;
  tcc::WeightsBlob weights;
  std::vector<char> parameters;
  tcc::ModelInterface published;
};

/// Reports what the compile does next to the progress display, if any.
void report(const tcc::CompileOptions &options, const std::string &label, const std::string &what) {
  if (options.progress)
    options.progress(label.empty() ? what : label + ": " + what);
}

/// How progress names target `index` of a fat model's `count` ("" for a single target).
std::string targetLabel(const tcc::Target &target, size_t index, size_t count) {
  if (count < 2)
    return "";
  return "target " + std::to_string(index + 1) + "/" + std::to_string(count) + " (" +
         target.getName().str() + " " + target.getHost().cpu + ")";
}

/// Compiles a decomposed (prim) module for `target`: the kernel stage, the target's stage and
/// the translation to LLVM IR (into `out`). With --emit=kernel, prints the kernel stage's IR
/// to `text` and leaves out.code null. `dumpDirectory` and `timing` as for configure; `explain`:
/// whether --explain's remarks are made for this target.
LogicalResult lowerForTarget(ModuleOp module, const tcc::ModelInterface &interface,
                             const tcc::CompileOptions &options, const tcc::Target &target,
                             llvm::StringRef dumpDirectory, TimingScope *timing,
                             llvm::raw_ostream &text, llvm::LLVMContext &llvmContext,
                             TargetModule &out, std::string &error,
                             const std::string &label = "", bool explain = true) {
  // A device model's inputs and outputs are device memory, which string tensors (pointers to
  // host bytes) cannot be (model_abi.h).
  if (target.getDeviceType() != tcc::abi::kDeviceTypeCPU)
    for (auto [kind, list] : {std::pair("input", &interface.inputs),
                              std::pair("output", &interface.outputs)})
      for (const tcc::TensorInterface &tensor : *list)
        if (tensor.dtype == TCC_DTYPE_STRING) {
          error = std::string("the ") + kind + " '" + tensor.name + "' is a string tensor, which " +
                  target.getName().str() +
                  " models cannot have yet (their tensors are device memory); compile this "
                  "model for the CPU";
          return failure();
        }
  // Extents computed from input values (a Range whose bounds are inputs) are computed by host
  // code reading the inputs (model_abi.h's compute_symbols), which are device memory there.
  if (target.getDeviceType() != tcc::abi::kDeviceTypeCPU)
    for (const tcc::SymbolInterface &symbol : interface.symbols)
      if (symbol.computed) {
        error = "the extent '" + symbol.name +
                "' is computed from the values of an input (a Range, ConstantOfShape, Expand, "
                "... whose shape or bounds are inputs), which " +
                target.getName().str() +
                " models cannot do yet (their inputs are device memory); compile this model "
                "for the CPU";
        return failure();
      }
  report(options, label, "forming kernels");
  {
    PassManager pm(module.getContext());
    configure(pm, options, dumpDirectory, timing, "2-kernel");
    // --explain's remarks once per kind of target: a fat CPU library's levels form the same
    // kernels, and the user reads one account of them.
    tcc::KernelPipelineOptions kernelStage = options.kernelStage;
    if (!explain)
      kernelStage.explainAttention = kernelStage.explainBatchSplit = false;
    if (failed(tcc::buildPrimToKernelPipeline(pm, target.getInfo(), kernelStage))) {
      error = "internal error: the kernel pipeline does not parse";
      return failure();
    }
    if (failed(pm.run(module)))
      return failure();
  }
  if (!options.injectFaultNode.empty() &&
      failed(tcc::injectFault(module, options.injectFaultNode, error)))
    return failure();
  if (options.emit == tcc::EmitKind::Kernel) {
    module->print(text, options.printing);
    return success();
  }
  // Each kernel's ONNX nodes, for the descriptor's kernel list (profiles).
  tcc::kernel::recordKernelNodes(module);
  if (failed(tcc::packWeights(module, out.weights, target.getInfo().minPackedWeightBytes)))
    return failure();
  tcc::ModelInterface withParameters = interface;
  if (failed(tcc::packParameters(module, withParameters, out.parameters)))
    return failure();
  size_t kernels = 0;
  for (Operation &op : module.getBody()->getOperations())
    kernels += tcc::kernel::isKernel(&op);
  report(options, label, "generating code for " + std::to_string(kernels) + " kernels");
  {
    PassManager pm(module.getContext());
    configure(pm, options, dumpDirectory, timing, "3-target");
    if (failed(target.buildKernelPipeline(pm))) {
      error = "internal error: the " + target.getName().str() + " kernel pipeline does not parse";
      return failure();
    }
    if (failed(pm.run(module)))
      return failure();
  }
  if (!dumpDirectory.empty() && failed(dumpDeviceImages(module, dumpDirectory, error)))
    return failure();
  out.published = tcc::publishedInterface(module, withParameters);
  out.code = tcc::buildModelModule(module, withParameters, target.getHost(),
                                   target.getDeviceType(), options.recordedOptions, llvmContext,
                                   error);
  return success(out.code != nullptr);
}

/// The object of the weights and initial parameters of `compiled` (none when it has neither),
/// the weights named for `variant` of a fat model.
LogicalResult emitDataObject(const TargetModule &compiled, const tcc::Target &target,
                             llvm::LLVMContext &llvmContext, std::optional<unsigned> variant,
                             llvm::SmallVectorImpl<llvm::SmallVector<char, 0>> &objects,
                             std::string &error) {
  if (compiled.weights.empty() && compiled.parameters.empty())
    return success();
  std::unique_ptr<llvm::Module> weightsModule =
      tcc::buildWeightsModule(compiled.weights, tcc::weightsSymbolName(variant),
                              compiled.parameters, target.getHost().triple, llvmContext);
  if (variant)
    tcc::renameVariantSymbols(*weightsModule, *variant, *variant);
  llvm::SmallVector<char, 0> object;
  if (failed(target.emitHostCode(*weightsModule, /*assembly=*/false, object, error,
                                 /*optimize=*/false)))
    return failure();
  objects.push_back(std::move(object));
  return success();
}

/// Links `objects` into the library at `outputPath`, then writes into it the weights that
/// the link only made room for (tcc::fillWeights): each of `data`, a weights symbol and its
/// bytes. A library whose weights could not be written is removed.
LogicalResult linkWithWeights(const tcc::Target &target,
                              llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                              llvm::ArrayRef<std::pair<std::string, const tcc::WeightsBlob *>> data,
                              llvm::StringRef outputPath, std::string &error) {
  if (failed(target.linkLibrary(objects, outputPath, error)))
    return failure();
  if (!tcc::weightsFilledAfterLink(target.getHost().triple))
    return success();
  for (const auto &[symbol, weights] : data)
    if (failed(tcc::fillWeights(outputPath, symbol, *weights, error))) {
      llvm::sys::fs::remove(outputPath);
      return failure();
    }
  return success();
}

/// Whether two targets' compiled interfaces are the same (a fat model's variants must be).
bool sameInterface(const tcc::ModelInterface &a, const tcc::ModelInterface &b) {
  auto sameTensors = [](const std::vector<tcc::TensorInterface> &x,
                        const std::vector<tcc::TensorInterface> &y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip(x, y), [](auto pair) {
             const auto &[s, t] = pair;
             return s.name == t.name && s.dtype == t.dtype && s.shape == t.shape &&
                    s.symbols == t.symbols;
           });
  };
  return sameTensors(a.inputs, b.inputs) && sameTensors(a.outputs, b.outputs) &&
         sameTensors(a.parameters, b.parameters) && a.symbols.size() == b.symbols.size() &&
         llvm::all_of(llvm::zip(a.symbols, b.symbols), [](auto pair) {
           const auto &[s, t] = pair;
           return s.name == t.name && s.min == t.min && s.max == t.max &&
                  s.computed == t.computed;
         });
}

/// A fat model: the prim module compiled for every target (a copy each), one object set per
/// target with its symbols renamed apart, and the table of variants, linked into one library.
LogicalResult compileFatModel(ModuleOp module, const tcc::ModelInterface &interface,
                              const tcc::CompileOptions &options, llvm::StringRef outputPath,
                              std::string &error) {
  if (options.emit != tcc::EmitKind::So) {
    error = "several targets make one library: --emit=so (IR, assembly and objects are of one "
            "target)";
    return failure();
  }
  // Each target's machine code is made on a thread of its own (its LLVM module lives in a
  // context of its own) while the next target's MLIR stages run on this one; the objects keep
  // the targets' order, so the library's bytes do not depend on the threads. With
  // --time-passes, each target's code is made here, in order, so that the times add up.
  struct Emitted {
    llvm::SmallVector<llvm::SmallVector<char, 0>, 2> objects;
    std::string error;
  };
  std::vector<std::unique_ptr<llvm::LLVMContext>> contexts;
  std::vector<TargetModule> compiled;
  compiled.reserve(options.targets.size()); // the threads hold pointers to its elements
  std::vector<unsigned> dataVariants;       // whose weights each target's code uses
  std::vector<std::future<Emitted>> emitted;
  for (auto [v, target] : llvm::enumerate(options.targets)) {
    std::string name = std::to_string(v) + "-" + target->getName().str();
    std::optional<TimingScope> targetTime;
    if (options.timing)
      targetTime = options.timing->nest("target " + name);
    std::string dumpDirectory;
    if (!options.dumpDirectory.empty()) {
      llvm::SmallString<256> folder(options.dumpDirectory);
      llvm::sys::path::append(folder, "target-" + name);
      dumpDirectory = std::string(folder);
    }
    OwningOpRef<ModuleOp> copy = module.clone();
    llvm::LLVMContext &llvmContext = *contexts.emplace_back(std::make_unique<llvm::LLVMContext>());
    TargetModule &current = compiled.emplace_back();
    std::string label = targetLabel(*target, v, options.targets.size());
    llvm::StringRef kind = target->getName();
    bool firstOfKind =
        llvm::none_of(llvm::ArrayRef(options.targets).take_front(v),
                      [&](const auto &earlier) { return earlier->getName() == kind; });
    if (failed(lowerForTarget(*copy, interface, options, *target, dumpDirectory,
                              targetTime ? &*targetTime : nullptr, llvm::nulls(), llvmContext,
                              current, error, label, firstOfKind)))
      return failure();
    if (!sameInterface(current.published, compiled.front().published)) {
      error = "internal error: the " + target->getName().str() +
              " target compiled the model's inputs, outputs or symbols differently from the " +
              options.targets.front()->getName().str() + " target";
      return failure();
    }
    // Targets whose weights and initial parameters are the same bytes share one copy.
    unsigned dataVariant = v;
    for (unsigned earlier = 0; earlier < v; ++earlier)
      if (compiled[earlier].weights == current.weights &&
          compiled[earlier].parameters == current.parameters) {
        dataVariant = earlier;
        break;
      }
    dataVariants.push_back(dataVariant);
    tcc::renameVariantSymbols(*current.code, v, dataVariant);
    if (!dumpDirectory.empty()) {
      std::optional<TimingScope> dumpTime;
      if (targetTime)
        dumpTime = targetTime->nest("(--dump-dir: model.ll, model.s)");
      if (failed(dumpHostCode(*current.code, *target, dumpDirectory, error)))
        return failure();
    }
    // From here on only the thread touches the target's LLVM module and context.
    auto emit = [compiledTarget = &current, target = target.get(), context = &llvmContext,
                 variant = static_cast<unsigned>(v), dataVariant, jobs = options.jobs, label,
                 &options] {
      Emitted out;
      report(options, label, "machine code");
      std::vector<llvm::SmallVector<char, 0>> code;
      if (failed(target->emitHostObjects(*compiledTarget->code, jobs,
                                         "tcc.v" + std::to_string(variant) + ".", code,
                                         out.error)))
        return out;
      for (llvm::SmallVector<char, 0> &object : code)
        out.objects.push_back(std::move(object));
      compiledTarget->code.reset();
      if (dataVariant == variant)
        (void)emitDataObject(*compiledTarget, *target, *context, variant, out.objects,
                             out.error);
      return out;
    };
    if (!targetTime) {
      emitted.push_back(std::async(std::launch::async, emit));
      continue;
    }
    TimingScope codegenTime = targetTime->nest("4-llvm-codegen (host code)");
    emitted.push_back(std::async(std::launch::deferred, emit));
    emitted.back().wait();
  }
  llvm::SmallVector<llvm::SmallVector<char, 0>, 8> objects;
  for (std::future<Emitted> &result : emitted) {
    Emitted done = result.get();
    if (!done.error.empty()) {
      error = done.error;
      return failure();
    }
    for (llvm::SmallVector<char, 0> &object : done.objects)
      objects.push_back(std::move(object));
  }
  llvm::LLVMContext llvmContext;
  if (options.interface)
    *options.interface = compiled.front().published;
  const tcc::Target &first = *options.targets.front();
  std::unique_ptr<llvm::Module> table =
      tcc::buildVariantsModule(options.targets.size(), first.getHost().triple, llvmContext);
  llvm::SmallVector<char, 0> tableObject;
  if (failed(first.emitHostCode(*table, /*assembly=*/false, tableObject, error,
                                /*optimize=*/false)))
    return failure();
  objects.push_back(std::move(tableObject));
  std::vector<std::pair<std::string, const tcc::WeightsBlob *>> data;
  for (auto [v, current] : llvm::enumerate(compiled))
    if (dataVariants[v] == v && !current.weights.empty())
      data.emplace_back(tcc::weightsSymbolName(static_cast<unsigned>(v)), &current.weights);
  std::optional<TimingScope> linkTime;
  if (options.timing)
    linkTime = options.timing->nest("5-link");
  report(options, "", "linking");
  return linkWithWeights(first, objects, data, outputPath, error);
}
} // namespace

LogicalResult tcc::compileModule(ModuleOp module, const CompileOptions &options,
                                 llvm::raw_ostream &text, llvm::StringRef outputPath,
                                 std::string &error) {
  EmitKind emit = options.emit;
  if (emit == EmitKind::Onnx) {
    module->print(text, options.printing);
    return success();
  }
  report(options, "", "decomposing the graph into primitives");
  {
    PassManager pm(module.getContext());
    configure(pm, options, options.dumpDirectory, options.timing, "1-decompose");
    if (options.gradWrt.empty()) {
      buildOnnxToPrimPipeline(pm, options.kvCacheCapacity);
    } else {
      // The joint forward + backward function, differentiated before any folding (weights
      // become parameters first, so no folded copy of one can go stale), then cleaned up as
      // the forward alone would be.
      tcc::autodiff::AutodiffOptions grad;
      grad.wrt = options.gradWrt;
      grad.loss = options.gradLoss;
      grad.learningRate = options.learningRate;
      pm.addPass(tcc::createDecomposeOnnx());
      pm.addPass(tcc::autodiff::createAutodiff(grad));
      pm.addPass(mlir::createCanonicalizerPass());
      pm.addPass(mlir::createCSEPass());
      pm.addPass(mlir::createCanonicalizerPass());
      pm.addPass(tcc::createDataExtents());
    }
    if (failed(pm.run(module)))
      return failure();
  }
  if (emit == EmitKind::Prim) {
    module->print(text, options.printing);
    return success();
  }
  FailureOr<ModelInterface> interface = getModelInterface(module);
  if (failed(interface))
    return failure();
  if (options.targets.empty()) {
    error = "internal error: no target to compile for";
    return failure();
  }
  if (options.targets.size() > 1)
    return compileFatModel(module, *interface, options, outputPath, error);
  const Target &target = *options.targets.front();
  llvm::LLVMContext llvmContext;
  TargetModule compiled;
  if (failed(lowerForTarget(module, *interface, options, target, options.dumpDirectory,
                            options.timing, text, llvmContext, compiled, error)))
    return failure();
  if (emit == EmitKind::Kernel)
    return success();
  if (options.interface)
    *options.interface = compiled.published;
  llvm::Module &llvmModule = *compiled.code;
  if (emit == EmitKind::LLVM) {
    llvmModule.print(text, nullptr);
    return success();
  }
  if (!options.dumpDirectory.empty()) {
    std::optional<TimingScope> dumpTime;
    if (options.timing)
      dumpTime = options.timing->nest("(--dump-dir: model.ll, model.s)");
    if (failed(dumpHostCode(llvmModule, target, options.dumpDirectory, error)))
      return failure();
  }
  std::optional<TimingScope> codegenTime;
  if (options.timing)
    codegenTime = options.timing->nest("4-llvm-codegen (host code)");
  report(options, "", "machine code");
  llvm::SmallVector<llvm::SmallVector<char, 0>, 2> objects;
  if (emit != EmitKind::So) {
    llvm::SmallVector<char, 0> code;
    if (failed(target.emitHostCode(llvmModule, emit == EmitKind::Asm, code, error)))
      return failure();
    if (emit == EmitKind::Asm) {
      text.write(code.data(), code.size());
      return success();
    }
    if (!compiled.weights.empty() || !compiled.parameters.empty()) {
      error = "--emit=obj of a model with packed weights is not supported yet (the weights are "
              "a second object); use --emit=so";
      return failure();
    }
    return writeFile(outputPath, code, error);
  }
  std::vector<llvm::SmallVector<char, 0>> code;
  if (failed(target.emitHostObjects(llvmModule, options.jobs, "tcc.", code, error)))
    return failure();
  codegenTime.reset();
  for (llvm::SmallVector<char, 0> &object : code)
    objects.push_back(std::move(object));
  if (failed(emitDataObject(compiled, target, llvmContext, std::nullopt, objects, error)))
    return failure();
  std::optional<TimingScope> linkTime;
  if (options.timing)
    linkTime = options.timing->nest("5-link");
  report(options, "", "linking");
  std::vector<std::pair<std::string, const tcc::WeightsBlob *>> data;
  if (!compiled.weights.empty())
    data.emplace_back(tcc::weightsSymbolName(), &compiled.weights);
  return linkWithWeights(target, objects, data, outputPath, error);
}
