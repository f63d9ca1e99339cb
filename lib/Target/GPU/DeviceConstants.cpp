//===- DeviceConstants.cpp - the weights from the device's copy, an argument of @main ----===//
#include "tcc/Target/GPU/Passes.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_GPUDEVICECONSTANTS
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {
/// The weights blob's symbol (tcc::packWeights).
constexpr llvm::StringLiteral kWeights = "tcc_weights";

struct GpuDeviceConstantsPass : tcc::impl::GpuDeviceConstantsBase<GpuDeviceConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    using tcc::kernel::KernelDialect;
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal()) {
      module.emitError() << "internal error: tcc-gpu-device-constants needs @main";
      return signalPassFailure();
    }
    int64_t size = 0;
    auto weights = module.lookupSymbol<memref::GlobalOp>(kWeights);
    if (weights)
      size = weights.getType().getNumElements();
    module->setAttr(KernelDialect::kDeviceConstantsSizeAttrName,
                    IntegerAttr::get(IntegerType::get(ctx, 64), size));

    // The functions that read the blob, and every function that calls one of them.
    llvm::SetVector<func::FuncOp> readers;
    if (weights)
      module.walk([&](memref::GetGlobalOp get) {
        if (get.getName() == kWeights)
          readers.insert(get->getParentOfType<func::FuncOp>());
      });
    readers.insert(main); // @main always takes the device constants (model_abi.h)
    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    for (size_t k = 0; k < readers.size(); ++k) {
      func::FuncOp f = readers[k]; // a copy: SetVector hands out const references
      for (Operation *user : users.getUsers(f)) {
        auto call = dyn_cast<func::CallOp>(user);
        if (!call) {
          user->emitError() << "a GPU model's function @" << f.getSymName()
                            << " reads the weights but is used by '" << user->getName()
                            << "', not called (tcc-gpu-device-constants)";
          return signalPassFailure();
        }
        readers.insert(call->getParentOfType<func::FuncOp>());
      }
    }
    // Each reader's new last argument; callers pass theirs on.
    auto type = MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8));
    for (func::FuncOp f : readers) {
      unsigned index = f.getNumArguments();
      DictionaryAttr attrs =
          f == main ? DictionaryAttr::get(ctx, {NamedAttribute(StringAttr::get(
                                                    ctx, KernelDialect::kDeviceConstantsAttrName),
                                                UnitAttr::get(ctx))})
                    : DictionaryAttr::get(ctx);
      if (failed(f.insertArgument(index, type, attrs, f.getLoc()))) {
        f.emitError() << "internal error: cannot add the device constants argument";
        return signalPassFailure();
      }
    }
    for (func::FuncOp f : readers)
      for (Operation *user : users.getUsers(f)) {
        auto call = cast<func::CallOp>(user);
        auto caller = call->getParentOfType<func::FuncOp>();
        call->insertOperands(call->getNumOperands(),
                             caller.getArgument(caller.getNumArguments() - 1));
      }
    if (!weights)
      return;
    SmallVector<memref::GetGlobalOp> gets;
    module.walk([&](memref::GetGlobalOp get) {
      if (get.getName() == kWeights)
        gets.push_back(get);
    });
    for (memref::GetGlobalOp get : gets) {
      auto f = get->getParentOfType<func::FuncOp>();
      OpBuilder b(get);
      Value constants = f.getArgument(f.getNumArguments() - 1);
      get.replaceAllUsesWith(
          memref::CastOp::create(b, get.getLoc(), get.getType(), constants).getResult());
      get.erase();
    }
    weights.erase();
  }
};
} // namespace
