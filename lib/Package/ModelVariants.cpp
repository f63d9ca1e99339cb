//===- ModelVariants.cpp - one library, code for several targets (a fat model) ---------===//
//
// `tcc --target cpu,nvidia:sm_90,...` compiles the model once per target and links every
// target's objects into one library. Each target's code is a complete single-target model
// whose few global symbols (the descriptor, the weights and the initial parameters; all else
// is internal) are renamed apart here, and one more object exports the table of their
// descriptors (model_abi.h's tcc_model_variants), the library's only exported symbol.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Package/ModelAbi.h"
#include "tcc/Package/Package.h"

#include "IRBuilding.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace abi = tcc::abi;

std::string tcc::variantDescriptorName(unsigned variant) {
  return "tcc_model_variant_" + std::to_string(variant);
}

std::string tcc::weightsSymbolName(std::optional<unsigned> dataVariant) {
  return dataVariant ? "tcc_weights_" + std::to_string(*dataVariant) : "tcc_weights";
}

void tcc::renameVariantSymbols(llvm::Module &module, unsigned variant, unsigned dataVariant) {
  const std::pair<std::string, std::string> renames[] = {
      {TCC_MODEL_SYMBOL, variantDescriptorName(variant)},
      {weightsSymbolName(), weightsSymbolName(dataVariant)},
      {"tcc_initial_parameters", "tcc_initial_parameters_" + std::to_string(dataVariant)}};
  for (const auto &[from, to] : renames) {
    llvm::GlobalValue *global = module.getNamedValue(from);
    if (!global || global->hasLocalLinkage())
      continue;
    global->setName(to);
    // Seen by the other objects of the library, not outside it.
    global->setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
}

std::unique_ptr<llvm::Module> tcc::buildVariantsModule(unsigned count, llvm::StringRef triple,
                                                       llvm::LLVMContext &context) {
  auto module = std::make_unique<llvm::Module>("variants", context);
  module->setTargetTriple(llvm::Triple(triple));
  package::IRBuilding b(*module);
  // The descriptors are defined by the variants' objects (renameVariantSymbols).
  llvm::StructType *descriptorType = abi::llvmStructType(context, abi::kDescriptorKinds);
  std::vector<llvm::Constant *> descriptors;
  for (unsigned v = 0; v < count; ++v) {
    auto *declared = new llvm::GlobalVariable(*module, descriptorType, /*isConstant=*/true,
                                              llvm::GlobalValue::ExternalLinkage, nullptr,
                                              variantDescriptorName(v));
    declared->setVisibility(llvm::GlobalValue::HiddenVisibility);
    descriptors.push_back(declared);
  }
  auto *listType = llvm::ArrayType::get(b.ptr, count);
  auto *list = new llvm::GlobalVariable(
      *module, listType, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(listType, descriptors), "variants");
  llvm::StructType *tableType = abi::llvmStructType(context, abi::kVariantsKinds);
  llvm::Constant *fields[abi::kNumVariantsFields];
  fields[abi::kVariants_abi_version] = llvm::ConstantInt::get(b.i32, TCC_ABI_VERSION);
  fields[abi::kVariants_size] = llvm::ConstantInt::get(b.i32, sizeof(tcc_model_variants));
  fields[abi::kVariants_num_variants] = llvm::ConstantInt::get(b.i32, count);
  fields[abi::kVariants_reserved] = llvm::ConstantInt::get(b.i32, 0);
  fields[abi::kVariants_variants] = list;
  auto *table = new llvm::GlobalVariable(
      *module, tableType, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantStruct::get(tableType, fields), TCC_MODEL_VARIANTS_SYMBOL);
  table->setVisibility(llvm::GlobalValue::DefaultVisibility);
  table->setAlignment(llvm::Align(8));
  return module;
}
