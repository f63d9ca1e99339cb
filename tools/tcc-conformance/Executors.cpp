//===- Executors.cpp - how a case runs: reference evaluator or compiled model ---------===//
#include "Executors.h"

#include "TensorProtoReader.h"

#include "dialects/prim/PrimDialect.h"

#include "tcc/Import/Importer.h"
#include "tcc/InitAll.h"
#include "tcc/Pipelines/Compiler.h"
#include "tcc/Pipelines/Pipelines.h"

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
  // Sequence inputs and absent optionals are specialized to the data set's.
  tcc::ImportOptions importOptions;
  if (const DataSet *data = shapes ? shapes : set) {
    importOptions.sequences = data->importOptions.sequences;
    importOptions.absentInputs = data->importOptions.absentInputs;
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

/// Whether `type` is `!prim.string` or a shaped type of them.
bool isStringType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return isa<tcc::prim::StringType>(type);
}

std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

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

std::string statusText(tcc_status status) {
  std::string text = tcc_status_message(status);
  tcc_status_free(status);
  return text;
}

class CompiledExecutable : public Executable {
public:
  ~CompiledExecutable() override {
    tcc_session_release(session);
    tcc_model_release(model);
  }
  std::string load(const std::string &path) {
    if (tcc_status s = tcc_model_load(path.c_str(), nullptr, &model))
      return "load: " + statusText(s);
    tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
    options.num_threads = 2; // parallel kernels run through the pool, as in use
    if (tcc_status s = tcc_session_create(model, &options, &session))
      return "session: " + statusText(s);
    return "";
  }
  std::string run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs) override {
    int32_t numInputs = tcc_model_num_inputs(model), numOutputs = tcc_model_num_outputs(model);
    if (static_cast<size_t>(numInputs) != inputs.size())
      return "the model has " + std::to_string(numInputs) + " inputs, the case " +
             std::to_string(inputs.size());
    std::vector<DLTensor> in(numInputs), out(numOutputs);
    std::vector<const DLTensor *> inPtrs, outPtrs;
    std::vector<Tensor> results;
    // String tensors are passed as arrays of tcc_string (16-byte aligned, as std::vector
    // allocates them): the inputs' point into the data sets' strings, the outputs' are
    // filled by the run and copied into Tensor::strings after it.
    std::vector<std::vector<tcc_string>> inStrings(numInputs), outStrings(numOutputs);
    for (int32_t i = 0; i < numInputs; ++i) {
      tcc_tensor_info info;
      if (tcc_status s = tcc_model_input_info(model, i, &info))
        return statusText(s);
      DLDataType dtype;
      if (tcc_status s = tcc_dtype_to_dlpack(info.dtype, &dtype))
        return statusText(s);
      bool modelStrings = info.dtype == TCC_DTYPE_STRING;
      if (modelStrings != isStringType(inputs[i].elementType))
        return "input " + std::to_string(i) + " '" + info.name + "': the model expects " +
               (modelStrings ? "strings" : tcc_dtype_name(info.dtype)) + ", the data are " +
               typeName(inputs[i].elementType);
      void *data = const_cast<uint8_t *>(inputs[i].bytes.data());
      if (modelStrings) {
        int64_t count = inputs[i].getNumElements();
        if (static_cast<int64_t>(inputs[i].strings.size()) != count)
          return "input " + std::to_string(i) + " '" + info.name + "' holds " +
                 std::to_string(inputs[i].strings.size()) + " strings for " +
                 std::to_string(count) + " elements";
        std::vector<tcc_string> &elements = inStrings[i];
        elements.reserve(std::max<int64_t>(count, 1)); // a valid pointer even when empty
        for (const std::string &text : inputs[i].strings)
          elements.push_back(tcc_string{text.data(), static_cast<int64_t>(text.size())});
        data = elements.data();
      }
      in[i] = DLTensor{data, {kDLCPU, 0},
                       static_cast<int32_t>(inputs[i].shape.size()), dtype,
                       const_cast<int64_t *>(inputs[i].shape.data()), nullptr, 0};
      inPtrs.push_back(&in[i]);
    }
    // Output extents come from the symbols the inputs bind.
    std::vector<int64_t> symbols(std::max<int32_t>(tcc_model_num_symbols(model), 1));
    if (tcc_status s = tcc_model_bind_symbols(model, inPtrs.data(), inPtrs.size(),
                                              symbols.data(), symbols.size()))
      return "run: " + statusText(s);
    std::vector<std::vector<int64_t>> shapes(numOutputs);
    std::vector<int64_t *> shapePtrs;
    for (int32_t i = 0; i < numOutputs; ++i) {
      tcc_tensor_info info;
      if (tcc_status s = tcc_model_output_info(model, i, &info))
        return statusText(s);
      shapes[i].resize(std::max<int32_t>(info.rank, 1));
      shapePtrs.push_back(shapes[i].data());
    }
    if (tcc_status s = tcc_model_output_shapes(model, symbols.data(), symbols.size(), shapePtrs.data(),
                                               shapePtrs.size()))
      return "run: " + statusText(s);
    for (int32_t i = 0; i < numOutputs; ++i) {
      tcc_tensor_info info;
      if (tcc_status s = tcc_model_output_info(model, i, &info))
        return statusText(s);
      Type element = elementTypeOfOnnxCode(context, info.dtype);
      if (!element)
        return "output " + std::to_string(i) + " has an unknown dtype";
      results.push_back(Tensor::zeros(element, llvm::ArrayRef<int64_t>(shapes[i].data(), info.rank)));
    }
    for (int32_t i = 0; i < numOutputs; ++i) {
      DLDataType dtype;
      tcc_tensor_info info;
      if (tcc_status s = tcc_model_output_info(model, i, &info))
        return statusText(s);
      if (tcc_status s = tcc_dtype_to_dlpack(info.dtype, &dtype))
        return statusText(s);
      void *data = results[i].bytes.data();
      if (info.dtype == TCC_DTYPE_STRING) {
        outStrings[i].assign(std::max<int64_t>(results[i].getNumElements(), 1),
                             tcc_string{nullptr, 0});
        data = outStrings[i].data();
      }
      out[i] = DLTensor{data, {kDLCPU, 0},
                        static_cast<int32_t>(results[i].shape.size()), dtype,
                        results[i].shape.data(), nullptr, 0};
      outPtrs.push_back(&out[i]);
    }
    if (tcc_status s = tcc_session_run(session, inPtrs.data(), inPtrs.size(), outPtrs.data(),
                                       outPtrs.size()))
      return "run: " + statusText(s);
    // Data-dependent dims were passed with their capacity: keep the compact prefix the run
    // reports.
    for (int32_t i = 0; i < numOutputs; ++i) {
      llvm::SmallVector<int64_t> actual(results[i].shape.size());
      if (tcc_status s = tcc_session_output_shape(session, i, actual.data()))
        return "run: " + statusText(s);
      if (actual != results[i].shape) {
        results[i].shape = actual;
        results[i].bytes.resize(results[i].getNumElements() *
                                tcc::eval::getElementByteSize(results[i].elementType));
      }
      // Copy the strings now: they belong to the session (or the inputs) and last only
      // until its next run.
      if (isStringType(results[i].elementType)) {
        int64_t count = results[i].getNumElements();
        if (count > static_cast<int64_t>(outStrings[i].size()))
          return "run: output " + std::to_string(i) + " has " + std::to_string(count) +
                 " elements, more than the " + std::to_string(outStrings[i].size()) +
                 " allocated";
        results[i].strings.resize(count);
        for (int64_t k = 0; k < count; ++k) {
          const tcc_string &element = outStrings[i][k];
          if (element.size < 0 || (element.size > 0 && !element.data))
            return "run: output " + std::to_string(i) + " element " + std::to_string(k) +
                   " is a malformed string (size " + std::to_string(element.size) + ")";
          results[i].strings[k].assign(element.data ? element.data : "",
                                       static_cast<size_t>(element.size));
        }
      }
    }
    outputs = std::move(results);
    return "";
  }

  MLIRContext context;

private:
  tcc_model *model = nullptr;
  tcc_session *session = nullptr;
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
                      const std::string &targetSpec, const std::string &cpu) {
  std::unique_ptr<MLIRContext> context = makeContext();
  std::string error;
  FirstError collect(*context, error);
  OwningOpRef<ModuleOp> module = importAndBind(*context, dir, bind, set, error, shapes);
  if (!module)
    return error;
  tcc::CompileOptions options;
  options.emit = tcc::EmitKind::So;
  std::string targetError, compileError;
  auto target = tcc::createTarget(targetSpec, cpu, targetError);
  if (failed(target))
    return targetError;
  options.targets.push_back(std::move(*target));
  if (failed(tcc::compileModule(*module, options, llvm::nulls(), path, compileError)))
    return "compile: " + (error.empty() ? compileError : error);
  return "";
}

/// "" when the library needs nothing but the few libc functions code generation may call.
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
    if (!(error = compileTo(dir, bind, set, shapes, folder + "/model.so", compile.target,
                           compile.cpu))
             .empty()) {
      llvm::sys::fs::remove_directories(folder);
      return nullptr;
    }
    return std::make_unique<ExportedExecutable>(folder);
  }
  // Compiled twice: the artifact must be reproducible to the byte.
  std::string first = scratch + "/model.so", second = scratch + "/model-again.so";
  if (!(error = compileTo(dir, bind, set, shapes, first, compile.target, compile.cpu)).empty())
    return nullptr;
  if (!(error = compileTo(dir, bind, set, shapes, second, compile.target, compile.cpu)).empty())
    return nullptr;
  auto a = llvm::MemoryBuffer::getFile(first), b = llvm::MemoryBuffer::getFile(second);
  if (!a || !b || (*a)->getBuffer() != (*b)->getBuffer()) {
    error = "compiling the model twice gave different bytes";
    return nullptr;
  }
  if (!(error = checkImports(first)).empty())
    return nullptr;
  auto executable = std::make_unique<CompiledExecutable>();
  if (!(error = executable->load(first)).empty())
    return nullptr;
  return executable;
}
