//===- IRBuilding.h - what the packaging files share to write LLVM IR -------*- C++ -*-===//
#ifndef TCC_LIB_PACKAGE_IRBUILDING_H
#define TCC_LIB_PACKAGE_IRBUILDING_H

#include "tcc/Package/ModelAbi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <vector>

namespace tcc::package {

/// Constants, arrays and functions of the model's LLVM module: private, unnamed-address
/// strings, arrays of integers or structs (null when empty), internal functions.
struct IRBuilding {
  llvm::Module &module;
  llvm::LLVMContext &ctx;
  llvm::Type *i32, *i64;
  llvm::PointerType *ptr;

  explicit IRBuilding(llvm::Module &m)
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
inline llvm::StructType *importTableType(llvm::LLVMContext &context) {
  return abi::llvmStructType(context, tcc::abi::kImportKinds);
}

/// Loads the `count` symbol values from `array` (const int64_t *).
inline std::vector<llvm::Value *> loadSymbols(llvm::IRBuilder<> &ir, llvm::Value *array,
                                              size_t count) {
  std::vector<llvm::Value *> values;
  for (size_t i = 0; i < count; ++i)
    values.push_back(
        ir.CreateLoad(ir.getInt64Ty(), ir.CreateConstGEP1_64(ir.getInt64Ty(), array, i)));
  return values;
}

} // namespace tcc::package

#endif // TCC_LIB_PACKAGE_IRBUILDING_H
