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
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    // Operands in order: query, key, value, the bias if any, init (the last).
    Value bias = attention.getBias() ? buffers[3] : Value();
    rewriter.setInsertionPoint(op);
    tcc::kernel::AttentionOp::create(rewriter, op->getLoc(), TypeRange(), buffers[0], buffers[1],
                                     buffers[2], bias, buffers.back(), attention.getScaleAttr(),
                                     attention.getKeyTransposedAttr(), attention.getBiasDimsAttr(),
                                     attention.getNanToZeroAttr(), attention.getSafeSoftmaxAttr(),
                                     attention.getZeroMaskedRowsAttr(), attention.getSoftcapAttr());
    replaceOpWithBufferizedValues(rewriter, op, buffers.back());
    return success();
  }
};

} // namespace

void tcc::kernel::registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, KernelDialect *) {
    AttentionOp::attachInterface<AttentionBufferization>(*context);
  });
}
