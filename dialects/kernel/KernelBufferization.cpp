//===- KernelBufferization.cpp - kernel.attention on tensors becomes kernel.attention on buffers
//===//
#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {

/// Destination-passing: the result is `init`'s buffer; every other operand is only read.
struct AttentionBufferization
    : public DstBufferizableOpInterfaceExternalModel<AttentionBufferization,
                                                     tcc::kernel::AttentionOp> {
  /// `init` is written whole, never read (so bufferization copies nothing into it).
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand, const AnalysisState &) const {
    return !cast<tcc::kernel::AttentionOp>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options, BufferizationState &state) const {
    auto attention = cast<tcc::kernel::AttentionOp>(op);
    auto buffer = [&](Value tensor) -> FailureOr<Value> {
      if (!tensor)
        return Value();
      return getBuffer(rewriter, tensor, options, state);
    };
    FailureOr<Value> query = buffer(attention.getQuery()), key = buffer(attention.getKey()),
                     value = buffer(attention.getValue()), bias = buffer(attention.getBias()),
                     init = buffer(attention.getInit());
    if (failed(query) || failed(key) || failed(value) || failed(bias) || failed(init))
      return failure();
    rewriter.setInsertionPoint(op);
    tcc::kernel::AttentionOp::create(
        rewriter, op->getLoc(), TypeRange(), *query, *key, *value, *bias, attention.getKeyCount(),
        *init, attention.getScaleAttr(), attention.getKeyTransposedAttr(),
        attention.getBiasDimsAttr(), attention.getNanToZeroAttr(), attention.getSafeSoftmaxAttr(),
        attention.getZeroMaskedRowsAttr(), attention.getSoftcapAttr(), attention.getCausalAttr());
    replaceOpWithBufferizedValues(rewriter, op, *init);
    return success();
  }
};

} // namespace

void tcc::kernel::registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, KernelDialect *) {
    AttentionOp::attachInterface<AttentionBufferization>(*context);
  });
}
