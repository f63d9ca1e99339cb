//===- RangeKernels.cpp - kernels that run a range of their outermost parallel loop -----===//
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace tcc {
#define GEN_PASS_DEF_RANGEKERNELS
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The kernel's one top-level scf.parallel whose first dim runs over [0, constant) by 1.
scf::ParallelOp rangeLoop(func::FuncOp kernel, int64_t &extent) {
  scf::ParallelOp found;
  for (Operation &op : kernel.getBody().front()) {
    if (isa<arith::ConstantOp, func::ReturnOp>(op))
      continue;
    auto parallel = dyn_cast<scf::ParallelOp>(op);
    if (!parallel || found)
      return nullptr;
    found = parallel;
  }
  if (!found)
    return nullptr;
  APInt lower, upper, step;
  if (!matchPattern(found.getLowerBound()[0], m_ConstantInt(&lower)) || !lower.isZero() ||
      !matchPattern(found.getUpperBound()[0], m_ConstantInt(&upper)) ||
      !matchPattern(found.getStep()[0], m_ConstantInt(&step)) || !step.isOne() ||
      upper.getSExtValue() < 2)
    return nullptr;
  extent = upper.getSExtValue();
  return found;
}

struct RangeKernelsPass : tcc::impl::RangeKernelsBase<RangeKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    OpBuilder builder(&getContext());
    SmallVector<Attribute> parallel;
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (!kernel->hasAttr("tcc.kernel"))
        continue;
      // Only kernels whose arguments are all buffers: packaging passes them as pointers.
      if (!llvm::all_of(kernel.getArgumentTypes(), [](Type t) { return isa<MemRefType>(t); }))
        continue;
      int64_t extent = 0;
      scf::ParallelOp loop = rangeLoop(kernel, extent);
      if (!loop)
        continue;
      Type index = builder.getIndexType();
      unsigned first = kernel.getNumArguments();
      if (failed(kernel.insertArgument(first, index, {}, kernel.getLoc())) ||
          failed(kernel.insertArgument(first + 1, index, {}, kernel.getLoc())))
        return signalPassFailure();
      loop.getLowerBoundMutable()[0].set(kernel.getArgument(first));
      loop.getUpperBoundMutable()[0].set(kernel.getArgument(first + 1));
      parallel.push_back(builder.getDictionaryAttr(
          {builder.getNamedAttr("name", kernel.getSymNameAttr()),
           builder.getNamedAttr("extent", builder.getI64IntegerAttr(extent))}));
      // Every call runs the whole range.
      auto uses = SymbolTable::getSymbolUses(kernel, module);
      for (SymbolTable::SymbolUse use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call)
          continue;
        OpBuilder at(call);
        SmallVector<Value> operands(call.getOperands());
        operands.push_back(arith::ConstantIndexOp::create(at, call.getLoc(), 0));
        operands.push_back(arith::ConstantIndexOp::create(at, call.getLoc(), extent));
        call->setOperands(operands);
      }
    }
    module->setAttr("tcc.parallel_kernels", builder.getArrayAttr(parallel));
    // The host passes the import table on to parallel_for.
    if (failed(main.insertArgument(0, LLVM::LLVMPointerType::get(&getContext()), {},
                                   main.getLoc())))
      return signalPassFailure();
  }
};

} // namespace
