//===- Executors.cpp - how a case runs: reference evaluator or compiled model ---------===//
//
// A compiled case runs through tcc::run::CompiledModel (lib/Run), as `tcc verify` does.
//
#include "Executors.h"

#include "TensorProtoReader.h"

#include "dialects/prim/PrimDialect.h"

#include "tcc/Import/Importer.h"
#include "tcc/InitAll.h"
#include "tcc/Pipelines/Compiler.h"
#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Run/CompiledModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "tcc/runtime.h"

using namespace mlir;
using tcc::eval::Tensor;
using namespace tcc::conformance;

bool tcc::conformance::isBindable(const Tensor &t) {
  // Small integer vectors (axes, shapes, k, split sizes), float scalars (OneHot's depth) and
  // short float vectors (Resize's scales and roi).
  if (isa<FloatType>(t.elementType))
    return t.shape.size() <= 1 && t.getNumElements() <= 8;
  auto type = dyn_cast<IntegerType>(t.elementType);
  // A bool scalar is a condition (Loop's cond).
  if (type && type.getWidth() == 1)
    return t.shape.empty();
  return type && type.getWidth() > 1 && t.shape.size() <= 1 && t.getNumElements() <= 64;
}

namespace {

std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  tcc::registerAllDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  return context;
}

/// Replaces argument `index` of `func` with a constant holding `value`.
LogicalResult bindArgument(func::FuncOp func, unsigned index, const Tensor &value) {
  BlockArgument arg = func.getArgument(index);
  // The data was read in another context: rebuild its element type in the module's.
  std::string typeText;
  llvm::raw_string_ostream typeStream(typeText);
  typeStream << value.elementType;
  Type element = parseType(typeText, func.getContext());
  if (!element)
    return failure();
  auto type = RankedTensorType::get(value.shape, element);
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

/// The same type in another context (data sets and executables each have their own).
Type inContext(Type type, MLIRContext &context) {
  if (type.getContext() == &context)
    return type;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return parseType(text, &context);
}

/// Reinterprets data whose file type differs from the model's in bits only (libonnx's
/// bfloat16 cases store their data as uint16).
void adaptInputTypes(func::FuncOp main, std::vector<Tensor> &inputs) {
  for (auto [i, type] : llvm::enumerate(main.getArgumentTypes()))
    if (i < inputs.size())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        if (tensor.getElementType().isBF16() && inputs[i].elementType.isUnsignedInteger(16))
          inputs[i].elementType = tensor.getElementType();
}

/// Imports the model and binds inputs; the module lives in `context`. With `shapes`, every
/// symbolic dim of the inputs is fixed to its extent in that data set (code generation is
/// static for now, as with `tcc --dim`).
OwningOpRef<ModuleOp> importAndBind(MLIRContext &context, const std::string &dir,
                                    const std::vector<unsigned> &bind, const DataSet *set,
                                    std::string &error, const DataSet *shapes = nullptr) {
  // Sequence and optional inputs are specialized to the data set's.
  tcc::ImportOptions importOptions;
  if (const DataSet *data = shapes ? shapes : set) {
    importOptions.sequences = data->importOptions.sequences;
    importOptions.absentInputs = data->importOptions.absentInputs;
    importOptions.presentInputs = data->importOptions.presentInputs;
  }
  if (shapes) {
    OwningOpRef<ModuleOp> probe = tcc::importOnnxModel(dir + "/model.onnx", importOptions, context);
    if (!probe) {
      error = "import: " + error;
      return nullptr;
    }
    auto main = probe->lookupSymbol<func::FuncOp>("main");
    if (!main) {
      error = "no @main function";
      return nullptr;
    }
    for (Operation &op : main.getBody().front()) {
      if (op.getName().getStringRef() != "prim.bind_shape")
        continue;
      auto arg = dyn_cast<BlockArgument>(op.getOperand(0));
      auto map = op.getAttrOfType<AffineMapAttr>("shape");
      auto symbols = op.getAttrOfType<ArrayAttr>("symbols");
      if (!arg || !map || !symbols || arg.getArgNumber() >= shapes->inputs.size())
        continue;
      const Tensor &data = shapes->inputs[arg.getArgNumber()];
      for (auto [d, expr] : llvm::enumerate(map.getValue().getResults()))
        if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
          if (d < data.shape.size()) {
            auto name = cast<FlatSymbolRefAttr>(symbols[symbol.getPosition()]).getValue();
            tcc::DimSetting setting;
            setting.min = data.shape[d];
            setting.max = data.shape[d];
            importOptions.dims[name] = setting;
          }
    }
  }
  OwningOpRef<ModuleOp> module =
      tcc::importOnnxModel(dir + "/model.onnx", importOptions, context);
  if (!module) {
    error = "import: " + error;
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
  return module;
}

/// Collects the first error diagnostic of a context.
struct FirstError {
  FirstError(MLIRContext &context, std::string &error)
      : handler(&context, [&error](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error && error.empty())
            error = diag.str();
          return success();
        }) {}
  ScopedDiagnosticHandler handler;
};

class ReferenceExecutable : public Executable {
public:
  ReferenceExecutable(std::unique_ptr<MLIRContext> context, OwningOpRef<ModuleOp> module)
      : context(std::move(context)), module(std::move(module)) {}
  std::string run(const std::vector<Tensor> &given, std::vector<Tensor> &outputs) override {
    auto main = module->lookupSymbol<func::FuncOp>("main");
    if (!main)
      return "no @main function";
    std::vector<Tensor> inputs = given;
    for (Tensor &t : inputs)
      t.elementType = inContext(t.elementType, *context);
    adaptInputTypes(main, inputs);
    auto result = tcc::eval::evaluateFunction(main, inputs);
    if (!result)
      return "evaluate: " + llvm::toString(result.takeError());
    outputs = std::move(*result);
    return "";
  }

private:
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
};

class CompiledExecutable : public Executable {
public:
  std::string load(const std::string &path, tcc::GuardPages guardPages) {
    compiled.setGuardPages(guardPages);
    return compiled.load(path);
  }
  std::string run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs) override {
    return compiled.run(inputs, outputs, context);
  }

  MLIRContext context;

private:
  tcc::run::CompiledModel compiled;
};

/// A library compiled for another machine, kept in `folder` with its data sets.
class ExportedExecutable : public Executable {
public:
  explicit ExportedExecutable(std::string folder) : folder(std::move(folder)) {}
  std::string run(const std::vector<Tensor> &, std::vector<Tensor> &) override {
    return "a library compiled for another machine does not run here";
  }
  const std::string *exportFolder() const override { return &folder; }

private:
  std::string folder;
};

/// Compiles the case to `path`; returns "" or the first error.
std::string compileTo(const std::string &dir, const std::vector<unsigned> &bind,
                      const DataSet *set, const DataSet *shapes, const std::string &path,
                      const CompileTarget &compile) {
  std::unique_ptr<MLIRContext> context = makeContext();
  std::string error;
  FirstError collect(*context, error);
  OwningOpRef<ModuleOp> module = importAndBind(*context, dir, bind, set, error, shapes);
  if (!module)
    return error;
  tcc::CompileOptions options;
  options.emit = tcc::EmitKind::So;
  std::string targetError, compileError;
  options.kernelStage.attention = tcc::KernelPipelineOptions::parseAttention(compile.attention);
  auto target = tcc::createTarget(compile.target, compile.cpu, targetError);
  if (failed(target))
    return targetError;
  options.targets.push_back(std::move(*target));
  if (failed(tcc::compileModule(*module, options, llvm::nulls(), path, compileError)))
    return "compile: " + (error.empty() ? compileError : error);
  return "";
}

/// "" when the library needs nothing but the few libc functions code generation may call
/// (the same list as test/lit.cfg.py's %imports-beyond-libc).
std::string checkImports(const std::string &path) {
  static const llvm::StringSet<> allowed = {"memset", "memcpy", "memmove"};
  auto binary = llvm::object::createBinary(path);
  if (!binary)
    return "cannot read " + path + ": " + llvm::toString(binary.takeError());
  auto *elf = dyn_cast<llvm::object::ELFObjectFileBase>(binary->getBinary());
  if (!elf)
    return path + " is not an ELF file";
  for (const llvm::object::ELFSymbolRef &symbol : elf->getDynamicSymbolIterators()) {
    auto flags = symbol.getFlags();
    auto name = symbol.getName();
    if (!flags || !name || !(*flags & llvm::object::SymbolRef::SF_Undefined) || name->empty())
      continue;
    if (!allowed.contains(*name))
      return "the model library needs '" + name->str() + "', which is not one of the libc "
             "functions generated code may call";
  }
  return "";
}

} // namespace

std::unique_ptr<Executable> tcc::conformance::prepare(Mode mode, const std::string &dir,
                                                      const std::vector<unsigned> &bind,
                                                      const DataSet *set,
                                                      const DataSet *shapes,
                                                      const std::string &scratch,
                                                      std::string &error,
                                                      const CompileTarget &compile) {
  if (mode == Mode::Reference) {
    std::unique_ptr<MLIRContext> context = makeContext();
    FirstError collect(*context, error);
    OwningOpRef<ModuleOp> module = importAndBind(*context, dir, bind, set, error, shapes);
    if (!module)
      return nullptr;
    PassManager pm(context.get());
    tcc::buildOnnxToPrimPipeline(pm);
    if (failed(pm.run(*module))) {
      error = "decompose: " + error;
      return nullptr;
    }
    return std::make_unique<ReferenceExecutable>(std::move(context), std::move(module));
  }
  if (!compile.exportDir.empty()) {
    // One folder per library of the case (a case may need one per data set).
    unsigned n = 0;
    std::string folder;
    do
      folder = compile.exportDir + "/" + std::to_string(n++);
    while (llvm::sys::fs::exists(folder));
    if (llvm::sys::fs::create_directories(folder)) {
      error = "cannot create " + folder;
      return nullptr;
    }
    if (!(error = compileTo(dir, bind, set, shapes, folder + "/model.so", compile))
             .empty()) {
      llvm::sys::fs::remove_directories(folder);
      return nullptr;
    }
    return std::make_unique<ExportedExecutable>(folder);
  }
  // Compiled twice: the artifact must be reproducible to the byte.
  std::string first = scratch + "/model.so", second = scratch + "/model-again.so";
  if (!(error = compileTo(dir, bind, set, shapes, first, compile)).empty())
    return nullptr;
  if (!(error = compileTo(dir, bind, set, shapes, second, compile)).empty())
    return nullptr;
  auto a = llvm::MemoryBuffer::getFile(first), b = llvm::MemoryBuffer::getFile(second);
  if (!a || !b || (*a)->getBuffer() != (*b)->getBuffer()) {
    error = "compiling the model twice gave different bytes";
    return nullptr;
  }
  if (!(error = checkImports(first)).empty())
    return nullptr;
  auto executable = std::make_unique<CompiledExecutable>();
  if (!(error = executable->load(first, compile.guardPages)).empty())
    return nullptr;
  return executable;
}
