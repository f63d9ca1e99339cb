//===- TestEvaluatePass.cpp - tcc-test-evaluate: print what each function computes ------===//
#include "tcc/Evaluate/Evaluator.h"
#include "tcc/Evaluate/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace tcc::eval {
#define GEN_PASS_DEF_TESTEVALUATEPASS
#include "tcc/Evaluate/Passes.h.inc"
} // namespace tcc::eval

using namespace mlir;

namespace {
struct TestEvaluatePass : tcc::eval::impl::TestEvaluatePassBase<TestEvaluatePass> {
  void runOnOperation() override {
    llvm::raw_ostream &os = llvm::outs();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      // Only functions that can run without inputs; errors are output, not pass failures.
      if (func.isExternal() || func.getNumArguments() != 0)
        continue;
      llvm::Expected<std::vector<tcc::eval::Tensor>> results =
          tcc::eval::evaluateFunction(func, {});
      if (!results) {
        os << "@" << func.getSymName() << " error: " << llvm::toString(results.takeError()) << "\n";
        continue;
      }
      for (auto [i, tensor] : llvm::enumerate(*results)) {
        os << "@" << func.getSymName() << " result " << i << ": ";
        // Scalar results (index, i64, ...) print as their type; tensors with their shape.
        Type type = func.getFunctionType().getResult(i);
        if (isa<ShapedType>(type)) {
          tcc::eval::printTensor(os, tensor);
        } else {
          os << type << " = ";
          tcc::eval::printTensorElements(os, tensor);
        }
        os << "\n";
      }
    }
    // The module is printed after the pass through another stream: finish ours first.
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace
