//===- ModelDescriptor.cpp - LLVM IR of the model, its entry points and descriptor -------===//
//
// Translates the host code to LLVM IR and writes the exported descriptor of
// runtime/include/tcc/model_abi.h around it: the metadata (symbols, inputs, outputs,
// parameters, the target) and the entry points (EntryPoints.cpp). Kernel launches were
// lowered before translation by the target (tcc-cpu-lower-launches).
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Package/ModelAbi.h"
#include "tcc/Package/Package.h"
#include "tcc/Version.h"

#include "EntryPoints.h"
#include "IRBuilding.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"

using namespace mlir;
using namespace tcc::package;

namespace abi = tcc::abi;

namespace {
/// The descriptor's device fields from the module's kernel.device_* attributes: the images
/// (LLVM globals the launch lowering wrote), the kernel names in launch-index order, and
/// the device constants (the weights blob, `tcc_weights`, which the runtime uploads).
LogicalResult describeDevice(ModuleOp mlirModule, llvm::Module &module, IRBuilding &b,
                             int32_t deviceType, llvm::Constant **fields, std::string &error) {
  using tcc::kernel::KernelDialect;
  llvm::LLVMContext &context = module.getContext();
  auto images = mlirModule->getAttrOfType<ArrayAttr>(KernelDialect::kDeviceImagesAttrName);
  auto kernels = mlirModule->getAttrOfType<ArrayAttr>(KernelDialect::kDeviceKernelsAttrName);
  auto constantsSize =
      mlirModule->getAttrOfType<IntegerAttr>(KernelDialect::kDeviceConstantsSizeAttrName);
  // A model without kernels has no images and no kernel list (tcc-gpu-lower-launches).
  if (images && images.empty() && !kernels)
    kernels = ArrayAttr::get(mlirModule.getContext(), {});
  if (!images || !kernels || !constantsSize) {
    error = "internal error: a device model without its kernel.device_images, "
            "kernel.device_kernels or kernel.device_constants_size";
    return failure();
  }
  auto *imageType = abi::llvmStructType(context, abi::kImageKinds);
  std::vector<llvm::Constant *> items;
  for (auto image : images.getAsRange<DictionaryAttr>()) {
    StringRef symbol = image.getAs<FlatSymbolRefAttr>("symbol").getValue();
    llvm::GlobalVariable *bytes = module.getGlobalVariable(symbol, /*AllowInternal=*/true);
    if (!bytes) {
      error = "internal error: the device image @" + symbol.str() + " is missing";
      return failure();
    }
    llvm::Constant *item[abi::kNumImageFields];
    item[abi::kImage_arch] = b.string(image.getAs<StringAttr>("arch").getValue());
    StringRef format = image.getAs<StringAttr>("format").getValue();
    int32_t code = format == "ptx"     ? TCC_IMAGE_PTX
                   : format == "hsaco" ? TCC_IMAGE_HSACO
                   : format == "spirv" ? TCC_IMAGE_SPIRV
                   : format == "msl"   ? TCC_IMAGE_MSL
                                       : TCC_IMAGE_CUBIN;
    item[abi::kImage_format] = llvm::ConstantInt::get(b.i32, code);
    item[abi::kImage_reserved] = llvm::ConstantInt::get(b.i32, 0);
    item[abi::kImage_data] = bytes;
    item[abi::kImage_size] = llvm::ConstantInt::get(
        b.i64, module.getDataLayout().getTypeAllocSize(bytes->getValueType()));
    items.push_back(llvm::ConstantStruct::get(imageType, item));
  }
  std::vector<llvm::Constant *> names;
  for (auto name : kernels.getAsRange<StringAttr>())
    names.push_back(b.string(name.getValue()));
  auto *namesType = llvm::ArrayType::get(b.ptr, names.size());
  auto *namesTable = new llvm::GlobalVariable(
      module, namesType, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(namesType, names), "tcc_device_kernel_names");
  llvm::Constant *constants = llvm::ConstantPointerNull::get(b.ptr);
  if (constantsSize.getInt() > 0) {
    // The weights object defines it (buildWeightsModule).
    llvm::GlobalVariable *weights = module.getGlobalVariable("tcc_weights", true);
    if (!weights) {
      weights =
          new llvm::GlobalVariable(module, llvm::Type::getInt8Ty(context), true,
                                   llvm::GlobalValue::ExternalLinkage, nullptr, "tcc_weights");
      weights->setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
    constants = weights;
  }
  auto i32 = [&](int64_t value) { return llvm::ConstantInt::get(b.i32, value); };
  fields[abi::kDescriptor_device_type] = i32(deviceType);
  fields[abi::kDescriptor_num_device_images] = i32(items.size());
  fields[abi::kDescriptor_device_images] = b.structArray(imageType, items, "device_images");
  fields[abi::kDescriptor_num_device_kernels] = i32(names.size());
  fields[abi::kDescriptor_reserved3] = i32(0);
  fields[abi::kDescriptor_device_kernel_names] = namesTable;
  fields[abi::kDescriptor_device_constants] = constants;
  fields[abi::kDescriptor_device_constants_size] =
      llvm::ConstantInt::get(b.i64, constantsSize.getInt());
  std::vector<llvm::Constant *> checks;
  if (auto list = mlirModule->getAttrOfType<ArrayAttr>(KernelDialect::kDeviceCheckMessagesAttrName))
    for (auto message : list.getAsRange<StringAttr>())
      checks.push_back(b.string(message.getValue()));
  llvm::Constant *checkTable = llvm::ConstantPointerNull::get(b.ptr);
  if (!checks.empty()) {
    auto *type = llvm::ArrayType::get(b.ptr, checks.size());
    checkTable = new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::PrivateLinkage,
                                          llvm::ConstantArray::get(type, checks),
                                          "tcc_device_check_messages");
  }
  fields[abi::kDescriptor_num_device_check_messages] = i32(checks.size());
  fields[abi::kDescriptor_reserved4] = i32(0);
  fields[abi::kDescriptor_device_check_messages] = checkTable;
  return success();
}

/// The descriptor's kernel list: a device model's device kernels, a CPU model's kernels that
/// host code hands to parallel_for (tcc-cpu-lower-launches), with the ONNX nodes of each
/// (recordKernelNodes).
void describeKernels(ModuleOp mlirModule, llvm::Module &module, IRBuilding &b, bool device,
                     llvm::Constant **fields) {
  using tcc::kernel::KernelDialect;
  auto list = mlirModule->getAttrOfType<ArrayAttr>(
      device ? KernelDialect::kDeviceKernelsAttrName : KernelDialect::kProfiledKernelsAttrName);
  std::vector<llvm::Constant *> names, nodes;
  for (Attribute name : list ? list.getValue() : ArrayRef<Attribute>()) {
    StringRef text = cast<StringAttr>(name).getValue();
    names.push_back(b.string(text));
    nodes.push_back(b.string(tcc::kernel::kernelNodesOf(mlirModule, text)));
  }
  auto table = [&](std::vector<llvm::Constant *> &items, const char *symbol) -> llvm::Constant * {
    if (items.empty())
      return llvm::ConstantPointerNull::get(b.ptr);
    auto *type = llvm::ArrayType::get(b.ptr, items.size());
    return new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(type, items), symbol);
  };
  fields[abi::kDescriptor_num_kernels] = llvm::ConstantInt::get(b.i32, names.size());
  fields[abi::kDescriptor_reserved5] = llvm::ConstantInt::get(b.i32, 0);
  fields[abi::kDescriptor_kernel_names] = table(names, "tcc_kernel_names");
  fields[abi::kDescriptor_kernel_nodes] = table(nodes, "tcc_kernel_nodes");
}
} // namespace

tcc::ModelInterface tcc::publishedInterface(ModuleOp module, const ModelInterface &interface) {
  // Output dims that are a lone symbol or data-dependent (tcc-entry-signature found them).
  ModelInterface published = interface;
  if (auto list =
          module->getAttrOfType<ArrayAttr>(tcc::kernel::KernelDialect::kOutputSymbolsAttrName))
    for (auto [o, dims] : llvm::enumerate(list.getAsRange<DenseI32ArrayAttr>()))
      if (o < published.outputs.size() &&
          dims.size() == static_cast<int64_t>(published.outputs[o].symbols.size()))
        for (auto [d, s] : llvm::enumerate(dims.asArrayRef()))
          if ((s >= 0 || s == TCC_DIM_DATA_DEPENDENT) && published.outputs[o].shape[d] < 0)
            published.outputs[o].symbols[d] = s;
  return published;
}

std::unique_ptr<llvm::Module>
tcc::buildModelModule(ModuleOp mlirModule, const ModelInterface &interface, const HostMachine &host,
                      int32_t deviceType, llvm::StringRef compileOptions,
                      llvm::LLVMContext &context, std::string &error) {
  bool device = deviceType != abi::kDeviceTypeCPU;
  // Device-side checks (tcc-gpu-device-checks): @main then takes the status word too.
  auto deviceChecks = mlirModule->getAttrOfType<ArrayAttr>(
      tcc::kernel::KernelDialect::kDeviceCheckMessagesAttrName);
  bool deviceStatus = device && deviceChecks && !deviceChecks.empty();
  std::vector<std::string> messages;
  if (ArrayAttr list = tcc::kernel::getCheckMessages(mlirModule))
    for (Attribute a : list)
      messages.push_back(cast<StringAttr>(a).getValue().str());
  // The import-table size the model's string functions need (tcc-lower-runtime-calls).
  uint64_t stringTableSize = 0;
  if (auto size = mlirModule->getAttrOfType<IntegerAttr>(
          tcc::kernel::KernelDialect::kStringTableSizeAttrName))
    stringTableSize = size.getInt();
  ModelInterface published = publishedInterface(mlirModule, interface);

  // Symbol declarations and tcc's own argument attributes (onnx.name, kernel.workspace) have no
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
  size_t numBuffers = interface.inputs.size() + interface.outputs.size() + (hasParameters ? 1 : 0) +
                      1 + (device ? 1 : 0) + (deviceStatus ? 1 : 0);
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

  EntryPoints entries = buildEntryPoints(*module, interface, messages, stringTableSize,
                                         /*deviceConstants=*/device, deviceStatus);
  IRBuilding b(*module);
  llvm::IRBuilder<> ir(context);

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
    llvm::Function *compute = buildComputeSymbols(*module, interface, computed, error);
    if (!compute)
      return nullptr;
    computeSymbols = compute;
  }
  // The batch symbol (tcc-mark-batch-split proved that images are computed alone, so every
  // output's dim 0 is the batch, even where its extent's formula was not the lone symbol).
  int32_t batchSymbol = -1;
  if (auto batch = mlirModule->getAttrOfType<FlatSymbolRefAttr>(
          tcc::kernel::KernelDialect::kBatchSplitAttrName))
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
  fields[abi::kDescriptor_workspace_size] = entries.workspaceSize;
  fields[abi::kDescriptor_output_shapes] = entries.outputShapes;
  fields[abi::kDescriptor_run] = entries.run;
  fields[abi::kDescriptor_num_parameters] = i32(interface.parameters.size());
  fields[abi::kDescriptor_reserved2] = i32(0);
  fields[abi::kDescriptor_parameters] = describe(interface.parameters, "parameters");
  fields[abi::kDescriptor_parameter_offsets] =
      b.array<int64_t>(b.i64, interface.parameterOffsets, "parameter_offsets");
  fields[abi::kDescriptor_initial_parameters] = initialParameters;
  fields[abi::kDescriptor_parameters_size] =
      llvm::ConstantInt::get(b.i64, interface.parametersSize);
  fields[abi::kDescriptor_batch_symbol] = i32(batchSymbol < 0 ? 0 : batchSymbol);
  uint32_t flags = batchSymbol < 0 ? 0 : TCC_MODEL_IMAGES_ALONE;
  if (mlirModule->hasAttr(tcc::kernel::KernelDialect::kReadsDeviceAttrName))
    flags |= TCC_MODEL_READS_DEVICE;
  fields[abi::kDescriptor_flags] = i32(flags);
  fields[abi::kDescriptor_symbol_computed] = symbolComputed;
  fields[abi::kDescriptor_compute_symbols] = computeSymbols;
  if (device) {
    if (failed(describeDevice(mlirModule, *module, b, deviceType, fields, error)))
      return nullptr;
  } else {
    // A CPU model: no images, kernels, constants or device checks.
    llvm::Constant *null = llvm::ConstantPointerNull::get(b.ptr);
    for (int f = abi::kDescriptor_device_type; f <= abi::kDescriptor_device_check_messages; ++f)
      fields[f] = abi::kDescriptorKinds[f] == abi::FieldKind::Ptr ? null
                  : abi::kDescriptorKinds[f] == abi::FieldKind::I64
                      ? llvm::ConstantInt::get(b.i64, 0)
                      : i32(0);
    fields[abi::kDescriptor_device_type] = i32(abi::kDeviceTypeCPU);
  }
  describeKernels(mlirModule, *module, b, device, fields);
  fields[abi::kDescriptor_compile_options] = b.string(compileOptions);
  fields[abi::kDescriptor_num_sequences] = i32(interface.sequences.size());
  fields[abi::kDescriptor_reserved6] = i32(0);
  auto *sequenceType = abi::llvmStructType(context, abi::kSequenceKinds);
  std::vector<llvm::Constant *> sequences;
  for (const tcc::SequenceInterface &s : interface.sequences) {
    llvm::Constant *item[abi::kNumSequenceFields];
    item[abi::kSequence_name] = b.string(s.name);
    item[abi::kSequence_is_output] = i32(s.isOutput ? 1 : 0);
    item[abi::kSequence_shapes_index] = i32(s.shapesIndex);
    item[abi::kSequence_data_index] = i32(s.dataIndex);
    item[abi::kSequence_reserved] = i32(0);
    sequences.push_back(llvm::ConstantStruct::get(sequenceType, item));
  }
  fields[abi::kDescriptor_sequences] = b.structArray(sequenceType, sequences, "sequences");
  fields[abi::kDescriptor_num_optionals] = i32(interface.optionals.size());
  fields[abi::kDescriptor_reserved7] = i32(0);
  auto *optionalType = abi::llvmStructType(context, abi::kOptionalKinds);
  std::vector<llvm::Constant *> optionals;
  for (const tcc::OptionalInterface &o : interface.optionals) {
    llvm::Constant *item[abi::kNumOptionalFields];
    item[abi::kOptional_name] = b.string(o.name);
    item[abi::kOptional_is_output] = i32(o.isOutput ? 1 : 0);
    item[abi::kOptional_present_index] = i32(o.presentIndex);
    item[abi::kOptional_first_index] = i32(o.firstIndex);
    item[abi::kOptional_count] = i32(o.count);
    optionals.push_back(llvm::ConstantStruct::get(optionalType, item));
  }
  fields[abi::kDescriptor_optionals] = b.structArray(optionalType, optionals, "optionals");
  auto *descriptor = llvm::ConstantStruct::get(descriptorType, fields);
  auto *global =
      new llvm::GlobalVariable(*module, descriptorType, true, llvm::GlobalValue::ExternalLinkage,
                               descriptor, TCC_MODEL_SYMBOL);
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
