//===- Weights.cpp - all large constants in one aligned read-only blob ------------------===//
//
// Weights do not go through the LLVM optimizer: after bufferization every large constant
// global is replaced by a view into one external symbol, tcc_weights, whose bytes are
// emitted as a separate object (one array, no optimization) and linked beside the code.
//
//===----------------------------------------------------------------------------------===//
#include "dialects/kernel/KernelDialect.h"
#include "tcc/Package/Package.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace {
constexpr int64_t kAlignment = 64;

/// The raw bytes of a constant in memory layout, or std::nullopt if it has none we know.
std::optional<std::vector<char>> rawBytes(ElementsAttr value) {
  auto type = cast<ShapedType>(value.getType());
  Type element = type.getElementType();
  // Booleans are one byte each in memory (0 or 1), as the code loads them.
  if (element.isInteger(1)) {
    int64_t count = type.getNumElements();
    std::vector<char> out;
    out.reserve(count);
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      for (bool b : dense.getValues<bool>())
        out.push_back(b ? 1 : 0);
      return out;
    }
    // A resource blob (the importer's) holds one byte per boolean.
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
      AsmResourceBlob *blob = resource.getRawHandle().getBlob();
      if (!blob || static_cast<int64_t>(blob->getData().size()) != count)
        return std::nullopt;
      for (char c : blob->getData())
        out.push_back(c ? 1 : 0);
      return out;
    }
    return std::nullopt;
  }
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  size_t bytes = type.getNumElements() * (element.getIntOrFloatBitWidth() / 8);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != bytes)
      return std::nullopt;
    ArrayRef<char> data = blob->getData();
    return std::vector<char>(data.begin(), data.end());
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    ArrayRef<char> data = dense.getRawData();
    if (dense.isSplat()) {
      std::vector<char> out(bytes);
      size_t size = data.size();
      for (size_t i = 0; i < bytes; i += size)
        std::copy(data.begin(), data.end(), out.begin() + i);
      return out;
    }
    if (data.size() != bytes)
      return std::nullopt;
    return std::vector<char>(data.begin(), data.end());
  }
  return std::nullopt;
}
} // namespace

LogicalResult tcc::packWeights(ModuleOp module, std::vector<char> &blob, int64_t minBytes) {
  struct Packed {
    memref::GlobalOp global;
    int64_t offset;
  };
  std::vector<Packed> packed;
  for (auto global : llvm::make_early_inc_range(module.getOps<memref::GlobalOp>())) {
    if (!global.getConstant() || !global.getInitialValue())
      continue;
    auto value = dyn_cast<ElementsAttr>(*global.getInitialValue());
    if (!value || !global.getType().getLayout().isIdentity())
      continue;
    std::optional<std::vector<char>> bytes = rawBytes(value);
    if (!bytes || static_cast<int64_t>(bytes->size()) < std::max<int64_t>(minBytes, 1))
      continue;
    int64_t offset = (static_cast<int64_t>(blob.size()) + kAlignment - 1) / kAlignment * kAlignment;
    blob.resize(offset, 0);
    blob.insert(blob.end(), bytes->begin(), bytes->end());
    packed.push_back({global, offset});
  }
  if (packed.empty())
    return success();
  blob.resize((blob.size() + kAlignment - 1) / kAlignment * kAlignment, 0);

  OpBuilder builder(module.getBodyRegion());
  auto blobType = MemRefType::get({static_cast<int64_t>(blob.size())}, builder.getI8Type());
  auto weights = memref::GlobalOp::create(
      builder, module.getLoc(), "tcc_weights", builder.getStringAttr("private"), blobType,
      /*initial_value=*/Attribute(), /*constant=*/true, builder.getI64IntegerAttr(kAlignment));
  // An external declaration: the bytes come from the weights object.
  weights.setSymVisibility("public");
  for (Packed &p : packed) {
    SymbolTable::UseRange uses = *SymbolTable::getSymbolUses(p.global, module);
    for (SymbolTable::SymbolUse use : uses) {
      auto get = dyn_cast<memref::GetGlobalOp>(use.getUser());
      if (!get)
        return use.getUser()->emitError() << "internal error: unexpected use of a weight";
      OpBuilder b(get);
      Value base = memref::GetGlobalOp::create(b, get.getLoc(), blobType, "tcc_weights");
      Value offset = arith::ConstantIndexOp::create(b, get.getLoc(), p.offset);
      Value view =
          memref::ViewOp::create(b, get.getLoc(), get.getType(), base, offset, ValueRange{});
      get.replaceAllUsesWith(view);
      get.erase();
    }
    p.global.erase();
  }
  return success();
}

LogicalResult tcc::packParameters(ModuleOp module, ModelInterface &interface,
                                  std::vector<char> &blob) {
  auto entries = module->getAttrOfType<ArrayAttr>(tcc::kernel::KernelDialect::kParametersAttrName);
  if (!entries)
    return success();
  auto size =
      module->getAttrOfType<IntegerAttr>(tcc::kernel::KernelDialect::kParametersSizeAttrName);
  interface.parametersSize = size ? size.getInt() : 0;
  blob.assign(static_cast<size_t>(interface.parametersSize), 0);
  llvm::StringMap<int64_t> offsets;
  for (auto entry : entries.getAsRange<DictionaryAttr>()) {
    auto name = entry.getAs<StringAttr>("name");
    auto offset = entry.getAs<IntegerAttr>("offset");
    auto value = entry.getAs<ElementsAttr>("value");
    std::optional<std::vector<char>> bytes = value ? rawBytes(value) : std::nullopt;
    if (!name || !offset || !bytes ||
        offset.getInt() + static_cast<int64_t>(bytes->size()) > interface.parametersSize)
      return module.emitError() << "internal error: a malformed kernel.parameters entry " << entry;
    std::copy(bytes->begin(), bytes->end(), blob.begin() + offset.getInt());
    offsets[name.getValue()] = offset.getInt();
  }
  interface.parameterOffsets.clear();
  for (const TensorInterface &p : interface.parameters) {
    auto it = offsets.find(p.name);
    if (it == offsets.end())
      return module.emitError() << "internal error: parameter '" << p.name << "' has no offset";
    interface.parameterOffsets.push_back(it->second);
  }
  return success();
}

std::unique_ptr<llvm::Module> tcc::buildWeightsModule(llvm::ArrayRef<char> blob,
                                                      llvm::ArrayRef<char> parameters,
                                                      llvm::StringRef triple,
                                                      llvm::LLVMContext &context) {
  bool elf = llvm::Triple(triple).isOSBinFormatELF();
  auto module = std::make_unique<llvm::Module>("weights", context);
  auto define = [&](llvm::ArrayRef<char> bytes, llvm::StringRef name) {
    llvm::Constant *data = llvm::ConstantDataArray::getRaw(
        llvm::StringRef(bytes.data(), bytes.size()), bytes.size(), llvm::Type::getInt8Ty(context));
    auto *global = new llvm::GlobalVariable(*module, data->getType(), /*isConstant=*/true,
                                            llvm::GlobalValue::ExternalLinkage, data, name);
    global->setAlignment(llvm::Align(kAlignment));
    global->setVisibility(llvm::GlobalValue::HiddenVisibility);
    // Mach-O puts read-only data in __TEXT,__const without being told.
    if (elf)
      global->setSection((".rodata." + name).str());
  };
  if (!blob.empty())
    define(blob, "tcc_weights");
  if (!parameters.empty())
    define(parameters, "tcc_initial_parameters");
  return module;
}
