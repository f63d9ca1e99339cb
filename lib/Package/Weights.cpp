//===- Weights.cpp - all large constants in one aligned read-only blob ------------------===//
//
// Weights do not go through the LLVM optimizer: after bufferization every large constant
// global is replaced by a view into one external symbol, tcc_weights, defined by a separate
// object linked beside the code. The weights are never copied while compiling: the blob
// refers to the constants where they lie (the mapped model file, mostly), and for ELF the
// object only reserves their space, which is filled in the library after the link.
//
//===----------------------------------------------------------------------------------===//
#include "dialects/kernel/KernelDialect.h"
#include "tcc/Package/Package.h"
#include "tcc/Support/Pages.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <cstring>

using namespace mlir;

namespace {
constexpr int64_t kAlignment = 64;

uint64_t alignUp(uint64_t value) { return (value + kAlignment - 1) / kAlignment * kAlignment; }

/// The raw bytes of a constant in memory layout: where they already lie (`view`), or made
/// here (`made`: booleans as bytes, splats expanded).
struct RawBytes {
  ArrayRef<char> view;
  std::optional<std::vector<char>> made;
  /// `view` is immutable memory the constant does not own: the importer's mapped file.
  bool mapped = false;
  ArrayRef<char> bytes() const { return made ? ArrayRef<char>(*made) : view; }
};

/// The raw bytes of a constant, or std::nullopt if it has none we know.
std::optional<RawBytes> rawBytes(ElementsAttr value) {
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
      return RawBytes{{}, std::move(out)};
    }
    // A resource blob (the importer's) holds one byte per boolean.
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
      AsmResourceBlob *blob = resource.getRawHandle().getBlob();
      if (!blob || static_cast<int64_t>(blob->getData().size()) != count)
        return std::nullopt;
      for (char c : blob->getData())
        out.push_back(c ? 1 : 0);
      return RawBytes{{}, std::move(out)};
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
    return RawBytes{blob->getData(), std::nullopt, !blob->isMutable()};
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    ArrayRef<char> data = dense.getRawData();
    if (dense.isSplat()) {
      std::vector<char> out(bytes);
      size_t size = data.size();
      for (size_t i = 0; i < bytes; i += size)
        std::copy(data.begin(), data.end(), out.begin() + i);
      return RawBytes{{}, std::move(out)};
    }
    if (data.size() != bytes)
      return std::nullopt;
    return RawBytes{data, std::nullopt};
  }
  return std::nullopt;
}
} // namespace

uint64_t tcc::WeightsBlob::append(llvm::ArrayRef<char> bytes, bool mapped) {
  uint64_t offset = alignUp(total);
  pieces.push_back({offset, bytes, mapped});
  total = offset + bytes.size();
  return offset;
}

uint64_t tcc::WeightsBlob::append(std::vector<char> bytes) {
  owned.push_back(std::move(bytes));
  return append(llvm::ArrayRef<char>(owned.back()));
}

void tcc::WeightsBlob::finish() { total = alignUp(total); }

bool tcc::WeightsBlob::forEachPiece(
    llvm::function_ref<bool(uint64_t, llvm::ArrayRef<char>, bool)> write) const {
  for (const Piece &piece : pieces)
    if (!write(piece.offset, piece.bytes, piece.mapped))
      return false;
  return true;
}

std::vector<char> tcc::WeightsBlob::materialize() const {
  std::vector<char> out(total, 0);
  for (const Piece &piece : pieces)
    std::copy(piece.bytes.begin(), piece.bytes.end(), out.begin() + piece.offset);
  return out;
}

bool tcc::WeightsBlob::operator==(const WeightsBlob &other) const {
  if (total != other.total || pieces.size() != other.pieces.size())
    return false;
  for (auto [a, b] : llvm::zip(pieces, other.pieces)) {
    if (a.offset != b.offset || a.bytes.size() != b.bytes.size())
      return false;
    // Variants cloned from one module share their constants' storage: compare bytes only
    // where they do not.
    if (a.bytes.data() != b.bytes.data() &&
        std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size()) != 0)
      return false;
  }
  return true;
}

LogicalResult tcc::packWeights(ModuleOp module, WeightsBlob &blob, int64_t minBytes) {
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
    std::optional<RawBytes> bytes = rawBytes(value);
    if (!bytes || static_cast<int64_t>(bytes->bytes().size()) < std::max<int64_t>(minBytes, 1))
      continue;
    uint64_t offset = bytes->made ? blob.append(std::move(*bytes->made))
                                  : blob.append(bytes->view, bytes->mapped);
    packed.push_back({global, static_cast<int64_t>(offset)});
  }
  if (packed.empty())
    return success();
  blob.finish();

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
    std::optional<RawBytes> raw = value ? rawBytes(value) : std::nullopt;
    ArrayRef<char> bytes = raw ? raw->bytes() : ArrayRef<char>();
    if (!name || !offset || !raw ||
        offset.getInt() + static_cast<int64_t>(bytes.size()) > interface.parametersSize)
      return module.emitError() << "internal error: a malformed kernel.parameters entry " << entry;
    std::copy(bytes.begin(), bytes.end(), blob.begin() + offset.getInt());
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

bool tcc::weightsFilledAfterLink(llvm::StringRef triple) {
  return llvm::Triple(triple).isOSBinFormatELF();
}

std::unique_ptr<llvm::Module> tcc::buildWeightsModule(const WeightsBlob &weights,
                                                      llvm::StringRef weightsSymbol,
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
  if (!weights.empty() && elf) { // ELF: weightsFilledAfterLink
    // A section without file contents (SHT_NOBITS, read-only) holds the symbol, and one byte
    // of contents under the same name (a second section: `unique`) makes the linker's output
    // section of that name SHT_PROGBITS: file space in a read-only segment, which the linker
    // leaves untouched (it writes no bytes for the first section) and fillWeights fills.
    std::string section = ("tcc.weights." + weightsSymbol).str();
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "\t.section " << section << ",\"a\",%nobits\n"
       << "\t.p2align 6\n"
       << "\t.globl " << weightsSymbol << "\n"
       << "\t.hidden " << weightsSymbol << "\n"
       << "\t.type " << weightsSymbol << ",%object\n"
       << weightsSymbol << ":\n"
       << "\t.zero " << weights.size() << "\n"
       << "\t.size " << weightsSymbol << ", " << weights.size() << "\n"
       << "\t.section " << section << ",\"a\",%progbits,unique,1\n"
       << "\t.byte 0\n";
    module->appendModuleInlineAsm(text);
  } else if (!weights.empty()) {
    define(weights.materialize(), weightsSymbol);
  }
  if (!parameters.empty() && llvm::all_of(parameters, [](char c) { return c == 0; })) {
    // Zeros alone (tcc --kv-cache's caches): a zero-initialized global, which takes no file
    // space (.bss), however long the caches are. The runtime only reads it.
    auto *type = llvm::ArrayType::get(llvm::Type::getInt8Ty(context), parameters.size());
    auto *global = new llvm::GlobalVariable(
        *module, type, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
        llvm::ConstantAggregateZero::get(type), "tcc_initial_parameters");
    global->setAlignment(llvm::Align(kAlignment));
    global->setVisibility(llvm::GlobalValue::HiddenVisibility);
    if (elf)
      global->setSection(".bss.tcc_initial_parameters");
  } else if (!parameters.empty()) {
    define(parameters, "tcc_initial_parameters");
  }
  return module;
}

LogicalResult tcc::fillWeights(llvm::StringRef libraryPath, llvm::StringRef weightsSymbol,
                               const WeightsBlob &weights, std::string &error) {
  if (weights.empty())
    return success();
  // Where the symbol lies in the file: its section's file offset plus its place in the
  // section, which must be file space (SHT_PROGBITS) that holds all of it.
  std::optional<uint64_t> fileOffset;
  {
    llvm::Expected<llvm::object::OwningBinary<llvm::object::ObjectFile>> binary =
        llvm::object::ObjectFile::createObjectFile(libraryPath);
    if (!binary) {
      error = "cannot read the linked library " + libraryPath.str() + ": " +
              llvm::toString(binary.takeError());
      return failure();
    }
    auto *elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(binary->getBinary());
    if (!elf) {
      error = "internal error: the linked library " + libraryPath.str() + " is not ELF";
      return failure();
    }
    for (const llvm::object::SymbolRef &symbol : elf->symbols()) {
      llvm::Expected<llvm::StringRef> name = symbol.getName();
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (*name != weightsSymbol)
        continue;
      llvm::Expected<uint64_t> address = symbol.getAddress();
      llvm::Expected<llvm::object::section_iterator> section = symbol.getSection();
      if (!address || !section || *section == elf->section_end()) {
        if (!address)
          llvm::consumeError(address.takeError());
        if (!section)
          llvm::consumeError(section.takeError());
        break;
      }
      llvm::object::ELFSectionRef in(**section);
      if (in.getType() != llvm::ELF::SHT_PROGBITS || *address < in.getAddress() ||
          *address - in.getAddress() > in.getSize() ||
          weights.size() > in.getSize() - (*address - in.getAddress()))
        break;
      fileOffset = in.getOffset() + (*address - in.getAddress());
      break;
    }
  }
  if (!fileOffset) {
    error = "internal error: the linked library " + libraryPath.str() +
            " has no file space for its weights ('" + weightsSymbol.str() + "')";
    return failure();
  }
  int fd;
  if (std::error_code ec = llvm::sys::fs::openFileForReadWrite(
          libraryPath, fd, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_None)) {
    error = "cannot write the weights into " + libraryPath.str() + ": " + ec.message();
    return failure();
  }
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  weights.forEachPiece([&](uint64_t offset, llvm::ArrayRef<char> bytes, bool mapped) {
    os.seek(*fileOffset + offset);
    os.write(bytes.data(), bytes.size());
    os.flush();
    // A piece of the mapped model file, just written: its pages leave this process's
    // memory (the file gives them again).
    if (mapped)
      tcc::adviseWholePages(bytes, tcc::PageAdvice::Reclaim);
    return !os.has_error();
  });
  os.close();
  if (os.has_error()) {
    error = "cannot write the weights into " + libraryPath.str() + ": " + os.error().message();
    os.clear_error();
    return failure();
  }
  return success();
}
