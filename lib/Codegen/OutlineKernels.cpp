//===- OutlineKernels.cpp - each compute op of @main becomes a kernel function ----------===//
#include "tcc/Codegen/Passes.h"

#include "tcc/Support/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace tcc {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

bool isKernelOp(Operation *op) {
  return isa<linalg::LinalgOp, tensor::PadOp, tensor::InsertSliceOp, scf::ForOp>(op);
}

/// A loop that runs kernels (one that contains linalg ops: prim.loop's time loops) stays on
/// the host, and its body's compute ops become kernels called once per iteration. Loops
/// without linalg ops (sort, scatter, compaction) are kernels themselves.
bool isHostLoop(Operation *op) {
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop)
    return false;
  bool runsKernels = false;
  loop.getBody()->walk([&](linalg::LinalgOp) { runsKernels = true; });
  return runsKernels;
}

/// The ops of `block` to outline, looking into host loops.
void collectKernels(Block &block, SmallVectorImpl<Operation *> &kernels) {
  for (Operation &op : block) {
    if (isHostLoop(&op))
      collectKernels(*cast<scf::ForOp>(op).getBody(), kernels);
    else if (isKernelOp(&op))
      kernels.push_back(&op);
  }
}

/// A symbol-safe version of an ONNX node name.
std::string sanitize(StringRef name) {
  std::string out;
  for (char c : name.take_front(48))
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

/// Values cloned into a kernel instead of passed: scalar constants.
bool isClonable(Value v) {
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  return constant && !isa<ShapedType>(constant.getType());
}

struct OutlineKernelsPass : tcc::impl::OutlineKernelsBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    // A pad has no destination: as fill + insert_slice, every kernel writes into one.
    RewritePatternSet patterns(&getContext());
    linalg::populateDecomposePadPatterns(patterns);
    if (failed(applyPatternsGreedily(main, std::move(patterns))))
      return signalPassFailure();
    SymbolTable symbols(module);
    SmallVector<Operation *> kernels;
    collectKernels(main.getBody().front(), kernels);
    unsigned index = 0;
    for (Operation *op : kernels) {
      // What the kernel reads from outside: operands and values its regions capture.
      SetVector<Value> captured;
      for (Value v : op->getOperands())
        captured.insert(v);
      for (Region &region : op->getRegions())
        getUsedValuesDefinedAbove(region, captured);
      SmallVector<Value> arguments;
      for (Value v : captured)
        if (!isClonable(v))
          arguments.push_back(v);

      std::string node = tcc::getLocationNodeName(op->getLoc());
      std::string name = "kernel_" + std::to_string(index++) + (node.empty() ? "" : "_" + sanitize(node));
      OpBuilder builder(module.getBodyRegion());
      builder.setInsertionPoint(main);
      auto type = builder.getFunctionType(ValueRange(arguments).getTypes(), op->getResultTypes());
      auto kernel = func::FuncOp::create(builder, op->getLoc(), name, type);
      kernel.setPrivate();
      kernel->setAttr("tcc.kernel", builder.getUnitAttr());
      symbols.insert(kernel);
      Block *body = kernel.addEntryBlock();
      builder.setInsertionPointToStart(body);
      IRMapping mapping;
      for (auto [value, arg] : llvm::zip(arguments, body->getArguments()))
        mapping.map(value, arg);
      for (Value v : captured)
        if (isClonable(v))
          mapping.map(v, builder.clone(*v.getDefiningOp())->getResult(0));
      Operation *clone = builder.clone(*op, mapping);
      func::ReturnOp::create(builder, op->getLoc(), clone->getResults());

      OpBuilder host(op);
      auto call = func::CallOp::create(host, op->getLoc(), kernel, arguments);
      op->replaceAllUsesWith(call.getResults());
      op->erase();
    }
  }
};

} // namespace
