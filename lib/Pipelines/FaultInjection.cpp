//===- FaultInjection.cpp - a deliberate miscompile, to test `tcc verify` ----------------===//
//
// Test-only (tcc verify --inject-fault=NODE): every kernel that computes ONNX node NODE gets
// one value wrong by design: its last linalg.generic yields 2 v + 1 instead of v for each float
// result (not v + 1 alone, which a softmax after it would not see), or, in a kernel without
// one, its last float linalg.fill fills with c + 1, so that
// `tcc verify`'s bisection can be shown to find the kernel that was miscompiled.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Pipelines/Compiler.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace {

/// Whether kernel function `func` computes node `node`.
bool computes(func::FuncOp func, StringRef node) {
  tcc::kernel::KernelAttr attr = tcc::kernel::getKernelAttr(func);
  if (!attr || !attr.getNodes())
    return false;
  return llvm::any_of(attr.getNodes(),
                      [&](Attribute a) { return cast<StringAttr>(a).getValue() == node; });
}

/// Makes each float value v the last linalg.generic of `func` yields 2 v + 1, or adds 1 to
/// the value of its last float linalg.fill; false when it has neither.
bool miscompile(func::FuncOp func) {
  linalg::GenericOp generic;
  linalg::FillOp fill;
  func.walk([&](Operation *op) {
    if (auto g = dyn_cast<linalg::GenericOp>(op))
      generic = g;
    else if (auto f = dyn_cast<linalg::FillOp>(op))
      if (isa<FloatType>(f.value().getType()))
        fill = f;
  });
  auto plusOne = [](OpBuilder &b, Location loc, Value v) -> Value {
    auto type = cast<FloatType>(v.getType());
    Value one = arith::ConstantOp::create(b, loc, FloatAttr::get(type, 1.0));
    return arith::AddFOp::create(b, loc, v, one);
  };
  if (generic) {
    Operation *yield = generic.getBody()->getTerminator();
    bool changed = false;
    OpBuilder b(yield);
    for (OpOperand &operand : yield->getOpOperands())
      if (isa<FloatType>(operand.get().getType())) {
        Value v = operand.get();
        operand.set(plusOne(b, yield->getLoc(), arith::AddFOp::create(b, yield->getLoc(), v, v)));
        changed = true;
      }
    if (changed)
      return true;
  }
  if (fill) {
    OpBuilder b(fill);
    fill.getInputsMutable()[0].set(plusOne(b, fill.getLoc(), fill.value()));
    return true;
  }
  return false;
}

} // namespace

LogicalResult tcc::injectFault(ModuleOp module, StringRef node, std::string &error) {
  int changed = 0;
  for (auto func : module.getOps<func::FuncOp>())
    if (computes(func, node)) {
      if (!miscompile(func)) {
        error = "--inject-fault: kernel '" + func.getSymName().str() + "' computes node '" +
                node.str() + "' but has no float linalg.generic or linalg.fill to change";
        return failure();
      }
      ++changed;
    }
  if (changed == 0) {
    error = "--inject-fault: no kernel computes an ONNX node named '" + node.str() + "'";
    return failure();
  }
  return success();
}
