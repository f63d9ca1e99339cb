//===- TestVjpPass.cpp - tcc-test-vjp: VJP rules against finite differences ------------===//
#include "tcc/Autodiff/Autodiff.h"
#include "tcc/Autodiff/Passes.h"
#include "tcc/Evaluate/Evaluator.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

#include <cmath>
#include <limits>
#include <random>

namespace tcc::autodiff {
#define GEN_PASS_DEF_TESTVJP
#include "tcc/Autodiff/Passes.h.inc"
} // namespace tcc::autodiff

using namespace mlir;
using tcc::eval::Tensor;

namespace {

bool isFloatTensor(Type t) {
  auto type = dyn_cast<RankedTensorType>(t);
  return type && isa<FloatType>(type.getElementType());
}

/// <results, cotangents> of `func` at `inputs`.
llvm::Expected<double> objective(func::FuncOp func, ArrayRef<Tensor> inputs,
                                 ArrayRef<Tensor> cotangents) {
  auto results = tcc::eval::evaluateFunction(func, inputs);
  if (!results)
    return results.takeError();
  double total = 0;
  for (auto [r, c] : llvm::zip(*results, cotangents))
    for (int64_t i = 0, e = r.getNumElements(); i < e; ++i)
      if (c.getDouble(i) != 0) // skips results that are not finite (their cotangent is 0)
        total += r.getDouble(i) * c.getDouble(i);
  return total;
}

struct TestVjpPass : tcc::autodiff::impl::TestVjpBase<TestVjpPass> {
  using TestVjpBase::TestVjpBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::raw_ostream &os = llvm::outs();
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal() || func.getNumResults() == 0 ||
          !llvm::all_of(func.getResultTypes(), isFloatTensor))
        continue;
      std::string line = check(module, func);
      os << "@" << func.getSymName() << ": " << line << "\n";
    }
    os.flush();
    markAllAnalysesPreserved();
  }

  std::string check(ModuleOp module, func::FuncOp func) {
    std::mt19937 random(1234);
    double lo = 0.5, hi = 1.5;
    if (auto range = func->getAttrOfType<ArrayAttr>("tcc.test_range")) {
      lo = cast<FloatAttr>(range[0]).getValueAsDouble();
      hi = cast<FloatAttr>(range[1]).getValueAsDouble();
    }
    auto shapes = func->getAttrOfType<ArrayAttr>("tcc.test_shapes");
    std::uniform_real_distribution<double> uniform(lo, hi), centered(-1, 1);
    // Inputs (integer arguments get values in [0, 3)) and cotangents.
    SmallVector<Tensor> inputs, cotangents;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      auto tensorType = cast<RankedTensorType>(type);
      SmallVector<int64_t> shape(tensorType.getShape());
      if (!tensorType.hasStaticShape()) {
        if (!shapes || i >= shapes.size())
          return "error: a dynamic argument needs tcc.test_shapes";
        shape = SmallVector<int64_t>(cast<DenseI64ArrayAttr>(shapes[i]).asArrayRef());
      }
      Tensor t = Tensor::zeros(tensorType.getElementType(), shape);
      for (int64_t k = 0, e = t.getNumElements(); k < e; ++k) {
        if (isa<FloatType>(tensorType.getElementType()))
          t.setDouble(k, uniform(random));
        else
          t.setInt(k, static_cast<int64_t>(random() % 3));
      }
      inputs.push_back(std::move(t));
    }
    auto results = tcc::eval::evaluateFunction(func, inputs);
    if (!results)
      return "error: " + llvm::toString(results.takeError());
    for (const Tensor &r : *results) {
      Tensor c = Tensor::zeros(r.elementType, r.shape);
      // A result that is not finite (e.g. an exclusive min's +inf identity) gets no
      // cotangent: it has no derivative, and inf * 0 would make the objective NaN.
      for (int64_t k = 0, e = c.getNumElements(); k < e; ++k) {
        double value = centered(random);
        c.setDouble(k, std::isfinite(r.getDouble(k)) ? value : 0.0);
      }
      cotangents.push_back(std::move(c));
    }

    // The VJP function: (args..., cotangents...) -> gradients of the float args.
    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPointToEnd(module.getBody());
    SmallVector<Type> argTypes(func.getArgumentTypes());
    llvm::append_range(argTypes, func.getResultTypes());
    SmallVector<unsigned> floatArgs;
    SmallVector<Type> gradTypes;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isFloatTensor(type)) {
        floatArgs.push_back(i);
        gradTypes.push_back(type);
      }
    auto vjp = func::FuncOp::create(builder, func.getLoc(), (func.getSymName() + ".vjp").str(),
                                    builder.getFunctionType(argTypes, gradTypes));
    Block *body = vjp.addEntryBlock();
    IRMapping mapping;
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      mapping.map(func.getArgument(i), body->getArgument(i));
    builder.setInsertionPointToStart(body);
    SmallVector<Value> outputs;
    for (Operation &op : func.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value v : ret.getOperands())
          outputs.push_back(mapping.lookup(v));
        continue;
      }
      builder.clone(op, mapping);
    }
    SmallVector<Value> seeds, wrt;
    for (unsigned i = 0; i < func.getNumResults(); ++i)
      seeds.push_back(body->getArgument(func.getNumArguments() + i));
    for (unsigned i : floatArgs)
      wrt.push_back(body->getArgument(i));
    FailureOr<SmallVector<Value>> grads =
        tcc::autodiff::buildGradients(builder, *body, outputs, seeds, wrt);
    if (failed(grads)) {
      vjp.erase();
      return "error: no gradient (see the diagnostic)";
    }
    func::ReturnOp::create(builder, func.getLoc(), *grads);
    SmallVector<Tensor> vjpInputs(inputs);
    llvm::append_range(vjpInputs, cotangents);
    auto gradients = tcc::eval::evaluateFunction(vjp, vjpInputs);
    vjp.erase();
    if (!gradients)
      return "error: " + llvm::toString(gradients.takeError());

    // Central differences of <f(x), c>, one input element at a time.
    const double h = 1e-6;
    double maxAbs = 0, maxRel = 0;
    for (auto [k, i] : llvm::enumerate(floatArgs)) {
      const Tensor &grad = (*gradients)[k];
      for (int64_t e = 0, n = inputs[i].getNumElements(); e < n; ++e) {
        SmallVector<Tensor> plus(inputs), minus(inputs);
        double x = inputs[i].getDouble(e);
        plus[i].setDouble(e, x + h);
        minus[i].setDouble(e, x - h);
        auto fp = objective(func, plus, cotangents), fm = objective(func, minus, cotangents);
        if (!fp || !fm) {
          llvm::consumeError(fp.takeError());
          llvm::consumeError(fm.takeError());
          return "error: evaluating a perturbed input failed";
        }
        double numeric = (*fp - *fm) / (2 * h), analytic = grad.getDouble(e);
        // NaN or inf on either side fails (std::max would drop a NaN).
        double error = std::isfinite(numeric) && std::isfinite(analytic)
                           ? std::fabs(numeric - analytic)
                           : std::numeric_limits<double>::infinity();
        maxAbs = std::max(maxAbs, error);
        maxRel = std::max(maxRel, error / std::max(std::fabs(analytic), 1.0));
      }
    }
    std::string text;
    llvm::raw_string_ostream out(text);
    out << (maxRel <= tolerance ? "ok" : "FAIL") << " max_abs_error=";
    out << llvm::format("%.1e", maxAbs) << " max_rel_error=" << llvm::format("%.1e", maxRel);
    return text;
  }
};

} // namespace
