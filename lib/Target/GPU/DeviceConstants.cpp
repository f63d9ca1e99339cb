//===- DeviceConstants.cpp - the weights from the device's copy, an argument of @main ----===//
#include "tcc/Target/GPU/Passes.h"

#include "ThreadArguments.h"

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

    // The functions that read the blob (and @main, which always takes it: model_abi.h).
    llvm::SetVector<func::FuncOp> readers;
    readers.insert(main);
    if (weights)
      module.walk([&](memref::GetGlobalOp get) {
        if (get.getName() == kWeights)
          readers.insert(get->getParentOfType<func::FuncOp>());
      });
    auto type = MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8));
    auto mainAttrs = DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, KernelDialect::kDeviceConstantsAttrName),
                             UnitAttr::get(ctx))});
    if (failed(tcc::gpu::threadArgument(module, readers, type, tcc::gpu::ArgumentPosition::Last,
                                        mainAttrs)))
      return signalPassFailure();
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
      Value constants = tcc::gpu::threadedArgument(f, tcc::gpu::ArgumentPosition::Last);
      get.replaceAllUsesWith(
          memref::CastOp::create(b, get.getLoc(), get.getType(), constants).getResult());
      get.erase();
    }
    weights.erase();
  }
};
} // namespace
