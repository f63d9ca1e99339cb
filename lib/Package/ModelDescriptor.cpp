//===- ModelDescriptor.cpp - LLVM IR of the model, its entry points and descriptor -------===//
//
// Writes the layout of runtime/include/tcc/model_abi.h: the exported descriptor (metadata,
// workspace_size, output_shapes, run) around the translated host functions: @main (symbol
// values, then a memref descriptor per raw input, output and workspace buffer; returns a
// check status), @workspace_size and @output_shapes (functions of the symbol values).
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Package/ModelAbi.h"
#include "tcc/Package/Package.h"
#include "tcc/Version.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"

using namespace mlir;

namespace {

namespace abi = tcc::abi;

struct DescriptorBuilder {
  llvm::Module &module;
  llvm::LLVMContext &ctx;
  llvm::Type *i32, *i64;
  llvm::PointerType *ptr;

  explicit DescriptorBuilder(llvm::Module &m)
      : module(m), ctx(m.getContext()), i32(llvm::Type::getInt32Ty(ctx)),
        i64(llvm::Type::getInt64Ty(ctx)), ptr(llvm::PointerType::getUnqual(ctx)) {}

  llvm::Constant *string(llvm::StringRef text) {
    auto *data = llvm::ConstantDataArray::getString(ctx, text);
    auto *global = new llvm::GlobalVariable(module, data->getType(), /*isConstant=*/true,
                                            llvm::GlobalValue::PrivateLinkage, data, ".str");
    global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    return global;
  }

  template <typename T>
  llvm::Constant *array(llvm::Type *element, llvm::ArrayRef<T> values, llvm::StringRef name) {
    if (values.empty())
      return llvm::ConstantPointerNull::get(ptr);
    std::vector<llvm::Constant *> items;
    for (T v : values)
      items.push_back(llvm::ConstantInt::get(element, static_cast<uint64_t>(v), true));
    auto *type = llvm::ArrayType::get(element, items.size());
    return new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(type, items), name);
  }

  llvm::Constant *structArray(llvm::StructType *type, llvm::ArrayRef<llvm::Constant *> items,
                              llvm::StringRef name) {
    if (items.empty())
      return llvm::ConstantPointerNull::get(ptr);
    auto *arrayType = llvm::ArrayType::get(type, items.size());
    return new llvm::GlobalVariable(module, arrayType, true, llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(arrayType, items), name);
  }

  llvm::Function *function(llvm::StringRef name, llvm::Type *result,
                           llvm::ArrayRef<llvm::Type *> params) {
    auto *type = llvm::FunctionType::get(result, params, false);
    return llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name, module);
  }
};

/// The import table's layout (tcc_import_table).
llvm::StructType *importTableType(llvm::LLVMContext &context) {
  return abi::llvmStructType(context, abi::kImportKinds);
}

/// Routes @main's calls of `tcc_report_output_extent(output, dim, extent)` (written by
/// tcc-entry-signature for data-dependent output dims) to
/// imports->set_output_extent(context, output, dim, extent), when the table has it.
void routeOutputExtents(llvm::Module &module, llvm::Function &main) {
  llvm::Function *declared = module.getFunction("tcc_report_output_extent");
  if (!declared)
    return;
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *i32 = llvm::Type::getInt32Ty(context), *i64 = llvm::Type::getInt64Ty(context);
  auto *voidType = llvm::Type::getVoidTy(context);
  auto *helper = llvm::Function::Create(
      llvm::FunctionType::get(voidType, {ptr, i64, i64, i64}, false),
      llvm::GlobalValue::InternalLinkage, "tcc_set_output_extent", module);
  llvm::IRBuilder<> ir(context);
  auto *entry = llvm::BasicBlock::Create(context, "entry", helper);
  auto *check = llvm::BasicBlock::Create(context, "check", helper);
  auto *call = llvm::BasicBlock::Create(context, "call", helper);
  auto *done = llvm::BasicBlock::Create(context, "done", helper);
  llvm::Value *imports = helper->getArg(0);
  ir.SetInsertPoint(entry);
  // The field exists when imports->size covers it (tables of older runtimes do not).
  llvm::StructType *table = importTableType(context);
  llvm::Value *size = ir.CreateLoad(i32, ir.CreateStructGEP(table, imports, abi::kImport_size));
  ir.CreateCondBr(
      ir.CreateICmpUGE(size, llvm::ConstantInt::get(i32, abi::importTableSizeThrough(
                                                             abi::kImport_set_output_extent))),
      check, done);
  ir.SetInsertPoint(check);
  llvm::Value *fn =
      ir.CreateLoad(ptr, ir.CreateStructGEP(table, imports, abi::kImport_set_output_extent));
  ir.CreateCondBr(ir.CreateIsNull(fn), done, call);
  ir.SetInsertPoint(call);
  llvm::Value *tableContext =
      ir.CreateLoad(ptr, ir.CreateStructGEP(table, imports, abi::kImport_context));
  ir.CreateCall(llvm::FunctionType::get(voidType, {ptr, i32, i32, i64}, false), fn,
                {tableContext, ir.CreateTrunc(helper->getArg(1), i32),
                 ir.CreateTrunc(helper->getArg(2), i32), helper->getArg(3)});
  ir.CreateBr(done);
  ir.SetInsertPoint(done);
  ir.CreateRetVoid();

  std::vector<llvm::CallInst *> calls;
  for (llvm::User *user : declared->users())
    if (auto *c = llvm::dyn_cast<llvm::CallInst>(user))
      calls.push_back(c);
  for (llvm::CallInst *c : calls) {
    ir.SetInsertPoint(c);
    ir.CreateCall(helper, {main.getArg(0), c->getArgOperand(0), c->getArgOperand(1),
                           c->getArgOperand(2)});
    c->eraseFromParent();
  }
  declared->eraseFromParent();
}

/// Loads the `count` symbol values from `array` (const int64_t *).
std::vector<llvm::Value *> loadSymbols(llvm::IRBuilder<> &ir, llvm::Value *array, size_t count) {
  std::vector<llvm::Value *> values;
  for (size_t i = 0; i < count; ++i)
    values.push_back(ir.CreateLoad(ir.getInt64Ty(), ir.CreateConstGEP1_64(ir.getInt64Ty(), array, i)));
  return values;
}

} // namespace

std::unique_ptr<llvm::Module> tcc::buildModelModule(ModuleOp mlirModule,
                                                    const ModelInterface &interface,
                                                    const HostMachine &host,
                                                    llvm::LLVMContext &context,
                                                    std::string &error) {
  std::vector<std::string> messages;
  if (ArrayAttr list = tcc::kernel::getCheckMessages(mlirModule))
    for (Attribute a : list)
      messages.push_back(cast<StringAttr>(a).getValue().str());
  // The import-table size the model's string functions need (tcc-lower-runtime-calls).
  uint64_t stringTableSize = 0;
  if (auto size = mlirModule->getAttrOfType<IntegerAttr>("tcc.uses_string_functions"))
    stringTableSize = size.getInt();
  // Output dims that are a lone symbol (tcc-entry-signature found them).
  ModelInterface published = interface;
  if (auto list = mlirModule->getAttrOfType<ArrayAttr>("tcc.output_symbols"))
    for (auto [o, dims] : llvm::enumerate(list.getAsRange<DenseI32ArrayAttr>()))
      if (o < published.outputs.size() &&
          dims.size() == static_cast<int64_t>(published.outputs[o].symbols.size()))
        for (auto [d, s] : llvm::enumerate(dims.asArrayRef()))
          if ((s >= 0 || s == TCC_DIM_DATA_DEPENDENT) && published.outputs[o].shape[d] < 0)
            published.outputs[o].symbols[d] = s;

  // Symbol declarations and tcc's own argument attributes (onnx.name, tcc.workspace) have no
  // LLVM meaning.
  for (Operation &op : llvm::make_early_inc_range(mlirModule.getBody()->getOperations()))
    if (op.getName().getStringRef() == "prim.symbol")
      op.erase();
  // Kernels stay functions of their own (inlining them all into the host function makes one
  // huge function that the optimizer is slow on, and kernels are the unit later stages
  // parallelize).
  for (auto func : mlirModule.getOps<LLVM::LLVMFuncOp>()) {
    func.removeArgAttrsAttr();
    if (tcc::kernel::isKernel(func)) {
      func.setNoInline(true);
      func->removeAttr(tcc::kernel::KernelDialect::kKernelAttrName);
    }
  }
  std::unique_ptr<llvm::Module> module = translateModuleToLLVMIR(mlirModule, context, "model");
  if (!module) {
    error = "translation to LLVM IR failed";
    return nullptr;
  }
  llvm::Function *main = module->getFunction("main");
  llvm::Function *workspaceSize = module->getFunction("workspace_size");
  llvm::Function *outputShapes = module->getFunction("output_shapes");
  // @main(imports, symbols..., then a memref<?xi8> descriptor (allocated, aligned, offset,
  // size, stride) per input, output and the workspace) -> status
  size_t numSymbols = interface.symbols.size();
  bool hasParameters = !interface.parameters.empty();
  size_t numBuffers =
      interface.inputs.size() + interface.outputs.size() + (hasParameters ? 1 : 0) + 1;
  size_t expectedArgs = 1 + numSymbols + 5 * numBuffers;
  if (!main || main->arg_size() != expectedArgs || !main->getReturnType()->isIntegerTy(32) ||
      !workspaceSize || workspaceSize->arg_size() != numSymbols || !outputShapes ||
      outputShapes->arg_size() != numSymbols) {
    error = "internal error: the host functions do not have the expected signatures";
    return nullptr;
  }
  // Nothing but the descriptor is visible outside the model.
  for (llvm::Function &f : *module)
    if (!f.isDeclaration())
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &g : module->globals())
    if (!g.isDeclaration())
      g.setLinkage(llvm::GlobalValue::InternalLinkage);

  DescriptorBuilder b(*module);
  llvm::IRBuilder<> ir(context);

  // int64_t workspace_size(const int64_t *symbol_values)
  llvm::Function *workspace = b.function("tcc_workspace_size", b.i64, {b.ptr});
  ir.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", workspace));
  ir.CreateRet(ir.CreateCall(workspaceSize, loadSymbols(ir, workspace->getArg(0), numSymbols)));

  // int32_t output_shapes(const int64_t *symbol_values, int64_t *shapes)
  llvm::Function *shapes = b.function("tcc_output_shapes", b.i32, {b.ptr, b.ptr});
  ir.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", shapes));
  {
    llvm::Value *extents =
        ir.CreateCall(outputShapes, loadSymbols(ir, shapes->getArg(0), numSymbols));
    size_t total = 0;
    for (const TensorInterface &t : interface.outputs)
      total += t.shape.size();
    for (size_t k = 0; k < total; ++k)
      ir.CreateStore(total == 1 ? extents : ir.CreateExtractValue(extents, k),
                     ir.CreateConstGEP1_64(b.i64, shapes->getArg(1), k));
    ir.CreateRet(llvm::ConstantInt::get(b.i32, 0));
  }

  routeOutputExtents(*module, *main);

  // int32_t run(imports, symbol_values, inputs, outputs, workspace)
  llvm::Function *run = b.function("tcc_run", b.i32, {b.ptr, b.ptr, b.ptr, b.ptr, b.ptr});
  llvm::Argument *imports = run->getArg(0), *inputs = run->getArg(2),
                 *outputs = run->getArg(3), *ws = run->getArg(4);
  auto *entry = llvm::BasicBlock::Create(context, "entry", run);
  auto *failed = llvm::BasicBlock::Create(context, "failed", run);
  auto *report = llvm::BasicBlock::Create(context, "report", run);
  auto *done = llvm::BasicBlock::Create(context, "done", run);
  ir.SetInsertPoint(entry);
  if (stringTableSize) {
    // A model with string tensors needs the string functions appended to the import table
    // (model_abi.h); an older runtime's table ends before them.
    auto *check = llvm::BasicBlock::Create(context, "strings", run, failed);
    auto *tooOld = llvm::BasicBlock::Create(context, "old_runtime", run, failed);
    llvm::Value *size = ir.CreateLoad(
        b.i32, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_size));
    ir.CreateCondBr(ir.CreateICmpUGE(size, llvm::ConstantInt::get(b.i32, stringTableSize)),
                    check, tooOld);
    ir.SetInsertPoint(tooOld);
    llvm::Value *reportFn = ir.CreateLoad(
        b.ptr, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_report_error));
    llvm::Value *reportContext = ir.CreateLoad(
        b.ptr, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_context));
    auto *call = llvm::BasicBlock::Create(context, "old_runtime_report", run, failed);
    auto *give = llvm::BasicBlock::Create(context, "old_runtime_fail", run, failed);
    ir.CreateCondBr(ir.CreateIsNull(reportFn), give, call);
    ir.SetInsertPoint(call);
    ir.CreateCall(llvm::FunctionType::get(llvm::Type::getVoidTy(context), {b.ptr, b.ptr}, false),
                  reportFn,
                  {reportContext, b.string("the model has string tensors, but the runtime's "
                                           "import table has no string functions (update the "
                                           "tcc runtime)")});
    ir.CreateBr(give);
    ir.SetInsertPoint(give);
    ir.CreateRet(llvm::ConstantInt::get(b.i32, 1));
    ir.SetInsertPoint(check);
    entry = check;
  }
  std::vector<llvm::Value *> args = {imports};
  for (llvm::Value *symbol : loadSymbols(ir, run->getArg(1), numSymbols))
    args.push_back(symbol);
  auto pushBuffer = [&](llvm::Value *pointer) {
    // The raw byte buffer's descriptor; its size is never read.
    llvm::Value *zero = ir.getInt64(0), *one = ir.getInt64(1);
    for (llvm::Value *field : {pointer, pointer, zero, zero, one})
      args.push_back(field);
  };
  for (size_t i = 0; i < interface.inputs.size(); ++i)
    pushBuffer(ir.CreateLoad(b.ptr, ir.CreateConstGEP1_64(b.ptr, inputs, i)));
  for (size_t i = 0; i < interface.outputs.size(); ++i)
    pushBuffer(ir.CreateLoad(b.ptr, ir.CreateConstGEP1_64(b.ptr, outputs, i)));
  if (hasParameters) // the session's parameter buffer, imports->parameters
    pushBuffer(ir.CreateLoad(
        b.ptr, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_parameters)));
  pushBuffer(ws);
  llvm::Value *status = ir.CreateCall(main, args);
  ir.CreateCondBr(ir.CreateICmpEQ(status, llvm::ConstantInt::get(b.i32, 0)), done, failed);

  // A failed check: hand its message to imports->report_error(context, message).
  ir.SetInsertPoint(failed);
  auto *importType = importTableType(context);
  llvm::Value *reportFn =
      ir.CreateLoad(b.ptr, ir.CreateStructGEP(importType, imports, abi::kImport_report_error));
  ir.CreateCondBr(ir.CreateIsNull(reportFn), done, report);
  ir.SetInsertPoint(report);
  std::vector<llvm::Constant *> messageStrings;
  for (const std::string &m : messages)
    messageStrings.push_back(b.string(m));
  llvm::Value *message;
  if (messageStrings.empty()) {
    message = b.string("a run-time check failed");
  } else {
    auto *type = llvm::ArrayType::get(b.ptr, messageStrings.size());
    auto *table = new llvm::GlobalVariable(*module, type, true, llvm::GlobalValue::PrivateLinkage,
                                           llvm::ConstantArray::get(type, messageStrings),
                                           "tcc_check_messages");
    llvm::Value *index = ir.CreateZExt(ir.CreateSub(status, llvm::ConstantInt::get(b.i32, 1)), b.i64);
    index = ir.CreateSelect(ir.CreateICmpULT(index, llvm::ConstantInt::get(b.i64, messageStrings.size())),
                            index, llvm::ConstantInt::get(b.i64, 0));
    message = ir.CreateLoad(b.ptr, ir.CreateGEP(type, table, {ir.getInt64(0), index}));
  }
  llvm::Value *reportContext =
      ir.CreateLoad(b.ptr, ir.CreateStructGEP(importType, imports, abi::kImport_context));
  ir.CreateCall(llvm::FunctionType::get(llvm::Type::getVoidTy(context), {b.ptr, b.ptr}, false),
                reportFn, {reportContext, message});
  ir.CreateBr(done);
  ir.SetInsertPoint(done);
  llvm::PHINode *result = ir.CreatePHI(b.i32, 3);
  result->addIncoming(llvm::ConstantInt::get(b.i32, 0), entry);
  result->addIncoming(llvm::ConstantInt::get(b.i32, 1), failed);
  result->addIncoming(llvm::ConstantInt::get(b.i32, 1), report);
  ir.CreateRet(result);

  // Metadata.
  auto *tensorType = abi::llvmStructType(context, abi::kTensorKinds);
  auto describe = [&](const std::vector<TensorInterface> &list, llvm::StringRef what) {
    std::vector<llvm::Constant *> items;
    for (const TensorInterface &t : list) {
      llvm::Constant *fields[abi::kNumTensorFields];
      fields[abi::kTensor_name] = b.string(t.name);
      fields[abi::kTensor_dtype] = llvm::ConstantInt::get(b.i32, t.dtype);
      fields[abi::kTensor_rank] = llvm::ConstantInt::get(b.i32, t.shape.size());
      fields[abi::kTensor_shape] = b.array<int64_t>(b.i64, t.shape, (what + "_shape").str());
      fields[abi::kTensor_dim_symbols] =
          b.array<int32_t>(b.i32, t.symbols, (what + "_symbols").str());
      items.push_back(llvm::ConstantStruct::get(tensorType, fields));
    }
    return b.structArray(tensorType, items, what);
  };
  auto *symbolType = abi::llvmStructType(context, abi::kSymbolKinds);
  std::vector<llvm::Constant *> symbols;
  for (const SymbolInterface &s : interface.symbols) {
    llvm::Constant *fields[abi::kNumSymbolFields];
    fields[abi::kSymbol_name] = b.string(s.name);
    fields[abi::kSymbol_min] = llvm::ConstantInt::get(b.i64, s.min);
    fields[abi::kSymbol_max] = llvm::ConstantInt::get(b.i64, s.max);
    symbols.push_back(llvm::ConstantStruct::get(symbolType, fields));
  }

  auto *descriptorType = abi::llvmStructType(context, abi::kDescriptorKinds);
  module->setTargetTriple(llvm::Triple(host.triple));
  // Computed symbols (Range's length from run-time bounds): which they are, and
  // tcc_compute_symbols, which calls @data_symbols (tcc-entry-signature).
  llvm::Constant *symbolComputed = llvm::ConstantPointerNull::get(b.ptr);
  llvm::Constant *computeSymbols = llvm::ConstantPointerNull::get(b.ptr);
  if (llvm::any_of(interface.symbols, [](const SymbolInterface &s) { return s.computed; })) {
    std::vector<uint8_t> flags;
    std::vector<size_t> computed;
    for (auto [s, symbol] : llvm::enumerate(interface.symbols)) {
      flags.push_back(symbol.computed ? 1 : 0);
      if (symbol.computed)
        computed.push_back(s);
    }
    symbolComputed = b.array<uint8_t>(llvm::Type::getInt8Ty(context), flags, "symbol_computed");
    llvm::Function *dataSymbols = module->getFunction("data_symbols");
    size_t numInputs = interface.inputs.size();
    if (!dataSymbols || dataSymbols->arg_size() != numSymbols + 5 * numInputs) {
      error = "internal error: @data_symbols does not have the expected signature";
      return nullptr;
    }
    // int32_t compute_symbols(int64_t *symbol_values, void *const *inputs)
    llvm::Function *compute = b.function("tcc_compute_symbols", b.i32, {b.ptr, b.ptr});
    ir.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", compute));
    std::vector<llvm::Value *> callArgs = loadSymbols(ir, compute->getArg(0), numSymbols);
    for (size_t i = 0; i < numInputs; ++i) {
      llvm::Value *pointer = ir.CreateLoad(b.ptr, ir.CreateConstGEP1_64(b.ptr, compute->getArg(1), i));
      for (llvm::Value *field : {pointer, pointer, static_cast<llvm::Value *>(ir.getInt64(0)),
                                 static_cast<llvm::Value *>(ir.getInt64(0)),
                                 static_cast<llvm::Value *>(ir.getInt64(1))})
        callArgs.push_back(field);
    }
    llvm::Value *values = ir.CreateCall(dataSymbols, callArgs);
    for (auto [k, s] : llvm::enumerate(computed))
      ir.CreateStore(computed.size() == 1 ? values : ir.CreateExtractValue(values, k),
                     ir.CreateConstGEP1_64(b.i64, compute->getArg(0), s));
    ir.CreateRet(llvm::ConstantInt::get(b.i32, 0));
    computeSymbols = compute;
  }
  // The batch symbol (tcc-mark-batch-split proved that images are computed alone, so every
  // output's dim 0 is the batch, even where its extent's formula was not the lone symbol).
  int32_t batchSymbol = -1;
  if (auto batch = mlirModule->getAttrOfType<FlatSymbolRefAttr>("tcc.batch_split"))
    for (auto [s, symbol] : llvm::enumerate(interface.symbols))
      if (symbol.name == batch.getValue())
        batchSymbol = static_cast<int32_t>(s);
  if (batchSymbol >= 0)
    for (TensorInterface &output : published.outputs)
      if (!output.shape.empty() && output.shape[0] < 0)
        output.symbols[0] = batchSymbol;
  // Parameters: their descriptions, offsets, and the initial values (tcc_initial_parameters,
  // defined in the weights object).
  llvm::Constant *initialParameters = llvm::ConstantPointerNull::get(b.ptr);
  if (hasParameters) {
    auto *declared = new llvm::GlobalVariable(*module, llvm::Type::getInt8Ty(context), true,
                                              llvm::GlobalValue::ExternalLinkage, nullptr,
                                              "tcc_initial_parameters");
    declared->setVisibility(llvm::GlobalValue::HiddenVisibility);
    initialParameters = declared;
  }
  llvm::Constant *fields[abi::kNumDescriptorFields];
  auto i32 = [&](int64_t value) { return llvm::ConstantInt::get(b.i32, value); };
  fields[abi::kDescriptor_abi_version] = i32(TCC_ABI_VERSION);
  fields[abi::kDescriptor_size] = i32(sizeof(tcc_model_descriptor));
  fields[abi::kDescriptor_tcc_version] = b.string(tcc::kVersion);
  fields[abi::kDescriptor_target_triple] = b.string(host.triple);
  fields[abi::kDescriptor_cpu] = b.string(host.cpu);
  fields[abi::kDescriptor_cpu_features] = b.string(host.requiredFeatures);
  fields[abi::kDescriptor_num_symbols] = i32(interface.symbols.size());
  fields[abi::kDescriptor_num_inputs] = i32(interface.inputs.size());
  fields[abi::kDescriptor_num_outputs] = i32(interface.outputs.size());
  fields[abi::kDescriptor_reserved] = i32(0);
  fields[abi::kDescriptor_symbols] = b.structArray(symbolType, symbols, "symbols");
  fields[abi::kDescriptor_inputs] = describe(interface.inputs, "inputs");
  fields[abi::kDescriptor_outputs] = describe(published.outputs, "outputs");
  fields[abi::kDescriptor_workspace_size] = workspace;
  fields[abi::kDescriptor_output_shapes] = shapes;
  fields[abi::kDescriptor_run] = run;
  fields[abi::kDescriptor_num_parameters] = i32(interface.parameters.size());
  fields[abi::kDescriptor_reserved2] = i32(0);
  fields[abi::kDescriptor_parameters] = describe(interface.parameters, "parameters");
  fields[abi::kDescriptor_parameter_offsets] =
      b.array<int64_t>(b.i64, interface.parameterOffsets, "parameter_offsets");
  fields[abi::kDescriptor_initial_parameters] = initialParameters;
  fields[abi::kDescriptor_parameters_size] = llvm::ConstantInt::get(b.i64, interface.parametersSize);
  fields[abi::kDescriptor_batch_symbol] = i32(batchSymbol < 0 ? 0 : batchSymbol);
  fields[abi::kDescriptor_flags] = i32(batchSymbol < 0 ? 0 : TCC_MODEL_IMAGES_ALONE);
  fields[abi::kDescriptor_symbol_computed] = symbolComputed;
  fields[abi::kDescriptor_compute_symbols] = computeSymbols;
  auto *descriptor = llvm::ConstantStruct::get(descriptorType, fields);
  auto *global = new llvm::GlobalVariable(*module, descriptorType, true,
                                          llvm::GlobalValue::ExternalLinkage, descriptor,
                                          TCC_MODEL_SYMBOL);
  global->setVisibility(llvm::GlobalValue::DefaultVisibility);
  global->setAlignment(llvm::Align(8));
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(*module, &problemStream)) {
    error = "internal error: the model's LLVM IR does not verify: " + problems;
    return nullptr;
  }
  return module;
}
